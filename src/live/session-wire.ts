/**
 * A live session's call on the wire (live-session.ts sends it): the request as it went out (for
 * evidence and curl lines), the target's URLs as transport mounts, and what the session reads of a
 * failed or refused answer: the limit an answer was past, a 429 its dialect names a refusal, the
 * transport's failure in words. Its own file so the session stays one loop a reader can hold.
 */
import type { JsonValue } from '../core/errors.ts';
import type { MountUrls, TransportResponse } from '../client/transport.ts';
import { bytesText } from '../client/answer-limits.ts';
import type { ServiceName } from '../platform/platform.ts';
import type { Dialect, DialectRequest } from './dialects/dialect.ts';
import type { OverLimit } from './read-answer.ts';
import type { Target } from './target.ts';

/** A request as it went out, for evidence and curl lines. */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly body?: JsonValue;
  readonly auth: boolean;
  /** The Accept header sent, where the wire asked for one. */
  readonly accept?: string;
  /** The body holds the key as KEY_PLACEHOLDER (never the key itself). */
  readonly keyInBody?: true;
}

/** The limit an answer was past (not read), or null. */
export function overLimitOf(answer: TransportResponse): OverLimit | null {
  if (answer.bodyOverBytes !== undefined) return { kind: 'too-large', limit: bytesText(answer.bodyOverBytes) };
  if (answer.bodyOverValues !== undefined) return { kind: 'too-large', limit: `${answer.bodyOverValues} JSON values` };
  if (answer.bodyTooDeep !== undefined) return { kind: 'too-deep', limit: `${answer.bodyTooDeep} levels` };
  return null;
}

/** A non-JSON answer as evidence keeps its first 300 characters. */
export function cut(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** A 429 the dialect names as a refusal (a window no wait outlasts): read as an answer. */
export function refusesAtOnce(dialect: Dialect, body: unknown): boolean {
  const name = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['error'] : undefined;
  return typeof name === 'string' && (dialect.refusingRateLimits ?? []).includes(name);
}

/** The target's URLs as transport mounts: each named service's own, and the serve's api URL. */
export function mountUrlsOf(target: Target): MountUrls {
  const urls: MountUrls = {};
  for (const [service, entry] of Object.entries(target.services) as [ServiceName, { url: string } | undefined][])
    if (entry !== undefined) urls[service] = entry.url;
  if (target.adminUrl !== null) urls.api = target.adminUrl;
  return urls;
}

/** The transport failure itself (a socket error, a timeout), without the transport's "METHOD URL failed:" prefix (the caller names the request). */
export function unreachableMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}

export function sentRequest(baseUrl: string, wire: DialectRequest): SentRequest {
  const query = wire.query === undefined ? '' : new URLSearchParams(wire.query).toString();
  const url = `${baseUrl}${wire.path}${query === '' ? '' : `?${query}`}`;
  return {
    method: wire.method,
    url,
    ...(wire.body === undefined ? {} : { body: wire.body }),
    auth: wire.auth,
    ...(wire.accept === undefined ? {} : { accept: wire.accept }),
    ...(wire.keyInBody === undefined ? {} : { keyInBody: wire.keyInBody }),
  };
}
