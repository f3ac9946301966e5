/**
 * The HTTP side of a load run: a sender (node:http/https over keep-alive agents, one base URL per
 * mount) and, over it, each agent's recording Transport, so the agents' own AfpClient drives the
 * live target unchanged while every request lands in the LoadRecorder.
 *
 * A sample per request: endpoint = the afp route id the request addresses (`escrow.B.create`),
 * found through the route table as the replay report names endpoints (src/replay/endpoint-name.ts);
 * intended start = the iteration's scheduled instant for its first request, the actual send time
 * for the next ones (they could not have been sent earlier); status 0 when no answer came.
 * `failed` (k6 http_req_failed) = no answer, a 429 or a 5xx: the work was not done, even where an
 * agent takes a rate limit in its stride (as `afp export k6` counts it, so a threshold means the
 * same in both). Other 4xx answers are outcomes the agents expect and check (a repeated claim's
 * 409, a short balance's 422); every status is kept per endpoint and second for thresholds.
 * Answers that are not JSON are passed on as text (the client wraps an error answer it cannot read),
 * never thrown: only a network failure, a timeout or the generator's cut rejects. Requests cut by
 * the generator after the graceful stop are not samples (they were not allowed to finish).
 * Bounds: answers above MAX_ANSWER_BYTES are cut (no answer); every request has a timeout.
 */
import { setMaxListeners } from 'node:events';
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { MountUrls, Transport, TransportRequest, TransportResponse } from '../client/transport.ts';
import { endpointName } from '../replay/endpoint-name.ts';
import type { LoadClock } from './generator.ts';
import type { LoadSample } from './load-recorder.ts';

export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** k6's http_req_failed, as afp load counts it: no answer, a rate limit, or the target's own failure (5xx). */
export function requestFailed(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

export class Interrupted extends Error {
  override readonly name = 'Interrupted';
}

export interface LoadSender {
  send(request: TransportRequest): Promise<TransportResponse>;
  /** Aborts every request in flight and refuses new ones (the generator's cut). */
  interrupt(): void;
  readonly interrupted: boolean;
  /** Closes the idle keep-alive sockets. */
  close(): void;
}

export interface LoadSenderOptions {
  readonly urls: MountUrls;
  readonly timeoutMs?: number;
  /** Sockets per origin (the in-flight cap is the generator's business; this is its ceiling). */
  readonly maxSockets: number;
}

export function loadSender(options: LoadSenderOptions): LoadSender {
  const urls: MountUrls = {};
  for (const [mount, url] of Object.entries(options.urls) as [keyof MountUrls, string | undefined][]) if (url !== undefined) urls[mount] = url.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const http = new HttpAgent({ keepAlive: true, maxSockets: options.maxSockets });
  const https = new HttpsAgent({ keepAlive: true, maxSockets: options.maxSockets });
  const abort = new AbortController();
  // Every request in flight listens on the one cut signal: no listener-count warning for that.
  setMaxListeners(0, abort.signal);
  return {
    get interrupted() {
      return abort.signal.aborted;
    },
    interrupt: () => abort.abort(new Interrupted('cut at the end of the graceful stop')),
    close: () => {
      http.destroy();
      https.destroy();
    },
    send: (request) => {
      if (abort.signal.aborted) return Promise.reject(new Interrupted('the run was cut'));
      const base = urls[request.mount];
      if (base === undefined) return Promise.reject(new Error(`no URL for mount '${request.mount}' (known: ${Object.keys(urls).join(', ') || 'none'}); ${request.method} ${request.path} cannot be sent`));
      const url = new URL(base + request.path + queryString(request.query));
      const body = outgoingBody(request);
      const secure = url.protocol === 'https:';
      return new Promise<TransportResponse>((resolve, reject) => {
        const sent = (secure ? httpsRequest : httpRequest)(url, { method: request.method, headers: outgoingHeaders(request, body), agent: secure ? https : http, signal: abort.signal, timeout: timeoutMs }, (answer) => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          answer.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (bytes > MAX_ANSWER_BYTES) sent.destroy(new Error(`${request.method} ${url.href}: answer larger than ${MAX_ANSWER_BYTES} bytes`));
            else chunks.push(chunk);
          });
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: incomingHeaders(answer.headers), body: answerBody(Buffer.concat(chunks).toString('utf8')) }));
          answer.on('error', reject);
        });
        sent.on('timeout', () => sent.destroy(new Error(`${request.method} ${url.href}: no answer within ${timeoutMs} ms`)));
        sent.on('error', (error) => reject(abort.signal.aborted ? new Interrupted('cut at the end of the graceful stop') : error));
        sent.end(body);
      });
    },
  };
}

function queryString(query: Readonly<Record<string, string>> | undefined): string {
  if (query === undefined) return '';
  const text = new URLSearchParams(query).toString();
  return text === '' ? '' : `?${text}`;
}

function outgoingBody(request: TransportRequest): string | undefined {
  if (request.rawBody !== undefined) return request.rawBody.text;
  return request.body === undefined ? undefined : JSON.stringify(request.body);
}

function outgoingHeaders(request: TransportRequest, body: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name] = value;
  if (body !== undefined) {
    headers['content-type'] = request.rawBody?.contentType ?? 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return headers;
}

function incomingHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  return result;
}

function answerBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export interface RecordingOptions {
  readonly sender: LoadSender;
  readonly clock: LoadClock;
  readonly onSample: (sample: LoadSample) => void;
  /** The iteration's intended start, handed out once (to its first request); null afterwards. */
  readonly takeIntendedStartMs: () => number | null;
  /** Awaited before each request (an agent's own set-up calls still under way). */
  readonly before?: () => Promise<void>;
}

/** A Transport that sends through the sender and records one sample per request. */
export function recordingTransport(options: RecordingOptions): Transport {
  const { sender, clock, onSample } = options;
  return async (request) => {
    await options.before?.();
    const sentMs = clock.nowMs();
    const intendedStartMs = Math.min(options.takeIntendedStartMs() ?? sentMs, sentMs);
    const endpoint = endpointName({ mount: request.mount, method: request.method, path: request.path, query: {}, headers: {} });
    try {
      const response = await sender.send(request);
      onSample({ endpoint, intendedStartMs, endMs: clock.nowMs(), status: response.status, failed: requestFailed(response.status) });
      return response;
    } catch (error) {
      if (!(error instanceof Interrupted)) onSample({ endpoint, intendedStartMs, endMs: clock.nowMs(), status: 0, failed: true });
      throw error;
    }
  };
}
