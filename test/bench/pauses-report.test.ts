// The pauses part's report (bench/pauses-report.ts) and flags: each figure beside its target with
// PASS or MISS, the worst round carrying the verdict, the bare server as a floor without a verdict,
// and `--only pauses` / `--serve-node-flags` parsed strictly. Pure: no server is started here (the
// figures themselves are measured by `npm run bench -- --only pauses`, never asserted in a test).
import { describe, expect, test } from 'vitest';
import { parseBenchFlags } from '../../bench/bench-flags.ts';
import type { PauseRun, PausesResult } from '../../bench/pauses-phase.ts';
import { TARGET_LOOP_DELAY_MS, TARGET_PROBE_MS, pausesJson, pausesLines } from '../../bench/pauses-report.ts';

function run(server: PauseRun['server'], loopMaxMs: number | null, probeMaxMs: number): PauseRun {
  return {
    load: 'register',
    server,
    loop:
      loopMaxMs === null ? null : { maxMs: loopMaxMs, p99Ms: 5, meanMs: 1, cpuMaxMs: loopMaxMs / 2, samples: 3_000 },
    probe: { maxMs: probeMaxMs, p99Ms: 10, probes: 2_500 },
    requests: 300_000,
    failed: 0,
    loadAverage: 1.5,
    checkpoints: server === 'data' ? { written: 7, blockingCpuMsMax: 12 } : null,
  };
}

const RESULT: PausesResult = {
  connections: 50,
  seconds: 30,
  rounds: 2,
  unpinned: null,
  serveNodeFlags: [],
  runs: [
    run('memory', 40, 90),
    run('memory', 80, 60),
    run('data', 30, 70),
    run('memory-apart', 23, 60),
    run('bare', null, 45),
  ],
  troubles: [],
};

describe('the pauses report', () => {
  test('the worst round carries the verdict, each figure beside its target', () => {
    expect(TARGET_LOOP_DELAY_MS).toBe(50);
    expect(TARGET_PROBE_MS).toBe(100);
    const lines = pausesLines(RESULT);
    const memory = lines.find((line) => line.startsWith('  afp serve in memory'));
    expect(memory).toBe(
      '  afp serve in memory: loop max 80.0 ms (target <= 50 ms: MISS; counting CPU only 40.0 ms: PASS), /health max 90.0 ms (target <= 100 ms: PASS)',
    );
    const data = lines.find((line) => line.startsWith('  afp serve --data'));
    expect(data).toContain('loop max 30.0 ms (target <= 50 ms: PASS');
    expect(lines).toContain('  bare node:http (floor): /health max 45.0 ms');
    // The same server with all but its loop's thread off the loop's core: measured and judged the same way.
    expect(lines.find((line) => line.startsWith('  afp serve in memory, all but'))).toBe(
      "  afp serve in memory, all but the loop's thread on the generator's core: loop max 23.0 ms (target <= 50 ms: PASS; counting CPU only 11.5 ms: PASS), /health max 60.0 ms (target <= 100 ms: PASS)",
    );
    // A --data run says what its checkpoints blocked, so a stall can be told from a checkpoint's.
    expect(lines.filter((line) => line.includes('7 checkpoints, longest loop block 12.0 ms CPU'))).toHaveLength(1);
    // Every round is listed under its server with the load average it ran at.
    expect(lines.filter((line) => line.includes('load avg 1.5'))).toHaveLength(5);
    // The mixed load and register's data-apart have no run here: said, not hidden.
    expect(lines.filter((line) => line.endsWith(': no run'))).toHaveLength(6);
  });

  test('the JSON gives the verdicts per load and server', () => {
    const json = pausesJson(RESULT) as { verdicts: Record<string, Record<string, unknown>> };
    expect(json.verdicts['register_memory']).toEqual({
      loop_max_ms: 80,
      loop_verdict: 'MISS',
      loop_cpu_max_ms: 40,
      loop_cpu_verdict: 'PASS',
      probe_max_ms: 90,
      probe_verdict: 'PASS',
    });
    expect(json.verdicts['mixed_data']?.['loop_verdict']).toBe('not measured');
    expect(json.verdicts['register_memory-apart']?.['loop_verdict']).toBe('PASS');
  });
});

describe('the pauses flags', () => {
  test('--only pauses, --pause-seconds and --serve-node-flags', () => {
    const flags = parseBenchFlags([
      '--only',
      'pauses',
      '--pause-seconds',
      '5',
      '--serve-node-flags',
      '--max-semi-space-size=8 --single-threaded-gc',
    ]);
    expect(flags).toMatchObject({
      only: 'pauses',
      pauseSeconds: 5,
      serveNodeFlags: ['--max-semi-space-size=8', '--single-threaded-gc'],
    });
    expect(parseBenchFlags([])).toMatchObject({ pauseSeconds: 30, serveNodeFlags: [] });
  });

  test('a serve node flag that is not a plain flag is refused', () => {
    const flags = parseBenchFlags(['--serve-node-flags', '--require=/tmp/x.js;rm']);
    expect(flags).toHaveProperty('errors');
    expect((flags as { errors: string[] }).errors.join(' ')).toContain('--serve-node-flags');
  });
});
