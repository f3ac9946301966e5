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

/** The longest interval of an unref'd timer due every RESOLUTION_MS, counting only the process's CPU time in it. */
class CpuDelay {
  private timer: NodeJS.Timeout | null = null;
  private lastWallMs = 0;
  private lastCpuMs = 0;
  maxMs = 0;

  start(): void {
    this.reset();
    this.timer = setInterval(() => this.tick(), LOOP_DELAY_RESOLUTION_MS);
    this.timer.unref();
  }

  reset(): void {
    this.lastWallMs = performance.now();
    this.lastCpuMs = processCpuMs();
    this.maxMs = 0;
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private tick(): void {
    const wallMs = performance.now();
    const cpuMs = processCpuMs();
    const ranMs = Math.min(wallMs - this.lastWallMs, cpuMs - this.lastCpuMs);
    this.maxMs = Math.max(this.maxMs, ranMs - LOOP_DELAY_RESOLUTION_MS);
    this.lastWallMs = wallMs;
    this.lastCpuMs = cpuMs;
  }
}

function processCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

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
