/**
 * LiveWindow: what the live view of `afp load` shows while the run goes — requests, failures and
 * latency of the last complete second (by the instant answers came), plus totals — kept apart from
 * the LoadRecorder so the view never encodes the run's histograms (autocannon: measuring and
 * printing apart). Fed one sample at a time; read by `view(nowMs)`.
 * Bounded: two one-second tallies and their histograms, whatever the run's length.
 */
import { newStagingHistogram, percentilesOf, type LoadSample } from './load-recorder.ts';

export interface LiveView {
  readonly elapsedMs: number;
  /** Answers (and failures) completed in the last complete second. */
  readonly requestsPerSecond: number;
  /** p99 latency (from the intended start) of the last complete second; 0 with no requests. */
  readonly p99Ms: number;
  /** Failed / requests in the last complete second; 0 with no requests. */
  readonly errorRate: number;
  readonly requests: number;
  readonly failed: number;
}

class Second {
  requests = 0;
  failed = 0;
  readonly latency = newStagingHistogram();
  readonly index: number;

  constructor(index: number) {
    this.index = index;
  }
}

export class LiveWindow {
  readonly startMs: number;
  private current: Second;
  private previous: Second;
  private requests = 0;
  private failed = 0;

  constructor(startMs: number) {
    this.startMs = startMs;
    this.current = new Second(0);
    this.previous = new Second(-1);
  }

  add(sample: LoadSample): void {
    const index = Math.max(0, Math.floor((sample.endMs - this.startMs) / 1000));
    this.roll(index);
    const second = index === this.current.index ? this.current : index === this.previous.index ? this.previous : null;
    this.requests += 1;
    if (sample.failed) this.failed += 1;
    if (second === null) return;
    second.requests += 1;
    if (sample.failed) second.failed += 1;
    second.latency.recordValue(Math.max(1, Math.round((sample.endMs - sample.intendedStartMs) * 1000)));
  }

  view(nowMs: number): LiveView {
    const index = Math.floor((nowMs - this.startMs) / 1000);
    this.roll(index);
    const last = this.previous.index === index - 1 ? this.previous : null;
    const requests = last?.requests ?? 0;
    return {
      elapsedMs: Math.max(0, nowMs - this.startMs),
      requestsPerSecond: requests,
      p99Ms: last === null || requests === 0 ? 0 : percentilesOf(last.latency).p99Ms,
      errorRate: requests === 0 ? 0 : (last?.failed ?? 0) / requests,
      requests: this.requests,
      failed: this.failed,
    };
  }

  private roll(index: number): void {
    if (index <= this.current.index) return;
    this.previous = index === this.current.index + 1 ? this.current : new Second(index - 1);
    this.current = new Second(index);
  }
}
