/**
 * Clock: the only door through which time enters afp.
 *
 * Domain code never reads the time itself; it receives `nowMs` from its caller, and the caller
 * gets it from a Clock. The simulator uses `VirtualClock` (moved only by the scheduler, never
 * backwards); live modes use `SystemClock`; `afp serve` uses `ManualOffsetClock`, a wall clock that
 * can be moved forward (time travel for agent developers and for replay). The live commands and
 * `afp load` wait on a WaitClock (a Clock with `sleep`), which the CLI builds on the wall clock.
 */
import { assert } from './assert.ts';

/** A day of the clock's milliseconds. */
export const DAY_MS = 86_400_000;

/** What reads the time: the platform, the simulator, reports' progress lines. */
export interface Clock {
  nowMs(): number;
}

/**
 * A clock that can also be waited on: what the live commands pace and back off with, and what
 * `afp load` schedules arrivals on. `sleep(ms)` resolves once the clock has moved `ms` forward (on
 * the wall: a timer; on a manual afp serve: a move of its clock, src/live/remote-serve-clock.ts);
 * 0 or less resolves after the event loop has turned once. Why one interface and not one per
 * harness: the same clock is handed from the CLI to live, audit, check, replay and load alike.
 */
export interface WaitClock extends Clock {
  sleep(ms: number): Promise<void>;
}

export class VirtualClock implements Clock {
  /** Initialized where declared, as the platform's time (platform.ts): the clock moves on every request. */
  private currentMs = 0;

  constructor(startMs: number) {
    assert(Number.isSafeInteger(startMs) && startMs >= 0, 'clock start is a non-negative integer');
    this.currentMs = startMs;
  }

  nowMs(): number {
    return this.currentMs;
  }

  /** Moves time to `ms`. Time never runs backwards. */
  set(ms: number): void {
    assert(Number.isSafeInteger(ms), 'clock time is an integer');
    // The message is built only on failure: the clock moves for every simulated event.
    if (ms < this.currentMs) assert(false, `virtual time runs forward (${ms} < ${this.currentMs})`);
    this.currentMs = ms;
  }

  advance(deltaMs: number): void {
    this.set(this.currentMs + deltaMs);
  }
}

export class SystemClock implements Clock {
  nowMs(): number {
    return Date.now();
  }
}

/**
 * The wall clock plus an offset that only grows. `afp serve` answers with it so that a developer
 * (or `afp replay`) can jump the platform forward to an escrow's expiry or the next faucet claim.
 * In `manual` mode the clock stands still between jumps, which makes a served platform as
 * deterministic as the simulator.
 */
export class ManualOffsetClock implements Clock {
  private offsetMs = 0;
  private frozenMs: number | null;

  constructor(options: { manual: boolean; startMs?: number }) {
    this.frozenMs = options.manual ? (options.startMs ?? Date.now()) : null;
    if (!options.manual && options.startMs !== undefined) this.offsetMs = Math.max(0, options.startMs - Date.now());
  }

  nowMs(): number {
    if (this.frozenMs !== null) return this.frozenMs;
    return Date.now() + this.offsetMs;
  }

  /** Moves the clock forward to `ms`; a time in the past is refused (returns false). */
  moveTo(ms: number): boolean {
    const now = this.nowMs();
    if (!Number.isSafeInteger(ms) || ms < now) return false;
    if (this.frozenMs !== null) this.frozenMs = ms;
    else this.offsetMs += ms - now;
    return true;
  }
}
