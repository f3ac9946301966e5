/**
 * HttpClient: afp load's lean HTTP/1.1 client for one http:// origin, on node:net. Why not
 * node:http: at the rates a load generator must reach, node:http's per-request machinery
 * (ClientRequest and IncomingMessage streams, an Agent's queues, a timer per request, every
 * header parsed into objects) costs the generator more CPU than the target spends answering, so
 * the generator measured itself. https:// targets keep node:http's sibling node:https (the
 * sender's business, load-run-transport.ts): TLS is not worth a second client here.
 *
 * Connections: keep-alive sockets, at most `connectionsMax` (the run's in-flight cap), each
 * carrying one request at a time (no pipelining); a request finds an idle one, opens a new one
 * under the cap, or waits in a FIFO queue (at most QUEUED_MAX). A request is written in one write:
 * its head and body as one string (one Buffer for a body of bytes). The answer is read by the incremental parser
 * (http-client-parser.ts); its headers stay raw until asked for.
 * Failures are returned, never thrown: `refused` (no connection), `closed` (the connection closed
 * or reset before the whole answer: the socket is dropped and the next request opens a new one),
 * `malformed` (the answer broke HTTP or a limit), `timeout`, `interrupted` (`interrupt`/`close`),
 * `queue-full`, `invalid-request` (a header or path with a line break, which would forge a request).
 * Timeouts: one sweep per client (an unref'd interval of SWEEP_MS, a tenth of the timeout within
 * [10 ms, 1 s]) checks every request's deadline, from when `request` was called; a timed-out
 * request's socket is destroyed (its answer might still come). No timer per request.
 * Time comes from the injected `nowMs`.
 */
import { connect, type Socket } from 'node:net';
import { assert } from '../core/assert.ts';
import { ResponseParser, type ParsedResponse } from './http-client-parser.ts';

export const CONNECTIONS_MAX = 100_000;
export const QUEUED_MAX = 100_000;
const SWEEP_MS_MIN = 10;
const SWEEP_MS_MAX = 1_000;

export type HttpFailureKind =
  | 'refused'
  | 'closed'
  | 'malformed'
  | 'timeout'
  | 'interrupted'
  | 'queue-full'
  | 'invalid-request';

export type HttpResult =
  | { readonly ok: true; readonly response: ParsedResponse }
  | { readonly ok: false; readonly kind: HttpFailureKind; readonly message: string };

export interface HttpRequest {
  readonly method: string;
  /** Path and query, already encoded. */
  readonly path: string;
  /** Lower-case names; host and content-length are the client's. */
  readonly headers: Readonly<Record<string, string>>;
  /** A string goes as UTF-8; bytes as they are. */
  readonly body: string | Uint8Array | undefined;
}

export interface HttpClientOptions {
  /** `http://host:port`; the path part, if any, is ignored. */
  readonly origin: string;
  readonly connectionsMax: number;
  readonly timeoutMs: number;
  readonly bodyBytesMax: number;
  readonly nowMs: () => number;
}

interface Pending {
  readonly text: string | Buffer;
  readonly bodyless: boolean;
  readonly deadlineMs: number;
  readonly label: string;
  readonly settle: (result: HttpResult) => void;
}

const LINE_BREAK = /[\r\n]/;

class Connection {
  readonly socket: Socket;
  readonly parser: ResponseParser;
  pending: Pending | null = null;
  connected = false;
  private readonly client: HttpClient;
  private lastError = '';
  /** The answer read in the current chunk on a connection kept open: settled once the chunk is read and the connection is back in the pool. */
  private answer: { readonly pending: Pending; readonly response: ParsedResponse } | null = null;

  constructor(client: HttpClient, host: string, port: number, bodyBytesMax: number) {
    this.client = client;
    this.parser = new ResponseParser({ bodyBytesMax, onResponse: (response) => this.answered(response) });
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on('connect', () => (this.connected = true));
    this.socket.on('data', (chunk: Buffer) => this.received(chunk));
    // The target closed its side: a body read until close is complete; anything else in flight failed.
    this.socket.on('end', () => this.drop('closed', this.parser.end() ?? 'the connection closed before the answer'));
    this.socket.on('error', (error: Error) => (this.lastError = error.message));
    this.socket.on('close', () =>
      this.drop(
        this.connected ? 'closed' : 'refused',
        this.lastError === '' ? 'the connection closed before the answer' : this.lastError,
      ),
    );
  }

  send(pending: Pending): void {
    assert(this.pending === null, 'a connection carries one request at a time');
    this.pending = pending;
    this.parser.bodyless = pending.bodyless;
    this.socket.write(pending.text);
  }

  /** Fails the request in flight (if any) and destroys the socket; the client forgets the connection. */
  drop(kind: HttpFailureKind, message: string): void {
    const pending = this.pending;
    this.pending = null;
    this.client.forget(this);
    if (!this.socket.destroyed) this.socket.destroy();
    pending?.settle({ ok: false, kind, message: `${pending.label}: ${message}` });
  }

  /**
   * Bytes from the target. A connection answered goes back to the pool only after the whole chunk
   * is read (bytes past the answer, with no request in flight, must not pass for the next one's),
   * and its answer is handed over only then, so a request sent from the callback can reuse it.
   */
  private received(chunk: Buffer): void {
    const failure = this.parser.push(chunk);
    const answer = this.answer;
    this.answer = null;
    if (!this.socket.destroyed) {
      if (failure !== null) this.drop('malformed', `a malformed answer: ${failure}`);
      else if (answer !== null && this.parser.idle) this.client.release(this);
      else if (answer !== null) this.drop('malformed', 'bytes after the answer, with no request in flight');
    }
    answer?.pending.settle({ ok: true, response: answer.response });
  }

  private answered(response: ParsedResponse): void {
    const pending = this.pending;
    if (pending === null) {
      this.drop('malformed', 'an answer came with no request in flight');
      return;
    }
    this.pending = null;
    if (response.keepAlive) {
      this.answer = { pending, response };
      return;
    }
    this.drop('closed', 'closed after its answer');
    pending.settle({ ok: true, response });
  }
}

export class HttpClient {
  private readonly host: string;
  private readonly port: number;
  /** `host:port`, the Host header. */
  private readonly authority: string;
  private readonly options: HttpClientOptions;
  private readonly connections = new Set<Connection>();
  private readonly idle: Connection[] = [];
  private readonly queue: Pending[] = [];
  private readonly sweepMs: number;
  private sweep: NodeJS.Timeout | null = null;
  private closedReason: string | null = null;

  constructor(options: HttpClientOptions) {
    const url = new URL(options.origin);
    assert(url.protocol === 'http:', 'the lean client speaks http:// only (https:// goes through node:https)');
    assert(
      Number.isSafeInteger(options.connectionsMax) &&
        options.connectionsMax >= 1 &&
        options.connectionsMax <= CONNECTIONS_MAX,
      'connectionsMax is 1..CONNECTIONS_MAX',
    );
    assert(options.timeoutMs > 0, 'a request timeout is positive');
    this.host = url.hostname.replace(/^\[|\]$/g, '');
    this.port = url.port === '' ? 80 : Number(url.port);
    this.authority = url.host;
    this.options = options;
    this.sweepMs = Math.min(SWEEP_MS_MAX, Math.max(SWEEP_MS_MIN, Math.floor(options.timeoutMs / 10)));
  }

  request(request: HttpRequest): Promise<HttpResult> {
    return new Promise<HttpResult>((settle) => this.send(request, settle));
  }

  /**
   * `request` with a callback: `done` gets the result once, in the turn the answer (or the failure)
   * is read, so a load loop writes its next request without a promise hop. A request refused at
   * once (closed client, line break, full queue) is answered before `send` returns.
   */
  send(request: HttpRequest, done: (result: HttpResult) => void): void {
    const label = `${request.method} ${request.path}`;
    if (this.closedReason !== null)
      return done({ ok: false, kind: 'interrupted', message: `${label}: ${this.closedReason}` });
    const text = requestText(request, this.authority);
    if (text === null)
      return done({ ok: false, kind: 'invalid-request', message: `${label}: a line break in the path or a header` });
    const pending: Pending = {
      text,
      bodyless: request.method === 'HEAD',
      deadlineMs: this.options.nowMs() + this.options.timeoutMs,
      label,
      settle: done,
    };
    this.sweep ??= setInterval(() => this.sweepTimeouts(), this.sweepMs).unref();
    const connection = this.idle.pop() ?? this.open();
    if (connection !== null) connection.send(pending);
    else if (this.queue.length >= QUEUED_MAX)
      done({
        ok: false,
        kind: 'queue-full',
        message: `${label}: ${QUEUED_MAX} requests already wait for a connection`,
      });
    else this.queue.push(pending);
  }

  /** Fails every request in flight or waiting with `interrupted`, closes every socket, and refuses new requests. */
  interrupt(reason: string): void {
    this.closedReason ??= reason;
    for (const waiting of this.queue.splice(0))
      waiting.settle({ ok: false, kind: 'interrupted', message: `${waiting.label}: ${reason}` });
    for (const connection of [...this.connections]) connection.drop('interrupted', reason);
    if (this.sweep !== null) clearInterval(this.sweep);
    this.sweep = null;
  }

  close(): void {
    this.interrupt('the client was closed');
  }

  /** Connections open now (idle or busy). */
  get size(): number {
    return this.connections.size;
  }

  /** A connection that answered and stays open: the next waiting request, or the idle list. */
  release(connection: Connection): void {
    const next = this.queue.shift();
    if (next !== undefined) connection.send(next);
    else this.idle.push(connection);
  }

  /** A connection that closed: out of the pool; a waiting request gets a new connection in its place. */
  forget(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    const index = this.idle.indexOf(connection);
    if (index !== -1) this.idle.splice(index, 1);
    if (this.queue.length > 0 && this.closedReason === null) {
      const replacement = this.open();
      const next = this.queue.shift();
      if (replacement !== null && next !== undefined) replacement.send(next);
    }
  }

  private open(): Connection | null {
    if (this.connections.size >= this.options.connectionsMax) return null;
    const connection = new Connection(this, this.host, this.port, this.options.bodyBytesMax);
    this.connections.add(connection);
    return connection;
  }

  private sweepTimeouts(): void {
    const nowMs = this.options.nowMs();
    for (const connection of [...this.connections]) {
      if (connection.pending !== null && connection.pending.deadlineMs <= nowMs)
        connection.drop('timeout', `no answer within ${this.options.timeoutMs} ms`);
    }
    // The queue is in deadline order (one timeout for all): expired requests are at its head.
    while (this.queue.length > 0 && (this.queue[0] as Pending).deadlineMs <= nowMs) {
      const expired = this.queue.shift() as Pending;
      expired.settle({
        ok: false,
        kind: 'timeout',
        message: `${expired.label}: no connection within ${this.options.timeoutMs} ms`,
      });
    }
  }
}

/** The request's bytes as one string (head and body; a Buffer for a body of bytes), or null when a line break would forge another request. */
function requestText(request: HttpRequest, authority: string): string | Buffer | null {
  if (LINE_BREAK.test(request.path) || LINE_BREAK.test(request.method)) return null;
  let head = `${request.method} ${request.path} HTTP/1.1\r\nhost: ${authority}\r\n`;
  for (const name in request.headers) {
    const value = request.headers[name] as string;
    if (LINE_BREAK.test(name) || LINE_BREAK.test(value)) return null;
    if (name === 'host' || name === 'content-length') continue;
    head += `${name}: ${value}\r\n`;
  }
  if (request.body === undefined) return `${head}\r\n`;
  if (typeof request.body !== 'string')
    return Buffer.concat([Buffer.from(`${head}content-length: ${request.body.length}\r\n\r\n`), request.body]);
  return `${head}content-length: ${Buffer.byteLength(request.body)}\r\n\r\n${request.body}`;
}
