/**
 * `--engine autocannon`: a single-endpoint capacity test ("how many requests a second can this
 * endpoint take") through autocannon's programmatic API, measured into the same LoadRecorder as
 * afp's own generator, so its snapshot goes through the same reports and thresholds.
 *
 * A closed loop, and said so: each of the `connections` sends its next request when the previous
 * answer is in, so a request's intended start IS its actual send time. A slow target therefore
 * slows the senders down instead of piling up late requests: coordinated omission, by design of a
 * capacity test. No iteration is ever dropped (there is no schedule to fall behind); one request
 * is one iteration.
 *
 * Latency is afp's own measure, not autocannon's: from the client's `request` event (emitted just
 * before the write) to its `response` event, on afp's clock. autocannon's per-response duration is
 * not trusted: its client ignores `Connection: close`, writes its next request onto the closing
 * socket, and on reconnecting queues a fresh request behind that unanswered one without clearing
 * its pipelined-requests queue, so from then on every answer on that connection is timed from an
 * older request's start (one more request's worth per reconnect). Against a target that closes
 * keep-alive connections every N requests (nginx's keepalive_requests) that read 65k requests/s
 * with a p50 of 5 ms on 10 connections, which Little's law forbids. With pipelining 1 the request
 * an answer answers is the connection's latest write, whatever the queue holds.
 *
 * Failures are counted, never thrown: an answer that afp load counts as failed (`requestFailed`:
 * a 429 or a 5xx, so `http_req_failed` means the same for both engines) is a failed request with
 * its status; a request that got no answer (autocannon's timeout, a refused or reset connection,
 * a connection the target closed without answering) is a failed request with status 0 and the time
 * it waited. A request written after an answer that announced `Connection: close` never reached a
 * target that kept its word: it is not a request of the run (counted in `unsentAfterClose`).
 * Requests still in flight when the run stops are started but not completed iterations.
 * Bounded in time (`durationMs`, ended by a timer; autocannon notices within SAMPLE_MS) and in
 * count (`amount`, at most AUTOCANNON_LIMITS.amount.max), and stoppable by an AbortSignal (Ctrl-C).
 * Options are checked by `checkAutocannonOptions` (all problems at once); running with bad ones
 * is a bug.
 */
import autocannon, { type AutocannonClient } from 'autocannon';
import { assert } from '../core/assert.ts';
import type { Clock } from '../core/clock.ts';
import type { WireMethod } from '../client/transport.ts';
import { URL_METHODS } from './url-method.ts';
import { LoadRecorder, type LoadSnapshot } from './load-recorder.ts';
import { requestFailed } from './load-run-transport.ts';

export const AUTOCANNON_LIMITS = {
  connections: { min: 1, max: 10_000, default: 10 },
  durationMs: { min: 1, max: 86_400_000, default: 10_000 },
  amount: { max: 1_000_000_000 },
  /** autocannon's own timeout is whole-second based and at least 1 s. */
  timeoutMs: { min: 1_000, max: 600_000, default: 10_000 },
  bodyBytes: { max: 1_048_576 },
} as const;

/** How often autocannon samples; its run ends on the first sample after stop. */
export const SAMPLE_MS = 100;

export interface AutocannonRunOptions {
  /** Absolute http(s) URL, path and query included. */
  readonly url: string;
  readonly method: WireMethod;
  readonly body?: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
  readonly connections: number;
  readonly durationMs: number;
  /** Requests in all, at most; default AUTOCANNON_LIMITS.amount.max. At least `connections`. */
  readonly amount?: number;
  /** The endpoint's name in reports (a route id or `GET /path`). */
  readonly endpoint: string;
  readonly timeoutMs: number;
  /** Whether an answer's status is a failed request; default afp load's `requestFailed` (429 and 5xx). */
  readonly failedStatus?: (status: number) => boolean;
  /** Time for the recorder's start, end and failures; default HIGH_RESOLUTION_CLOCK. */
  readonly clock?: Clock;
  /** Record into this recorder (a live view may snapshot it while the run goes); default a fresh one. */
  readonly recorder?: LoadRecorder;
  /** Stops the run early (Ctrl-C); what was measured is still returned. */
  readonly signal?: AbortSignal;
}

/** Wall time in fractional milliseconds (performance.timeOrigin + performance.now()). */
export const HIGH_RESOLUTION_CLOCK: Clock = { nowMs: () => performance.timeOrigin + performance.now() };

function wholeIn(value: number, min: number, max: number): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max;
}

/**
 * The methods autocannon can measure: a URL run's but HEAD. autocannon's parser waits for the body a
 * HEAD answer's content-length announces, so each connection stalls after its first request (a
 * 2-s run against a node:http server: 4 requests sent on 4 connections, none counted).
 */
export const AUTOCANNON_METHODS: readonly WireMethod[] = URL_METHODS.filter((method) => method !== 'HEAD');

/** Every problem with the options, in field order; [] when they can run. */
export function checkAutocannonOptions(options: AutocannonRunOptions): string[] {
  const problems: string[] = [];
  let url: URL | null = null;
  try {
    url = new URL(options.url);
  } catch {
    problems.push(`url '${options.url}' is not an absolute URL`);
  }
  if (url !== null && url.protocol !== 'http:' && url.protocol !== 'https:')
    problems.push(`url '${options.url}' is not http or https`);
  if (!AUTOCANNON_METHODS.includes(options.method))
    problems.push(`method must be one of ${AUTOCANNON_METHODS.join(', ')}`);
  if (options.body !== undefined && Buffer.byteLength(options.body) > AUTOCANNON_LIMITS.bodyBytes.max)
    problems.push(`body is longer than ${AUTOCANNON_LIMITS.bodyBytes.max} bytes`);
  const { connections, durationMs, timeoutMs, amount } = AUTOCANNON_LIMITS;
  if (!wholeIn(options.connections, connections.min, connections.max))
    problems.push(`connections must be a whole number in ${connections.min}..${connections.max}`);
  if (!wholeIn(options.durationMs, durationMs.min, durationMs.max))
    problems.push(`duration must be ${durationMs.min}..${durationMs.max} ms`);
  if (options.amount !== undefined && !wholeIn(options.amount, Math.max(1, options.connections), amount.max))
    problems.push(`amount must be a whole number from the connections (${options.connections}) to ${amount.max}`);
  if (!wholeIn(options.timeoutMs, timeoutMs.min, timeoutMs.max))
    problems.push(`timeout must be ${timeoutMs.min}..${timeoutMs.max} ms`);
  if (options.endpoint === '') problems.push('endpoint name is empty');
  return problems;
}

/**
 * One autocannon connection's request in flight, timed on afp's clock (see the header): the latest
 * write is the one an answer answers; a write displaced by a reconnect either timed out (the
 * `timeout` event follows in the same turn), was doomed by an announced close, or got no answer.
 */
class ConnectionTiming {
  /** When the request in flight was written; null when none is. */
  private sentMs: number | null = null;
  /** The request in flight was written after an answer that announced the connection's close. */
  private doomed = false;
  private closing = false;
  /** A request displaced by a reconnect, until its fate is known (the same turn). */
  private displacedMs: number | null = null;
  private readonly recorder: LoadRecorder;
  private readonly clock: Clock;
  private readonly endpoint: string;
  private readonly failedStatus: (status: number) => boolean;
  private readonly counts: EngineCounts;

  constructor(options: {
    recorder: LoadRecorder;
    clock: Clock;
    endpoint: string;
    failedStatus: (status: number) => boolean;
    counts: EngineCounts;
  }) {
    this.recorder = options.recorder;
    this.clock = options.clock;
    this.endpoint = options.endpoint;
    this.failedStatus = options.failedStatus;
    this.counts = options.counts;
  }

  hook(client: AutocannonClient): void {
    client.on('headers', (info) => (this.closing = info.shouldKeepAlive === false));
    client.on('request', () => this.written());
    client.on('response', (status) => this.answered(status));
    client.on('timeout', () => this.timedOut());
    client.on('connError', () => this.lost());
  }

  /** A request of the run still unanswered at its end: started, not completed. */
  inFlight(): boolean {
    return this.sentMs !== null && !this.doomed;
  }

  private written(): void {
    if (this.sentMs !== null) this.displace();
    this.sentMs = this.clock.nowMs();
    this.doomed = this.closing;
    this.closing = false;
  }

  private displace(): void {
    if (this.doomed) {
      this.counts.unsentAfterClose += 1;
      return;
    }
    this.displacedMs = this.sentMs;
    // A timeout claims it in this same turn (autocannon reconnects, then emits `timeout`); otherwise the connection closed on it.
    queueMicrotask(() => {
      if (this.displacedMs === null) return;
      this.fail(this.displacedMs);
      this.displacedMs = null;
    });
  }

  private answered(status: number): void {
    const endMs = this.clock.nowMs();
    const sentMs = this.sentMs ?? endMs;
    this.sentMs = null;
    this.doomed = false;
    this.record(sentMs, endMs, status);
  }

  private timedOut(): void {
    const sentMs = this.displacedMs;
    this.displacedMs = null;
    if (sentMs !== null) this.fail(sentMs);
  }

  /** A socket error: the request in flight got no answer (unless it was written onto a connection announced closed). */
  private lost(): void {
    const sentMs = this.sentMs;
    const doomed = this.doomed;
    this.sentMs = null;
    this.doomed = false;
    if (sentMs === null) return;
    if (doomed) this.counts.unsentAfterClose += 1;
    else this.fail(sentMs);
  }

  private fail(sentMs: number): void {
    this.record(sentMs, this.clock.nowMs(), 0);
  }

  private record(sentMs: number, endMs: number, status: number): void {
    const startMs = Math.min(sentMs, endMs);
    this.recorder.iterationStarted();
    this.recorder.record({
      endpoint: this.endpoint,
      intendedStartMs: startMs,
      sentMs: startMs,
      endMs,
      status,
      failed: status === 0 || this.failedStatus(status),
    });
    this.recorder.iterationCompleted();
  }
}

/** What the engine saw beside the samples. */
export interface EngineCounts {
  /** Requests autocannon wrote onto a connection the target had announced closed (never a request of the run). */
  unsentAfterClose: number;
}

export interface AutocannonOutcome {
  readonly snapshot: LoadSnapshot;
  readonly counts: EngineCounts;
}

/** Runs the capacity test and returns what it measured; never throws for the target's failures. */
export async function runAutocannon(options: AutocannonRunOptions): Promise<LoadSnapshot> {
  return (await runAutocannonCounted(options)).snapshot;
}

/** runAutocannon, with what the engine saw beside the samples. */
export async function runAutocannonCounted(options: AutocannonRunOptions): Promise<AutocannonOutcome> {
  const problems = checkAutocannonOptions(options);
  assert(problems.length === 0, `autocannon options were checked: ${problems.join('; ')}`);
  const clock = options.clock ?? HIGH_RESOLUTION_CLOCK;
  const recorder = options.recorder ?? new LoadRecorder(clock.nowMs());
  const counts: EngineCounts = { unsentAfterClose: 0 };
  const timings: ConnectionTiming[] = [];
  const instance = autocannon({
    url: options.url,
    method: options.method,
    ...(options.body === undefined ? {} : { body: options.body }),
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    connections: options.connections,
    amount: options.amount ?? AUTOCANNON_LIMITS.amount.max,
    timeout: options.timeoutMs / 1000,
    sampleInt: SAMPLE_MS,
    setupClient: (client) => {
      const timing = new ConnectionTiming({
        recorder,
        clock,
        endpoint: options.endpoint,
        failedStatus: options.failedStatus ?? requestFailed,
        counts,
      });
      timing.hook(client);
      timings.push(timing);
    },
  });
  const stop = (): void => {
    instance.stop();
  };
  const timer = setTimeout(stop, options.durationMs);
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted === true) stop();
  try {
    await instance;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
  }
  // Let a reconnect's displaced request learn its fate (its microtask) before the count.
  await Promise.resolve();
  for (const timing of timings) if (timing.inFlight()) recorder.iterationStarted();
  recorder.finish(clock.nowMs());
  return { snapshot: recorder.snapshot(), counts };
}
