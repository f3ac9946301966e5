/**
 * Keeps platform timers (escrow expiry, dispute windows, referral sweeps) firing in `afp serve`
 * when no request arrives: one real timer, armed for `platform.nextTimerMs()`. Re-armed after
 * every request and clock move, because either may schedule an earlier timer.
 * In manual clock mode time stands still between admin moves, so nothing is armed: timers fire
 * only when the clock is moved (or a request arrives at a later instant).
 * While the platform lock is held (a snapshot or revert in slices, platform-lock.ts) a due timer
 * waits for its turn like any request: at most one such wait at a time.
 * Limits: one pending timer at most; delays are capped at 2^31 − 1 ms (the runtime's maximum),
 * a longer wait simply re-arms. A throw inside a timer is a bug: logged with the seed, not fatal.
 */
import type { Platform } from '../platform/platform.ts';
import type { PlatformLock } from './platform-lock.ts';
import type { ServeClock } from './serve-clock.ts';

const MAX_DELAY_MS = 2_147_483_647;

export class TimerPump {
  private readonly platform: Platform;
  private readonly clock: ServeClock;
  private readonly log: (line: string) => void;
  private handle: NodeJS.Timeout | null = null;
  private armedForMs: number | null = null;
  private stopped = false;
  private readonly lock: PlatformLock | undefined;
  /** A pump waits for the lock (at most one). */
  private waiting = false;

  constructor(options: { platform: Platform; clock: ServeClock; log: (line: string) => void; lock?: PlatformLock }) {
    this.platform = options.platform;
    this.clock = options.clock;
    this.log = options.log;
    this.lock = options.lock;
  }

  /** Runs what is due now, then arms the one timer for the next instant (wall mode only); after the lock's job, if one holds it. */
  pump(): void {
    if (this.stopped || this.waiting) return;
    if (this.lock !== undefined && !this.lock.free) {
      this.waiting = true;
      void this.lock.later(
        () => {
          this.waiting = false;
          if (!this.stopped) this.runDue();
        },
        { bounded: false },
      );
      return;
    }
    this.runDue();
  }

  /** Runs what is due now (the platform is free: this is its turn), then arms the timer. */
  private runDue(): void {
    try {
      this.platform.advanceTo(this.clock.nowMs());
    } catch (error) {
      this.log(
        `afp serve: INTERNAL ERROR (a bug) in a platform timer — seed ${this.platform.seed}\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
    this.arm();
  }

  /** Arms the timer for the next platform timer, unless it is already armed for that instant. */
  arm(): void {
    const nextMs = this.clock.mode === 'wall' && !this.stopped ? this.platform.nextTimerMs() : undefined;
    if (nextMs !== undefined && nextMs === this.armedForMs && this.handle !== null) return;
    this.clear();
    if (nextMs === undefined) return;
    const delayMs = Math.min(MAX_DELAY_MS, Math.max(0, nextMs - this.clock.nowMs()));
    this.armedForMs = nextMs;
    this.handle = setTimeout(() => {
      this.handle = null;
      this.armedForMs = null;
      this.pump();
    }, delayMs);
    this.handle.unref();
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private clear(): void {
    if (this.handle !== null) clearTimeout(this.handle);
    this.handle = null;
    this.armedForMs = null;
  }
}
