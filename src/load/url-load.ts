/**
 * runUrlLoad: one `afp load URL` run — the plan's schedule (executors-*.ts) paced by the generator
 * (generator.ts) with a UrlSource as its iterations, every request measured in one LoadRecorder
 * and every check counted in it. The scenario run's machinery with another IterationSource:
 * nothing is copied. Composition only; printing and files are the CLI's.
 * One sender per origin the requests name (a --requests file may list several: afp's "no other
 * origin" rule is about redirects, and none is followed), each with as many connections as the run
 * may have iterations in flight (max_in_flight, or the VUs): an iteration has one request in flight
 * at a time, so a request never waits for a connection behind the generator's back.
 */
import { peakVus, type LoadPlan } from './executors.ts';
import { runGenerator, type LoadStop } from './generator.ts';
import type { WaitClock } from '../core/clock.ts';
import { LoadRecorder, type LoadSample } from './load-recorder.ts';
import type { LoadRunResult } from './load-run.ts';
import { loadSender, type LoadSender } from './load-run-transport.ts';
import { UrlSource, urlMount, type UrlRequest } from './url-source.ts';

export interface UrlLoadOptions {
  /** Sent in order, every iteration (at least one). */
  readonly requests: readonly UrlRequest[];
  readonly plan: LoadPlan;
  readonly clock: WaitClock;
  readonly stop: LoadStop;
  readonly timeoutMs: number;
  /** https:// only: take any certificate (k6's --insecure-skip-tls-verify). */
  readonly insecureSkipTlsVerify?: boolean;
  readonly onSample?: (sample: LoadSample) => void;
  /** Every check's result, as it is judged (after the recorder counted it). */
  readonly onCheck?: (name: string, ok: boolean, atMs: number) => void;
  readonly onStart?: (recorder: LoadRecorder) => void;
}

const EMPTY = { count: 0, first: [] } as const;

export async function runUrlLoad(options: UrlLoadOptions): Promise<LoadRunResult> {
  const { plan, clock } = options;
  const inFlightMax = plan.kind === 'arrivals' ? plan.maxInFlight : peakVus(plan);
  const senders = new Map<string, LoadSender>();
  const senderOf = (origin: string): LoadSender => {
    let sender = senders.get(origin);
    if (sender === undefined) {
      sender = loadSender({
        urls: urlMount(origin),
        maxSockets: Math.max(1, inFlightMax),
        timeoutMs: options.timeoutMs,
        ...(options.insecureSkipTlsVerify === true ? { insecureSkipTlsVerify: true } : {}),
      });
      senders.set(origin, sender);
    }
    return sender;
  };
  try {
    const recorder = new LoadRecorder(clock.nowMs());
    const source = new UrlSource({
      requests: options.requests,
      senderOf,
      clock,
      onSample: (sample) => {
        recorder.record(sample);
        options.onSample?.(sample);
      },
      onCheck: (name, ok, atMs) => {
        recorder.check(name, ok);
        options.onCheck?.(name, ok, atMs);
      },
    });
    options.onStart?.(recorder);
    const outcome = await runGenerator({
      plan,
      clock,
      recorder,
      source,
      stop: options.stop,
      interrupt: () => {
        for (const sender of senders.values()) sender.interrupt();
      },
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
    for (const sender of senders.values()) sender.close();
  }
}
