/**
 * Style B's daily cap per game type (casino.md Limits 4: "10,000 per day per game type"): each
 * agent may place at most `perDay` style-B bets on each game per UTC day. The platform's rate
 * limiter charges buckets before a request is parsed, and the game is in the body, so this cap is
 * counted by the casino once the game is known; a refusal is the spec's 429 with the daily
 * window's fields, and changes nothing.
 *
 * Memory: one counter per (agent, game) that bet today; counters of earlier days are replaced on
 * first use and swept when the map doubles (a bound like the limiter's).
 */
import { fail, type Failure } from '../../core/errors.ts';
import { isoTime } from '../../core/iso-time.ts';

const DAY_MS = 86_400_000;
export const DAILY_GAME_CAP_B = 10_000;

export class DailyGameCap {
  private readonly counts = new Map<string, { day: number; count: number }>();
  private readonly perDay: number;
  private sweepAt = 65_536;

  constructor(perDay = DAILY_GAME_CAP_B) {
    this.perDay = perDay;
  }

  /** Counts one bet, or refuses it (429) when today's count for this game is used up. */
  take(agentId: string, game: string, nowMs: number): Failure | null {
    const day = Math.floor(nowMs / DAY_MS);
    const key = `${agentId}|${game}`;
    let entry = this.counts.get(key);
    if (entry === undefined || entry.day !== day) {
      if (this.counts.size >= this.sweepAt) this.sweep(day);
      entry = { day, count: 0 };
      this.counts.set(key, entry);
    }
    if (entry.count >= this.perDay) {
      const resetMs = (day + 1) * DAY_MS;
      const retryAfterSeconds = Math.max(1, Math.ceil((resetMs - nowMs) / 1000));
      return fail(
        'RATE_LIMIT',
        `Rate limit exceeded: ${this.perDay} ${game} bets per day (casino-daily:${game}). Retry in ${retryAfterSeconds} s.`,
        {
          limit: this.perDay,
          window: '1d',
          retry_after_seconds: retryAfterSeconds,
          reset_at: isoTime(resetMs),
          scope: `casino-daily:${game}`,
        },
      );
    }
    entry.count += 1;
    return null;
  }

  private sweep(day: number): void {
    for (const [key, entry] of this.counts) if (entry.day !== day) this.counts.delete(key);
    this.sweepAt = Math.max(65_536, this.counts.size * 2);
  }
}
