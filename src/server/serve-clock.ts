/**
 * The clock of `afp serve`: a ManualOffsetClock (wall time plus a forward-only offset, or frozen
 * in manual mode) that never reads backwards. Why the guard: the wall clock can step back (NTP),
 * and the platform asserts that its time runs forward; a served platform must not crash on that,
 * so a step back reads as "time stands still" until the wall clock catches up.
 */
import { ManualOffsetClock, type Clock } from '../core/clock.ts';

export type ClockMode = 'wall' | 'manual';

export class ServeClock implements Clock {
  readonly mode: ClockMode;
  private readonly inner: ManualOffsetClock;
  private lastMs = 0; // initialized where declared: see Platform.lastMs

  constructor(options: { mode: ClockMode; startMs?: number }) {
    this.mode = options.mode;
    this.inner = new ManualOffsetClock(options.startMs === undefined ? { manual: options.mode === 'manual' } : { manual: options.mode === 'manual', startMs: options.startMs });
    this.lastMs = this.inner.nowMs();
  }

  nowMs(): number {
    const now = this.inner.nowMs();
    if (now > this.lastMs) this.lastMs = now;
    return this.lastMs;
  }

  /** Moves time forward to `ms`; false (nothing moves) for a past or non-integer instant. */
  moveTo(ms: number): boolean {
    if (!Number.isSafeInteger(ms) || ms < this.nowMs()) return false;
    const moved = this.inner.moveTo(Math.max(ms, this.inner.nowMs()));
    if (moved && ms > this.lastMs) this.lastMs = ms;
    return moved;
  }
}
