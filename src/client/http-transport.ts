/**
 * HTTP transport: the typed client over a live deployment (or `afp serve`), through node:http
 * keep-alive sockets pooled per origin (./http-connections.ts: what it keeps of fetch's behaviour,
 * and why not fetch: its CPU per exchange). One base URL per mount; a request whose mount has no
 * URL rejects naming the known ones.
 *
 * Invariants: JSON bodies go out as application/json; raw bodies go out byte for byte with their
 * own content type; every request is bounded by a timeout (default 30 s). A network error or a
 * timeout rejects with a message naming the URL; any JSON answer, whatever its status, resolves.
 * A non-JSON answer rejects too, unless the transport keeps it (`nonJson: 'keep'`: it resolves with
 * its text). `answerCharsMax` cuts an answer's text before it is parsed (live
 * reads bound what a target can make them hold); `answerBytesMax` stops reading an answer past that many
 * bytes (default: the process's answer limit, answer-limits.ts). Past it, or nested deeper than
 * ANSWER_JSON_DEPTH_MAX (bounded-json.ts), a keeping transport resolves with no body and `bodyOverBytes`
 * or `bodyTooDeep` set (a finding for the live reads, a described URL for `afp target probe`);
 * any other rejects with a RefusedAnswerError naming the limit.
 * `redirect: 'manual'` answers a redirect as itself (a probe describes the URL, not where it points).
 * Response header names are lower-case.
 */
import { describeError } from './describe-error.ts';
import { SHARED_CONNECTIONS, type WireAnswer } from './http-connections.ts';
import { currentAnswerBytesMax, RefusedAnswerError, tooLargeMessage } from './answer-limits.ts';
import { ANSWER_JSON_DEPTH_MAX, JSON_VALUES_MAX, parseBoundedJson } from './bounded-json.ts';
import type { MountUrls, Transport, TransportRequest, TransportResponse } from './transport.ts';

export interface HttpTransportOptions {
  readonly urls: MountUrls;
  /** Per-request limit, headers and body included. */
  readonly timeoutMs?: number;
  /** 'reject' (default): a non-JSON answer is transport trouble; 'keep': it resolves with `text`. */
  readonly nonJson?: 'reject' | 'keep';
  /** The most characters of an answer read (default: all). */
  readonly answerCharsMax?: number;
  /** The most bytes of an answer read: past them the rest is not read and the answer has no body (default: the process's answer limit). */
  readonly answerBytesMax?: number;
  /** 'follow' (default) or 'manual': a redirect is the answer. */
  readonly redirect?: 'follow' | 'manual';
}

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
const SNIPPET_LENGTH = 200;

export function httpTransport(options: HttpTransportOptions): Transport {
  const urls: MountUrls = {};
  for (const [mount, url] of Object.entries(options.urls) as [keyof MountUrls, string | undefined][]) {
    if (url !== undefined) urls[mount] = url.endsWith('/') ? url.slice(0, -1) : url;
  }
  const exchangeOptions = {
    timeoutMs: options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS,
    redirect: options.redirect ?? 'follow',
    ...(options.answerBytesMax === undefined ? {} : { answerBytesMax: options.answerBytesMax }),
  } as const;
  return async (request: TransportRequest): Promise<TransportResponse> => {
    const base = urls[request.mount];
    if (base === undefined) {
      throw new Error(
        `no URL for mount '${request.mount}' (known: ${Object.keys(urls).join(', ') || 'none'}); ${request.method} ${request.path} cannot be sent`,
      );
    }
    const url = base + request.path + queryString(request.query);
    let answer: WireAnswer;
    let text: string | null;
    try {
      answer = await SHARED_CONNECTIONS.exchange(
        { method: request.method, url: new URL(url), headers: outgoingHeaders(request), body: outgoingBody(request) },
        exchangeOptions,
      );
      text = answer.text;
      if (text !== null && options.answerCharsMax !== undefined) text = text.slice(0, options.answerCharsMax);
    } catch (error) {
      throw new Error(`${request.method} ${url} failed: ${describeError(error)}`, { cause: error });
    }
    const { status, headers } = answer;
    if (text === null) {
      const bytesMax = options.answerBytesMax ?? currentAnswerBytesMax();
      if (options.nonJson === 'keep') return { status, headers, body: undefined, bodyOverBytes: bytesMax };
      const message = `${request.method} ${url} answered ${status}: ${tooLargeMessage(bytesMax)}`;
      throw new RefusedAnswerError({ kind: 'too-large', bytesMax }, message);
    }
    const parsed = parseBoundedJson(text);
    switch (parsed.kind) {
      case 'json':
        return { status, headers, body: parsed.value };
      case 'too-many':
        if (options.nonJson === 'keep') return { status, headers, body: undefined, bodyOverValues: parsed.valuesMax };
        throw new RefusedAnswerError(
          { kind: 'too-many', valuesMax: parsed.valuesMax },
          `${request.method} ${url} answered ${status}: ${tooManyMessage(parsed.valuesMax)}`,
        );
      case 'too-deep':
        if (options.nonJson === 'keep') return { status, headers, body: undefined, bodyTooDeep: parsed.depthMax };
        throw new RefusedAnswerError(
          { kind: 'too-deep', depthMax: parsed.depthMax },
          `${request.method} ${url} answered ${status}: ${tooDeepMessage(parsed.depthMax)}`,
        );
      case 'not-json':
        if (options.nonJson === 'keep') return { status, headers, body: undefined, text };
        throw new Error(
          `${request.method} ${url} answered ${status} with a non-JSON body: ${JSON.stringify(snippet(text))}`,
        );
    }
  };
}

export function tooManyMessage(valuesMax: number = JSON_VALUES_MAX): string {
  return `its answer's JSON holds more than ${valuesMax} values, afp's limit: not read`;
}

export function tooDeepMessage(depthMax: number = ANSWER_JSON_DEPTH_MAX): string {
  return `its answer's JSON is nested deeper than ${depthMax} levels, afp's limit: not read`;
}

function snippet(text: string): string {
  return text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH)}…` : text;
}

function queryString(query: Readonly<Record<string, string>> | undefined): string {
  if (query === undefined) return '';
  const text = new URLSearchParams(query).toString();
  return text === '' ? '' : `?${text}`;
}

function outgoingHeaders(request: TransportRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (request.rawBody !== undefined) headers['content-type'] = request.rawBody.contentType;
  else if (request.body !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

function outgoingBody(request: TransportRequest): string | undefined {
  if (request.rawBody !== undefined) {
    if (request.body !== undefined) throw new Error('a transport request carries either body or rawBody, not both');
    return request.rawBody.text;
  }
  return request.body === undefined ? undefined : JSON.stringify(request.body);
}
