/**
 * The wall clock of a live load run: `nowMs` from the process's performance clock, `sleep` by
 * timers (setImmediate for no wait). The CLI injects it (the generator and src/load take a
 * WaitClock; rule 1). Why a file of its own: a command's terminal io holds it, and the io is
 * built before the generator is loaded (afp load refuses bad flags first).
 */
import type { WaitClock } from '../core/clock.ts';

/** The wall clock with sub-millisecond precision, and timers to sleep on. */
export function systemLoadClock(): WaitClock {
  const originMs = performance.timeOrigin;
  return {
    nowMs: () => originMs + performance.now(),
    sleep: (ms) => new Promise((resolve) => (ms <= 0 ? setImmediate(resolve) : setTimeout(resolve, ms))),
  };
}
