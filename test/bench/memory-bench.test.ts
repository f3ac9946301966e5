/**
 * The bench's memory part (issue 19): one size (1,000 agents, the smallest the child accepts) in
 * a fresh child process, measured at the run's end; the served rows (issue 71: a real afp serve
 * per dialect, agents registered over HTTP, its RSS read); and the verdict against 4 KB per agent.
 * The 10k, 100k and 1M figures and the 50,000 served agents are the bench's, never a test's.
 */
import { describe, expect, it } from 'vitest';
import {
  bytesPerAgent,
  marginalBytesPerAgent,
  memoryLines,
  memoryPart,
  memoryVerdict,
  TARGET_BYTES_PER_AGENT,
  vsecPerSecond,
  type MemorySize,
} from '../../bench/memory-phase.ts';

describe('bench memory part', () => {
  it('runs a size in a child and reads its live bytes at the end of the run', async () => {
    const lines: string[] = [];
    const result = await memoryPart({ sizes: [1_000], hours: 1, servedAgents: 500, log: (line) => lines.push(line) });
    const size = result.sizes[0] as MemorySize;
    expect(size.agents).toBe(1_000);
    expect(size.outcome).toBe('completed');
    expect(size.virtualMs).toBe(3_600_000);
    expect(size.requests).toBeGreaterThan(1_000);
    // Every agent's state is live at the end: more than a hundred bytes each, less than the 34 KB of before.
    expect(bytesPerAgent(size)).toBeGreaterThan(100);
    expect(bytesPerAgent(size)).toBeLessThan(34_000);
    expect(size.peakRssBytes).toBeGreaterThan(size.liveBytes);
    expect(lines).toContainEqual(expect.stringMatching(/^memory: 1000 agents: \d+ bytes per agent, \d+ vsec\/s$/));
    // The served rows: a real afp serve per dialect, every agent registered over HTTP, its RSS read before and after.
    expect(result.served.map((row) => [row.dialect, row.registered])).toEqual([
      ['documents', 500],
      ['deployed', 500],
    ]);
    for (const row of result.served) expect(row.rssAfterBytes).toBeGreaterThan(row.rssBeforeBytes);
    expect(memoryLines(result).at(-1)).toMatch(/^served bytes per agent \(RSS\) {3}target <= 4096 {2}(PASS|MISS)$/);
  });

  it('passes only when every size is within 4 KB per agent and completed', () => {
    const size = (agents: number, liveBytes: number, outcome = 'completed'): MemorySize => ({
      agents,
      virtualMs: 7_200_000,
      wallMs: 3_600,
      requests: 10,
      events: 5,
      liveBytes,
      peakRssBytes: 2 * liveBytes,
      outcome,
    });
    expect(
      memoryVerdict({
        hours: 2,
        served: [],
        sizes: [size(10_000, 10_000 * TARGET_BYTES_PER_AGENT), size(100_000, 100_000 * 3_000)],
      }),
    ).toBe('PASS');
    expect(memoryVerdict({ hours: 2, served: [], sizes: [size(10_000, 10_000 * (TARGET_BYTES_PER_AGENT + 1))] })).toBe(
      'MISS',
    );
    expect(memoryVerdict({ hours: 2, served: [], sizes: [size(10_000, 1_000, 'limit-reached')] })).toBe('MISS');
    expect(vsecPerSecond(size(10_000, 1))).toBe(2_000);
    expect(memoryLines({ hours: 2, served: [], sizes: [size(10_000, 30_000_000)] })[1]).toBe(
      '    10000 agents     3000 B/agent     2000 vsec/s  peak RSS 57 MiB  10 requests, 5 events, completed',
    );
  });

  it('prints what each added agent costs between sizes (the fixed part cancels out)', () => {
    const size = (agents: number, liveBytes: number): MemorySize => ({
      agents,
      virtualMs: 7_200_000,
      wallMs: 3_600,
      requests: 10,
      events: 5,
      liveBytes,
      peakRssBytes: 2 * liveBytes,
      outcome: 'completed',
    });
    const small = size(10_000, 8_000_000 + 10_000 * 3_000);
    const large = size(100_000, 8_000_000 + 100_000 * 3_000);
    expect(marginalBytesPerAgent(small, large)).toBe(3_000);
    expect(memoryLines({ hours: 2, served: [], sizes: [small, large] })[3]).toBe(
      '  marginal 10000 -> 100000 agents: 3000 B per added agent',
    );
  });
});
