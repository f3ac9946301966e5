/**
 * The clock of `afp serve`: a ManualOffsetClock (wall time plus a forward-only offset, or frozen
 * in manual mode) that never reads backwards. Why the guard: the wall clock can step back (NTP),
 * and the platform asserts that its time runs forward; a served platform must not crash on that,
 * so a step back reads as "time stands still" until the wall clock catches up.
 * Time travel (POST /_afp/revert and /_afp/reset, src/server/time-travel.ts) is the one way back:
 * `travelTo` sets the clock to an earlier instant on purpose, and the guard restarts from there.
 */
import { ManualOffsetClock, type Clock } from '../core/clock.ts';

export type ClockMode = 'wall' | 'manual';

export class ServeClock implements Clock {
  readonly mode: ClockMode;
  private readonly inner: ManualOffsetClock;
  private lastMs = 0; // initialized where declared: see Platform.lastMs
  /** How far time travel shifted the clock from `inner` (negative after a move back). */
  private shiftMs = 0;

  constructor(options: { mode: ClockMode; startMs?: number }) {
    this.mode = options.mode;
    this.inner = new ManualOffsetClock(
      options.startMs === undefined
        ? { manual: options.mode === 'manual' }
        : { manual: options.mode === 'manual', startMs: options.startMs },
    );
    this.lastMs = this.inner.nowMs();
  }

  nowMs(): number {
    const now = this.inner.nowMs() + this.shiftMs;
    if (now > this.lastMs) this.lastMs = now;
    return this.lastMs;
  }

  /** Moves time forward to `ms`; false (nothing moves) for a past or non-integer instant. */
  moveTo(ms: number): boolean {
    if (!Number.isSafeInteger(ms) || ms < this.nowMs()) return false;
    const moved = this.inner.moveTo(Math.max(ms - this.shiftMs, this.inner.nowMs()));
    if (moved && ms > this.lastMs) this.lastMs = ms;
    return moved;
  }

  /** Sets the clock to `ms`, earlier or later (time travel); a wall clock runs on from there. */
  travelTo(ms: number): void {
    this.shiftMs = ms - this.inner.nowMs();
    this.lastMs = ms;
  }
}
