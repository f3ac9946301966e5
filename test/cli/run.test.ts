// `afp run` as a user runs it: the output contract (seed first, summary, digest last), reports
// written, the exit codes of a violation (3), bad input (2) and a limit (4), the reproduce line a
// failure prints; the default --out keeps the seed in the folder name. Each exit code a user meets
// first (0, 2, 3, 4 on a signal), Ctrl-C and the working folder are met through a child process on
// this Node (src/cli/main.ts); the other cases call the same `main` (src/cli/run.ts) in-process
// with the same argv and compare the same printed text: a child's start costs about 0.4 CPU s, and
// most of this file's CPU was twenty of them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main as runEnding } from '../../src/cli/run.ts';
import { defaultRunOutDir, seedPathPart } from '../../src/report/out-dir.ts';
import { interruptCliChild } from '../fixtures/cli-child.ts';
import { coded } from './ending-code.ts';

const runMain = coded(runEnding);

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'afp-run-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SMALL = `name: cli-small
seed: 77
duration: 1d
populations:
  - { agent: faucet-farmer, count: 10, style: mixed }
  - { agent: escrow-seller, count: 5 }
  - { agent: escrow-buyer, count: 10, params: { expires_in: 2h, escrow_every: 2h } }
`;

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `afp run ARGS` as a child process. */
function afp(...args: string[]): Ran {
  const result = spawnSync(process.execPath, ['src/cli/main.ts', 'run', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `afp run ARGS` in this process: the same `main` the child's src/cli/main.ts calls, its printing captured. */
async function afpInProcess(...args: string[]): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const status = await runMain(args, {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    errIsTty: false,
  });
  return { status, stdout, stderr };
}

function scenarioFile(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

describe('the default --out', () => {
  test('keeps the seed: reports/<scenario>-seed-<seed>; odd seeds are cleaned and hashed apart', () => {
    expect(defaultRunOutDir('quickstart', '42')).toBe(join('reports', 'quickstart-seed-42'));
    expect(seedPathPart('x.y_z-1')).toBe('x.y_z-1');
    expect(seedPathPart('..')).toMatch(/^\.\.-[0-9a-f]{8}$/);
    expect(seedPathPart('a b')).not.toBe(seedPathPart('a?b'));
    expect(seedPathPart('a b')).toMatch(/^a_b-[0-9a-f]{8}$/);
  });
});

describe('afp run', () => {
  const file = scenarioFile('small.yaml', SMALL);

  test('prints the seed first and the digest last, writes the reports, exits 0; the same seed repeats the digest', async () => {
    const out = join(work, 'out-a');
    const first = afp(file, '--out', out);
    // Nothing on stderr but the progress line a slow machine may draw (src/cli/progress.ts: every 10 s off a terminal).
    expect(first.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('run: '))).toEqual([]);
    expect(first.status).toBe(0);
    const lines = first.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('seed: 77');
    expect(lines.at(-1)).toMatch(/^digest: [0-9a-f]{64}$/);
    expect(first.stdout).toContain('conservation');
    for (const report of ['summary.json', 'agents.csv', 'endpoints.csv', 'escrows.csv', 'events.jsonl'])
      expect(existsSync(join(out, report)), report).toBe(true);
    // Where the reports went is said on the line before the digest.
    expect(lines.at(-2)).toBe(`reports: ${out} (5 files)`);
    // The same printed text in-process as from the child: the runs below stand for it.
    const again = await afpInProcess(file, '--out', join(work, 'out-b'), '--seed', '77');
    expect(again.stdout.replace(join(work, 'out-b'), out)).toBe(first.stdout);
    expect(readFileSync(join(work, 'out-b', 'events.jsonl'), 'utf8')).toBe(
      readFileSync(join(out, 'events.jsonl'), 'utf8'),
    );
    const other = await afpInProcess(file, '--out', join(work, 'out-c'), '--seed', '78');
    expect(other.stdout.split('\n')[0]).toBe('seed: 78');
    expect(other.stdout.trimEnd().split('\n').at(-1)).not.toBe(lines.at(-1));
    // The same scenario under another path (and so another reproduce command) gives the same digest.
    const moved = scenarioFile('moved-small.yaml', SMALL);
    const elsewhere = await afpInProcess(moved, '--out', join(work, 'out-d'));
    expect(readFileSync(join(work, 'out-d', 'summary.json'), 'utf8')).toContain('moved-small.yaml');
    expect(elsewhere.stdout.trimEnd().split('\n').at(-1)).toBe(lines.at(-1));
  });

  test('--defect mint-on-claim: exit 3, names conservation and the claim event, prints the reproduce command', () => {
    const out = join(work, 'out-defect');
    const result = afp(file, '--seed', '5', '--out', out, '--defect', 'mint-on-claim');
    expect(result.status).toBe(3);
    expect(result.stdout.split('\n')[0]).toBe('seed: 5');
    expect(result.stdout).toContain('invariant failed: conservation');
    expect(result.stdout).toMatch(/event: \{"type":"faucet\.claimed"/);
    expect(result.stdout).toContain(`reproduce: npx afp run ${file} --seed 5 --defect mint-on-claim`);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^digest: [0-9a-f]{64}$/);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).outcome).toBe('invariant-failed');
  });

  test('scenario errors: exit 2, every error with its path and line, the seed first when the flag gives it', async () => {
    const bad = scenarioFile(
      'bad.yaml',
      'name: bad\nduration: 1x\npopulations:\n  - { agent: escrow-buyer, count: 1, params: { release: 2 } }\n  - { agent: nobody, count: 1 }\ncolour: red\n',
    );
    const result = await afpInProcess(bad, '--seed', '9');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('seed: 9\n');
    expect(result.stderr).toContain(`${bad}:2 duration:`);
    expect(result.stderr).toContain(`${bad}:4 populations[0].params.release:`);
    expect(result.stderr).toContain(`${bad}:5 populations[1].agent: unknown agent 'nobody'`);
    expect(result.stderr).toContain(`${bad}:6 colour: unknown key 'colour'`);
  });

  test('bad flags and a missing file: exit 2', async () => {
    // The one child here: exit 2 as the process's own code.
    const unknownDefect = afp(file, '--defect', 'free-money');
    expect(unknownDefect.status).toBe(2);
    expect(unknownDefect.stderr).toContain("unknown --defect 'free-money'");
    // A defect of the deployed stand-in's MCP doors: nothing in a run reaches them.
    const doorDefect = await afpInProcess(file, '--defect', 'mcp-release-credits-nobody');
    expect(doorDefect.status).toBe(2);
    expect(doorDefect.stderr).toContain('MCP doors only, which a run never calls');
    expect((await afpInProcess()).status).toBe(2);
    expect((await afpInProcess(file, '--bogus')).status).toBe(2);
    const missing = await afpInProcess(join(work, 'missing.yaml'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read');
  });

  test('a scenario limit stops the run: exit 4 with the limit and the reproduce command', async () => {
    const limited = scenarioFile('limited.yaml', `${SMALL}limits: { max_requests: 100 }\n`);
    const result = await afpInProcess(limited, '--out', join(work, 'out-limit'));
    expect(result.status).toBe(4);
    expect(result.stdout).toContain('limit reached: max_requests (100) reached');
    expect(result.stdout).toContain('reproduce: npx afp run');
  });

  test('without --out the reports go to reports/<scenario>-seed-<seed>/ under the working folder, one per seed', async () => {
    const cwd = mkdtempSync(join(work, 'cwd-'));
    const tiny = scenarioFile(
      'tiny.yaml',
      'name: cli-tiny\nseed: 77\nduration: 1h\npopulations:\n  - { agent: faucet-farmer, count: 2 }\n',
    );
    // A child in that folder; the other seeds in-process with this process's folder moved there for the call.
    const child = spawnSync(process.execPath, [join(root, 'src/cli/main.ts'), 'run', tiny], {
      cwd,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.status).toBe(0);
    const run = async (...args: string[]): Promise<number | null> => {
      const before = process.cwd();
      process.chdir(cwd);
      try {
        return (await afpInProcess(tiny, ...args)).status;
      } finally {
        process.chdir(before);
      }
    };
    expect(await run('--seed', '78')).toBe(0);
    expect(await run('--seed', 'a/b')).toBe(0);
    expect(readdirSync(join(cwd, 'reports')).sort()).toEqual([
      'cli-tiny-seed-77',
      'cli-tiny-seed-78',
      `cli-tiny-seed-${seedPathPart('a/b')}`,
    ]);
    expect(seedPathPart('a/b')).toMatch(/^a_b-[0-9a-f]{8}$/);
    expect(JSON.parse(readFileSync(join(cwd, 'reports', 'cli-tiny-seed-78', 'summary.json'), 'utf8')).seed).toBe('78');
  });

  // SIGTERM (`timeout`, a CI runner) as Ctrl-C: Node's default for it left no reports and the run's temporary event file.
  test.each(['SIGINT', 'SIGTERM'] as const)(
    '%s stops the run, writes the reports so far, says so, and exits 4 (a run cut short)',
    async (signal) => {
      const long = scenarioFile(
        'long.yaml',
        SMALL.replace('name: cli-small', 'name: cli-long')
          .replace('duration: 1d', 'duration: 365d')
          .replace('count: 10, style', 'count: 400, style'),
      );
      const out = join(work, `out-interrupted-${signal}`);
      const temporary = mkdtempSync(join(work, 'tmp-'));
      const { code, stdout, stderr } = await interruptCliChild(['run', long, '--out', out], {
        // Once the run is under way (its seed line is printed before the simulation starts).
        ready: ({ stdout }) => stdout.includes('seed: 77'),
        afterMs: 500,
        signal,
        env: { ...process.env, TMPDIR: temporary },
      });
      expect(code, stdout + stderr).toBe(4);
      expect(stderr).toContain('afp run: interrupted: stopping and writing the reports so far');
      expect(stdout).toMatch(/limit reached: interrupted at \S+, \d+% of the virtual time/);
      expect(stdout).toContain(`interrupted: the reports of the run so far are in ${out}`);
      expect(existsSync(join(out, 'summary.json'))).toBe(true);
      expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({ outcome: 'limit-reached' });
      expect(readdirSync(temporary)).toEqual([]);
    },
  );

  test('--record writes the exchanges of the run', async () => {
    const record = join(work, 'run.afp-record.jsonl');
    const result = await afpInProcess(file, '--out', join(work, 'out-record'), '--record', record);
    expect(result.status).toBe(0);
    const lines = readFileSync(record, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0] as string) as { scenario: string; exchanges: number };
    expect(header.scenario).toBe('cli-small');
    expect(header.exchanges).toBe(lines.length - 1);
    expect(lines.length).toBeGreaterThan(100);
    // A record that would replace the scenario, or that a report would replace: refused before the run.
    const before = readFileSync(file, 'utf8');
    const onScenario = await afpInProcess(file, '--out', join(work, 'out-clash'), '--record', file);
    expect(onScenario.status).toBe(2);
    expect(onScenario.stderr).toContain(`--record ${file} is the scenario file: the record would replace it`);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const onReport = await afpInProcess(
      file,
      '--out',
      join(work, 'out-clash'),
      '--record',
      join(work, 'out-clash', 'summary.json'),
    );
    expect(onReport.status).toBe(2);
    expect(onReport.stderr).toContain('is a report of this run');
  });
});
