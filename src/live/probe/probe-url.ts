/**
 * The requests `afp target probe` sends to one URL, and what came back: GET only, without a key,
 * each at most once: the afp serve door `/_afp/mounts`, `/health`, `/openapi.json`, a path no
 * service serves (how the URL answers the unknown: its error shape, whether it answers everything),
 * and every GET marker of the dialect tables. Nothing is ever POSTed to a probed target.
 * Bounded: PROBE_CONCURRENCY requests in flight, each at most `timeoutMs` (body included) and
 * MAX_BODY_BYTES long (`/openapi.json` and `/_afp/mounts`, the documents a probe reads whole) or
 * MARKER_BODY_BYTES (every other path: a shape is evidence, and one URL's 42 answers are all held
 * until it is classified: 2 MB objects on every path took the probe to 550 MB); a request that
 * fails or times out is an observation without a status.
 * Sent through the client's one Transport (httpTransport: answers kept whatever their media type,
 * redirects not followed, bodies read up to MAX_BODY_BYTES).
 * Each answer's announced rate limit (X-RateLimit-* / RateLimit-*) is kept: the file's limits use it.
 * Non-goals: deciding anything (classify.ts).
 */
import { adminHeaders, adminTokenFromEnvironment } from '../../http/admin-token.ts';
import { runBounded } from '../../core/deadline.ts';
import { httpTransport } from '../../client/http-transport.ts';
import { currentAnswerBytesMax } from '../../client/answer-limits.ts';
import { announcedLimit, type AnnouncedLimit } from '../announced-limit.ts';
import { describeError } from '../../client/target.ts';
import type { Transport } from '../../client/transport.ts';
import { DEPLOYED_MARKERS } from '../dialects/deployed/markers.ts';
import { DOCUMENTS_MARKERS } from '../dialects/documents/markers.ts';
import { sentPath, type WireMarker } from '../dialects/wire-marker.ts';

export const PROBE_TIMEOUT_MS = 5_000;
export const PROBE_CONCURRENCY = 4;
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
export const MARKER_BODY_BYTES = 256 * 1024;

/** Every marker of every dialect table, documents first (their order is the tie-breaker). */
export const ALL_MARKERS: readonly WireMarker[] = [...DOCUMENTS_MARKERS, ...DEPLOYED_MARKERS];

export const MOUNTS_PATH = '/_afp/mounts';
export const HEALTH_PATH = '/health';
export const OPENAPI_PATH = '/openapi.json';
/** No service serves it: its answer shows the URL's error shape, or that the URL answers anything. */
export const UNKNOWN_PATH = '/afp-probe/no-such-path';

export interface Observation {
  readonly path: string;
  /** null: no answer (`problem` says why). */
  readonly status: number | null;
  readonly problem?: string;
  /** The body parsed as JSON; undefined when it is not JSON (or there was none). */
  readonly json: unknown;
  /** The Content-Type and Server headers, when the answer had them. */
  readonly contentType?: string | null;
  readonly server?: string | null;
  /** The rate limit the answer's headers announce (announced-limit.ts), when they announce one. */
  readonly rateLimit?: AnnouncedLimit | null;
}

export interface UrlProbe {
  readonly url: string;
  readonly observations: readonly Observation[];
}

/** The paths sent to every URL, in a fixed order: the generic ones, then each GET marker's once. */
export function probePaths(): string[] {
  const paths = [MOUNTS_PATH, HEALTH_PATH, OPENAPI_PATH, UNKNOWN_PATH];
  for (const marker of ALL_MARKERS) {
    const path = sentPath(marker);
    if (marker.method === 'GET' && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

export async function probeUrl(url: string, options: { timeoutMs?: number } = {}): Promise<UrlProbe> {
  const paths = probePaths();
  const transportOf = (bytesMax: number): Transport =>
    httpTransport({
      urls: { api: url },
      timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
      nonJson: 'keep',
      answerBytesMax: Math.min(bytesMax, currentAnswerBytesMax()),
      redirect: 'manual',
    });
  const documents = transportOf(MAX_BODY_BYTES);
  const markers = transportOf(MARKER_BODY_BYTES);
  const observations: Observation[] = new Array<Observation>(paths.length);
  await runBounded(
    paths.length,
    PROBE_CONCURRENCY,
    async (index) => {
      const path = paths[index] as string;
      observations[index] = await get(path === OPENAPI_PATH || path === MOUNTS_PATH ? documents : markers, path);
    },
    () => false,
  );
  return { url, observations };
}

/** One GET through the client's Transport, without a key; transport trouble is an observation without a status. */
async function get(transport: Transport, path: string): Promise<Observation> {
  try {
    // An afp serve shared beyond loopback answers its mounts only with the admin token (AFP_ADMIN_TOKEN).
    const token = path === MOUNTS_PATH ? adminTokenFromEnvironment() : null;
    const response = await transport({ mount: 'api', method: 'GET', path, headers: adminHeaders({}, token) });
    const headers = {
      contentType: response.headers['content-type'] ?? null,
      server: response.headers['server'] ?? null,
      rateLimit: announcedLimit(response.headers),
    };
    const unread =
      response.bodyOverBytes !== undefined
        ? `body over ${response.bodyOverBytes} bytes`
        : response.bodyTooDeep !== undefined
          ? `JSON nested deeper than ${response.bodyTooDeep} levels`
          : response.bodyOverValues !== undefined
            ? `JSON of more than ${response.bodyOverValues} values`
            : null;
    if (unread !== null) return { path, status: response.status, json: undefined, problem: unread, ...headers };
    return { path, status: response.status, json: response.body, ...headers };
  } catch (error) {
    // The transport names the request; the observation says only what went wrong, as it always has.
    const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
    return { path, status: null, json: undefined, problem: describeError(cause) };
  }
}
