/**
 * RateLimitLog: what a live session measured of a target's rate limits. Per operation, the first
 * 429 it met (the request, its status, body and Retry-After, and how many calls of the operation,
 * and to the target in all, had been sent in the minute before it), how many 429s it waited out,
 * and for how long; and the limit the operation's answers announced (announced-limit.ts), with the
 * calls sent in that limit's own window. Why: a target stricter than its target file claims is a
 * measured rule, and the session absorbed it silently (waiting out every 429: an audit planned for
 * 9 s took 90 s); a target that announces its limit is judged by it (rate-limit-finding.ts).
 * A call counts from the moment it is sent, not when answered: calls sent together (a double
 * spend's five creates) are all in flight when the first 429 comes back, and the target counted them.
 * The documented minute counted is the one before the refused call was sent, widened by the
 * slowest answer in it: a call sent that much earlier may have reached the target inside its own
 * window (a call paced 1,001 ms apart and 150 ms slow on the way is counted by a target whose
 * window the sliding minute ending at the 429 misses it from: 59 counted where the target saw 60).
 * Invariants: only the last KEPT_MS of send times are kept, at most SENDS_MAX per list; round
 * trips only the last ROUND_TRIPS_KEPT_MS, at most SENDS_MAX; the widening is at most a minute.
 * Non-goals: judging (rate-limit-finding.ts does), pacing (the session does). Generic in the
 * request it keeps (the session's SentRequest), so that this file does not import the session.
 */
import type { AnnouncedLimit } from './announced-limit.ts';
import type { OperationName } from './operations.ts';

/** The window a per-minute limit counts in: the documented window a target file's `per_minute` is judged against. */
export const PER_MINUTE_WINDOW_MS = 60_000;
/** Send times kept: an announced window longer than this is not counted (nor judged). */
export const KEPT_MS = 3_600_000;
/** Send times kept per list: far above any per-minute limit afp paces at. */
const SENDS_MAX = 10_000;
/** Round trips kept: those that may widen a documented window (its minute, and a minute more at most). */
const ROUND_TRIPS_KEPT_MS = 2 * PER_MINUTE_WINDOW_MS;

export interface RateLimitMeeting<Request> {
  readonly op: OperationName;
  readonly request: Request;
  readonly body: unknown;
  /** The Retry-After header as sent; null when absent. */
  readonly retryAfter: string | null;
  /** Calls of this operation sent in the minute before the first 429 (it not counted). */
  readonly callsOfOperation: number;
  /** Calls to the target in all sent in that minute (a limit may count several operations together). */
  readonly callsInAll: number;
  /** Of `callsOfOperation`, those still unanswered when the 429 came back (sent alongside it). */
  readonly unanswered: number;
  /** The limit the 429, else the operation's last answer before it, announced; null when none did. */
  readonly announced: AnnouncedLimit | null;
  /** Calls of this operation sent in the announced window before the 429 (it not counted); null without a window, or one over KEPT_MS. */
  readonly callsInAnnouncedWindow: number | null;
  /** Calls to the target in all in that window (a limit may be one bucket for several operations); null likewise. */
  readonly callsInAllInAnnouncedWindow: number | null;
  /** When the first 429 came back, on the session's clock (the window counted ends there). */
  readonly atMs: number;
  /** Where the documented window counted starts: a minute before the refused call was sent, less `slowestAnswerMs`. */
  readonly windowStartMs: number;
  /** The slowest round trip of the calls answered in that window (at most a minute): the widening. */
  readonly slowestAnswerMs: number;
  /** The bucket the target file puts the operation in with others (its operations, this one among them), and the calls of all of them in the minute before the 429; null without one. */
  readonly bucket: { readonly name: string; readonly ops: readonly OperationName[]; readonly calls: number } | null;
  /** 429s of this operation waited out, and the time spent waiting. */
  count: number;
  waitedMs: number;
}

export class RateLimitLog<Request> {
  private readonly sends = new Map<OperationName | '', number[]>();
  private readonly inFlight = new Map<OperationName, number>();
  private readonly lastAnnounced = new Map<OperationName, AnnouncedLimit>();
  /** Round trips of answered calls, oldest first: when answered and how long they took. */
  private readonly roundTrips: { readonly answeredMs: number; readonly ms: number }[] = [];
  /** When the last answered call of each operation was sent (the refused one, when `limited` follows). */
  private readonly lastSentMs = new Map<OperationName, number>();
  /** The first 429 per operation, in the order met. */
  readonly meetings = new Map<OperationName, RateLimitMeeting<Request>>();

  /** A call of `op` is sent at `nowMs` (before its answer: `answered` follows, whatever the outcome); `nowMs` back. */
  sent(op: OperationName, nowMs: number): number {
    for (const key of [op, ''] as const) {
      const times = this.recent(key, nowMs, KEPT_MS);
      if (times.length >= SENDS_MAX) times.shift();
      times.push(nowMs);
    }
    this.inFlight.set(op, (this.inFlight.get(op) ?? 0) + 1);
    return nowMs;
  }

  /** A call of `op` came back (or failed), with the limit its answer announced (null: none) and when it was sent and answered (null: unknown). */
  answered(
    op: OperationName,
    announced: AnnouncedLimit | null,
    timing: { readonly sentMs: number; readonly answeredMs: number } | null = null,
  ): void {
    this.inFlight.set(op, Math.max(0, (this.inFlight.get(op) ?? 0) - 1));
    if (announced !== null) this.lastAnnounced.set(op, announced);
    if (timing === null) return;
    this.lastSentMs.set(op, timing.sentMs);
    const trips = this.roundTrips;
    while (trips.length > 0 && (trips[0]?.answeredMs as number) <= timing.answeredMs - ROUND_TRIPS_KEPT_MS)
      trips.shift();
    if (trips.length >= SENDS_MAX) trips.shift();
    trips.push({ answeredMs: timing.answeredMs, ms: Math.max(0, timing.answeredMs - timing.sentMs) });
  }

  /** A 429 of `op` was met at `nowMs` (the call already counted by `sent` and `answered`), waited out for `waitMs`. */
  limited(
    op: OperationName,
    nowMs: number,
    answer: { readonly request: Request; readonly body: unknown; readonly retryAfter: string | null },
    waitMs: number,
    bucket: { readonly name: string; readonly ops: readonly OperationName[] } | null = null,
  ): void {
    const met = this.meetings.get(op);
    if (met !== undefined) {
      met.count += 1;
      met.waitedMs += waitMs;
      return;
    }
    const announced = this.lastAnnounced.get(op) ?? null;
    const windowMs = announced?.windowSeconds === null || announced === null ? null : announced.windowSeconds * 1_000;
    const window = this.documentedWindow(op, nowMs);
    this.meetings.set(op, {
      op,
      ...answer,
      callsOfOperation: this.countFrom(op, window.startMs, nowMs),
      callsInAll: this.countFrom('', window.startMs, nowMs),
      unanswered: this.inFlight.get(op) ?? 0,
      announced,
      callsInAnnouncedWindow:
        windowMs === null || windowMs > KEPT_MS ? null : this.countFrom(op, nowMs - windowMs, nowMs),
      callsInAllInAnnouncedWindow:
        windowMs === null || windowMs > KEPT_MS ? null : this.countFrom('', nowMs - windowMs, nowMs),
      atMs: nowMs,
      windowStartMs: window.startMs,
      slowestAnswerMs: window.slowestMs,
      bucket:
        bucket === null
          ? null
          : {
              name: bucket.name,
              ops: [...bucket.ops],
              // Every send of the bucket's operations in the window, the refused one (counted by `sent`) left out.
              calls: Math.max(
                0,
                bucket.ops.reduce((total, other) => total + this.sentFrom(other, window.startMs, nowMs), 0) - 1,
              ),
            },
      count: 1,
      waitedMs: waitMs,
    });
  }

  /**
   * The documented minute before the refused call of `op` was sent (its answer the last of `op`'s),
   * widened by the slowest round trip answered in it (at most a minute); never starting after the
   * minute before `nowMs`.
   */
  private documentedWindow(op: OperationName, nowMs: number): { startMs: number; slowestMs: number } {
    const sentMs = this.lastSentMs.get(op) ?? nowMs;
    const fromMs = sentMs - PER_MINUTE_WINDOW_MS;
    const slowestMs = Math.min(
      PER_MINUTE_WINDOW_MS,
      this.roundTrips.reduce((slowest, trip) => (trip.answeredMs > fromMs ? Math.max(slowest, trip.ms) : slowest), 0),
    );
    return { startMs: Math.min(nowMs - PER_MINUTE_WINDOW_MS, fromMs - slowestMs), slowestMs };
  }

  /** Calls of `key` sent after `fromMs` (up to `nowMs`), all of them. */
  private sentFrom(key: OperationName, fromMs: number, nowMs: number): number {
    return this.recent(key, nowMs, KEPT_MS).filter((time) => time > fromMs).length;
  }

  /** Calls of `key` sent after `fromMs` (up to `nowMs`), the refused one (the last sent of them counted) not counted. */
  private countFrom(key: OperationName | '', fromMs: number, nowMs: number): number {
    return Math.max(0, this.recent(key, nowMs, KEPT_MS).filter((time) => time > fromMs).length - 1);
  }

  /** The send times of `key` within `keptMs` before `nowMs` (older ones dropped). */
  private recent(key: OperationName | '', nowMs: number, keptMs: number): number[] {
    const times = this.sends.get(key) ?? [];
    while (times.length > 0 && (times[0] as number) <= nowMs - keptMs) times.shift();
    this.sends.set(key, times);
    return times;
  }
}
