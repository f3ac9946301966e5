// The recovery part of `npm run bench`, small: a synthetic mix cycled into a real SQLite command
// log with a checkpoint every 1,000 commands (none in the last 1,000: the longest tail a crash can
// leave); recovery from the newest checkpoint replays only that tail, and the live, checkpoint + tail and full-replay digests agree. The report prints
// "recovery time per million commands" with its target and verdict.
import { describe, expect, test } from 'vitest';
import { formatJson, formatTable, type BenchResult } from '../../bench/bench-report.ts';
import { recoveryPart, type RecoveryResult } from '../../bench/recovery-phase.ts';
import { syntheticMix } from '../../bench/synthetic-mix.ts';

function report(recovery: RecoveryResult): BenchResult {
  return {
    node: 'v24',
    machine: { cpus: 2, loadAverageStart: 0, loadAverageEnd: 0 },
    rounds: 1,
    mixRounds: 1,
    gcForced: true,
    mixPart: null,
    casino: null,
    load: null,
    recovery,
    checks: {
      inProcessStatusMismatches: null,
      bareOutcomeMismatches: null,
      httpStatusMismatches: null,
      httpTransportErrors: null,
      httpMismatchKinds: [],
      writeFailures: null,
      casinoRefusedBets: null,
      loadFailedRequests: null,
      loadDroppedIterations: null,
    },
  };
}

describe('recovery part', () => {
  test('a cycled mix, checkpoints every 1,000 commands: the tail is short and every digest agrees', async () => {
    const mix = await syntheticMix({ seed: '3', agents: 20, durationMs: 86_400_000, bodiesKept: 0 });
    const result = await recoveryPart({
      mix,
      commands: 3_500,
      rounds: 2,
      checkpointEvery: 1_000,
      log: () => undefined,
    });
    expect(result).toMatchObject({
      commands: 3_500,
      checkpointEvery: 1_000,
      checkpoints: 2,
      tailCommands: 1_500,
      digestsEqual: true,
    });
    expect(result.recoveryMs).toHaveLength(2);
    expect(result.checkpointBytes).toBeGreaterThan(1_000);
    // The worker encodes: the loop's share of a checkpoint is a small part of the whole.
    expect(result.checkpointBlockingMsMax).toBeGreaterThan(0);
    // The block's own cost, in the loop thread's CPU time (robust to a busy machine; the goal is 50 ms, the bound generous).
    // Not > 0: the thread clock counts in scheduler ticks, and a block shorter than one can read 0 (seen in a full run).
    expect(Number.isFinite(result.checkpointBlockingCpuMsMax)).toBe(true);
    expect(result.checkpointBlockingCpuMsMax).toBeGreaterThanOrEqual(0);
    expect(result.checkpointBlockingCpuMsMax).toBeLessThan(250);
    expect(result.checkpointMsMax).toBeGreaterThanOrEqual(result.checkpointBlockingMsMax);
    const table = formatTable(report(result));
    expect(table).toMatch(
      /recovery time per million commands \(scaled from 3500 commands\) {3}best \d+ ms {2}median \d+ ms {2}target < 2000 ms {2}(PASS|MISS)/,
    );
    expect(table).toContain('state digests equal (live, checkpoint + tail, full replay)');
    expect(table).toMatch(
      /longest server stall during a checkpoint \d+ ms blocked \(cpu \d+ ms\), \d+ ms event-loop delay seen \(the worker took \d+ ms at most, off the loop\)/,
    );
    const json = JSON.parse(formatJson(report(result))) as { recovery: { target: { ms_per_million_max: number } } };
    expect(json.recovery.target.ms_per_million_max).toBe(2_000);
  });
});
