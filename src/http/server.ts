/**
 * The HTTP edge: a node:http server for ONE mount over the dispatcher, the single request path.
 * This file only turns bytes into an ApiRequest and an ApiResponse into bytes: URL (path, query;
 * a duplicate query key is a 400), lower-case headers, the originating IP (src/http/client-ip.ts,
 * under `trustedProxies`; from any other peer the dispatcher sees the socket's address as the one
 * X-Forwarded-For and no X-Real-IP, so a dialect that reads the headers itself cannot be fooled),
 * the body (src/http/body.ts, bounded by config.maxBodyBytes), then `dispatcher.handle` at
 * `clock.nowMs()`. Transport-level failures are passed to the dispatcher as `bodyFailure` so that
 * they are counted and answered in the dispatcher's precedence, exactly as in-process.
 *
 * Paths in `rawPaths` (the MCP endpoint) bypass all of this: their handler owns the request.
 *
 * With a `gate` (afp serve --data's group commit, src/server/group-commit.ts) an answer leaves only
 * once `gate.hold()` settles: resolved → the answer as computed; rejected → 503 (the log could not
 * make it durable). A closed gate answers 503 before anything is handled.
 *
 * Limits: past maxBodyBytes nothing more is buffered; a body past maxBodyBytes + 1 MiB is not even
 * drained (413 and the connection is closed). A body not whole within `bodyTimeouts` (body.ts) is
 * answered 408 `{ error, code: BAD_REQUEST, _info }` and its connection closed: nothing of it is
 * dispatched, charged or logged. An exception inside `handle` is a bug: it is logged
 * with the seed and answered 500 INTERNAL_ERROR, and the server keeps serving; so is one outside it
 * (a raw handler's, a lazily loaded module's), where an answer can still be written.
 *
 * Overload: with an `admission` gate (afp serve's LoadShedder), every request except `/health` and `/_afp/*`
 * is admitted by it first; a refused one is answered 503 SERVICE_UNAVAILABLE with Retry-After at
 * once, its body never read (Node discards a small rest unbuffered; a large or unsized one closes
 * the connection), nothing dispatched or charged. The gate is asked after one turn of the event
 * loop, once the bytes already read are parsed: a request whose body is not whole by then counts as
 * receiving (load-shedder.ts) until its body ends. A turn's admitted requests take at most its
 * budget (server-turn-budget.ts: past it the others wait for the next turn, so timers and /health are not
 * held behind a turn of slow requests).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Clock } from '../core/clock.ts';
import { fail, type Failure, type JsonObject, type JsonValue } from '../core/errors.ts';
import type { ServiceName } from '../platform/platform.ts';
import { infoOf } from '../platform/info.ts';
import {
  BODY_TIMEOUTS_DEFAULT,
  bodyTimeoutMessage,
  bodyTooLarge,
  bufferedBody,
  readBodyBytes,
  readJsonBody,
  type BodyBytes,
  type BodyTimeouts,
  type BodyTimer,
} from './body.ts';
import { answerClientError } from './client-error.ts';
import { TURNS } from './server-turn-budget.ts';
import { forwardsFor, normalizePeer, originatingIp, type SentForwarding } from './client-ip.ts';
import type { ApiRequest, Dispatcher } from './dispatcher.ts';
import type { Mount } from './route.ts';
import type { TrustedProxies } from './trusted-proxies.ts';

/** What an intercept sees: the dispatcher's request plus the socket's own peer address. */
export interface EdgeRequest extends ApiRequest {
  readonly peer: string;
  /** Whether the peer is a trusted proxy, its X-Forwarded-For read (GET /_afp/mounts tells the caller). */
  readonly forwarding: boolean;
  /**
   * The forwarding headers the client sent (client-ip.ts `forwardedBeyondLoopback` reads them:
   * the admin doors refuse a request forwarded for an address beyond loopback); null when it sent
   * none. `headers` holds what the dispatcher sees, rewritten unless the peer is trusted.
   */
  readonly sentForwarding: SentForwarding | null;
  /**
   * The JSON text `body` was parsed from. afp serve --data logs this text instead of serializing
   * the parsed value again: exact (JSON.parse of it gives the same value) and without the depth
   * limit of JSON.stringify. The dispatcher never reads it.
   */
  readonly bodyText?: string;
}

export interface EdgeAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: JsonValue;
}

/** What holds answers until they may leave (afp serve --data: until their log entries are durable). */
export interface AnswerGate {
  /** False once nothing more may be handled: every request is answered 503 at once. */
  readonly open: boolean;
  /** null: answer now; else answer when it resolves, 503 when it rejects. */
  hold(): Promise<void> | null;
}

/** An answer the edge writes itself, before the dispatcher (503 shed, 408 a body not received in time), in a dialect's error shape. */
export type EdgeBody = (service: ServiceName | null, status: 408 | 503, message: string) => JsonObject;

export interface ApiServerOptions {
  readonly dispatcher: Dispatcher;
  readonly clock: Clock;
  readonly mount: Mount;
  /** The peers whose X-Forwarded-For is read (NO_PROXIES: none, the socket's peer is the client). */
  readonly trustedProxies: TrustedProxies;
  /**
   * Paths handled whole by another protocol stack (the MCP endpoint): the handler gets the
   * untouched request (body unread) and the originating IP; nothing here reads or answers it.
   */
  readonly rawPaths?: Readonly<Record<string, RawHandler>>;
  /** Serve-only requests (admin, health) answered before the dispatcher; null = not one of them. */
  readonly intercept?: (request: EdgeRequest, nowMs: number) => EdgeAnswer | Promise<EdgeAnswer> | null;
  /** Holds every answer (intercepted ones too) until it may leave; absent = answers leave at once. */
  readonly gate?: AnswerGate;
  /** Runs after every answered request (serve re-arms its timer here). */
  readonly afterRequest?: () => void;
  readonly log?: (line: string) => void;
  /** The overload gate (afp serve's LoadShedder), shared by every mount; absent = never shed. */
  readonly admission?: AdmissionGate;
  /** The body of an answer the edge writes itself (503 shed, 408 body timeout) in the served dialect; absent = the documents' `{ error, code, _info }`. */
  readonly edgeBody?: EdgeBody;
  /** How long a request body may take (absent = BODY_TIMEOUTS_DEFAULT; tests use short ones). */
  readonly bodyTimeouts?: BodyTimeouts;
}

/** What the overload gate answers for one request. */
export type Admission =
  | { readonly admitted: true }
  | {
      readonly admitted: false;
      readonly reason: 'in-flight' | 'receiving' | 'event-loop-delay';
      readonly retryAfterSeconds: number;
      readonly message: string;
    };

/**
 * Admits requests under a bound; every admitted `enter` is followed by exactly one `leave`, and an
 * admitted `enter(true)` (the body still arriving) by exactly one `received` before it.
 */
export interface AdmissionGate {
  enter(receiving: boolean): Admission;
  received(): void;
  leave(): void;
  /** Counts a body that did not arrive in time (GET /_afp/state). */
  bodyTimedOut(): void;
}

/** Serve-only paths that stay answerable under overload: never counted, never shed. */
export function isShedExempt(path: string): boolean {
  return path === '/health' || path.startsWith('/_afp/');
}

/**
 * A raw path's handler: the request as it came, its originating IP, and the forwarding headers
 * (X-Forwarded-For, X-Real-IP) as the dispatcher sees them on any other request (passForwarded),
 * so that what it dispatches is placed where an HTTP request from the same client is.
 */
export type RawHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  ip: string,
  forwarded: Readonly<Record<string, string>>,
) => Promise<void>;

const DRAIN_LIMIT_BYTES = 1024 * 1024;
const REQUEST_TIMEOUT_MS = 60_000;
/**
 * How long an idle keep-alive connection stays open (Node's default: 5 s). A client keeps reusing
 * an idle connection until its own timer fires (undici: the server's hint less 1 s); on a loaded
 * machine that timer fires late, and a request written on a connection the server has just closed
 * fails with ECONNRESET (the conformance suite hit it at load 7). At 30 s the race needs half a
 * minute of idleness; it stays below the request timeout, so no idle socket outlives a request's bound.
 */
const KEEP_ALIVE_TIMEOUT_MS = 30_000;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A body read's timer on the wall clock (live serving only; body.ts takes it as an argument). */
export const wallTimer: BodyTimer = (callback, delayMs) => {
  const timer = setTimeout(callback, delayMs);
  return () => clearTimeout(timer);
};

export function createApiServer(options: ApiServerOptions): Server {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const server = createServer({ requestTimeout: REQUEST_TIMEOUT_MS }, (request, response) => {
    serveOne(options, log, request, response).catch((error: unknown) => {
      const seed = options.dispatcher.platform.seed;
      log(`afp serve: failed to answer ${request.method} ${request.url} (seed ${seed}): ${String(error)}`);
      // A bug outside the dispatcher's own catch (a raw handler, a module that failed to load): the
      // client still gets 500 INTERNAL_ERROR, not a hang-up, where an answer can still be written.
      if (response.headersSent || !request.socket.writable) response.destroy();
      else
        writeJson(
          response,
          500,
          {},
          JSON.stringify({ error: `internal error (seed ${seed})`, code: 'INTERNAL_ERROR' }),
          true,
        );
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Requests the parser refuses get a JSON error too, not Node's empty answer (client-error.ts).
  server.on('clientError', answerClientError);
  return server;
}

async function serveOne(
  options: ApiServerOptions,
  log: (line: string) => void,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (options.gate !== undefined && !options.gate.open) {
    request.resume();
    writeJson(response, 503, {}, UNAVAILABLE_TEXT, true);
    return;
  }
  const shedder = options.admission;
  if (shedder !== undefined && !isShedExempt(pathOf(request.url ?? '/'))) {
    const admitted = await admit(shedder, request, response);
    if (!admitted.admitted) return shed(options, request, response, admitted);
  }
  const rawHandler = options.rawPaths === undefined ? undefined : rawHandlerFor(options.rawPaths, request.url ?? '/');
  if (rawHandler !== undefined) return serveRaw(options, rawHandler, request, response);
  const maxBodyBytes = options.dispatcher.platform.config.maxBodyBytes;
  const timeouts = options.bodyTimeouts ?? BODY_TIMEOUTS_DEFAULT;
  const limits = { maxBytes: maxBodyBytes, drainBytes: DRAIN_LIMIT_BYTES };
  const bytes =
    bufferedBody(request, limits) ??
    (await readBodyBytes(request, { ...limits, timeouts: { bounds: timeouts, timer: wallTimer } }));
  if (bytes.kind === 'failed') return; // the client went away mid-body: nobody to answer
  if (bytes.kind === 'timed-out') {
    shedder?.bodyTimedOut();
    return answerBodyTimeout(options, request, response, bodyTimeoutMessage(timeouts, bytes.reason));
  }
  const edge = toEdgeRequest(options, request, bytes, maxBodyBytes);
  const close = bytes.kind === 'abandoned';
  let status: number;
  let headers: Readonly<Record<string, string>>;
  let text: string;
  try {
    const nowMs = options.clock.nowMs();
    const intercepted = options.intercept?.(edge, nowMs) ?? null;
    // An intercept may answer later (afp serve's sliced clock moves: the loop serves others meanwhile).
    const answer =
      intercepted instanceof Promise ? await intercepted : (intercepted ?? options.dispatcher.handle(edge, nowMs));
    status = answer.status;
    headers = answer.headers ?? {};
    text = JSON.stringify(answer.body);
  } catch (error) {
    const seed = options.dispatcher.platform.seed;
    log(
      `afp serve: INTERNAL ERROR (a bug) on ${edge.method} ${options.mount}:${edge.path} — seed ${seed}\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    status = 500;
    headers = {};
    text = JSON.stringify({ error: `internal error (seed ${seed})`, code: 'INTERNAL_ERROR' });
  }
  const held = options.gate?.hold() ?? null;
  if (held === null) writeJson(response, status, headers, text, close);
  else
    await held.then(
      () => writeJson(response, status, headers, text, close),
      () => writeJson(response, 503, {}, UNAVAILABLE_TEXT, true),
    );
  options.afterRequest?.();
}

/**
 * Asks the gate after one turn of the event loop (setImmediate: the bytes read with the headers are
 * parsed by then, so a small body sent with them is whole; later, in the order they came, once the
 * turn's admitted requests have taken its budget: server-turn-budget.ts), and ties `received` and `leave` to the
 * body's end and the response's close.
 */
async function admit(gate: AdmissionGate, request: IncomingMessage, response: ServerResponse): Promise<Admission> {
  await TURNS.enter();
  const receiving = !request.complete;
  const admission = gate.enter(receiving);
  if (!admission.admitted) return admission;
  let stillReceiving = receiving;
  const received = (): void => {
    if (!stillReceiving) return;
    stillReceiving = false;
    gate.received();
  };
  if (receiving) request.once('end', received);
  response.once('close', () => {
    received();
    gate.leave();
  });
  return admission;
}

/**
 * The 408 of a body that did not arrive in time, in the spec's error shape, then the connection is
 * closed once written (destroyed at once if nothing can be written): the rest of the body is never
 * read, so the request is never run, and closing frees the in-flight slot (the response's close).
 */
function answerBodyTimeout(
  options: ApiServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
  message: string,
): void {
  const socket = request.socket;
  if (response.headersSent || !socket.writable) {
    socket.destroy();
    return;
  }
  const service = serviceOf(options, request);
  const body = options.edgeBody?.(service, 408, message) ?? {
    error: message,
    code: 'BAD_REQUEST',
    _info: infoOf(service),
  };
  response.once('finish', () => socket.destroy());
  writeJson(response, 408, {}, JSON.stringify(body), true);
}

/** The answer when the gate refuses: the request's effect may or may not be on disk. */
const UNAVAILABLE_TEXT = JSON.stringify({
  error: 'the server cannot make changes durable (its --data log failed) and is stopping; retry after it restarts',
  code: 'SERVICE_UNAVAILABLE',
});

function toEdgeRequest(
  options: ApiServerOptions,
  request: IncomingMessage,
  bytes: BodyBytes,
  maxBodyBytes: number,
): EdgeRequest {
  const headers = requestHeaders(request);
  const url = request.url ?? '/';
  const questionAt = url.indexOf('?');
  const path = questionAt < 0 ? url : url.slice(0, questionAt);
  const query = parseQuery(questionAt < 0 ? '' : url.slice(questionAt + 1));
  const peer = request.socket.remoteAddress;
  const ip = originatingIp({ peer, forwardedFor: headers['x-forwarded-for'], trusted: options.trustedProxies });
  const forwarding = forwardsFor(peer, options.trustedProxies);
  const sentForwarding = sentForwardingOf(headers);
  passForwarded(headers, ip, forwarding);
  const base = {
    mount: options.mount,
    method: request.method ?? 'GET',
    path,
    query: query.values,
    headers,
    ip,
    peer: normalizePeer(peer),
    forwarding,
    sentForwarding,
  };
  if (query.failure !== undefined) return { ...base, bodyFailure: query.failure };
  if (bytes.kind !== 'read') return { ...base, bodyFailure: bodyTooLarge(maxBodyBytes) };
  let text: string;
  try {
    text = utf8.decode(bytes.bytes);
  } catch {
    return { ...base, bodyFailure: fail('BAD_REQUEST', 'request body is not valid UTF-8') };
  }
  const read = readJsonBody(text, headers['content-type'], maxBodyBytes);
  if ('failure' in read) return { ...base, bodyFailure: read.failure };
  return read.body === undefined ? { ...base, body: read.body } : { ...base, body: read.body, bodyText: text };
}

/** The forwarding headers as sent, before passForwarded rewrites them; null when none was sent. */
function sentForwardingOf(headers: Readonly<Record<string, string>>): SentForwarding | null {
  const xForwardedFor = headers['x-forwarded-for'];
  const xRealIp = headers['x-real-ip'];
  const forwarded = headers['forwarded'];
  if (xForwardedFor === undefined && xRealIp === undefined && forwarded === undefined) return null;
  return { xForwardedFor, xRealIp, forwarded };
}

/**
 * What the dispatcher sees of the forwarding headers. From a trusted proxy, the headers as sent:
 * that proxy stands where the deployment's own does, and the deployed dialect reads them as the
 * deployment does (first X-Forwarded-For entry, else X-Real-IP). From any other peer, what a
 * proxy in front would pass: X-Forwarded-For is the socket's address alone, X-Real-IP is dropped.
 */
function passForwarded(headers: Record<string, string>, ip: string, forwarding: boolean): void {
  if (forwarding) return;
  headers['x-forwarded-for'] = ip;
  delete headers['x-real-ip'];
}

/**
 * The 503 of a shed request, in the spec's error shape with the path's service `_info`: written
 * before any of the body is read. A body that may be large (declared above maxBodyBytes, or of no
 * declared length) or is still arriving (shed as receiving) closes the connection rather than
 * being discarded byte by byte.
 */
function shed(
  options: ApiServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
  admission: Exclude<Admission, { admitted: true }>,
): void {
  const service = serviceOf(options, request);
  const body = options.edgeBody?.(service, 503, admission.message) ?? {
    error: admission.message,
    code: 'SERVICE_UNAVAILABLE',
    _info: infoOf(service),
  };
  const declared = request.headers['content-length'];
  const small =
    declared === undefined
      ? request.headers['transfer-encoding'] === undefined
      : Number(declared) <= options.dispatcher.platform.config.maxBodyBytes;
  // A body still arriving closes too: Node would discard it at the sender's pace, holding the socket.
  const close = !small || admission.reason === 'receiving';
  writeJson(response, 503, { 'retry-after': String(admission.retryAfterSeconds) }, JSON.stringify(body), close);
}

/** The service whose `_info` an edge answer carries: the matched row's, else the mount's (none on api). */
function serviceOf(options: ApiServerOptions, request: IncomingMessage): ServiceName | null {
  const match = options.dispatcher.router.match(options.mount, request.method ?? 'GET', pathOf(request.url ?? '/'));
  if (match.kind === 'found') return match.route.service;
  return options.mount === 'api' ? null : options.mount;
}

function pathOf(url: string): string {
  const questionAt = url.indexOf('?');
  return questionAt < 0 ? url : url.slice(0, questionAt);
}

/** A raw path (the MCP door): the request handed over as it came, with the client's address and its forwarding headers. */
async function serveRaw(
  options: ApiServerOptions,
  rawHandler: RawHandler,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const headers = requestHeaders(request);
  const peer = request.socket.remoteAddress;
  const ip = originatingIp({ peer, forwardedFor: headers['x-forwarded-for'], trusted: options.trustedProxies });
  passForwarded(headers, ip, forwardsFor(peer, options.trustedProxies));
  const forwarded: Record<string, string> = {};
  for (const name of ['x-forwarded-for', 'x-real-ip']) if (headers[name] !== undefined) forwarded[name] = headers[name];
  await rawHandler(request, response, ip, forwarded);
  options.afterRequest?.();
}
function rawHandlerFor(rawPaths: Readonly<Record<string, RawHandler>>, url: string): RawHandler | undefined {
  const questionAt = url.indexOf('?');
  const path = questionAt < 0 ? url : url.slice(0, questionAt);
  return Object.hasOwn(rawPaths, path) ? rawPaths[path] : undefined;
}

/**
 * The request's headers as one string each (a repeated Set-Cookie joined), in a fresh object the
 * edge may rewrite (passForwarded). node:http already lower-cases the names; a for-in over them
 * allocates nothing per header (Object.entries made an array per header: about 650 bytes a bet).
 */
function requestHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  const sent = request.headers;
  for (const name in sent) {
    const value = sent[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function parseQuery(text: string): { values: Record<string, string>; failure?: Failure } {
  const values: Record<string, string> = {};
  if (text === '') return { values };
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(values, name))
      return { values, failure: fail('BAD_REQUEST', `duplicate query parameter: ${name.slice(0, 64)}`) };
    values[name] = value;
  }
  return { values };
}

function writeJson(
  response: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  text: string,
  close: boolean,
): void {
  if (response.headersSent) return;
  response.writeHead(status, {
    ...headers,
    'content-type': headers['content-type'] ?? 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...(close ? { connection: 'close' } : {}),
  });
  response.end(text);
}
