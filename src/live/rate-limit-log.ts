/**
 * RateLimitLog: what a live session measured of a target's rate limits. Per operation, the first
 * 429 it met (the request, its status, body and Retry-After, and how many calls of the operation,
 * and to the target in all, had been sent in the minute before it), how many 429s it waited out,
 * and for how long. Why: a target stricter than its target file claims is a measured rule, and the
 * session absorbed it silently (waiting out every 429: an audit planned for 9 s took 90 s).
 * Invariants: only the last WINDOW_MS of send times are kept, at most SENDS_MAX per list.
 * Non-goals: judging (rate-limit-finding.ts does), pacing (the session does). Generic in the
 * request it keeps (the session's SentRequest), so that this file does not import the session.
 */
import type { OperationName } from './operations.ts';

/** The window a per-minute limit counts in. */
const WINDOW_MS = 60_000;
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
  /** 429s of this operation waited out, and the time spent waiting. */
  count: number;
  waitedMs: number;
}

export class RateLimitLog<Request> {
  private readonly sends = new Map<OperationName | '', number[]>();
  /** The first 429 per operation, in the order met. */
  readonly meetings = new Map<OperationName, RateLimitMeeting<Request>>();

  /** A call of `op` was sent at `nowMs`. */
  sent(op: OperationName, nowMs: number): void {
    for (const key of [op, ''] as const) {
      const times = this.recent(key, nowMs);
      if (times.length >= SENDS_MAX) times.shift();
      times.push(nowMs);
    }
  }

  /** A 429 of `op` was met at `nowMs` (the call already counted by `sent`), waited out for `waitMs`. */
  limited(
    op: OperationName,
    nowMs: number,
    answer: { readonly request: Request; readonly body: unknown; readonly retryAfter: string | null },
    waitMs: number,
  ): void {
    const met = this.meetings.get(op);
    if (met !== undefined) {
      met.count += 1;
      met.waitedMs += waitMs;
      return;
    }
    this.meetings.set(op, {
      op,
      ...answer,
      callsOfOperation: Math.max(0, this.recent(op, nowMs).length - 1),
      callsInAll: Math.max(0, this.recent('', nowMs).length - 1),
      count: 1,
      waitedMs: waitMs,
    });
  }

  /** The send times of `key` within the window before `nowMs` (older ones dropped). */
  private recent(key: OperationName | '', nowMs: number): number[] {
    const times = this.sends.get(key) ?? [];
    while (times.length > 0 && (times[0] as number) <= nowMs - WINDOW_MS) times.shift();
    this.sends.set(key, times);
    return times;
  }
}
