/**
 * A block of the event loop, measured two ways: its wall time (what a request waiting behind it
 * sees) and this thread's CPU time over it (what the block itself costs). Why both: on a shared
 * machine the wall time also counts the time the thread waited for a core, so a figure such as
 * "a checkpoint blocks the loop at most 50 ms" is checked on the CPU time, and the wall time is
 * shown beside it. Node before 23.9 has no per-thread CPU clock: the CPU figure is then the wall's.
 */

export interface BlockTime {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** This thread's CPU time so far (ms); null before Node 23.9. */
export function threadCpuMs(): number | null {
  if (typeof process.threadCpuUsage !== 'function') return null;
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Starts measuring a block; the function returned ends it. */
export function startBlock(): () => BlockTime {
  const startedMs = performance.now();
  const startedCpuMs = threadCpuMs();
  return () => {
    const wallMs = performance.now() - startedMs;
    const cpuMs = threadCpuMs();
    return { wallMs, cpuMs: cpuMs === null || startedCpuMs === null ? wallMs : cpuMs - startedCpuMs };
  };
}
