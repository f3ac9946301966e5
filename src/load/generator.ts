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
 * (measured from the intended start by the recorder), not as a gap. The open model's loop runs on
 * events, not awaits (ArrivalLoop): an iteration's end calls back into it, and the next due
 * arrival starts in that same turn, so its request goes out with no promise hop in between (the
 * sources call `ended` from their one promise: the agent's iteration, the recording transport's).
 * Closed model (vus executors):
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
 * Time comes from the injected WaitClock (systemLoadClock() in the CLI; src/load may read wall time).
 */
import { assert } from '../core/assert.ts';
import type { WaitClock } from '../core/clock.ts';
import { arrivalSchedule } from './executors-arrival.ts';
import { vuSteps } from './executors-vus.ts';
import type { ArrivalSchedule } from './executors-arrival.ts';
import type { ArrivalPlan, LoadPlan, VuPlan } from './executors.ts';
import type { LoadRecorder } from './load-recorder.ts';

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

/** How an iteration ended: null when it completed, or what it rejected with (transport trouble, an agent's bug). */
export type IterationEnd = { readonly error: unknown } | null;

export interface IterationSource {
  /**
   * Starts one iteration meant to start at `intendedStartMs` and calls `ended` once when it is over
   * (never before `start` returns); false when nothing can start now (every agent busy).
   */
  start(intendedStartMs: number, ended: (end: IterationEnd) => void): boolean;
}

export interface GeneratorOptions {
  readonly plan: LoadPlan;
  readonly clock: WaitClock;
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

/** The iterations in flight: started through the source, counted when they end, waited for at the stop. */
class Flight {
  inFlight = 0;
  failed = 0;
  /** Iterations ended so far, and when the last one did (a slot freed): arrivals due before it found the cap full. */
  ended = 0;
  freedAtMs = Number.NEGATIVE_INFINITY;
  /** Called in the turn an iteration ends (the open model starts its next due arrival from there). */
  onFreed: () => void = () => undefined;
  private cut = false;
  private starting = false;
  private readonly options: GeneratorOptions;
  /** The drain waiting for an iteration to end, if it is. */
  private ending: PromiseWithResolvers<void> | null = null;

  constructor(options: GeneratorOptions) {
    this.options = options;
  }

  /** Starts an iteration meant for `intendedStartMs` (`afterEnd` runs once it is counted); false when the source has nothing free. */
  start(intendedStartMs: number, afterEnd?: () => void): boolean {
    this.starting = true;
    const started = this.options.source.start(intendedStartMs, (end) => this.end(end, afterEnd));
    this.starting = false;
    if (!started) return false;
    this.inFlight += 1;
    this.options.recorder.iterationStarted();
    return true;
  }

  private end(end: IterationEnd, afterEnd: (() => void) | undefined): void {
    assert(!this.starting, 'an iteration ends after its start returned (IterationSource.start)');
    const { recorder, onIterationError } = this.options;
    try {
      if (this.cut) return;
      if (end === null) recorder.iterationCompleted();
      else {
        this.failed += 1;
        onIterationError?.(end.error);
      }
    } finally {
      this.inFlight -= 1;
      this.ended += 1;
      this.freedAtMs = this.options.clock.nowMs();
      this.wakeUp();
      afterEnd?.();
      this.onFreed();
    }
  }

  /** Resolves when the next iteration ends (one promise, shared by whoever waits). */
  private nextEnd(): Promise<void> {
    this.ending ??= Promise.withResolvers<void>();
    return this.ending.promise;
  }

  private wakeUp(): void {
    const ending = this.ending;
    this.ending = null;
    ending?.resolve();
  }

  /** Waits for the iterations in flight, at most `graceMs`; cuts what remains. Returns how many were cut. */
  async drain(graceMs: number): Promise<number> {
    const { clock, stop } = this.options;
    const untilMs = clock.nowMs() + graceMs;
    while (this.inFlight > 0 && !stop.isHurried && clock.nowMs() < untilMs)
      await Promise.race([this.nextEnd(), clock.sleep(Math.min(SLICE_MS, untilMs - clock.nowMs()))]);
    const cut = this.inFlight;
    if (cut === 0) return 0;
    this.cut = true;
    this.options.interrupt();
    const settleUntilMs = clock.nowMs() + CUT_SETTLE_MS;
    while (this.inFlight > 0 && clock.nowMs() < settleUntilMs)
      await Promise.race([this.nextEnd(), clock.sleep(SLICE_MS)]);
    return cut;
  }
}

/** Waits until `atMs` (see the header for how); false when the run was stopped meanwhile. */
async function waitUntil(clock: WaitClock, stop: LoadStop, atMs: number): Promise<boolean> {
  for (let nowMs = clock.nowMs(); nowMs < atMs; nowMs = clock.nowMs()) {
    if (stop.reason !== null) return false;
    const aheadMs = atMs - nowMs;
    if (aheadMs <= BUSY_WAIT_MS) spinUntil(clock, atMs);
    else await clock.sleep(aheadMs < TIMER_MIN_MS ? 0 : Math.min(SLICE_MS, aheadMs));
  }
  return stop.reason === null;
}

/** Spins on the clock until `atMs`, for BUSY_WAIT_MS at most (a few hundred clock reads). */
function spinUntil(clock: WaitClock, atMs: number): void {
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
  await new ArrivalLoop(plan, options, flight).run();
  await waitUntil(options.clock, options.stop, options.recorder.startMs + plan.durationMs);
}

/**
 * The open model's loop, run by events rather than awaits: `pump` starts every arrival that is due
 * while a slot is free, and an iteration's end pumps again in its own turn, so the next due
 * arrival's request goes out in the turn the answer that freed its slot was read. One wake-up is
 * armed at a time: the next arrival's instant, a turn of the event loop (every YIELD_EVERY starts),
 * or, while no slot is free, an iteration's end, with a watchdog every SLICE_MS for the stop and
 * the schedule's end. A throw (a bug) rejects `run`.
 */
class ArrivalLoop {
  private index = 0;
  /** Every slot was busy for the arrival at `index`: it waits for an iteration to end. */
  private blocked = false;
  private watchdogArmed = false;
  private finished = false;
  private readonly done = Promise.withResolvers<void>();
  private readonly schedule: ArrivalSchedule;
  private readonly originMs: number;
  private readonly plan: ArrivalPlan;
  private readonly options: GeneratorOptions;
  private readonly flight: Flight;

  constructor(plan: ArrivalPlan, options: GeneratorOptions, flight: Flight) {
    this.plan = plan;
    this.options = options;
    this.flight = flight;
    this.schedule = arrivalSchedule(plan);
    this.originMs = options.recorder.startMs;
    flight.onFreed = () => this.guard(() => this.freed());
  }

  run(): Promise<void> {
    this.guard(() => this.pump());
    return this.done.promise;
  }

  /** Starts what is due, until the next arrival lies ahead, every slot is busy, or YIELD_EVERY starts. */
  private pump(): void {
    const { clock, recorder, stop } = this.options;
    for (let starts = 0; !this.finished;) {
      const offsetMs = this.schedule.offsetMs(this.index);
      if (offsetMs === null || stop.reason !== null) return this.finish();
      const intendedMs = this.originMs + offsetMs;
      const aheadMs = intendedMs - clock.nowMs();
      if (aheadMs > BUSY_WAIT_MS) return this.pumpAfter(aheadMs < TIMER_MIN_MS ? 0 : Math.min(SLICE_MS, aheadMs));
      if (aheadMs > 0) {
        spinUntil(clock, intendedMs);
        continue;
      }
      if (this.flight.inFlight < this.plan.maxInFlight && this.flight.start(intendedMs)) {
        this.index += 1;
        // A generator behind its schedule starts what is due without waiting; it still lets answers in.
        if (++starts >= YIELD_EVERY) return this.pumpAfter(0);
      } else if (this.flight.inFlight === 0) {
        // Nothing in flight and no agent free (every one done): nothing to wait for, this arrival alone is dropped.
        recorder.iterationDropped(1);
        this.index += 1;
      } else {
        this.blocked = true;
        return this.armWatchdog();
      }
    }
  }

  /** An iteration ended: if the loop waited for a slot, what came due before it freed is dropped and the loop goes on at once. */
  private freed(): void {
    if (!this.blocked) return;
    this.blocked = false;
    this.dropUntil(this.flight.freedAtMs);
    this.pump();
  }

  /** The arrival at `index` and every one due before `untilMs` found no free slot: dropped, counted in closed form. */
  private dropUntil(untilMs: number): void {
    const next = Math.max(this.index + 1, this.schedule.countBefore(untilMs - this.originMs));
    this.options.recorder.iterationDropped(next - this.index);
    this.index = next;
  }

  /** While blocked, every SLICE_MS: stopped or past the schedule's end, what came due before now is dropped and the loop ends. */
  private armWatchdog(): void {
    if (this.watchdogArmed) return;
    this.watchdogArmed = true;
    const { clock, stop } = this.options;
    void clock.sleep(SLICE_MS).then(() =>
      this.guard(() => {
        this.watchdogArmed = false;
        if (!this.blocked) return;
        if (stop.reason === null && clock.nowMs() < this.originMs + this.plan.durationMs) return this.armWatchdog();
        this.blocked = false;
        this.dropUntil(clock.nowMs());
        this.pump();
      }),
    );
  }

  private pumpAfter(ms: number): void {
    void this.options.clock.sleep(ms).then(() => this.guard(() => this.pump()));
  }

  private guard(step: () => void): void {
    try {
      step();
    } catch (error) {
      if (!this.finished) this.done.reject(error);
      this.finished = true;
    }
  }

  private finish(): void {
    this.finished = true;
    this.done.resolve();
  }
}

async function runVus(plan: VuPlan, options: GeneratorOptions, flight: Flight): Promise<void> {
  const { clock, recorder, stop } = options;
  const originMs = recorder.startMs;
  const endMs = originMs + plan.durationMs;
  let planned = 0;
  let ended = false;
  const running = new Map<number, Promise<void>>();
  /** Starts an iteration and resolves when it ends; false at once when no agent is free. */
  const iteration = (intendedStartMs: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (!flight.start(intendedStartMs, () => resolve(true))) resolve(false);
    });
  const vu = async (index: number): Promise<void> => {
    while (!ended && stop.reason === null && index < planned && clock.nowMs() < endMs) {
      if (!(await iteration(clock.nowMs()))) await clock.sleep(IDLE_RETRY_MS);
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
