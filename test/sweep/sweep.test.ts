/**
 * `afp sweep`: seeds on worker threads give the same rows whatever the worker count, each row's
 * digest is the one `afp run --seed` prints, a deliberate defect is found with a reproduce line
 * that reproduces it (and, with --shrink, a smaller file that fails the same way), and shards
 * merged are the whole sweep byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main as runEnding } from '../../src/cli/run.ts';
import { main as sweepEnding } from '../../src/cli/sweep.ts';
import { PROBES } from '../../src/sim/probes.ts';
import { parseSeeds, SWEEP_SEEDS_MAX } from '../../src/sweep/seeds.ts';
import { runSeedsInWorkers } from '../../src/sweep/sweep-pool.ts';
import { coded } from '../cli/ending-code.ts';

const runMain = coded(runEnding);
const sweepMain = coded(sweepEnding);

const SCENARIO = 'scenarios/k6-smoke.yaml';
const work = mkdtempSync(join(tmpdir(), 'afp-sweep-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function capture(): {
  io: { out(text: string): void; err(text: string): void; errIsTty: boolean };
  out: () => string;
  err: () => string;
} {
  let out = '';
  let err = '';
  return {
    io: { out: (text) => (out += text), err: (text) => (err += text), errIsTty: false },
    out: () => out,
    err: () => err,
  };
}

describe('--seeds', () => {
  it('reads ranges, lists and both, in the order given', () => {
    expect(parseSeeds('1..3')).toEqual(['1', '2', '3']);
    expect(parseSeeds('7,x9,1..2')).toEqual(['7', 'x9', '1', '2']);
    expect(parseSeeds('5..5')).toEqual(['5']);
  });

  it('refuses what would run a seed twice, run backwards or run forever', () => {
    expect(parseSeeds('1..3,2')).toBe('--seeds names seed 2 twice');
    expect(parseSeeds('3..1')).toBe('--seeds range 3..1 runs backwards');
    expect(parseSeeds(`1..${SWEEP_SEEDS_MAX + 1}`)).toBe(
      `--seeds range 1..${SWEEP_SEEDS_MAX + 1} has more than ${SWEEP_SEEDS_MAX} seeds`,
    );
    expect(parseSeeds('1..x')).toMatch(/FIRST\.\.LAST/);
    expect(parseSeeds('1,,2')).toMatch(/empty item/);
    expect(parseSeeds('a b')).toMatch(/printable/);
  });
});

describe('afp sweep', () => {
  it('gives the same rows on one worker and on two', async () => {
    const scenarioText = readFileSync(SCENARIO, 'utf8');
    const seeds = ['1', '2', '3', '4', '5', '6'];
    const one = await runSeedsInWorkers({
      scenarioText,
      file: SCENARIO,
      defects: ['escrow-fee-2pct'],
      seeds,
      workers: 1,
    });
    const two = await runSeedsInWorkers({
      scenarioText,
      file: SCENARIO,
      defects: ['escrow-fee-2pct'],
      seeds,
      workers: 2,
    });
    expect(two).toEqual(one);
    expect(one.map((row) => row.seed)).toEqual(seeds);
  });

  it('Ctrl-C: no seed starts after it, the seeds in flight finish; the others are holes', async () => {
    const scenarioText = readFileSync(SCENARIO, 'utf8');
    const stop = new AbortController();
    const seeds = Array.from({ length: 40 }, (_, index) => String(index + 1));
    const ran = await runSeedsInWorkers({
      scenarioText,
      file: SCENARIO,
      defects: [],
      seeds,
      workers: 1,
      onResult: () => stop.abort(),
      stop: stop.signal,
    });
    // One worker holds one seed at a time: the first answered, and nothing was handed out after.
    expect(ran.filter((result) => result !== undefined).map((result) => result.seed)).toEqual(['1']);
    expect(ran).toHaveLength(40);
  });

  it('Ctrl-C on afp sweep: the reports cover the seeds that ran, it says so and exits 4', async () => {
    const out = join(work, 'interrupted');
    const captured = capture();
    let listening = 0;
    const io = {
      ...captured.io,
      // A SIGTERM (a CI runner's stop) lands as the sweep starts listening, before any seed: none runs.
      onInterrupt: (handler: (signal: 'SIGINT' | 'SIGTERM') => void) => {
        listening += 1;
        handler('SIGTERM');
        return () => {
          listening -= 1;
        };
      },
    };
    const code = await sweepMain([SCENARIO, '--seeds', '1..20', '--workers', '2', '--out', out, '--json'], io);
    expect(code).toBe(4);
    expect(listening).toBe(0);
    expect(captured.err()).toContain(
      'afp sweep: stopping: the seeds in flight finish, no new one starts (SIGTERM received; send it again to quit at once)',
    );
    expect(captured.err()).toContain(
      'afp sweep: interrupted: 0 of 20 seeds ran; the reports cover those, so the sweep is not a pass (exit 4)',
    );
    expect(JSON.parse(captured.out())).toMatchObject({ verdict: 'liveness', exit_code: 4, interrupted: true });
    const written = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as {
      seeds_total: number;
      seeds: unknown[];
    };
    expect(written.seeds_total).toBe(20);
    expect(written.seeds).toEqual([]);
    // The JUnit a CI reads lists the 20 seeds as skipped (not run), not an empty suite that passes.
    const junit = readFileSync(join(out, 'sweep.junit.xml'), 'utf8');
    expect(junit).toMatch(/tests="20"[^>]*skipped="20"|skipped="20"[^>]*tests="20"/);
    expect(junit).toContain('<skipped message="not run: the sweep was interrupted before this seed"');
  });

  it('finds a deliberate defect, exits 3, and its reproduce line gives the same failure and digest with afp run', async () => {
    const out = join(work, 'defect');
    const sweep = capture();
    const code = await sweepMain(
      [SCENARIO, '--seeds', '1..8', '--workers', '2', '--defect', 'escrow-fee-2pct', '--out', out],
      sweep.io,
    );
    expect(code, sweep.err()).toBe(3);
    const report = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as {
      tally: { invariant_failed: number; completed: number };
      seeds: {
        seed: string;
        outcome: string;
        failure: { invariant: string; message: string } | null;
        digest: string;
        reproduce: string;
      }[];
    };
    expect(report.tally.invariant_failed).toBeGreaterThan(0);
    expect(report.tally.completed).toBeGreaterThan(0);
    const failed = report.seeds.find((row) => row.outcome === 'invariant-failed');
    if (failed?.failure == null) throw new Error('the defect was not found');
    expect(sweep.out()).toContain(`  seed ${failed.seed}: invariant ${failed.failure.invariant}`);
    expect(sweep.out()).toContain(`    reproduce: ${failed.reproduce}`);
    const junit = readFileSync(join(out, 'sweep.junit.xml'), 'utf8');
    expect(junit).toContain(`<testcase name="seed ${failed.seed}"`);
    expect(junit).toContain('type="invariant"');

    // Coverage: every probe has a row; the summary names the ones no seed hit.
    const coverageRows = readFileSync(join(out, 'coverage.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(','));
    expect(coverageRows.map((cells) => cells[0])).toEqual(PROBES.map((probe) => probe.name));
    const never = coverageRows.filter((cells) => cells[1] === '0').map((cells) => cells[0]);
    expect(never.length).toBeGreaterThan(0); // k6-smoke has no casino, no faults: those probes stay unhit
    expect(sweep.out()).toContain(
      `probes never hit (${never.length} of ${PROBES.length}; coverage.csv): ${never.join(', ')}`,
    );

    const words = failed.reproduce.split(' ');
    expect(words.slice(0, 3)).toEqual(['npx', 'afp', 'run']);
    const run = capture();
    const runCode = await runMain([...words.slice(3), '--out', join(work, 'reproduced')], {
      out: run.io.out,
      err: run.io.err,
      errIsTty: false,
    });
    expect(runCode).toBe(3);
    expect(run.out()).toContain(`invariant failed: ${failed.failure.invariant}`);
    expect(run.out()).toContain(`message: ${failed.failure.message}`);
    expect(run.out()).toContain(`digest: ${failed.digest}`);
  });

  it('with --shrink, shrinks the first failing seed into a smaller file that afp run reproduces', async () => {
    const out = join(work, 'shrunk');
    const sweep = capture();
    const code = await sweepMain(
      [
        SCENARIO,
        '--seeds',
        '1..8',
        '--workers',
        '2',
        '--defect',
        'escrow-fee-2pct',
        '--shrink',
        '--max-runs',
        '60',
        '--out',
        out,
        '--json',
      ],
      sweep.io,
    );
    expect(code, sweep.err()).toBe(3);
    const verdict = JSON.parse(sweep.out()) as {
      failures: { seed: string; invariant: string | null }[];
      shrunk: {
        seed: string;
        invariant: string;
        file: string;
        reproduce: string;
        original: { agents: number; requests: number };
        shrunk: { agents: number; requests: number };
      } | null;
    };
    const first = verdict.failures.find((row) => row.invariant !== null);
    if (first === undefined || verdict.shrunk === null) throw new Error(sweep.out());
    expect(verdict.shrunk.seed).toBe(first.seed);
    expect(verdict.shrunk.invariant).toBe(first.invariant);
    expect(verdict.shrunk.file).toBe(join(out, `shrunk-seed-${first.seed}`, 'shrunk.yaml'));
    expect(verdict.shrunk.shrunk.requests).toBeLessThan(verdict.shrunk.original.requests);
    const text = readFileSync(verdict.shrunk.file, 'utf8');
    expect(text).toContain(
      `# Shrunk by afp shrink from ${SCENARIO} (seed ${first.seed}, defects escrow-fee-2pct): invariant ${first.invariant} still fails first.`,
    );
    expect(text).toMatch(new RegExp(`\\nseed: ["']?${first.seed}["']?\\n`));
    const run = capture();
    expect(
      await runMain([verdict.shrunk.file, '--defect', 'escrow-fee-2pct', '--out', join(work, 'shrunk-rerun')], {
        out: run.io.out,
        err: run.io.err,
        errIsTty: false,
      }),
    ).toBe(3);
    expect(run.out()).toContain(`invariant failed: ${first.invariant}`);

    const holds = capture();
    expect(
      await sweepMain(
        [SCENARIO, '--seeds', '1..2', '--workers', '1', '--shrink', '--out', join(work, 'shrink-none')],
        holds.io,
      ),
    ).toBe(0);
    expect(holds.out()).toContain('shrink: no seed failed an invariant or its liveness check; nothing to shrink');
  });

  it('with --swarm, each seed runs its own draw, and its reproduce line (with --swarm) gives the same digest', async () => {
    const out = join(work, 'swarm');
    const sweep = capture();
    expect(
      await sweepMain([SCENARIO, '--seeds', '1..4', '--workers', '2', '--swarm', '--out', out], sweep.io),
      sweep.err(),
    ).toBe(0);
    expect(sweep.out()).toContain('4 seeds from --seeds 1..4, each its own swarm draw');
    const report = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as {
      seeds: { seed: string; digest: string; reproduce: string; figures: { agents: number } }[];
    };
    expect(new Set(report.seeds.map((row) => row.digest)).size).toBe(4);
    const row = report.seeds[2];
    if (row === undefined) throw new Error('no row');
    expect(row.reproduce).toBe(`npx afp run ${SCENARIO} --seed ${row.seed} --swarm`);
    const run = capture();
    expect(
      await runMain([...row.reproduce.split(' ').slice(3), '--out', join(work, 'swarm-rerun')], {
        out: run.io.out,
        err: run.io.err,
        errIsTty: false,
      }),
    ).toBe(0);
    expect(run.out()).toContain(`digest: ${row.digest}`);
  });

  it('merges shards into the whole sweep, byte for byte, and refuses a merge with a shard missing', async () => {
    const whole = join(work, 'whole');
    expect(await sweepMain([SCENARIO, '--seeds', '1..5,42', '--workers', '2', '--out', whole], capture().io)).toBe(0);
    for (const shard of ['1/2', '2/2']) {
      expect(
        await sweepMain(
          [
            SCENARIO,
            '--seeds',
            '1..5,42',
            '--workers',
            '1',
            '--shard',
            shard,
            '--out',
            join(work, `shard-${shard[0]}`),
          ],
          capture().io,
        ),
      ).toBe(0);
    }
    const merged = join(work, 'merged');
    const merge = capture();
    expect(
      await sweepMain(
        ['merge', join(work, 'shard-1', 'sweep.json'), join(work, 'shard-2', 'sweep.json'), '--out', merged],
        merge.io,
      ),
      merge.err(),
    ).toBe(0);
    for (const file of ['sweep.json', 'seeds.csv', 'distributions.csv', 'coverage.csv', 'sweep.junit.xml']) {
      expect(readFileSync(join(merged, file), 'utf8'), file).toBe(readFileSync(join(whole, file), 'utf8'));
    }
    const partial = capture();
    expect(
      await sweepMain(['merge', join(work, 'shard-1', 'sweep.json'), '--out', join(work, 'partial')], partial.io),
    ).toBe(2);
    expect(partial.err()).toContain(
      "3 of the sweep's 6 seeds are in none of the files (a shard's sweep.json left out?): 2, 4, 42\n",
    );
    // Another sweep's shard (other --seeds of the same count, or --swarm) does not join this one.
    const second = JSON.parse(readFileSync(join(work, 'shard-2', 'sweep.json'), 'utf8')) as Record<string, unknown>;
    for (const [change, reason] of [
      [{ seeds_given: '11..15,43' }, 'a sweep of --seeds 11..15,43, not --seeds 1..5,42'],
      [{ swarm: true }, 'a sweep with --swarm, but'],
    ] as const) {
      const other = join(work, `other-${reason.length}.json`);
      writeFileSync(other, JSON.stringify({ ...second, ...change }));
      const refused = capture();
      expect(
        await sweepMain(
          ['merge', join(work, 'shard-1', 'sweep.json'), other, '--out', join(work, 'other')],
          refused.io,
        ),
      ).toBe(2);
      expect(refused.err()).toContain(reason);
    }
    const twice = capture();
    expect(
      await sweepMain(
        [
          'merge',
          join(work, 'shard-1', 'sweep.json'),
          join(work, 'shard-1', 'sweep.json'),
          '--out',
          join(work, 'twice'),
        ],
        twice.io,
      ),
    ).toBe(2);
    expect(twice.err()).toMatch(/is in more than one file/);
    const bogus = join(work, 'bogus.json');
    writeFileSync(bogus, '{"format":"afp-sweep/1","scenario":"x"}');
    const bad = capture();
    expect(await sweepMain(['merge', bogus, '--out', join(work, 'bad')], bad.io)).toBe(2);
    expect(bad.err()).toContain('bogus.json: not an afp sweep.json');
  });

  it('answers bad flags with exit 2 and a reason, before running anything', async () => {
    const cases: [string[], RegExp][] = [
      [[SCENARIO], /required: --seeds/],
      [[SCENARIO, '--seeds', '1..2', '--workers', '0'], /--workers must be/],
      [[SCENARIO, '--seeds', '1..2', '--shard', '3/2'], /i must be 1\.\.2/],
      [[SCENARIO, '--seeds', '1..2', '--defect', 'nope'], /unknown --defect 'nope'/],
      [
        [SCENARIO, '--seeds', '1..2', '--defect', 'mcp-claim-skips-ip-cooldown'],
        /MCP doors only, which a sweep never calls/,
      ],
      [[SCENARIO, '--seeds', '1..2', '--max-runs', '5'], /give it with --shrink/],
      [[SCENARIO, '--seeds', '1..2', '--shrink', '--max-runs', '0'], /--max-runs must be a whole number/],
      [[join(work, 'missing.yaml'), '--seeds', '1'], /cannot read/],
    ];
    for (const [argv, reason] of cases) {
      const io = capture();
      expect(await sweepMain(argv, io.io), argv.join(' ')).toBe(2);
      expect(io.err()).toMatch(reason);
    }
  });
});
