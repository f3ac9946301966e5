/**
 * The load generator: turns a plan's schedule (executors-arrival.ts, executors-vus.ts) into
 * iterations started on the wall clock, and counts what happened to each one in the LoadRecorder.
 *
 * Open model (arrival-rate executors, the default): every arrival starts an iteration at its
 * intended instant if fewer than `max_in_flight` are in flight and the source has a free agent;
 * otherwise it is a dropped iteration (k6's dropped_iterations), never a late start that would
 * hide the target's slowness. When the cap is reached (or every agent is busy) the generator does
 * not step through the arrivals that keep coming due: it waits for an iteration to end, and counts
 * every arrival due before that instant as dropped in one closed-form count (`countBefore`), as
 * k6 drops what came due while all its VUs were busy. Arrivals already due when the generator
 * wakes start at once, each with its own intended instant, so a late wake-up shows up as latency
 * (measured from the intended start by the recorder), not as a gap. Closed model (vus executors):
 * each VU runs iterations back to back; the intended start of an iteration is when its VU became
 * free.
 * Waiting for an instant: a timer when it is a millisecond or more away, a turn of the event loop
 * (setImmediate) when closer, and a busy wait only within BUSY_WAIT_MS (a timer cannot be that
 * precise, and a spin that short costs less than the turn it saves).
 * Stopping: the schedule's end, or `LoadStop.stop` (Ctrl-C, an abortOnFail threshold). Then no
 * iteration starts; those in flight get `graceful_stop` to finish; what is left is cut
 * (`interrupt` aborts its requests) and counted as interrupted. `LoadStop.hurry` (a second Ctrl-C)
 * ends the graceful wait at once.
 * Failures are counted, never thrown out of the loop (autocannon): an iteration that rejects is a
 * failed iteration handed to `onIterationError`.
 * Bounds: every wait is sliced (at most SLICE_MS) and checks the stop — a wait for a free slot by
 * one watchdog sleep at a time, whatever the number of waits; the loop yields to the event loop at
 * least every YIELD_EVERY starts; a cut waits at most CUT_SETTLE_MS for requests to unwind.
 * Time comes from the injected LoadClock (systemLoadClock() in the CLI; src/load may read wall time).
 */
import { assert } from '../core/assert.ts';
import { arrivalSchedule } from './executors-arrival.ts';
import { vuSteps } from './executors-vus.ts';
import type { ArrivalSchedule } from './executors-arrival.ts';
import type { ArrivalPlan, LoadPlan, VuPlan } from './executors.ts';
import type { LoadRecorder } from './load-recorder.ts';

export interface LoadClock {
  /** Wall time in ms, with sub-millisecond precision. */
  nowMs(): number;
  /** Resolves after `ms` (0: after the event loop has turned once). */
  sleep(ms: number): Promise<void>;
}

export function systemLoadClock(): LoadClock {
  const originMs = performance.timeOrigin;
  return {
    nowMs: () => originMs + performance.now(),
    sleep: (ms) => new Promise((resolve) => (ms <= 0 ? setImmediate(resolve) : setTimeout(resolve, ms))),
  };
}

/** Why and whether a run was asked to stop; shared by the CLI (signals), thresholds and the generator. */
export class LoadStop {
  private stopReason: string | null = null;
  private hurried = false;

  stop(reason: string): void {
    this.stopReason ??= reason;
  }

  /** Ends the graceful wait at once (a second Ctrl-C). */
  hurry(): void {
    this.stop('interrupted');
    this.hurried = true;
  }

  get reason(): string | null {
    return this.stopReason;
  }

  get isHurried(): boolean {
    return this.hurried;
  }
}

export interface IterationSource {
  /** Starts one iteration meant to start at `intendedStartMs`; null when nothing can start now (every agent busy). */
  start(intendedStartMs: number): Promise<void> | null;
}

export interface GeneratorOptions {
  readonly plan: LoadPlan;
  readonly clock: LoadClock;
  /** Its startMs is the run's origin: arrival offsets count from it. */
  readonly recorder: LoadRecorder;
  readonly source: IterationSource;
  readonly stop: LoadStop;
  /** Cuts the iterations still in flight when the graceful stop is over (aborts their requests). */
  readonly interrupt: () => void;
  readonly onIterationError?: (error: unknown) => void;
}

export interface GeneratorOutcome {
  readonly endedBy: 'schedule' | 'stopped';
  readonly stopReason: string | null;
  /** Iterations still in flight when the graceful stop ran out, cut. */
  readonly interrupted: number;
  /** Iterations that rejected (transport trouble, an agent's bug). */
  readonly failedIterations: number;
  readonly endMs: number;
}

export const SLICE_MS = 100;
export const YIELD_EVERY = 256;
export const CUT_SETTLE_MS = 2_000;
/** An instant closer than this (10 µs) is waited for by spinning on the clock; farther ones by a timer or a turn of the event loop. */
export const BUSY_WAIT_MS = 0.01;
/** Below this a timer cannot wait (Node rounds it up to 1 ms): a turn of the event loop instead. */
const TIMER_MIN_MS = 1;
/** A VU that finds no free agent (the agents of VUs ramped down still finishing) looks again this much later. */
const IDLE_RETRY_MS = 10;

class Flight {
  readonly inFlight = new Set<Promise<void>>();
  failed = 0;
  /** Iterations ended so far, and when the last one did (a slot freed): arrivals due before it found the cap full. */
  ended = 0;
  freedAtMs = Number.NEGATIVE_INFINITY;
  private cut = false;
  private readonly options: GeneratorOptions;
  /** The generator waiting for a free slot, if it is. */
  private wake: (() => void) | null = null;
  private watchdogArmed = false;

  constructor(options: GeneratorOptions) {
    this.options = options;
  }

  track(iteration: Promise<void>): Promise<void> {
    const { recorder, onIterationError } = this.options;
    const tracked: Promise<void> = iteration.then(
      () => {
        if (!this.cut) recorder.iterationCompleted();
        this.freed(tracked);
      },
      (error: unknown) => {
        try {
          if (this.cut) return;
          this.failed += 1;
          onIterationError?.(error);
        } finally {
          this.freed(tracked);
        }
      },
    );
    this.inFlight.add(tracked);
    return tracked;
  }

  /** An iteration's slot is free: counted, and the generator waiting for one (if it is) wakes. */
  private freed(tracked: Promise<void>): void {
    this.inFlight.delete(tracked);
    this.ended += 1;
    this.freedAtMs = this.options.clock.nowMs();
    this.wakeUp();
  }

  /**
   * Resolves when an iteration ends, or at the latest after SLICE_MS (so the caller checks the stop
   * and the schedule's end). One watchdog sleep is pending at most, however many times this is called.
   */
  nextChange(): Promise<void> {
    assert(this.wake === null, 'one generator loop waits on a flight at a time');
    const changed = new Promise<void>((resolve) => (this.wake = resolve));
    if (!this.watchdogArmed) {
      this.watchdogArmed = true;
      void this.options.clock.sleep(SLICE_MS).then(() => {
        this.watchdogArmed = false;
        this.wakeUp();
      });
    }
    return changed;
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Waits for the iterations in flight, at most `graceMs`; cuts what remains. Returns how many were cut. */
  async drain(graceMs: number): Promise<number> {
    const { clock, stop } = this.options;
    const untilMs = clock.nowMs() + graceMs;
    while (this.inFlight.size > 0 && !stop.isHurried && clock.nowMs() < untilMs) {
      await Promise.race([Promise.all(this.inFlight), clock.sleep(Math.min(SLICE_MS, untilMs - clock.nowMs()))]);
    }
    const cut = this.inFlight.size;
    if (cut === 0) return 0;
    this.cut = true;
    this.options.interrupt();
    const settleUntilMs = clock.nowMs() + CUT_SETTLE_MS;
    while (this.inFlight.size > 0 && clock.nowMs() < settleUntilMs) await Promise.race([Promise.all(this.inFlight), clock.sleep(SLICE_MS)]);
    return cut;
  }
}

/** Waits until `atMs` (see the header for how); false when the run was stopped meanwhile. */
async function waitUntil(clock: LoadClock, stop: LoadStop, atMs: number): Promise<boolean> {
  for (let nowMs = clock.nowMs(); nowMs < atMs; nowMs = clock.nowMs()) {
    if (stop.reason !== null) return false;
    const aheadMs = atMs - nowMs;
    if (aheadMs <= BUSY_WAIT_MS) spinUntil(clock, atMs);
    else await clock.sleep(aheadMs < TIMER_MIN_MS ? 0 : Math.min(SLICE_MS, aheadMs));
  }
  return stop.reason === null;
}

/** Spins on the clock until `atMs`, for BUSY_WAIT_MS at most (a few hundred clock reads). */
function spinUntil(clock: LoadClock, atMs: number): void {
  const giveUpMs = clock.nowMs() + BUSY_WAIT_MS;
  for (let nowMs = clock.nowMs(); nowMs < atMs && nowMs <= giveUpMs; nowMs = clock.nowMs());
}

export async function runGenerator(options: GeneratorOptions): Promise<GeneratorOutcome> {
  const { plan, clock, recorder, stop } = options;
  const flight = new Flight(options);
  if (plan.kind === 'arrivals') await runArrivals(plan, options, flight);
  else await runVus(plan, options, flight);
  const endedBy = stop.reason === null ? 'schedule' : 'stopped';
  const interrupted = await flight.drain(plan.gracefulStopMs);
  const endMs = clock.nowMs();
  recorder.finish(endMs);
  return { endedBy, stopReason: stop.reason, interrupted, failedIterations: flight.failed, endMs };
}

async function runArrivals(plan: ArrivalPlan, options: GeneratorOptions, flight: Flight): Promise<void> {
  const { clock, recorder, source, stop } = options;
  const originMs = recorder.startMs;
  const schedule = arrivalSchedule(plan);
  let startsSinceYield = 0;
  for (let index = 0, offsetMs = schedule.offsetMs(0); offsetMs !== null; offsetMs = schedule.offsetMs(index)) {
    const intendedMs = originMs + offsetMs;
    // Already due (a saturated generator's usual case): no wait, so no await either.
    if (clock.nowMs() < intendedMs ? !(await waitUntil(clock, stop, intendedMs)) : stop.reason !== null) return;
    const iteration = flight.inFlight.size >= plan.maxInFlight ? null : source.start(intendedMs);
    if (iteration === null) {
      // Nothing in flight and no agent free (every one done): nothing to wait for, this arrival alone is dropped.
      index = flight.inFlight.size === 0 ? index + 1 : await dropWhileBusy({ plan, options, flight, schedule, index });
      continue;
    }
    index += 1;
    recorder.iterationStarted();
    void flight.track(iteration);
    // A generator behind its schedule starts what is due without waiting; it still lets answers in.
    if (++startsSinceYield >= YIELD_EVERY) {
      startsSinceYield = 0;
      await clock.sleep(0);
    }
  }
  await waitUntil(clock, stop, originMs + plan.durationMs);
}

/**
 * Arrival `index` found no free slot: waits for an iteration to end (or the stop, or the schedule's
 * end) and drops `index` and every arrival due before that instant, counted in closed form.
 * Returns the index of the first arrival not dropped.
 */
async function dropWhileBusy(context: { plan: ArrivalPlan; options: GeneratorOptions; flight: Flight; schedule: ArrivalSchedule; index: number }): Promise<number> {
  const { plan, options, flight, schedule, index } = context;
  const { clock, recorder, stop } = options;
  const originMs = recorder.startMs;
  const endMs = originMs + plan.durationMs;
  const endedBefore = flight.ended;
  while (flight.ended === endedBefore && stop.reason === null && clock.nowMs() < endMs) await flight.nextChange();
  // Freed: what came due before the slot did found the cap full. Stopped or over: what came due before now.
  const untilMs = flight.ended !== endedBefore ? flight.freedAtMs : clock.nowMs();
  const next = Math.max(index + 1, schedule.countBefore(untilMs - originMs));
  recorder.iterationDropped(next - index);
  return next;
}

async function runVus(plan: VuPlan, options: GeneratorOptions, flight: Flight): Promise<void> {
  const { clock, recorder, source, stop } = options;
  const originMs = recorder.startMs;
  const endMs = originMs + plan.durationMs;
  let planned = 0;
  let ended = false;
  const running = new Map<number, Promise<void>>();
  const vu = async (index: number): Promise<void> => {
    while (!ended && stop.reason === null && index < planned && clock.nowMs() < endMs) {
      const iteration = source.start(clock.nowMs());
      if (iteration === null) {
        await clock.sleep(IDLE_RETRY_MS);
        continue;
      }
      recorder.iterationStarted();
      await flight.track(iteration);
    }
    running.delete(index);
  };
  for (const step of vuSteps(plan)) {
    if (!(await waitUntil(clock, stop, originMs + step.atMs))) break;
    assert(Number.isSafeInteger(step.vus) && step.vus >= 0, 'a VU step plans a whole number of VUs');
    planned = step.vus;
    for (let index = 0; index < planned; index++) if (!running.has(index)) running.set(index, vu(index));
  }
  await waitUntil(clock, stop, endMs);
  ended = true;
}
