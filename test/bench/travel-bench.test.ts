/**
 * The bench's travel part (issue 43): a small platform (500 agents) snapshotted, reverted,
 * digested, audited (GET /_afp/state) and reset by a served afp while /health is probed, then a
 * century's clock move on the century world; the figures are present and the jobs ran in slices
 * under the lock; then the crowded century (a thousand positions, orders, escrows and domains).
 * The verdicts are on the lock's longest slice, the century's CPU ms and the crowd's. The 67k
 * figures and the century's time are the bench's, never a test's.
 */
import { describe, expect, it } from 'vitest';
import { parseBenchFlags } from '../../bench/bench-flags.ts';
import { TARGET_CENTURY_MS, centuryVerdict, type CenturyResult } from '../../bench/century-phase.ts';
import {
  TARGET_CROWD_CPU_MS,
  TARGET_CROWD_HEALTH_MS,
  crowdVerdict,
  type CrowdResult,
} from '../../bench/crowd-century-phase.ts';
import {
  TARGET_HEALTH_WAIT_MS,
  travelLines,
  travelPart,
  travelVerdict,
  type TravelBenchResult,
} from '../../bench/travel-phase.ts';

describe('bench travel part', () => {
  it('measures snapshot, revert, digest, state and reset of a served platform with /health probed, and a century', async () => {
    const lines: string[] = [];
    const result = await travelPart({ agents: 500, rounds: 1, log: (line) => lines.push(line) });
    expect(result.calls.map((call) => call.name)).toEqual(['snapshot', 'revert', 'digest', 'state', 'reset']);
    for (const call of result.calls) {
      expect(call.wallMs).toBeGreaterThan(0);
      expect(call.oneShotMs).toBeGreaterThan(0);
      expect(call.oneShotCpuMs).toBeGreaterThanOrEqual(0);
      expect(call.gcPauseMsMax).toBeGreaterThanOrEqual(0);
    }
    expect(result.lock.slices).toBeGreaterThanOrEqual(5);
    // The century carried open positions and resting orders, in many slices of the move.
    expect(result.century.openPositions).toBeGreaterThan(0);
    expect(result.century.openOrders).toBeGreaterThan(0);
    expect(result.century.slices).toBeGreaterThan(1);
    expect(result.century.cpuMs).toBeGreaterThan(0);
    expect(travelLines(result).join('\n')).toMatch(/century {2}100-year move with \d+ positions/);
    // The crowded century: a thousand of each, moved in slices, /health answered meanwhile.
    expect(result.crowd).toMatchObject({ positions: 1_000, orders: 1_000, escrows: 1_000, domains: 1_000 });
    expect(result.crowd.slices).toBeGreaterThan(1);
    expect(result.crowd.probes).toBeGreaterThan(0);
    expect(travelLines(result).join('\n')).toMatch(
      /crowd {4}100-year move with 1000 positions and 1000 resting orders/,
    );
    expect(lines[0]).toMatch(/^travel: 500 agents registered in \d+ ms$/);
    expect(travelLines(result).at(-1)).toMatch(/^longest block of the loop by a job \(cpu\)/);
  });

  it('passes on the CPU time of the longest slice and of the century; --only travel and --travel-agents parse', () => {
    const century = (cpuMs: number): CenturyResult => ({
      wallMs: 5_000,
      cpuMs,
      healthWaitMsMax: 1,
      probes: 1,
      slices: 1,
      longestSliceMs: 1,
      openPositions: 1,
      openOrders: 1,
    });
    const crowd = (cpuMs: number, healthWaitMsMax: number): CrowdResult => ({
      agents: 1,
      markets: 1,
      positions: 1,
      orders: 1,
      escrows: 1,
      domains: 1,
      cpuMs,
      wallMs: 1,
      healthWaitMsMax,
      probes: 1,
      slices: 1,
      longestSliceMs: 1,
      openPositionsAfter: 0,
      openOrdersAfter: 0,
    });
    const result = (cpuMs: number): TravelBenchResult => ({
      agents: 1,
      rounds: 1,
      buildMs: 1,
      calls: [],
      century: century(1),
      crowd: crowd(1, 1),
      lock: { slices: 1, longestSliceMs: 900, longestSliceCpuMs: cpuMs },
    });
    expect(travelVerdict(result(TARGET_HEALTH_WAIT_MS))).toBe('PASS');
    expect(travelVerdict(result(TARGET_HEALTH_WAIT_MS + 1))).toBe('MISS');
    expect(centuryVerdict(century(TARGET_CENTURY_MS))).toBe('PASS');
    expect(centuryVerdict(century(TARGET_CENTURY_MS + 1))).toBe('MISS');
    expect(crowdVerdict(crowd(TARGET_CROWD_CPU_MS, TARGET_CROWD_HEALTH_MS))).toBe('PASS');
    expect(crowdVerdict(crowd(TARGET_CROWD_CPU_MS + 1, 1))).toBe('MISS');
    expect(crowdVerdict(crowd(1, TARGET_CROWD_HEALTH_MS + 1))).toBe('MISS');
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
