// `--json` on the commands that print a verdict: stdout is exactly one JSON object (the command,
// seed, verdict, exit code and the figures the human output prints), the human lines go to
// stderr. In-process, through each command's own `main` with a collecting io.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main as auditEnding } from '../../src/cli/audit.ts';
import { main as checkEnding } from '../../src/cli/check.ts';
import { main as runEnding } from '../../src/cli/run.ts';
import { runScenarioCommand as runScenarioCommandEnding } from '../../src/cli/scenario.ts';
import { printedErrorLines, withJsonOutput } from '../../src/cli/json-output.ts';
import { OutputWriteError } from '../../src/core/output-write-error.ts';
import { PASSED, type Ending } from '../../src/core/command-failure.ts';
import { codeOf, coded } from './ending-code.ts';

const auditMain = coded(auditEnding);
const checkMain = coded(checkEnding);
const runMain = coded(runEnding);
const runScenarioCommand = coded(runScenarioCommandEnding);

const work = mkdtempSync(join(tmpdir(), 'afp-json-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Collected {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

async function collect(
  run: (io: { out(text: string): void; err(text: string): void; errIsTty: boolean }) => Promise<number>,
): Promise<Collected> {
  let out = '';
  let err = '';
  const code = await run({ out: (text) => void (out += text), err: (text) => void (err += text), errIsTty: false });
  return { code, out, err };
}

/** The one JSON object of stdout (one line, nothing else). */
function only(out: string): Record<string, unknown> {
  expect(out.endsWith('\n')).toBe(true);
  expect(out.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(out) as Record<string, unknown>;
}

const SMALL = `name: json-small
seed: 21
duration: 6h
populations:
  - { agent: faucet-farmer, count: 3 }
  - { agent: escrow-seller, count: 2 }
  - { agent: escrow-buyer, count: 3, params: { expires_in: 2h, escrow_every: 2h } }
`;

describe('--json', () => {
  test('afp run: the seed, verdict, exit code, digest and report files; the summary on stderr', async () => {
    const file = join(work, 'small.yaml');
    writeFileSync(file, SMALL);
    const out = join(work, 'run');
    const ran = await collect((io) => runMain([file, '--out', out, '--json'], io));
    expect(ran.code).toBe(0);
    const object = only(ran.out);
    expect(object).toMatchObject({
      command: 'afp run',
      seed: '21',
      verdict: 'ok',
      exit_code: 0,
      scenario: 'json-small',
      failure: null,
      limit: null,
      out,
    });
    expect(Object.keys(object).slice(0, 4)).toEqual(['command', 'seed', 'verdict', 'exit_code']);
    expect(object['digest']).toMatch(/^[0-9a-f]{64}$/);
    expect(ran.err).toContain('seed: 21\n');
    expect(ran.err).toContain(`digest: ${String(object['digest'])}\n`);
    const plain = await collect((io) => runMain([file, '--out', join(work, 'run-plain')], io));
    expect(plain.out).toContain(`digest: ${String(object['digest'])}\n`);
  });

  test('afp run: invalid input still prints its object, with every error', async () => {
    const ran = await collect((io) => runMain([join(work, 'none.yaml'), '--sed', '1', '--json'], io));
    expect(ran.code).toBe(2);
    expect(only(ran.out)).toMatchObject({
      command: 'afp run',
      seed: null,
      verdict: 'invalid-input',
      exit_code: 2,
      errors: ['unknown flag --sed (did you mean --seed?)', 'expected one scenario FILE, got 2'],
    });
  });

  test('afp check (in-process): the runs held; a deliberate defect fails with the shrunk failure and the reproduce command', async () => {
    const ok = await collect((io) => checkMain(['--seed', '7', '--runs', '5', '--json'], io));
    expect(ok.code).toBe(0);
    expect(only(ok.out)).toMatchObject({
      command: 'afp check',
      seed: '7',
      verdict: 'ok',
      exit_code: 0,
      runs: 5,
      failure: null,
      reproduce: 'npx afp check --seed 7 --runs 5',
    });
    expect(ok.err).toContain('ok: 5 runs held');
    const failed = await collect((io) =>
      checkMain(['--seed', '7', '--runs', '50', '--defect', 'mint-on-claim', '--json'], io),
    );
    expect(failed.code, failed.err).toBe(3);
    const object = only(failed.out);
    expect(object).toMatchObject({
      command: 'afp check',
      seed: '7',
      verdict: 'failed',
      exit_code: 3,
      failure: { kind: 'mismatch' },
    });
    expect(String(object['reproduce'])).toContain('npx afp check --seed 7 --path');
  });

  test("afp audit house-edge (in-process, small --bets): the model check's figures and the rows", async () => {
    const ran = await collect((io) =>
      auditMain(
        [
          'house-edge',
          '--games',
          'dice',
          '--bets',
          '2000',
          '--seed',
          '9',
          '--workers',
          '1',
          '--out',
          join(work, 'edge'),
          '--json',
        ],
        io,
      ),
    );
    expect(ran.code).toBe(0);
    const object = only(ran.out);
    expect(object).toMatchObject({
      command: 'afp audit house-edge',
      seed: '9',
      verdict: 'ok',
      exit_code: 0,
      bets_per_game: 2000,
      model_misses: 0,
    });
    expect(object['files']).toEqual(['edges.csv', 'edges.json', 'report.html'].map((name) => join(work, 'edge', name)));
    expect((object['edges'] as { rows: unknown[] }).rows).toHaveLength(object['rows'] as number);
    expect(ran.err.split('\n')[0]).toBe('seed: 9');
  });

  test('invalid input carries the errors the command printed (a scenario file), one per line, the seed null', async () => {
    const file = join(work, 'bad.yaml');
    writeFileSync(file, 'name: Bad Name\nduration: soon\npopulations: []\n');
    const ran = await collect((io) => runMain([file, '--seed', '5', '--json'], io));
    expect(ran.code).toBe(2);
    const object = only(ran.out);
    expect(object).toMatchObject({ command: 'afp run', seed: null, verdict: 'invalid-input' });
    const errors = object['errors'] as string[];
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors.every((error) => error.startsWith(`${file}:`))).toBe(true);
    expect(ran.err).toContain(errors[0]);
  });

  test("the printed errors: the command's prefix off, the usage and seed lines left out", () => {
    expect(
      printedErrorLines(
        'afp sweep',
        'seed: 3\nafp sweep: required: --seeds 1..N\nafp sweep: bad\nusage: afp sweep FILE\n',
      ),
    ).toEqual(['required: --seeds 1..N', 'bad']);
  });

  test('the seed is text whatever the command recorded; a report that cannot be written is exit 2 naming it', async () => {
    const numbered = await collect((io) =>
      codeOf(
        withJsonOutput('afp x', ['--json'], io, (_human, record) => {
          record({ seed: 12 });
          return Promise.resolve(PASSED);
        }),
        io,
      ),
    );
    expect(only(numbered.out)['seed']).toBe('12');
    const unwritable = new OutputWriteError(
      'out/agents.csv',
      Object.assign(new Error('EISDIR: x'), { code: 'EISDIR' }),
    );
    expect(unwritable.message).toBe('cannot write out/agents.csv: it is a directory (EISDIR)');
    const fail = (): Promise<Ending> => Promise.reject(unwritable);
    const json = await collect((io) => codeOf(withJsonOutput('afp x', ['--json'], io, fail), io));
    expect(json.code).toBe(2);
    expect(only(json.out)).toMatchObject({ verdict: 'invalid-input', errors: [unwritable.message] });
    const plain = await collect((io) => codeOf(withJsonOutput('afp x', [], io, fail), io));
    expect(plain).toEqual({ code: 2, out: '', err: `afp x: ${unwritable.message}\n` });
  });

  test('afp run --out with a directory where a report goes: exit 2 naming it, no crash', async () => {
    const out = join(work, 'rx');
    mkdirSync(join(out, 'agents.csv'), { recursive: true });
    const file = join(work, 'small-rx.yaml');
    writeFileSync(file, SMALL.replace('duration: 6h', 'duration: 1h'));
    const ran = await collect((io) => runMain([file, '--out', out, '--json'], io));
    expect(ran.code).toBe(2);
    expect(only(ran.out)['errors']).toEqual([`cannot write ${join(out, 'agents.csv')}: it is a directory (EISDIR)`]);
  });

  test('afp check --out in-process writes the findings reports (CI reads findings.junit.xml)', async () => {
    const out = join(work, 'ckout');
    const ran = await collect((io) => checkMain(['--seed', '3', '--runs', '2', '--out', out, '--json'], io));
    expect(ran.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['findings.csv', 'findings.html', 'findings.json', 'findings.junit.xml']);
    expect(only(ran.out)['files']).toHaveLength(4);
    expect(readFileSync(join(out, 'findings.junit.xml'), 'utf8')).toContain('model-based sequences (2 runs, seed 3)');
  });

  test('afp scenario check --json: the verdict and the scenario, or every error', async () => {
    const file = join(work, 'valid.yaml');
    writeFileSync(file, SMALL);
    const ok = await collect((io) => runScenarioCommand(['check', file, '--json'], io));
    expect(ok.code).toBe(0);
    expect(only(ok.out)).toMatchObject({
      command: 'afp scenario check',
      seed: null,
      verdict: 'ok',
      scenario: 'json-small',
      populations: 3,
      agents: 8,
    });
    const bad = join(work, 'invalid.yaml');
    writeFileSync(bad, 'name: x\nduration: soon\npopulations: []\n');
    const failed = await collect((io) => runScenarioCommand(['check', bad, '--json'], io));
    expect(failed.code).toBe(2);
    expect((only(failed.out)['errors'] as string[]).length).toBeGreaterThan(0);
  });
});
