/**
 * HTTP transport: the typed client over a live deployment (or `afp serve`), through the global
 * fetch (undici, keep-alive connections). One base URL per mount; a request whose mount has no URL
 * rejects naming the known ones.
 *
 * Invariants: JSON bodies go out as application/json; raw bodies go out byte for byte with their
 * own content type; every request is bounded by a timeout (default 30 s). A network error or a
 * timeout rejects with a message naming the URL; any JSON answer, whatever its status, resolves.
 * A non-JSON answer rejects too, unless the transport keeps it (`nonJson: 'keep'`: it resolves with
 * its text). `answerCharsMax` cuts an answer's text before it is parsed (live
 * reads bound what a target can make them hold); `answerBytesMax` stops reading an answer past that many
 * bytes (resolved with `bodyOverBytes` and no body: `afp target probe` reads what any URL sends).
 * `redirect: 'manual'` answers a redirect as itself (a probe describes the URL, not where it points).
 * Response header names are lower-case.
 */
import { describeError } from './describe-error.ts';
import type { MountUrls, Transport, TransportRequest, TransportResponse } from './transport.ts';

export interface HttpTransportOptions {
  readonly urls: MountUrls;
  /** Per-request limit, headers and body included. */
  readonly timeoutMs?: number;
  /** 'reject' (default): a non-JSON answer is transport trouble; 'keep': it resolves with `text`. */
  readonly nonJson?: 'reject' | 'keep';
  /** The most characters of an answer read (default: all). */
  readonly answerCharsMax?: number;
  /** The most bytes of an answer read: past them the rest is not read and the answer has no body (default: all). */
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
  const timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
  return async (request: TransportRequest): Promise<TransportResponse> => {
    const base = urls[request.mount];
    if (base === undefined) {
      throw new Error(
        `no URL for mount '${request.mount}' (known: ${Object.keys(urls).join(', ') || 'none'}); ${request.method} ${request.path} cannot be sent`,
      );
    }
    const url = base + request.path + queryString(request.query);
    let response: Response;
    let text: string | null;
    try {
      response = await fetch(url, {
        method: request.method,
        headers: outgoingHeaders(request),
        body: outgoingBody(request),
        redirect: options.redirect ?? 'follow',
        signal: AbortSignal.timeout(timeoutMs),
      });
      text =
        options.answerBytesMax === undefined
          ? await response.text()
          : await boundedText(response, options.answerBytesMax);
      if (text !== null && options.answerCharsMax !== undefined) text = text.slice(0, options.answerCharsMax);
    } catch (error) {
      throw new Error(`${request.method} ${url} failed: ${describeError(error)}`, { cause: error });
    }
    const headers = incomingHeaders(response.headers);
    if (text === null) {
      if (options.nonJson === 'keep')
        return { status: response.status, headers, body: undefined, bodyOverBytes: options.answerBytesMax };
      throw new Error(
        `${request.method} ${url} answered ${response.status} with a body over ${options.answerBytesMax} bytes`,
      );
    }
    if (options.nonJson === 'keep') {
      const body = jsonOrUndefined(text);
      return body === undefined
        ? { status: response.status, headers, body, text }
        : { status: response.status, headers, body };
    }
    return {
      status: response.status,
      headers,
      body: parseJsonAnswer(text, response.status, `${request.method} ${url}`),
    };
  };
}

/** The body as text, or null past `bytesMax` (the rest is not read). */
async function boundedText(response: Response, bytesMax: number): Promise<string | null> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > bytesMax) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
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

function incomingHeaders(headers: Headers): Record<string, string> {
  const result: Record<string, string> = {};
  headers.forEach((value, name) => {
    result[name] = value;
  });
  return result;
}

function parseJsonAnswer(text: string, status: number, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${what} answered ${status} with a non-JSON body: ${JSON.stringify(snippet(text))}`);
  }
}
