/**
 * LoadShedder: `afp serve`'s overload guard. Past a bounded number of requests in flight (accepted,
 * not yet answered: reading a body, dispatching, writing) or while the event loop runs late by more
 * than a bound, a request is refused at once — 503 SERVICE_UNAVAILABLE with Retry-After — before
 * its body is read or anything is dispatched, so a shed request costs a few microseconds, buffers
 * nothing and changes nothing (not even the rate limiter's buckets).
 *
 * Why two signals: the dispatcher is synchronous, so requests queue in the event loop rather than
 * in a queue of ours — the loop's lateness is the queueing delay every request is about to meet;
 * the in-flight count bounds memory (each admitted request may buffer up to maxBodyBytes) and the
 * work that waits on I/O (bodies arriving slowly, a command log's commit).
 *
 * Lateness is a drift probe: one unref'd timer due every `probeIntervalMs`; how long past its due
 * instant it is *now* is how far behind the loop is. A probe that already ran late does not count
 * once it has run: one long task (a big clock move) that is over does not shed the next request.
 *
 * Requests still receiving their body share the in-flight bound but may hold at most `maxReceiving`
 * of its slots (default half): a client sending bodies slowly can fill those, never the rest, so
 * requests that arrived whole are still admitted. The edge says which is which after one turn of
 * the event loop (everything read so far parsed); a receiving request becomes a whole one when its
 * body ends (`received`). The edge also bounds a body's time (src/http/body.ts BodyTimeouts).
 *
 * The HTTP edge (src/http/server.ts) asks it for every request except `/health` and `/_afp/*`,
 * which are never counted nor shed, so a supervisor can still see and steer an overloaded server.
 * 0 disables a bound.
 */
import { assert } from '../core/assert.ts';
import type { Admission, AdmissionGate } from '../http/server.ts';

export interface LoadShedderOptions {
  /** Requests in flight beyond which new ones are shed; 0 = no bound. */
  readonly maxInFlight: number;
  /**
   * Of those, how many may still be receiving their body (beyond: a new receiving one is shed);
   * 0 = no bound of their own (they may take every slot); absent = half of maxInFlight, rounded up.
   */
  readonly maxReceiving?: number;
  /** Event-loop lateness (ms) beyond which requests are shed; 0 = not measured. */
  readonly maxEventLoopDelayMs: number;
  /** How often the drift probe is due (ms). */
  readonly probeIntervalMs?: number;
  /** Monotonic milliseconds (default performance.now: live-mode code). */
  readonly monotonicMs?: () => number;
}

/** `afp serve`'s defaults (flags --max-in-flight, --max-event-loop-delay-ms). */
export const SHED_DEFAULTS = { maxInFlight: 1_024, maxEventLoopDelayMs: 1_000 } as const;
/** Bounds the flags accept. */
export const SHED_LIMITS = { maxInFlight: 1_000_000, maxReceiving: 1_000_000, maxEventLoopDelayMs: 600_000 } as const;
const PROBE_INTERVAL_MS_DEFAULT = 20;

const ADMITTED: Admission = { admitted: true };

export class LoadShedder implements AdmissionGate {
  readonly maxInFlight: number;
  readonly maxReceiving: number;
  readonly maxEventLoopDelayMs: number;
  private readonly probeIntervalMs: number;
  private readonly monotonicMs: () => number;
  private probeDueMs = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private inFlightCount = 0;
  private receivingCount = 0;
  /** Counts since start: admitted, shed per reason, bodies timed out (GET /_afp/state shows them). */
  admittedCount = 0;
  shedInFlightCount = 0;
  shedReceivingCount = 0;
  shedDelayCount = 0;
  bodyTimeoutCount = 0;

  constructor(options: LoadShedderOptions) {
    assert(Number.isSafeInteger(options.maxInFlight) && options.maxInFlight >= 0, 'maxInFlight is a whole number');
    assert(
      Number.isSafeInteger(options.maxEventLoopDelayMs) && options.maxEventLoopDelayMs >= 0,
      'maxEventLoopDelayMs is a whole number',
    );
    this.maxInFlight = options.maxInFlight;
    this.maxReceiving = options.maxReceiving ?? Math.ceil(options.maxInFlight / 2);
    assert(Number.isSafeInteger(this.maxReceiving) && this.maxReceiving >= 0, 'maxReceiving is a whole number');
    this.maxEventLoopDelayMs = options.maxEventLoopDelayMs;
    this.probeIntervalMs = options.probeIntervalMs ?? PROBE_INTERVAL_MS_DEFAULT;
    assert(this.probeIntervalMs >= 1, 'the probe is due at least every millisecond apart');
    this.monotonicMs = options.monotonicMs ?? (() => performance.now());
    this.probeDueMs = this.monotonicMs() + this.probeIntervalMs;
  }

  /** Starts the drift probe (when lateness is bounded); the timer never keeps the process alive. */
  start(): void {
    if (this.maxEventLoopDelayMs === 0 || this.timer !== null) return;
    this.probeDueMs = this.monotonicMs() + this.probeIntervalMs;
    this.timer = setInterval(() => this.probe(), this.probeIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** The probe ran: the loop has caught up to now; the next one is due an interval later. */
  probe(): void {
    this.probeDueMs = this.monotonicMs() + this.probeIntervalMs;
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Of the requests in flight, those still receiving their body. */
  get receiving(): number {
    return this.receivingCount;
  }

  /** How far behind the event loop is now (ms): the time since the probe was due, if it has not run. */
  eventLoopDelayMs(): number {
    if (this.timer === null) return 0;
    return Math.max(0, this.monotonicMs() - this.probeDueMs);
  }

  /**
   * Admits the request (then `leave` must follow exactly once; for a `receiving` one, `received`
   * at most once before it) or says why it is shed.
   */
  enter(receiving = false): Admission {
    if (this.maxInFlight !== 0 && this.inFlightCount >= this.maxInFlight) {
      this.shedInFlightCount += 1;
      return {
        admitted: false,
        reason: 'in-flight',
        retryAfterSeconds: 1,
        message: `server overloaded: ${this.inFlightCount} requests in flight (limit ${this.maxInFlight}); retry later`,
      };
    }
    if (receiving && this.maxReceiving !== 0 && this.receivingCount >= this.maxReceiving) {
      this.shedReceivingCount += 1;
      return {
        admitted: false,
        reason: 'receiving',
        retryAfterSeconds: 1,
        message: `server overloaded: ${this.receivingCount} requests still sending their bodies (limit ${this.maxReceiving}); retry later`,
      };
    }
    const delayMs = this.maxEventLoopDelayMs === 0 ? 0 : this.eventLoopDelayMs();
    if (delayMs > this.maxEventLoopDelayMs) {
      this.shedDelayCount += 1;
      const retryAfterSeconds = Math.max(1, Math.ceil(delayMs / 1000));
      return {
        admitted: false,
        reason: 'event-loop-delay',
        retryAfterSeconds,
        message: `server overloaded: requests wait ${Math.round(delayMs)} ms (limit ${this.maxEventLoopDelayMs} ms); retry later`,
      };
    }
    this.inFlightCount += 1;
    if (receiving) this.receivingCount += 1;
    this.admittedCount += 1;
    return ADMITTED;
  }

  /** A receiving request's body has ended (or it is over without one). */
  received(): void {
    assert(this.receivingCount > 0, 'received follows an admitted receiving enter');
    assert(this.receivingCount <= this.inFlightCount, 'a receiving request is in flight');
    this.receivingCount -= 1;
  }

  leave(): void {
    assert(this.inFlightCount > 0, 'leave follows an admitted enter');
    assert(this.receivingCount < this.inFlightCount, 'a receiving request is received before it leaves');
    this.inFlightCount -= 1;
  }

  bodyTimedOut(): void {
    this.bodyTimeoutCount += 1;
  }
}
