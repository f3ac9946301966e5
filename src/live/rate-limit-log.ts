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
 * Invariants: only the last KEPT_MS of send times are kept, at most SENDS_MAX per list.
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
  /** The first 429 per operation, in the order met. */
  readonly meetings = new Map<OperationName, RateLimitMeeting<Request>>();

  /** A call of `op` is sent at `nowMs` (before its answer: `answered` follows, whatever the outcome). */
  sent(op: OperationName, nowMs: number): void {
    for (const key of [op, ''] as const) {
      const times = this.recent(key, nowMs, KEPT_MS);
      if (times.length >= SENDS_MAX) times.shift();
      times.push(nowMs);
    }
    this.inFlight.set(op, (this.inFlight.get(op) ?? 0) + 1);
  }

  /** A call of `op` came back (or failed), with the limit its answer announced (null: none). */
  answered(op: OperationName, announced: AnnouncedLimit | null): void {
    this.inFlight.set(op, Math.max(0, (this.inFlight.get(op) ?? 0) - 1));
    if (announced !== null) this.lastAnnounced.set(op, announced);
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
    this.meetings.set(op, {
      op,
      ...answer,
      callsOfOperation: this.countSince(op, nowMs, PER_MINUTE_WINDOW_MS),
      callsInAll: this.countSince('', nowMs, PER_MINUTE_WINDOW_MS),
      unanswered: this.inFlight.get(op) ?? 0,
      announced,
      callsInAnnouncedWindow: windowMs === null || windowMs > KEPT_MS ? null : this.countSince(op, nowMs, windowMs),
      callsInAllInAnnouncedWindow:
        windowMs === null || windowMs > KEPT_MS ? null : this.countSince('', nowMs, windowMs),
      atMs: nowMs,
      bucket:
        bucket === null
          ? null
          : {
              name: bucket.name,
              ops: [...bucket.ops],
              // Every send of the bucket's operations in the minute, the refused one (counted by `sent`) left out.
              calls: Math.max(
                0,
                bucket.ops.reduce((total, other) => total + this.recentCount(other, nowMs, PER_MINUTE_WINDOW_MS), 0) -
                  1,
              ),
            },
      count: 1,
      waitedMs: waitMs,
    });
  }

  /** Calls of `key` sent within `windowMs` before `nowMs`, all of them. */
  private recentCount(key: OperationName, nowMs: number, windowMs: number): number {
    return this.recent(key, nowMs, KEPT_MS).filter((time) => time > nowMs - windowMs).length;
  }

  /** Calls of `key` sent within `windowMs` before `nowMs`, the refused one (the last sent of them counted) not counted. */
  private countSince(key: OperationName | '', nowMs: number, windowMs: number): number {
    const times = this.recent(key, nowMs, KEPT_MS);
    return Math.max(0, times.filter((time) => time > nowMs - windowMs).length - 1);
  }

  /** The send times of `key` within `keptMs` before `nowMs` (older ones dropped). */
  private recent(key: OperationName | '', nowMs: number, keptMs: number): number[] {
    const times = this.sends.get(key) ?? [];
    while (times.length > 0 && (times[0] as number) <= nowMs - keptMs) times.shift();
    this.sends.set(key, times);
    return times;
  }
}
