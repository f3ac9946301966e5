/**
 * What every command that talks to a target shares (live, the audits, check, replay, the
 * conformance suite): the time limit of a run (Deadline, `--max-seconds`) and a bounded pool of
 * concurrent calls. Why in core: it knows nothing of targets, only a clock, and each of those
 * floors, the CLI among them before a command's flags pass, uses it.
 *
 * Time and waiting come in through a WaitClock (clock.ts; the CLI passes the real one: no floor
 * below the CLI is a door for wall time). Talking to a target, waiting out rate limits included, is
 * LiveSession's (src/live/live-session.ts).
 */
import type { WaitClock } from './clock.ts';

export const MAX_SECONDS_LIMIT = 86_400;

/**
 * The time limit of a live run. `interrupt()` (Ctrl-C) ends it at once: whatever stops at the time
 * limit stops there too, the same graceful way (what was placed is verified, the reports written),
 * and `interrupted` tells the two apart for the words and the report.
 */
export class Deadline {
  readonly atMs: number;
  private readonly clock: WaitClock;
  private cut = false;

  constructor(clock: WaitClock, maxSeconds: number) {
    this.clock = clock;
    this.atMs = clock.nowMs() + maxSeconds * 1000;
  }

  get interrupted(): boolean {
    return this.cut;
  }

  interrupt(): void {
    this.cut = true;
  }

  remainingMs(): number {
    return this.cut ? 0 : Math.max(0, this.atMs - this.clock.nowMs());
  }

  passed(): boolean {
    return this.remainingMs() === 0;
  }

  /** A fresh budget of `maxSeconds` on this one's clock (the wall's, where a run waits on a target's clock). */
  renewed(maxSeconds: number): Deadline {
    return new Deadline(this.clock, maxSeconds);
  }
}

/** A bounded pool: runs `work(index)` for 0..count−1 with at most `concurrency` in flight, until `stop()` says so. */
export async function runBounded(
  count: number,
  concurrency: number,
  work: (index: number) => Promise<void>,
  stop: () => boolean,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count && !stop()) {
      const index = next;
      next += 1;
      await work(index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
}
