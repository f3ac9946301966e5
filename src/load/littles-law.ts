/**
 * Little's law as a check of a run's own figures: throughput × mean latency is the mean number of
 * requests in flight (L = λW). A latency figure that disagrees with the run's concurrency by more
 * than LITTLE_TOLERANCE cannot be true of that run, whatever engine measured it — the check that
 * would have caught autocannon timing answers from the wrong request (65k requests/s with a p50 of
 * 5 ms over 10 connections means 300+ in flight, not 10).
 *
 * The concurrency it is held against: the configured one for a closed loop whose iteration is one
 * request (autocannon's connections, `afp load URL --vus N`), where a loop keeps exactly that many
 * requests out; otherwise the mean measured on the wire (the snapshot's `wireMsTotal`: each
 * request's time from its write to its answer, summed, over the run's length), apart from the
 * latency figures, which run from the intended start. In the open model the two differ by the time
 * requests waited for the generator behind its schedule: a flag there says the latency includes the
 * generator's own lateness.
 * Too few in flight to judge (`ok` null): with the in-flight measured on the wire, a check below
 * MEASURABLE_IN_FLIGHT_FLOOR: λ × GENERATOR_TIMER_MS / LITTLE_TOLERANCE. The generator's waits
 * are timers, which fire up to about 1 ms late on an idle machine, so each request's latency from
 * its intended start may hold a millisecond the wire never saw; below the floor that millisecond
 * alone is more than 20% of the in-flight count (5/s at 0.4 ms on the wire is 0.002 in flight, and
 * a 1 ms timer made it "DISAGREE ... the generator ran behind its schedule" on an idle machine).
 * A configured concurrency (a closed loop) has no floor: its latency runs from the send, no timer.
 * Pure: a function of the snapshot and the configured concurrency. Null when it cannot be judged
 * (no request, no run time, no concurrency known).
 */
import { overallHistogram, type LoadSnapshot } from './load-recorder.ts';

/** How far λW may be from the concurrency, as a fraction of the concurrency. */
export const LITTLE_TOLERANCE = 0.2;
/** How late a generator's timer may fire on an idle machine (Node times in whole ms). */
export const GENERATOR_TIMER_MS = 1;

/** The smallest in-flight count measured on the wire that the check judges, at `requestsPerSecond`. */
export function measurableInFlightFloor(requestsPerSecond: number): number {
  return (requestsPerSecond * GENERATOR_TIMER_MS) / 1000 / LITTLE_TOLERANCE;
}

export interface Concurrency {
  readonly value: number;
  /** Where the value comes from, as the report says it: `configured connections`, `configured VUs`. */
  readonly source: string;
}

export interface LittleCheck {
  readonly requestsPerSecond: number;
  readonly meanLatencyMs: number;
  /** λW: the mean number of requests in flight the latency figure implies. */
  readonly inFlight: number;
  readonly concurrency: number;
  readonly concurrencySource: string;
  /** inFlight / concurrency. */
  readonly ratio: number;
  /** Within the tolerance; null when not judged: too few in flight on the wire to measure (measurableInFlightFloor). */
  readonly ok: boolean | null;
  /** With the in-flight measured on the wire: the mean time a request waited between its intended start and its write (the generator behind its schedule), ms. */
  readonly waitBeforeWriteMs: number | null;
}

/** The mean number of requests on the wire over the run, from the snapshot's wireMsTotal; null when unknown. */
export function measuredConcurrency(snapshot: LoadSnapshot): Concurrency | null {
  const runMs = snapshot.endMs - snapshot.startMs;
  if (snapshot.wireMsTotal === undefined || runMs <= 0) return null;
  return { value: snapshot.wireMsTotal / runMs, source: 'measured on the wire' };
}

export function littleCheck(snapshot: LoadSnapshot, configured: Concurrency | null): LittleCheck | null {
  const concurrency = configured ?? measuredConcurrency(snapshot);
  const runMs = snapshot.endMs - snapshot.startMs;
  const latency = overallHistogram(snapshot);
  if (concurrency === null || concurrency.value <= 0 || runMs <= 0 || latency.totalCount === 0) return null;
  const requestsPerSecond = (latency.totalCount * 1000) / runMs;
  const meanLatencyMs = latency.mean / 1000;
  const inFlight = (requestsPerSecond * meanLatencyMs) / 1000;
  const ratio = inFlight / concurrency.value;
  const waitBeforeWriteMs =
    configured === null && snapshot.wireMsTotal !== undefined
      ? Math.max(0, meanLatencyMs - snapshot.wireMsTotal / latency.totalCount)
      : null;
  return {
    requestsPerSecond,
    meanLatencyMs,
    inFlight,
    concurrency: concurrency.value,
    concurrencySource: concurrency.source,
    ratio,
    ok:
      configured === null && concurrency.value < measurableInFlightFloor(requestsPerSecond)
        ? null
        : Math.abs(ratio - 1) <= LITTLE_TOLERANCE,
    waitBeforeWriteMs,
  };
}

/** One line for the terminal. */
export function littleLine(check: LittleCheck | null): string {
  if (check === null) return "Little's law: not judged (no request answered, or no concurrency known)";
  const behind = check.waitBeforeWriteMs !== null && check.ratio > 1;
  const verdict =
    check.ok === null
      ? `not judged: under ${measurableInFlightFloor(check.requestsPerSecond).toFixed(3)} in flight, a generator timer's ${GENERATOR_TIMER_MS} ms alone is more than ${LITTLE_TOLERANCE * 100}% of it`
      : check.ok
        ? 'agree'
        : behind
          ? `DISAGREE by more than ${LITTLE_TOLERANCE * 100}%: the latency from the intended start includes ${(check.waitBeforeWriteMs ?? 0).toFixed(2)} ms (mean) before each write — the generator ran behind its schedule (a busy machine, or more than one process can send)`
          : `DISAGREE by more than ${LITTLE_TOLERANCE * 100}%: a latency figure this far from the run's concurrency is not true of it`;
  return `Little's law: ${check.requestsPerSecond.toFixed(1)} req/s × ${check.meanLatencyMs.toFixed(2)} ms mean = ${check.inFlight.toFixed(2)} in flight; ${check.concurrency.toFixed(2)} ${check.concurrencySource} (ratio ${check.ratio.toFixed(2)}): ${verdict}`;
}
