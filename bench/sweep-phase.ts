/**
 * The sweep part of `npm run bench`: `afp sweep`'s speed-up on two worker threads over one, both
 * measured in this run (the machines are shared and noisy; only a ratio within one run means
 * something). Goal ≥ 1.8× (issue: seed sweeps on every core). Each round sweeps the same seeds of
 * the quickstart, one worker and two back to back (which runs first alternates), worker start-up
 * included, as `afp sweep` pays it; the verdict is on the median round's ratio. The rows of both
 * must be equal: a speed-up that changed a result would be no speed-up.
 * Also the process's CPU time in each one-worker round: a lone worker keeps more than one core
 * busy (V8's collector and compiler threads), and on two cores that share bounds what a second
 * worker can add — printed, so a MISS says whether the pool or the machine fell short.
 * And where the CPU of each round went: the workers' own threads (each seed's, measured inside the
 * worker) and the rest of the process (V8's collector and compiler threads; the pool's thread is
 * nearly idle). Beside another worker a seed's own CPU grows (the two share cache and memory) and
 * the helpers' grows (each worker compiles its own code): printed, so a MISS names its cost.
 * And the second half of each round (from the instant half its seeds are done to its end): each
 * worker pays about a second of start-up and three slow seeds while V8 learns the code, which a
 * short round repeats and a long sweep (a thousand seeds) pays once. The verdict stays on the
 * whole round; the second half says what a long sweep gets.
 * Last, the median round's speed-up as the product of its parts (speedupFactors): cores busy with
 * two workers over one, over the CPU two workers spent over one's.
 */
import { readFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { basename, join } from 'node:path';
import { SystemClock } from '../src/core/clock.ts';
import { runSeedsInWorkers, type WorkerCpuPart } from '../src/sweep/sweep-pool.ts';

export const TARGET_SWEEP_SPEEDUP = 1.8;
const QUICKSTART = 'scenarios/quickstart.yaml';

/** CPU ms of a round's worker threads themselves: their start-ups and their seeds. */
export interface WorkerOwnCpu {
  readonly startUpMs: number;
  readonly seedsMs: number;
}

export interface SweepBenchResult {
  readonly scenario: string;
  readonly seeds: number;
  /** Wall ms per round, one worker and two. */
  readonly oneWorkerMs: readonly number[];
  readonly twoWorkersMs: readonly number[];
  /** The process's CPU ms (user + system, every thread) in each one-worker round. */
  readonly oneWorkerCpuMs: readonly number[];
  /** The process's CPU ms in each two-worker round. */
  readonly twoWorkersCpuMs: readonly number[];
  /** The workers' own threads' CPU in each round, summed (empty where Node cannot measure a thread's CPU). */
  readonly oneWorkerOwnCpu: readonly WorkerOwnCpu[];
  readonly twoWorkersOwnCpu: readonly WorkerOwnCpu[];
  /** Wall ms of each round's second half: from the instant half its seeds were done to its end. */
  readonly oneWorkerSecondHalfMs: readonly number[];
  readonly twoWorkersSecondHalfMs: readonly number[];
  readonly rowsEqual: boolean;
}

/** One timed sweep of a round: wall and process CPU ms, the workers' own CPU, the second half's wall ms, the rows. */
interface TimedRound {
  readonly ms: number;
  readonly cpuMs: number;
  readonly own: WorkerOwnCpu | null;
  readonly secondHalfMs: number;
  readonly rows: unknown;
}

export interface SweepPartOptions {
  readonly seeds: number;
  readonly rounds: number;
  readonly log: (line: string) => void;
  /** A scenario file relative to the repository (tests use a small one); the quickstart by default. */
  readonly scenario?: string;
}

export async function sweepPart(options: SweepPartOptions): Promise<SweepBenchResult> {
  // As bin/afp.js: the workers load their modules through the on-disk compile cache, as `afp sweep`'s do.
  const cache = enableCompileCache();
  if (cache.directory !== undefined) process.env['NODE_COMPILE_CACHE'] ??= cache.directory;
  const file = options.scenario ?? QUICKSTART;
  const name = basename(file, '.yaml');
  const scenarioText = readFileSync(join(import.meta.dirname, '..', file), 'utf8');
  const seeds = Array.from({ length: options.seeds }, (_, index) => String(index + 1));
  const clock = new SystemClock();
  const half = Math.ceil(seeds.length / 2);
  const timed = async (workers: number): Promise<TimedRound> => {
    const startMs = clock.nowMs();
    const startCpu = process.cpuUsage();
    let halfMs = startMs;
    // The workers' own CPU, by part; not measured once any report lacks it (a Node without threadCpuUsage).
    let startUpMs = 0;
    let seedsMs = 0;
    let measured = true;
    const onResult = (_result: unknown, done: number): void => {
      if (done === half) halfMs = clock.nowMs();
    };
    const onWorkerCpu = (part: WorkerCpuPart, cpuMs: number | null): void => {
      if (cpuMs === null) measured = false;
      else if (part === 'seed') seedsMs += cpuMs;
      else startUpMs += cpuMs;
    };
    const rows = await runSeedsInWorkers({ scenarioText, file, defects: [], seeds, workers, onResult, onWorkerCpu });
    const cpu = process.cpuUsage(startCpu);
    const endMs = clock.nowMs();
    return {
      ms: endMs - startMs,
      cpuMs: (cpu.user + cpu.system) / 1_000,
      own: measured ? { startUpMs, seedsMs } : null,
      secondHalfMs: endMs - halfMs,
      rows,
    };
  };
  const oneWorkerMs: number[] = [];
  const twoWorkersMs: number[] = [];
  const oneWorkerCpuMs: number[] = [];
  const twoWorkersCpuMs: number[] = [];
  const oneWorkerOwnCpu: WorkerOwnCpu[] = [];
  const twoWorkersOwnCpu: WorkerOwnCpu[] = [];
  const oneWorkerSecondHalfMs: number[] = [];
  const twoWorkersSecondHalfMs: number[] = [];
  let rowsEqual = true;
  for (let round = 1; round <= options.rounds; round++) {
    // Which worker count runs first alternates from round to round.
    let one: TimedRound;
    let two: TimedRound;
    if (round % 2 === 1) {
      one = await timed(1);
      two = await timed(2);
    } else {
      two = await timed(2);
      one = await timed(1);
    }
    rowsEqual &&= isDeepStrictEqual(one.rows, two.rows);
    oneWorkerMs.push(one.ms);
    twoWorkersMs.push(two.ms);
    oneWorkerCpuMs.push(one.cpuMs);
    twoWorkersCpuMs.push(two.cpuMs);
    if (one.own !== null && two.own !== null) {
      oneWorkerOwnCpu.push(one.own);
      twoWorkersOwnCpu.push(two.own);
    }
    oneWorkerSecondHalfMs.push(one.secondHalfMs);
    twoWorkersSecondHalfMs.push(two.secondHalfMs);
    options.log(
      `sweep round ${round}/${options.rounds}: ${options.seeds} ${name} seeds, 1 worker ${Math.round(one.ms)} ms, 2 workers ${Math.round(two.ms)} ms`,
    );
  }
  return {
    scenario: name,
    seeds: options.seeds,
    oneWorkerMs,
    twoWorkersMs,
    oneWorkerCpuMs,
    twoWorkersCpuMs,
    oneWorkerOwnCpu,
    twoWorkersOwnCpu,
    oneWorkerSecondHalfMs,
    twoWorkersSecondHalfMs,
    rowsEqual,
  };
}

const sorted = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);
/** The median item by a key; of an even number, the lower middle one (a PASS then needs half the rounds at or above the goal). */
function medianBy<T>(items: readonly T[], key: (item: T) => number): T {
  return [...items].sort((a, b) => key(a) - key(b))[Math.floor((items.length - 1) / 2)] as T;
}
const middle = (values: readonly number[]): number => medianBy(values, (value) => value);

/**
 * One worker's times over two's: the median of the rounds' own ratios, the verdict's (a round
 * times both back to back, so a slow or fast spell of the machine touches both), and the fastest
 * time of each over the other's, printed only (it pairs rounds minutes apart, and on a machine
 * whose speed drifts one fast two-worker round beside slow one-worker rounds can pass it alone).
 */
function ratios(oneMs: readonly number[], twoMs: readonly number[]): { median: number; best: number } {
  return {
    median: middle(oneMs.map((ms, index) => ms / (twoMs[index] as number))),
    best: (sorted(oneMs)[0] as number) / (sorted(twoMs)[0] as number),
  };
}

/** Speed-ups of two workers over one: whole rounds (the verdict's). */
export function sweepSpeedup(result: SweepBenchResult): { median: number; best: number } {
  return ratios(result.oneWorkerMs, result.twoWorkersMs);
}

/** Speed-ups of two workers over one in the rounds' second halves, the workers warm. */
export function warmSweepSpeedup(result: SweepBenchResult): { median: number; best: number } {
  return ratios(result.oneWorkerSecondHalfMs, result.twoWorkersSecondHalfMs);
}

/**
 * Cores a lone worker kept busy (CPU over wall, the median round), and the most two workers can
 * then gain over one on a machine of two cores: 2 / that, assuming no other slowdown.
 */
export function loneWorkerCores(result: SweepBenchResult): { cores: number; ceiling: number } {
  const cores = middle(result.oneWorkerMs.map((ms, index) => (result.oneWorkerCpuMs[index] as number) / ms));
  return { cores, ceiling: 2 / Math.max(1, cores) };
}

/**
 * Where the CPU went, medians of the rounds: the workers' own CPU per seed, alone and beside each
 * other, and the rest of the process's CPU (V8's helper threads) per round. Null where the workers
 * could not measure their threads.
 */
export function cpuShares(
  result: SweepBenchResult,
): { ownMsPerSeed: { one: number; two: number }; helpersMs: { one: number; two: number } } | null {
  const { oneWorkerOwnCpu: one, twoWorkersOwnCpu: two } = result;
  if (one.length === 0 || one.length !== result.oneWorkerCpuMs.length) return null;
  const helpers = (cpuMs: readonly number[], own: readonly WorkerOwnCpu[]): number =>
    middle(
      cpuMs.map((ms, index) => ms - (own[index] as WorkerOwnCpu).startUpMs - (own[index] as WorkerOwnCpu).seedsMs),
    );
  return {
    ownMsPerSeed: {
      one: middle(one.map((round) => round.seedsMs)) / result.seeds,
      two: middle(two.map((round) => round.seedsMs)) / result.seeds,
    },
    helpersMs: { one: helpers(result.oneWorkerCpuMs, one), two: helpers(result.twoWorkersCpuMs, two) },
  };
}

/**
 * The median round's speed-up taken apart: with c the cores a round kept busy (CPU / wall), one
 * worker's wall over two's is exactly (c two / c one) × (CPU one / CPU two). On two cores c two is
 * at most 2, so the speed-up is at most 2 / c one (the lone worker's helper threads, which use the
 * idle core for free) times what the second worker adds to the CPU (its own start-up and warm-up,
 * and the cache and memory the two share): a MISS says which of the three fell short.
 */
export function speedupFactors(result: SweepBenchResult): {
  speedup: number;
  oneCores: number;
  twoCores: number;
  cpuTwoOverOne: number;
} {
  const rounds = result.oneWorkerMs.map((oneMs, index) => {
    const twoMs = result.twoWorkersMs[index] as number;
    const oneCpuMs = result.oneWorkerCpuMs[index] as number;
    const twoCpuMs = result.twoWorkersCpuMs[index] as number;
    return {
      speedup: oneMs / twoMs,
      oneCores: oneCpuMs / oneMs,
      twoCores: twoCpuMs / twoMs,
      cpuTwoOverOne: twoCpuMs / oneCpuMs,
    };
  });
  return medianBy(rounds, (round) => round.speedup);
}

export function sweepVerdict(result: SweepBenchResult): 'PASS' | 'MISS' {
  return sweepSpeedup(result).median >= TARGET_SWEEP_SPEEDUP && result.rowsEqual ? 'PASS' : 'MISS';
}

export function sweepLines(result: SweepBenchResult): string[] {
  const speedup = sweepSpeedup(result);
  const warm = warmSweepSpeedup(result);
  const lone = loneWorkerCores(result);
  const shares = cpuShares(result);
  const factors = speedupFactors(result);
  const seconds = (ms: number): string => `${(ms / 1_000).toFixed(1)} s`;
  return [
    `sweep (afp sweep): ${result.seeds} seeds of the ${result.scenario} per round, worker start-up included; 1 worker ${result.oneWorkerMs.map((ms) => Math.round(ms)).join(', ')} ms; 2 workers ${result.twoWorkersMs.map((ms) => Math.round(ms)).join(', ')} ms; rows ${result.rowsEqual ? 'equal' : 'DIFFER'}`,
    `2 workers over 1   median round ${speedup.median.toFixed(2)}x  (fastest of each ${speedup.best.toFixed(2)}x)  target >= ${TARGET_SWEEP_SPEEDUP}x  ${sweepVerdict(result)}`,
    `  second half of each round (workers warm, as through most of a long sweep)   median round ${warm.median.toFixed(2)}x  (fastest of each ${warm.best.toFixed(2)}x)`,
    `  1 worker kept ${lone.cores.toFixed(2)} cores busy (CPU / wall, median round: V8's collector and compiler threads); two such workers on 2 cores: ${lone.ceiling.toFixed(2)}x at most`,
    shares === null
      ? '  CPU per worker thread not measured (this Node has no process.threadCpuUsage)'
      : `  a seed's own CPU ${Math.round(shares.ownMsPerSeed.one)} ms alone, ${Math.round(shares.ownMsPerSeed.two)} ms beside another worker (${signedPercent(shares.ownMsPerSeed.two / shares.ownMsPerSeed.one - 1)}: shared cache and memory); V8's helper threads ${seconds(shares.helpersMs.one)} a round alone, ${seconds(shares.helpersMs.two)} beside (medians)`,
    `  the median round: ${factors.speedup.toFixed(2)}x = ${factors.twoCores.toFixed(2)} cores busy with 2 workers / ${factors.oneCores.toFixed(2)} with 1, / ${factors.cpuTwoOverOne.toFixed(2)} the CPU 2 workers spent over 1's (a second start-up and warm-up, shared cache and memory)`,
  ];
}

function signedPercent(fraction: number): string {
  const percent = Math.round(fraction * 100);
  return `${percent >= 0 ? '+' : ''}${percent}%`;
}

export function sweepJson(result: SweepBenchResult): Record<string, unknown> {
  return {
    ...result,
    speedup: sweepSpeedup(result),
    warm_speedup: warmSweepSpeedup(result),
    lone_worker: loneWorkerCores(result),
    cpu_shares: cpuShares(result),
    speedup_factors: speedupFactors(result),
    target: { speedup_min: TARGET_SWEEP_SPEEDUP, verdict: sweepVerdict(result) },
  };
}
