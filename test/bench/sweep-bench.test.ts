/**
 * The bench's sweep part: it sweeps a scenario (the quickstart in the bench) on one worker and on two, checks their rows are
 * equal, and reports the speed-up against its goal, whole rounds and their warm second halves (the figures themselves are
 * the bench's, not a test's).
 */
import { describe, expect, it } from 'vitest';
import {
  cpuShares,
  loneWorkerCores,
  speedupFactors,
  sweepLines,
  sweepPart,
  sweepSpeedup,
  sweepVerdict,
  TARGET_SWEEP_SPEEDUP,
  warmSweepSpeedup,
} from '../../bench/sweep-phase.ts';

describe('bench sweep part', () => {
  it('times both worker counts on the same seeds and finds their rows equal', async () => {
    const lines: string[] = [];
    const result = await sweepPart({
      seeds: 2,
      rounds: 1,
      scenario: 'scenarios/k6-smoke.yaml',
      log: (line) => lines.push(line),
    });
    expect(result.rowsEqual).toBe(true);
    expect(result.oneWorkerMs).toHaveLength(1);
    expect(result.twoWorkersMs).toHaveLength(1);
    expect(result.oneWorkerCpuMs).toHaveLength(1);
    expect(result.oneWorkerCpuMs[0]).toBeGreaterThan(0);
    // The second half of a round is part of it: from the instant the first of the two seeds was done.
    expect(result.oneWorkerSecondHalfMs[0]).toBeGreaterThan(0);
    expect(result.oneWorkerSecondHalfMs[0]).toBeLessThan(result.oneWorkerMs[0] as number);
    expect(result.twoWorkersSecondHalfMs[0]).toBeLessThanOrEqual(result.twoWorkersMs[0] as number);
    expect(lines[0]).toMatch(/^sweep round 1\/1: 2 k6-smoke seeds, 1 worker \d+ ms, 2 workers \d+ ms$/);
    // Node 24 measures each worker thread's CPU: its start-up and its seeds, inside the process's.
    const [one, two] = [result.oneWorkerOwnCpu[0], result.twoWorkersOwnCpu[0]];
    if (one === undefined || two === undefined) throw new Error('the worker threads measured their CPU');
    expect(one.startUpMs).toBeGreaterThan(0);
    expect(one.seedsMs).toBeGreaterThan(0);
    expect(two.seedsMs).toBeGreaterThan(0);
    expect(one.startUpMs + one.seedsMs).toBeLessThanOrEqual(result.oneWorkerCpuMs[0] as number);
    expect(two.startUpMs + two.seedsMs).toBeLessThanOrEqual(result.twoWorkersCpuMs[0] as number);
  });

  it("judges the median round's speed-up against the goal, and never passes rows that differ", () => {
    const base = {
      scenario: 'quickstart',
      seeds: 6,
      oneWorkerMs: [1000, 1200, 1100],
      twoWorkersMs: [550, 500, 600],
      oneWorkerCpuMs: [1250, 1440, 1100],
      twoWorkersCpuMs: [700, 650, 800],
      oneWorkerOwnCpu: [],
      twoWorkersOwnCpu: [],
      oneWorkerSecondHalfMs: [400, 450, 500],
      twoWorkersSecondHalfMs: [250, 200, 300],
    };
    // Rounds at 1.82x, 2.40x and 1.83x: the median round is 1.83x; the fastest of each, 1,000 / 500 = 2.00x.
    expect(sweepSpeedup({ ...base, rowsEqual: true })).toEqual({ median: 1100 / 600, best: 2 });
    expect(sweepVerdict({ ...base, rowsEqual: true })).toBe('PASS');
    expect(sweepVerdict({ ...base, rowsEqual: false })).toBe('MISS');
    expect(sweepLines({ ...base, rowsEqual: true })[1]).toBe(
      `2 workers over 1   median round 1.83x  (fastest of each 2.00x)  target >= ${TARGET_SWEEP_SPEEDUP}x  PASS`,
    );
    // One round far faster than the others cannot pass the rest: 2.40x, 1.60x, 1.57x read 1.60x, a MISS, though the fastest of each read 2.00x.
    const lucky = { ...base, twoWorkersMs: [625, 500, 700], rowsEqual: true };
    expect(sweepSpeedup(lucky)).toEqual({ median: 1.6, best: 2 });
    expect(sweepVerdict(lucky)).toBe('MISS');
    // Of two rounds the lower: 1.82x and 2.40x pass, 1.60x and 2.40x do not.
    expect(sweepSpeedup({ ...base, oneWorkerMs: [1000, 1200], twoWorkersMs: [550, 500], rowsEqual: true }).median).toBe(
      1000 / 550,
    );
    expect(sweepVerdict({ ...base, oneWorkerMs: [1000, 1200], twoWorkersMs: [625, 500], rowsEqual: true })).toBe(
      'MISS',
    );
  });

  it('gives the second halves of the rounds, workers warm, their own line, not the verdict', () => {
    const result = {
      scenario: 'quickstart',
      seeds: 12,
      oneWorkerMs: [1000, 1200, 1100],
      twoWorkersMs: [800, 900, 850],
      oneWorkerCpuMs: [1100, 1300, 1200],
      twoWorkersCpuMs: [700, 650, 800],
      oneWorkerOwnCpu: [],
      twoWorkersOwnCpu: [],
      oneWorkerSecondHalfMs: [400, 450, 500],
      twoWorkersSecondHalfMs: [250, 200, 300],
      rowsEqual: true,
    };
    // Halves at 1.60x, 2.25x and 1.67x: the median round is 1.67x, the fastest of each 400 / 200 = 2.00x.
    expect(warmSweepSpeedup(result)).toEqual({ median: 500 / 300, best: 2 });
    expect(sweepVerdict(result)).toBe('MISS');
    expect(sweepLines(result)[2]).toBe(
      '  second half of each round (workers warm, as through most of a long sweep)   median round 1.67x  (fastest of each 2.00x)',
    );
  });

  it('says how many cores the lone worker kept busy, and what that leaves a second one', () => {
    const result = {
      scenario: 'quickstart',
      seeds: 6,
      oneWorkerMs: [1000, 1200, 1100],
      twoWorkersMs: [600, 500, 700],
      oneWorkerCpuMs: [1250, 1440, 1100],
      twoWorkersCpuMs: [700, 650, 800],
      oneWorkerOwnCpu: [],
      twoWorkersOwnCpu: [],
      oneWorkerSecondHalfMs: [400, 450, 500],
      twoWorkersSecondHalfMs: [250, 200, 300],
      rowsEqual: true,
    };
    // Rounds at 1.25, 1.20 and 1.00 cores: the median is 1.20, and 2 / 1.20 = 1.67.
    expect(loneWorkerCores(result)).toEqual({ cores: 1.2, ceiling: 2 / 1.2 });
    expect(sweepLines(result)[3]).toBe(
      "  1 worker kept 1.20 cores busy (CPU / wall, median round: V8's collector and compiler threads); two such workers on 2 cores: 1.67x at most",
    );
    expect(loneWorkerCores({ ...result, oneWorkerCpuMs: [500, 600, 550] }).ceiling).toBe(2);
  });

  it("splits the CPU between the workers' own seeds and the helper threads, alone and beside another worker", () => {
    const result = {
      scenario: 'quickstart',
      seeds: 10,
      oneWorkerMs: [10_000, 11_000, 12_000],
      twoWorkersMs: [6_000, 6_500, 7_000],
      oneWorkerCpuMs: [11_500, 12_600, 13_700],
      twoWorkersCpuMs: [12_000, 13_000, 14_000],
      oneWorkerOwnCpu: [
        { startUpMs: 400, seedsMs: 10_000 },
        { startUpMs: 400, seedsMs: 11_000 },
        { startUpMs: 400, seedsMs: 12_000 },
      ],
      twoWorkersOwnCpu: [
        { startUpMs: 800, seedsMs: 10_500 },
        { startUpMs: 800, seedsMs: 11_500 },
        { startUpMs: 800, seedsMs: 12_500 },
      ],
      oneWorkerSecondHalfMs: [5_000, 5_500, 6_000],
      twoWorkersSecondHalfMs: [3_000, 3_200, 3_400],
      rowsEqual: true,
    };
    // Medians: own 11,000 ms over 10 seeds alone, 11,500 beside; helpers 12,600 - 11,400 = 1,200 alone, 13,000 - 12,300 = 700 beside.
    expect(cpuShares(result)).toEqual({
      ownMsPerSeed: { one: 1_100, two: 1_150 },
      helpersMs: { one: 1_200, two: 700 },
    });
    expect(sweepLines(result)[4]).toBe(
      "  a seed's own CPU 1100 ms alone, 1150 ms beside another worker (+5%: shared cache and memory); V8's helper threads 1.2 s a round alone, 0.7 s beside (medians)",
    );
    expect(cpuShares({ ...result, oneWorkerOwnCpu: [], twoWorkersOwnCpu: [] })).toBeNull();
    expect(sweepLines({ ...result, oneWorkerOwnCpu: [], twoWorkersOwnCpu: [] })[4]).toBe(
      '  CPU per worker thread not measured (this Node has no process.threadCpuUsage)',
    );
  });

  it('takes the median round apart: cores busy with two workers over one, times the CPU one spent over two', () => {
    const result = {
      scenario: 'quickstart',
      seeds: 12,
      oneWorkerMs: [20_000, 22_000, 24_000],
      twoWorkersMs: [10_000, 15_000, 16_000],
      oneWorkerCpuMs: [22_000, 24_640, 26_400],
      twoWorkersCpuMs: [19_000, 29_700, 31_680],
      oneWorkerOwnCpu: [],
      twoWorkersOwnCpu: [],
      oneWorkerSecondHalfMs: [10_000, 11_000, 12_000],
      twoWorkersSecondHalfMs: [5_000, 7_000, 8_000],
      rowsEqual: true,
    };
    // Rounds at 2.00x, 1.47x and 1.50x: the median is the third, 1.98 cores / 1.10 cores x 26,400 / 31,680 = 1.50.
    const factors = speedupFactors(result);
    expect(factors.speedup).toBe(1.5);
    expect(factors.oneCores).toBeCloseTo(1.1, 12);
    expect(factors.twoCores).toBeCloseTo(1.98, 12);
    expect(factors.cpuTwoOverOne).toBeCloseTo(1.2, 12);
    expect(factors.twoCores / factors.oneCores / factors.cpuTwoOverOne).toBeCloseTo(factors.speedup, 12);
    expect(sweepLines(result)[5]).toBe(
      "  the median round: 1.50x = 1.98 cores busy with 2 workers / 1.10 with 1, / 1.20 the CPU 2 workers spent over 1's (a second start-up and warm-up, shared cache and memory)",
    );
  });
});
