/**
 * HTTP connections: one exchange (a request out, an answer's status, headers and text back) over
 * node:http or node:https, on keep-alive sockets pooled per origin. Why not the global fetch:
 * afp's live senders (replay, check and audit against a URL, conformance, target probe) are one
 * exchange after another against one origin, and fetch (undici, WHATWG streams, AbortSignal, Request
 * and Headers objects) cost about as much CPU per exchange as the server answering it (bench/
 * transport-cpu.ts measures both side by side).
 *
 * What it keeps of fetch, so a target sees and answers the same: the URL parsed and normalised by
 * WHATWG URL (dot segments, escapes); `user-agent: node` as fetch sends it; a body's exact
 * content-length (never chunked); same-origin redirects followed as fetch does (301/302 after a
 * POST and 303 become a GET without body) unless `redirect: 'manual'`, but never to another
 * origin or a private address and at most 5 (redirect-policy.ts); gzip, deflate and br answers decoded; the text decoded as UTF-8 with a
 * leading BOM dropped; header names lower-case, repeated ones joined by ", " (set-cookie: the last).
 * Limits: what a target can make afp hold (answer-limits.ts): a body over the answer limit,
 * counted after decompression as it streams, is not read (`text: null`), nor is one whose
 * Content-Length says it would be; headers over HEADER_BYTES_MAX fail the exchange;
 * one timeout over the whole exchange (waiting for a socket, redirects and the body
 * included); at most SOCKETS_PER_ORIGIN_MAX sockets per origin, POOLS_MAX origins pooled (the
 * least recently used dropped); idle sockets close after
 * IDLE_SOCKET_MS, earlier when the server's Keep-Alive hint says so, and never keep the process
 * alive. A request that fails on a reused idle socket before any answer (the server closed it
 * as it was reused) is sent once more on a new one, as Node's documentation advises.
 * Non-goals: proxies, cookies, HTTP/2.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { currentAnswerBytesMax, HEADER_BYTES_MAX } from './answer-limits.ts';
import { followedRedirect } from './redirect-policy.ts';

export interface WireRequest {
  readonly method: string;
  readonly url: URL;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

export interface WireAnswer {
  readonly status: number;
  /** Lower-case names, sorted. */
  readonly headers: Record<string, string>;
  /** Null when the body was longer than the exchange's byte limit (the rest is not read). */
  readonly text: string | null;
}

export interface ExchangeOptions {
  readonly timeoutMs: number;
  /** Default: the process's answer limit (answer-limits.ts). */
  readonly answerBytesMax?: number;
  readonly redirect: 'follow' | 'manual';
}

const SOCKETS_PER_ORIGIN_MAX = 64;
const POOLS_MAX = 16;
const IDLE_SOCKET_MS = 4_000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const BOM = '\uFEFF';

/**
 * Socket pools: an agent per origin (scheme, host and port), the POOLS_MAX most recently used kept.
 * An origin dropped from the map keeps its sockets until its requests end; idle, they close.
 */
export class HttpConnections {
  private readonly pools = new Map<string, HttpAgent>();
  /** The exchanges under way (`GET https://…`), for the line a spent time budget prints. */
  private readonly underWay = new Map<number, string>();
  private exchanges = 0;

  /** The exchanges sent and not yet answered, oldest first (at most `max`). */
  unfinished(max = 10): string[] {
    return [...this.underWay.values()].slice(0, max);
  }

  /** Sends `request` and reads its answer, following redirects unless told not to. */
  async exchange(request: WireRequest, options: ExchangeOptions): Promise<WireAnswer> {
    const deadline = new Deadline(options.timeoutMs);
    const id = this.exchanges++;
    this.underWay.set(id, `${request.method} ${request.url.href}`);
    try {
      let current = request;
      for (let redirects = 0; ; redirects++) {
        const answer = await this.sendOnce(current, options, deadline).catch((error: unknown) => {
          // A failure past a redirect names where the redirect led: the URL asked for is not the one that failed.
          if (redirects === 0 || !(error instanceof Error)) throw error;
          throw new Error(`${error.message} (at ${current.url.href}, where ${request.url.href} redirected)`, {
            cause: error,
          });
        });
        const location = answer.headers['location'];
        if (options.redirect === 'manual' || !REDIRECT_STATUSES.has(answer.status) || location === undefined)
          return answer;
        const url = followedRedirect({
          target: request.url,
          from: current.url,
          status: answer.status,
          location,
          followed: redirects,
        });
        current = redirected(current, answer.status, url);
      }
    } finally {
      this.underWay.delete(id);
      deadline.clear();
    }
  }

  private async sendOnce(request: WireRequest, options: ExchangeOptions, deadline: Deadline): Promise<WireAnswer> {
    try {
      return await this.attempt(request, options, deadline);
    } catch (error) {
      if (!(error instanceof StaleSocketError)) throw error;
    }
    try {
      return await this.attempt(request, options, deadline);
    } catch (error) {
      throw error instanceof StaleSocketError ? error.original : error;
    }
  }

  private attempt(request: WireRequest, options: ExchangeOptions, deadline: Deadline): Promise<WireAnswer> {
    const { url } = request;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported scheme ${url.protocol}`);
    const headers: Record<string, string> = { 'user-agent': 'node', ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<WireAnswer>((resolve, reject) => {
      const sendOptions = {
        agent: this.agentFor(url),
        method: request.method,
        headers,
        maxHeaderSize: HEADER_BYTES_MAX,
      };
      const bytesMax = options.answerBytesMax ?? currentAnswerBytesMax();
      const outgoing = send(url, sendOptions, (incoming) => {
        deadline.onExpiry((error) => incoming.destroy(error));
        readAnswer(incoming, request.method, bytesMax).then(resolve, reject);
      });
      deadline.onExpiry((error) => outgoing.destroy(error));
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        const stale = outgoing.reusedSocket && !deadline.expired && ['ECONNRESET', 'EPIPE'].includes(error.code ?? '');
        reject(stale ? new StaleSocketError(error) : error);
      });
      outgoing.end(request.body);
    });
  }

  private agentFor(url: URL): HttpAgent {
    const pooled = this.pools.get(url.origin);
    if (pooled !== undefined) {
      this.pools.delete(url.origin);
      this.pools.set(url.origin, pooled);
      return pooled;
    }
    const options = {
      keepAlive: true,
      maxSockets: SOCKETS_PER_ORIGIN_MAX,
      maxFreeSockets: SOCKETS_PER_ORIGIN_MAX,
      timeout: IDLE_SOCKET_MS,
    };
    const agent = url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    this.pools.set(url.origin, agent);
    for (const origin of this.pools.keys()) {
      if (this.pools.size <= POOLS_MAX) break;
      this.pools.delete(origin);
    }
    return agent;
  }
}

/**
 * The process's pools, shared by every HTTP transport as fetch's global dispatcher was: a caller
 * that builds a transport per call (an admin client per clock move) still reuses its socket.
 */
export const SHARED_CONNECTIONS = new HttpConnections();

/** A reused keep-alive socket the server had closed: the request never reached it. */
class StaleSocketError extends Error {
  readonly original: Error;

  constructor(original: Error) {
    super(original.message);
    this.original = original;
  }
}

/** The exchange's one time limit (AbortSignal.timeout: unref'd, and afp's timers are the simulator's): every request and answer of it is destroyed when it fires. */
class Deadline {
  private readonly signal: AbortSignal;
  private stop: ((error: Error) => void)[] = [];
  private readonly onAbort = (): void => {
    for (const stop of this.stop) stop(this.reason());
  };

  constructor(timeoutMs: number) {
    this.signal = AbortSignal.timeout(timeoutMs);
    this.signal.addEventListener('abort', this.onAbort);
  }

  get expired(): boolean {
    return this.signal.aborted;
  }

  /** `stop` runs when the time is up (at once if it is). */
  onExpiry(stop: (error: Error) => void): void {
    if (this.signal.aborted) stop(this.reason());
    else this.stop.push(stop);
  }

  /** Without a listener the signal is garbage, and its timer then fires without making a TimeoutError. */
  clear(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    this.stop = [];
  }

  /** The signal's TimeoutError (a DOMException, an Error). */
  private reason(): Error {
    return this.signal.reason as Error;
  }
}

/** The request fetch sends after a (same-origin) redirect: 303 (and 301/302 after a POST) become a body-less GET. */
function redirected(request: WireRequest, status: number, url: URL): WireRequest {
  const toGet =
    (status === 303 && request.method !== 'HEAD') || ((status === 301 || status === 302) && request.method === 'POST');
  const headers: Record<string, string> = { ...request.headers };
  if (toGet) delete headers['content-type'];
  return { method: toGet ? 'GET' : request.method, url, headers, body: toGet ? undefined : request.body };
}

/**
 * Status, headers and decoded text of an answer; null text past `bytesMax` decoded bytes, or when
 * the Content-Length announces more (the socket is dropped, not drained).
 */
function readAnswer(incoming: IncomingMessage, method: string, bytesMax: number): Promise<WireAnswer> {
  const status = incoming.statusCode ?? 0;
  const headers = answerHeaders(incoming);
  const bodyless = method === 'HEAD' || status === 204 || status === 304;
  if (!bodyless && Number(headers['content-length'] ?? 0) > bytesMax) {
    incoming.destroy();
    return Promise.resolve({ status, headers, text: null });
  }
  const body = bodyless ? incoming : decoded(incoming, headers['content-encoding']);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > bytesMax) {
        body.removeAllListeners('data');
        incoming.destroy();
        if (body !== incoming) body.destroy();
        resolve({ status, headers, text: null });
        return;
      }
      chunks.push(chunk);
    });
    body.on('error', reject);
    if (body !== incoming) incoming.on('error', reject);
    // A connection lost mid-answer: 'close' before the whole body came (a no-op once resolved).
    incoming.on('close', () => {
      if (!incoming.complete) reject(new Error('the connection closed before the whole answer came'));
    });
    body.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status, headers, text: text.startsWith(BOM) ? text.slice(1) : text });
    });
  });
}

/** As undici decodes: flushed leniently, so an answer cut short (or empty) is what came, not an error. */
function decoded(incoming: IncomingMessage, encoding: string | undefined): Readable {
  const lenient = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return incoming.pipe(createGunzip(lenient));
    case 'deflate':
      return incoming.pipe(createInflate(lenient));
    case 'br':
      return incoming.pipe(
        createBrotliDecompress({
          flush: constants.BROTLI_OPERATION_FLUSH,
          finishFlush: constants.BROTLI_OPERATION_FLUSH,
        }),
      );
    case undefined:
    default:
      return incoming;
  }
}

/** As fetch's Headers iterate: sorted lower-case names, repeated values joined by ", ", set-cookie's last. */
function answerHeaders(incoming: IncomingMessage): Record<string, string> {
  const distinct = incoming.headersDistinct;
  const headers: Record<string, string> = {};
  for (const name of Object.keys(distinct).sort()) {
    const values = distinct[name] ?? [];
    headers[name] = name === 'set-cookie' ? (values.at(-1) ?? '') : values.join(', ');
  }
  return headers;
}
