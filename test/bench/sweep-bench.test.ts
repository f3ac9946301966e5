/**
 * The bench's sweep part: it sweeps a scenario (the quickstart in the bench) on one worker and on two, checks their rows are
 * equal, and reports the speed-up against its goal (the figure itself is the bench's, not a test's).
 */
import { describe, expect, it } from 'vitest';
import { loneWorkerCores, sweepLines, sweepPart, sweepSpeedup, sweepVerdict, TARGET_SWEEP_SPEEDUP } from '../../bench/sweep-phase.ts';

describe('bench sweep part', () => {
  it('times both worker counts on the same seeds and finds their rows equal', async () => {
    const lines: string[] = [];
    const result = await sweepPart({ seeds: 2, rounds: 1, scenario: 'scenarios/k6-smoke.yaml', log: (line) => lines.push(line) });
    expect(result.rowsEqual).toBe(true);
    expect(result.oneWorkerMs).toHaveLength(1);
    expect(result.twoWorkersMs).toHaveLength(1);
    expect(result.oneWorkerCpuMs).toHaveLength(1);
    expect(result.oneWorkerCpuMs[0]).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^bench: sweep round 1\/1: 2 k6-smoke seeds, 1 worker \d+ ms, 2 workers \d+ ms$/);
  }, 180_000);

  it('judges the best speed-up against the goal, and never passes rows that differ', () => {
    const base = { scenario: 'quickstart', seeds: 6, oneWorkerMs: [1000, 1200, 1100], twoWorkersMs: [600, 500, 700], oneWorkerCpuMs: [1250, 1440, 1100] };
    expect(sweepSpeedup({ ...base, rowsEqual: true })).toEqual({ best: 2, median: 1100 / 600 });
    expect(sweepVerdict({ ...base, rowsEqual: true })).toBe('PASS');
    expect(sweepVerdict({ ...base, rowsEqual: false })).toBe('MISS');
    expect(sweepVerdict({ ...base, twoWorkersMs: [900], rowsEqual: true })).toBe('MISS');
    expect(sweepLines({ ...base, rowsEqual: true })[1]).toBe(`2 workers over 1   best 2.00x  median 1.83x  target >= ${TARGET_SWEEP_SPEEDUP}x  PASS`);
  });

  it('says how many cores the lone worker kept busy, and what that leaves a second one', () => {
    const result = { scenario: 'quickstart', seeds: 6, oneWorkerMs: [1000, 1200, 1100], twoWorkersMs: [600, 500, 700], oneWorkerCpuMs: [1250, 1440, 1100], rowsEqual: true };
    // Rounds at 1.25, 1.20 and 1.00 cores: the median is 1.20, and 2 / 1.20 = 1.67.
    expect(loneWorkerCores(result)).toEqual({ cores: 1.2, ceiling: 2 / 1.2 });
    expect(sweepLines(result)[2]).toBe("  1 worker kept 1.20 cores busy (CPU / wall, median round: V8's collector and compiler threads); two such workers on 2 cores: 1.67x at most");
    expect(loneWorkerCores({ ...result, oneWorkerCpuMs: [500, 600, 550] }).ceiling).toBe(2);
  });
});
