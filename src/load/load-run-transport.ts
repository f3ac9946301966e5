/**
 * The HTTP side of a load run: a sender (one base URL per mount); each agent's recording Transport
 * over it is recording-transport.ts (a URL run has no agents, and does not load the route table
 * the recording names endpoints with).
 *
 * The wire: http:// mounts go through the lean keep-alive client (http-client.ts, one per origin,
 * at most `maxSockets` connections: the in-flight cap), the one request path of `afp load` and of
 * the bench's generator rate alike; https:// mounts go through node:https over a keep-alive agent
 * (TLS is rare against a load target on loopback, and not worth a second client), verifying the
 * target's certificate against the system's trust unless told to skip it (`insecureSkipTlsVerify`).
 * `failed` (k6 http_req_failed) = no answer, a 429 or a 5xx: the work was not done, even where an
 * agent takes a rate limit in its stride (as `afp export k6` counts it, so a threshold means the
 * same in both). Other 4xx answers are outcomes the agents expect and check (a repeated claim's
 * 409, a short balance's 422); every status is kept per endpoint and second for thresholds.
 * Answers that are not JSON are passed on as text (the client wraps an error answer it cannot read),
 * never thrown: only a network failure, a timeout or the generator's cut rejects. Requests cut by
 * the generator after the graceful stop are not samples (they were not allowed to finish).
 * An answer's headers are read from its raw head when first asked for (most never are).
 * Bounds: an answer's body is kept up to MAX_ANSWER_BYTES and the rest read and discarded (counted
 * by the parser): a large answer is an answer, with its status, as k6 counts it, never a failure
 * for its size; its body is then not parsed (null: a cut JSON text would read as a broken answer).
 * Every request has a timeout.
 */
import { parseBoundedJson } from '../client/bounded-json.ts';
import { setMaxListeners } from 'node:events';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { MountUrls, Transport, TransportRequest, TransportResponse } from '../client/transport.ts';
import { parseHeaderFields, type ParsedResponse } from './http-client-parser.ts';
import { HttpClient } from './http-client.ts';

export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** k6's http_req_failed, as afp load counts it: no answer, a rate limit, or the target's own failure (5xx). */
export function requestFailed(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

export class Interrupted extends Error {
  override readonly name = 'Interrupted';
}

/** An answer as the sender hands it over: `rawText`, the body's text as received (up to MAX_ANSWER_BYTES), read when asked for. */
export type SentResponse = TransportResponse & { readonly rawText?: string };

/** How a request sent by `dispatch` ended: its answer, or why none came (an Interrupted when the run was cut). */
export type SendOutcome =
  | { readonly ok: true; readonly response: SentResponse }
  | { readonly ok: false; readonly error: Error };

/**
 * A request of the sender: a TransportRequest, or one whose body is bytes sent unchanged
 * (`bodyBytes`: a URL run's body, binary included; its content-type is the request's header, else JSON).
 */
export type SenderRequest = TransportRequest & { readonly bodyBytes?: Uint8Array };

export interface LoadSender {
  /** The load run's Transport: every afp request of `afp load` (agents and admin set-up alike) goes through it. */
  readonly send: Transport;
  /** `send` with a callback, called once, in the turn the answer is read (the load loop's path: no promise in between). */
  dispatch(request: SenderRequest, done: (outcome: SendOutcome) => void): void;
  /** Aborts every request in flight and refuses new ones (the generator's cut). */
  interrupt(): void;
  readonly interrupted: boolean;
  /** Closes the keep-alive sockets (a later request opens new ones). */
  close(): void;
}

export interface LoadSenderOptions {
  readonly urls: MountUrls;
  readonly timeoutMs?: number;
  /** Sockets per origin (the in-flight cap is the generator's business; this is its ceiling). */
  readonly maxSockets: number;
  /** A monotonic clock in ms for the requests' deadlines; performance.now by default. */
  readonly nowMs?: () => number;
  /** https:// only: take any certificate (k6's --insecure-skip-tls-verify); by default one the system does not trust fails the request. */
  readonly insecureSkipTlsVerify?: boolean;
}

/** A mount's base URL, split once: the origin the client connects to and the path every request's goes under. */
interface Mount {
  readonly origin: string;
  readonly prefix: string;
  readonly secure: boolean;
}

const CUT = 'cut at the end of the graceful stop';

export function loadSender(options: LoadSenderOptions): LoadSender {
  const mounts = mountsOf(options.urls);
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const nowMs = options.nowMs ?? (() => performance.now());
  const clients = new Map<string, HttpClient>();
  const https = httpsAgentOf(options);
  const abort = new AbortController();
  // Every https request in flight listens on the one cut signal: no listener-count warning for that.
  setMaxListeners(0, abort.signal);
  const clientOf = (origin: string): HttpClient => {
    let client = clients.get(origin);
    if (client === undefined) {
      client = new HttpClient({
        origin,
        connectionsMax: options.maxSockets,
        timeoutMs,
        bodyBytesMax: MAX_ANSWER_BYTES,
        nowMs,
      });
      clients.set(origin, client);
    }
    return client;
  };
  const dispatch = (request: SenderRequest, done: (outcome: SendOutcome) => void): void => {
    if (abort.signal.aborted) return done({ ok: false, error: new Interrupted('the run was cut') });
    const mount = mounts.get(request.mount);
    if (mount === undefined) return done({ ok: false, error: unknownMount(request, mounts) });
    const path = mount.prefix + request.path + queryString(request.query);
    const body = outgoingBody(request);
    const headers = outgoingHeaders(request, body);
    if (mount.secure) {
      const url = new URL(mount.origin + path);
      sendSecure({ url, method: request.method, headers, body, agent: https, signal: abort.signal, timeoutMs }, done);
      return;
    }
    clientOf(mount.origin).send({ method: request.method, path, headers, body }, (result) => {
      if (result.ok) done({ ok: true, response: new LeanResponse(result.response) });
      else
        done({
          ok: false,
          error: result.kind === 'interrupted' ? new Interrupted(result.message) : new Error(result.message),
        });
    });
  };
  return {
    get interrupted() {
      return abort.signal.aborted;
    },
    interrupt: () => {
      abort.abort(new Interrupted(CUT));
      for (const client of clients.values()) client.interrupt(CUT);
    },
    close: () => {
      for (const client of clients.values()) client.close();
      clients.clear();
      https.destroy();
    },
    dispatch,
    send: (request) =>
      new Promise<TransportResponse>((resolve, reject) =>
        dispatch(request, (outcome) => (outcome.ok ? resolve(outcome.response) : reject(outcome.error))),
      ),
  };
}

/** The run's mounts by name: each URL's origin, its path prefix, and whether it is https. */
function mountsOf(urls: MountUrls): Map<string, Mount> {
  const mounts = new Map<string, Mount>();
  for (const [mount, url] of Object.entries(urls) as [keyof MountUrls, string | undefined][]) {
    if (url === undefined) continue;
    const parsed = new URL(url.replace(/\/+$/, ''));
    mounts.set(mount, {
      origin: parsed.origin,
      prefix: parsed.pathname.replace(/\/+$/, ''),
      secure: parsed.protocol === 'https:',
    });
  }
  return mounts;
}

/** A request for a mount the run has no URL for: an error, not a send. */
function unknownMount(request: SenderRequest, mounts: ReadonlyMap<string, Mount>): Error {
  return new Error(
    `no URL for mount '${request.mount}' (known: ${[...mounts.keys()].join(', ') || 'none'}); ${request.method} ${request.path} cannot be sent`,
  );
}

/** An https request through the keep-alive agent, its outcome handed to `done`. */
function sendSecure(request: Parameters<typeof httpsSend>[0], done: (outcome: SendOutcome) => void): void {
  httpsSend(request).then(
    (response) => done({ ok: true, response }),
    (error: unknown) => done({ ok: false, error: error instanceof Error ? error : new Error(String(error)) }),
  );
}

/** The keep-alive agent of https:// mounts: the certificate checked unless the run was told to skip it. */
function httpsAgentOf(options: LoadSenderOptions): HttpsAgent {
  return new HttpsAgent({
    keepAlive: true,
    maxSockets: options.maxSockets,
    rejectUnauthorized: options.insecureSkipTlsVerify !== true,
  });
}

/**
 * A TransportResponse over a parsed answer: its headers parsed from the raw head on first use.
 * A class, not an object literal with a getter: made on every answer, and a literal with an
 * accessor cost about a microsecond more each time (the bench's generator rate).
 */
class LeanResponse implements SentResponse {
  readonly status: number;
  readonly body: unknown;
  private readonly head: string;
  private readonly bytes: Buffer;
  private parsedHeaders: Record<string, string> | null = null;

  constructor(response: ParsedResponse) {
    this.status = response.status;
    this.head = response.head;
    this.bytes = response.body;
    this.body = response.truncated ? null : answerBody(response.body.toString('utf8'));
  }

  /** The body's text as received (its first MAX_ANSWER_BYTES): a URL test's checks read it. */
  get rawText(): string {
    return this.bytes.toString('utf8');
  }

  get headers(): Record<string, string> {
    this.parsedHeaders ??= parseHeaderFields(this.head);
    return this.parsedHeaders;
  }
}

interface HttpsSend {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array | undefined;
  readonly agent: HttpsAgent;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
}

/** One request through node:https (https:// mounts). */
function httpsSend(options: HttpsSend): Promise<SentResponse> {
  const { url, method, headers, body, agent, signal, timeoutMs } = options;
  return new Promise<SentResponse>((resolve, reject) => {
    const sent = httpsRequest(
      url,
      { method, headers: utf8Headers(headers), agent, signal, timeout: timeoutMs },
      (answer) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        let received = 0;
        // Past the cap the bytes are counted and dropped, as the lean client's parser does.
        answer.on('data', (chunk: Buffer) => {
          received += chunk.length;
          const keep = Math.min(chunk.length, MAX_ANSWER_BYTES - kept);
          if (keep > 0) chunks.push(keep === chunk.length ? chunk : chunk.subarray(0, keep));
          kept += Math.max(0, keep);
        });
        answer.on('end', () => {
          const rawText = Buffer.concat(chunks, kept).toString('utf8');
          resolve({
            status: answer.statusCode ?? 0,
            headers: incomingHeaders(answer.headers),
            body: received > kept ? null : answerBody(rawText),
            rawText,
          });
        });
        answer.on('error', reject);
      },
    );
    sent.on('timeout', () => sent.destroy(new Error(`${method} ${url.href}: no answer within ${timeoutMs} ms`)));
    sent.on('error', (error) => reject(signal.aborted ? new Interrupted(CUT) : error));
    sent.end(body);
  });
}

/**
 * Header values as node:https writes them: a string's characters as single bytes (Latin-1), so a
 * value goes as its UTF-8 bytes only when handed over as those bytes — as afp's own http:// client
 * and k6 send it. Without it `é` went as one byte over https and two over http, and a character past
 * U+00FF failed every request in the client (ERR_INVALID_CHAR), the target never asked.
 */
export function utf8Headers(headers: Record<string, string>): Record<string, string> {
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    sent[name] = /^[\x20-\x7e\t]*$/.test(value) ? value : Buffer.from(value, 'utf8').toString('latin1');
  return sent;
}

function queryString(query: Readonly<Record<string, string>> | undefined): string {
  if (query === undefined) return '';
  const text = new URLSearchParams(query).toString();
  return text === '' ? '' : `?${text}`;
}

function outgoingBody(request: SenderRequest): string | Uint8Array | undefined {
  if (request.bodyBytes !== undefined) return request.bodyBytes;
  if (request.rawBody !== undefined) return request.rawBody.text;
  return request.body === undefined ? undefined : JSON.stringify(request.body);
}

function outgoingHeaders(request: SenderRequest, body: string | Uint8Array | undefined): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name] = value;
  if (body !== undefined) {
    headers['content-type'] = request.rawBody?.contentType ?? request.headers?.['content-type'] ?? 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return headers;
}

function incomingHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  return result;
}

/** JSON under afp's nesting and value limits (bounded-json.ts); anything else stays text. */
function answerBody(text: string): unknown {
  if (text === '') return null;
  const parsed = parseBoundedJson(text);
  return parsed.kind === 'json' ? parsed.value : text;
}

/** A client-side failure as one line: its code (a node error's, e.g. ECONNREFUSED) and message. */
export function clientErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message.replace(/\s+/g, ' ').trim();
  return typeof code === 'string' && code !== '' && !message.startsWith(code) ? `${code}: ${message}` : message;
}
