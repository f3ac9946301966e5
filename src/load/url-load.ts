/**
 * runUrlLoad: one `afp load URL` run — the plan's schedule (executors-*.ts) paced by the generator
 * (generator.ts) with a UrlSource as its iterations, every request measured in one LoadRecorder.
 * The scenario run's machinery with another IterationSource: nothing is copied. Composition only;
 * printing and files are the CLI's.
 * The sender gets as many connections as the run may have requests in flight (max_in_flight, or
 * the VUs), so a request never waits for a connection behind the generator's back.
 */
import { peakVus, type LoadPlan } from './executors.ts';
import { runGenerator, type LoadStop } from './generator.ts';
import type { WaitClock } from '../core/clock.ts';
import { LoadRecorder, type LoadSample } from './load-recorder.ts';
import type { LoadRunResult } from './load-run.ts';
import { loadSender } from './load-run-transport.ts';
import { UrlSource, urlMount, type UrlRequest } from './url-source.ts';

export interface UrlLoadOptions {
  readonly request: UrlRequest;
  readonly plan: LoadPlan;
  readonly clock: WaitClock;
  readonly stop: LoadStop;
  readonly timeoutMs: number;
  readonly onSample?: (sample: LoadSample) => void;
  readonly onStart?: (recorder: LoadRecorder) => void;
}

const EMPTY = { count: 0, first: [] } as const;

export async function runUrlLoad(options: UrlLoadOptions): Promise<LoadRunResult> {
  const { plan, clock } = options;
  const inFlightMax = plan.kind === 'arrivals' ? plan.maxInFlight : peakVus(plan);
  const sender = loadSender({
    urls: urlMount(options.request.url),
    maxSockets: Math.max(1, inFlightMax),
    timeoutMs: options.timeoutMs,
  });
  try {
    const recorder = new LoadRecorder(clock.nowMs());
    const source = new UrlSource({
      request: options.request,
      sender,
      clock,
      onSample: (sample) => {
        recorder.record(sample);
        options.onSample?.(sample);
      },
    });
    options.onStart?.(recorder);
    const outcome = await runGenerator({
      plan,
      clock,
      recorder,
      source,
      stop: options.stop,
      interrupt: () => sender.interrupt(),
    });
    return {
      snapshot: recorder.snapshot(),
      outcome,
      agents: 0,
      reports: EMPTY,
      iterationErrors: EMPTY,
      setupTrouble: EMPTY,
      notes: [],
    };
  } finally {
    sender.close();
  }
}
