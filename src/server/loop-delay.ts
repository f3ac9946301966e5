/**
 * LoopDelay: how late afp serve's own event loop ran, measured inside the server with
 * `perf_hooks.monitorEventLoopDelay` (issue 71 part 1: "no pause over 50 ms"). Why inside: a probe
 * from outside (GET /health every 10 ms) also counts its own process's and the network's delays,
 * and on a loaded machine those are most of what it sees; the histogram sees only this loop.
 * Shown by GET /_afp/state under `event_loop`; POST /_afp/event-loop/reset answers the window so
 * far and starts a new one, so a load test reads the figures of its own run (docs/decisions/serve.md).
 *
 * The histogram's timer is due every RESOLUTION_MS; each value is how long one interval really
 * took, so it includes the interval itself: a delay is a value less RESOLUTION_MS (never below 0).
 * A block shorter than the resolution may be missed or merged with the next, and one before the
 * timer's first turn after `start` is not seen (it has no interval to end); the figures are the
 * loop's lateness at that grain. The timer is unref'd by Node and stops with `stop`.
 * `cpu_max_ms` beside it: the longest delay counting only the time this process ran (its CPU time
 * over each interval of a timer of the same period, at most the interval's wall time, less the
 * resolution). Why: on a shared machine a process waits for a core, and the wall figure counts
 * that wait as a pause of afp's; the CPU figure does not (as loop-block.ts argues for checkpoints).
 * It counts every thread of the process (the collector's helpers, the checkpoint worker), so it
 * may exceed the loop's own share; on a loaded machine read both.
 * Why the process's CPU time is read rarely: it is getrusage(RUSAGE_SELF), and in afp serve under
 * load one call cost 0.8–1.5 ms of the loop's own CPU (500 calls: 413–766 ms, measured beside the
 * thread's own clock at 3 ms for 500), about a tenth of the core at the timer's 100 a second. So
 * each tick reads the loop thread's own CPU time (cheap), and the process's only every
 * ANCHOR_TICKS ticks and when an interval is late enough to raise the longest. The process's CPU
 * over an interval is then bounded from above: what it ran since the last such reading (the
 * anchor), less what the loop thread ran between the anchor and the interval's start (the process
 * ran at least that). Exact when the anchor is the interval's start; otherwise it may count the
 * helpers' time of at most ANCHOR_TICKS intervals before it, never less than the interval's.
 * Measuring only: wall and CPU time of this process, never the platform's clock.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { JsonObject } from '../core/errors.ts';

/** The histogram's timer interval (ms): fine enough for a 50 ms target, cheap enough to leave on. */
export const LOOP_DELAY_RESOLUTION_MS = 10;

const NS_PER_MS = 1e6;

/** A histogram value (ns, interval included) as a delay in ms to 0.1 ms. */
function delayMs(valueNs: number): number {
  return Math.round(Math.max(0, valueNs / NS_PER_MS - LOOP_DELAY_RESOLUTION_MS) * 10) / 10;
}

/** Ticks between two readings of the process's CPU time while no interval is late (see the header). */
const ANCHOR_TICKS = 10;

/** The longest interval of an unref'd timer due every RESOLUTION_MS, counting only the process's CPU time in it (an upper bound: header). */
class CpuDelay {
  private timer: NodeJS.Timeout | null = null;
  private lastWallMs = 0;
  private lastThreadMs = 0;
  /** The anchor: the process's and the loop thread's CPU time when the process's was last read. */
  private anchorProcessMs = 0;
  private anchorThreadMs = 0;
  private ticksSinceAnchor = 0;
  maxMs = 0;

  start(): void {
    this.reset();
    this.timer = setInterval(() => this.tick(), LOOP_DELAY_RESOLUTION_MS);
    this.timer.unref();
  }

  reset(): void {
    this.lastWallMs = performance.now();
    this.lastThreadMs = threadCpuMs();
    this.anchor(processCpuMs(), this.lastThreadMs);
    this.maxMs = 0;
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private anchor(processMs: number, threadMs: number): void {
    this.anchorProcessMs = processMs;
    this.anchorThreadMs = threadMs;
    this.ticksSinceAnchor = 0;
  }

  private tick(): void {
    const wallMs = performance.now();
    const threadMs = threadCpuMs();
    const wallDeltaMs = wallMs - this.lastWallMs;
    if (wallDeltaMs - LOOP_DELAY_RESOLUTION_MS > this.maxMs) {
      const processMs = processCpuMs();
      const ranBeforeMs = this.lastThreadMs - this.anchorThreadMs;
      const ranMs = Math.min(wallDeltaMs, processMs - this.anchorProcessMs - ranBeforeMs);
      this.maxMs = Math.max(this.maxMs, ranMs - LOOP_DELAY_RESOLUTION_MS);
      this.anchor(processMs, threadMs);
    } else if (++this.ticksSinceAnchor >= ANCHOR_TICKS) {
      this.anchor(processCpuMs(), threadMs);
    }
    this.lastWallMs = wallMs;
    this.lastThreadMs = threadMs;
  }
}

/** This process's CPU time, every thread (ms): getrusage, costly under load (header). */
function processCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * The loop thread's own CPU time (ms). Node before 22.15 has no `threadCpuUsage`: there the
 * process's time stands in, read every tick as before, and the bound is exact.
 */
const threadCpuMs: () => number =
  typeof process.threadCpuUsage === 'function'
    ? () => {
        const usage = process.threadCpuUsage();
        return (usage.user + usage.system) / 1000;
      }
    : processCpuMs;

export class LoopDelay {
  private readonly histogram: ReturnType<typeof monitorEventLoopDelay>;
  private readonly cpu = new CpuDelay();
  private windowStartedMs: number;

  constructor() {
    this.histogram = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
    this.windowStartedMs = performance.now();
  }

  /** Starts measuring (afp serve: once its listeners are up); the window starts now. */
  start(): void {
    this.histogram.enable();
    this.cpu.start();
    this.windowStartedMs = performance.now();
  }

  /** The window so far: the longest delay, its 99th percentile and mean (null before a first sample), and how long the window is. */
  view(): JsonObject {
    const histogram = this.histogram;
    const sampled = histogram.count > 0;
    return {
      resolution_ms: LOOP_DELAY_RESOLUTION_MS,
      max_ms: sampled ? delayMs(histogram.max) : null,
      p99_ms: sampled ? delayMs(histogram.percentile(99)) : null,
      mean_ms: sampled ? delayMs(histogram.mean) : null,
      cpu_max_ms: sampled ? Math.round(Math.max(0, this.cpu.maxMs) * 10) / 10 : null,
      samples: histogram.count,
      window_ms: Math.round(performance.now() - this.windowStartedMs),
    };
  }

  /** Answers the window so far and starts a new one. */
  reset(): JsonObject {
    const closed = this.view();
    this.histogram.reset();
    this.cpu.reset();
    this.windowStartedMs = performance.now();
    return closed;
  }

  stop(): void {
    this.cpu.stop();
    this.histogram.disable();
  }
}
