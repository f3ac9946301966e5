/**
 * The bench's travel part (issue 43): a small platform (500 agents) snapshotted, reverted and
 * digested by a served afp while /health is probed; the figures are present and the jobs ran in
 * slices under the lock. The verdict is on the lock's longest slice in CPU ms. The 67k figures
 * are the bench's, never a test's.
 */
import { describe, expect, it } from 'vitest';
import { parseBenchFlags } from '../../bench/bench-flags.ts';
import {
  TARGET_HEALTH_WAIT_MS,
  travelLines,
  travelPart,
  travelVerdict,
  type TravelBenchResult,
} from '../../bench/travel-phase.ts';

describe('bench travel part', () => {
  it('measures snapshot, revert and digest of a served platform with /health probed', async () => {
    const lines: string[] = [];
    const result = await travelPart({ agents: 500, rounds: 1, log: (line) => lines.push(line) });
    expect(result.calls.map((call) => call.name)).toEqual(['snapshot', 'revert', 'digest']);
    for (const call of result.calls) {
      expect(call.wallMs).toBeGreaterThan(0);
      expect(call.oneShotCpuMs).toBeGreaterThan(0);
    }
    expect(result.lock.slices).toBeGreaterThanOrEqual(3);
    expect(lines[0]).toMatch(/^travel: 500 agents registered in \d+ ms$/);
    expect(travelLines(result).at(-1)).toMatch(/^longest block of the loop by a job \(cpu\)/);
  });

  it('passes on the CPU time of the longest slice; --only travel and --travel-agents parse', () => {
    const result = (cpuMs: number): TravelBenchResult => ({
      agents: 1,
      rounds: 1,
      buildMs: 1,
      calls: [],
      lock: { slices: 1, longestSliceMs: 900, longestSliceCpuMs: cpuMs },
    });
    expect(travelVerdict(result(TARGET_HEALTH_WAIT_MS))).toBe('PASS');
    expect(travelVerdict(result(TARGET_HEALTH_WAIT_MS + 1))).toBe('MISS');
    expect(parseBenchFlags(['--only', 'travel', '--travel-agents', '500'])).toMatchObject({
      only: 'travel',
      travelAgents: 500,
    });
    expect(parseBenchFlags(['--small'])).toMatchObject({ travelAgents: 2_000 });
    expect(parseBenchFlags(['--travel-agents', '5'])).toMatchObject({
      errors: [expect.stringMatching(/travel-agents/)],
    });
  });
});
