/**
 * `--engine autocannon`: a single-endpoint capacity test ("how many requests a second can this
 * endpoint take") through autocannon's programmatic API, measured into the same LoadRecorder as
 * afp's own generator, so its snapshot goes through the same reports and thresholds.
 *
 * A closed loop, and said so: each of the `connections` sends its next request when the previous
 * answer is in, so a request's intended start IS its actual send time and the latency recorded is
 * autocannon's own (high-resolution, from the write to the last byte of the answer). A slow
 * target therefore slows the senders down instead of piling up late requests: coordinated
 * omission, by design of a capacity test. No iteration is ever dropped (there is no schedule to
 * fall behind); one request is one iteration. For latency under a fixed arrival rate use afp's
 * open-model generator (the default engine).
 *
 * Failures are counted, never thrown: an answer that afp load counts as failed (`requestFailed`:
 * a 429 or a 5xx, so `http_req_failed` means the same for both engines) is a failed request with
 * its status; a request that got no answer (autocannon's
 * timeout, a refused or reset connection) is a failed request with status 0 and the time it
 * waited. Requests still in flight when the run stops are started but not completed iterations.
 * Bounded in time (`durationMs`, ended by a timer; autocannon notices within SAMPLE_MS) and in
 * count (`amount`, at most AUTOCANNON_LIMITS.amount.max), and stoppable by an AbortSignal (Ctrl-C).
 * Options are checked by `checkAutocannonOptions` (all problems at once); running with bad ones
 * is a bug.
 */
import autocannon, { type AutocannonClient } from 'autocannon';
import { assert } from '../core/assert.ts';
import type { Clock } from '../core/clock.ts';
import type { HttpMethod } from '../http/route.ts';
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

/** Requests a connection may have written without an answer before the oldest counts as abandoned (pipelining 1: the one in flight and its retry). */
const PENDING_MAX = 2;

export interface AutocannonRunOptions {
  /** Absolute http(s) URL, path and query included. */
  readonly url: string;
  readonly method: HttpMethod;
  readonly body?: string;
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

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

function wholeIn(value: number, min: number, max: number): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max;
}

/** Every problem with the options, in field order; [] when they can run. */
export function checkAutocannonOptions(options: AutocannonRunOptions): string[] {
  const problems: string[] = [];
  let url: URL | null = null;
  try {
    url = new URL(options.url);
  } catch {
    problems.push(`url '${options.url}' is not an absolute URL`);
  }
  if (url !== null && url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`url '${options.url}' is not http or https`);
  if (!METHODS.includes(options.method)) problems.push(`method must be one of ${METHODS.join(', ')}`);
  if (options.body !== undefined && Buffer.byteLength(options.body) > AUTOCANNON_LIMITS.bodyBytes.max) problems.push(`body is longer than ${AUTOCANNON_LIMITS.bodyBytes.max} bytes`);
  const { connections, durationMs, timeoutMs, amount } = AUTOCANNON_LIMITS;
  if (!wholeIn(options.connections, connections.min, connections.max)) problems.push(`connections must be a whole number in ${connections.min}..${connections.max}`);
  if (!wholeIn(options.durationMs, durationMs.min, durationMs.max)) problems.push(`duration must be ${durationMs.min}..${durationMs.max} ms`);
  if (options.amount !== undefined && !wholeIn(options.amount, Math.max(1, options.connections), amount.max)) problems.push(`amount must be a whole number from the connections (${options.connections}) to ${amount.max}`);
  if (!wholeIn(options.timeoutMs, timeoutMs.min, timeoutMs.max)) problems.push(`timeout must be ${timeoutMs.min}..${timeoutMs.max} ms`);
  if (options.endpoint === '') problems.push('endpoint name is empty');
  return problems;
}

/** Hooks one autocannon connection to the recorder (see the header for what counts as what). */
function recordConnection(client: AutocannonClient, options: AutocannonRunOptions, clock: Clock, recorder: LoadRecorder): void {
  const failedStatus = options.failedStatus ?? requestFailed;
  const { endpoint } = options;
  const sentMs: number[] = [];
  const noAnswer = (): void => {
    const started = sentMs.shift();
    if (started === undefined) return;
    const endMs = clock.nowMs();
    recorder.record({ endpoint, intendedStartMs: Math.min(started, endMs), endMs, status: 0, failed: true });
    recorder.iterationCompleted();
  };
  client.on('request', () => {
    recorder.iterationStarted();
    sentMs.push(clock.nowMs());
    // The connection ended with a request unanswered and autocannon wrote the next one.
    if (sentMs.length > PENDING_MAX) noAnswer();
  });
  client.on('response', (status, _bytes, responseTimeMs) => {
    sentMs.shift();
    const endMs = clock.nowMs();
    recorder.record({ endpoint, intendedStartMs: endMs - Math.max(0, responseTimeMs), endMs, status, failed: failedStatus(status) });
    recorder.iterationCompleted();
  });
  client.on('timeout', noAnswer);
  client.on('connError', noAnswer);
}

/** Runs the capacity test and returns what it measured; never throws for the target's failures. */
export async function runAutocannon(options: AutocannonRunOptions): Promise<LoadSnapshot> {
  const problems = checkAutocannonOptions(options);
  assert(problems.length === 0, `autocannon options were checked: ${problems.join('; ')}`);
  const clock = options.clock ?? HIGH_RESOLUTION_CLOCK;
  const recorder = options.recorder ?? new LoadRecorder(clock.nowMs());
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
      recordConnection(client, options, clock, recorder);
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
  recorder.finish(clock.nowMs());
  return recorder.snapshot();
}
