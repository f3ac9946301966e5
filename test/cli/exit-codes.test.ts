// The exit-code table (src/core/exit-codes.ts), checked across every command of the table
// (src/cli/commands.ts) as a user meets them: the real CLI as a child process. For each command:
// `--help` and `-h` → 0 with the help generated from its definition; a misspelt flag → 2 naming
// the flag meant; a missing or invalid file → 2; an output directory that is a file, or an output
// file that is a directory → 2, before the command runs; and, for commands that take a live target, a
// closed loopback port → 4. A command added to the table without a row here fails the first test.
// Help and misspelt flags are answered by the dispatcher before any command's module is loaded, so
// they run in-process through the same dispatch (src/cli/dispatch.ts) main.ts runs, its printing
// captured; one command line of each runs as a child too, to show the process gives the same. Why:
// they were 51 of this file's ~105 Node starts (about 0.12-0.25 CPU s each), and a child showed
// nothing the dispatch does not.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { helpText } from '../../src/cli/command-definition.ts';
import { COMMANDS } from '../../src/cli/command-modules.ts';
import { dispatch } from '../../src/cli/dispatch.ts';
import { EXIT } from '../../src/core/exit-codes.ts';
import { CLI_MAIN } from '../fixtures/cli-child.ts';

const work = mkdtempSync(join(tmpdir(), 'afp-exit-codes-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const missing = join(work, 'no-such-file.yaml');

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `afp ARGS` as a child process, killed after 60 s. */
function afp(args: readonly string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `afp ARGS` in-process through the dispatcher, its stdout and stderr captured (one at a time: the streams are the process's). */
async function afpInProcess(args: readonly string[]): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  try {
    const code = await dispatch([...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** Each argv list in-process, one after the other. */
async function afpAllInProcess(runs: readonly (readonly string[])[]): Promise<Ran[]> {
  const results: Ran[] = [];
  for (const run of runs) results.push(await afpInProcess(run));
  return results;
}

/** Runs the argv lists at most `width` at a time (each is a Node start; the machine is shared). */
async function afpAll(runs: readonly (readonly string[])[], width = 3): Promise<Ran[]> {
  const results: Ran[] = new Array<Ran>(runs.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < runs.length) {
      const index = next++;
      results[index] = await afp(runs[index] as readonly string[]);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

/** A loopback port nobody listens on: bound, then closed. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const SMALL = `name: exit-codes-small
seed: 3
duration: 2h
populations:
  - { agent: faucet-farmer, count: 2 }
`;

let url = '';
let record = '';

beforeAll(async () => {
  url = `http://127.0.0.1:${await closedPort()}`;
  const scenario = join(work, 'small.yaml');
  writeFileSync(scenario, SMALL);
  record = join(work, 'small.jsonl');
  const ran = await afp(['run', scenario, '--out', join(work, 'run'), '--record', record]);
  expect(ran.code, ran.stderr).toBe(EXIT.ok);
});

/** Per command: argv with a missing or invalid file (exit 2), and argv against the closed port (exit 4) when it takes a target. */
const CASES: Readonly<Record<string, { invalidFile: () => string[]; unreachable?: () => string[] }>> = {
  run: { invalidFile: () => ['run', missing] },
  serve: { invalidFile: () => ['serve', '--port', '0', '--scenario', missing] },
  load: {
    invalidFile: () => ['load', missing, '--target', url],
    unreachable: () => ['load', 'scenarios/load-smoke.yaml', '--target', url, '--duration', '1s'],
  },
  'load merge': { invalidFile: () => ['load', 'merge', missing, '--out', join(work, 'merged')] },
  replay: {
    invalidFile: () => ['replay', missing, '--target', url],
    unreachable: () => ['replay', record, '--target', url, '--speed', 'max', '--out', join(work, 'replay')],
  },
  check: {
    invalidFile: () => ['check', '--target', missing],
    unreachable: () => ['check', '--target', url, '--runs', '1'],
  },
  'audit house-edge': {
    invalidFile: () => ['audit', 'house-edge', '--target', missing],
    unreachable: () => ['audit', 'house-edge', '--target', url, '--bets', '100', '--out', join(work, 'edge')],
  },
  'audit money': {
    invalidFile: () => ['audit', 'money', '--target', missing],
    unreachable: () => ['audit', 'money', '--target', url, '--out', join(work, 'money')],
  },
  'audit fairness': {
    invalidFile: () => ['audit', 'fairness', '--target', missing, '--key', 'k'],
    unreachable: () => ['audit', 'fairness', '--target', url, '--key', 'k', '--out', join(work, 'fairness')],
  },
  'export k6': { invalidFile: () => ['export', 'k6', missing] },
  sweep: { invalidFile: () => ['sweep', missing, '--seeds', '1'] },
  'sweep merge': { invalidFile: () => ['sweep', 'merge', missing, '--out', join(work, 'sweep-merged')] },
  shrink: { invalidFile: () => ['shrink', missing] },
  'scenario new': { invalidFile: () => ['scenario', 'new', 'scenarios/k6-smoke.yaml'] },
  'scenario check': { invalidFile: () => ['scenario', 'check', missing] },
  agents: { invalidFile: () => ['agents', 'no-such-archetype'] },
  'target probe': {
    invalidFile: () => ['target', 'probe', 'ftp://not-http'],
    unreachable: () => ['target', 'probe', url, '--timeout-ms', '2000'],
  },
};

/** A flag of the definition misspelt by swapping its last two letters (`--seed` → `--sede`). */
function misspelt(names: readonly string[]): { typo: string; meant: string } {
  const meant = names.find((name) => name.length >= 4 && name.at(-1) !== name.at(-2)) ?? (names[0] as string);
  return { typo: `${meant.slice(0, -2)}${meant.at(-1) ?? ''}${meant.at(-2) ?? ''}`, meant };
}

describe('the exit-code table, across every command', () => {
  const rows = COMMANDS.map((row) => ({ definition: row.definition, key: row.definition.path.join(' ') }));

  test('every command of the table has a row here', () => {
    expect(rows.map((row) => row.key).sort()).toEqual(Object.keys(CASES).sort());
  });

  test('--help and -h: exit 0, the help generated from the definition on stdout', async () => {
    const runs = rows.flatMap((row) => [
      [...row.definition.path, '--help'],
      [...row.definition.path, '-h'],
    ]);
    const results = await afpAllInProcess(runs);
    for (const [index, row] of rows.entries()) {
      for (const ran of [results[2 * index], results[2 * index + 1]]) {
        expect(ran?.code, `${row.key}: ${ran?.stderr}`).toBe(EXIT.ok);
        expect(ran?.stdout).toBe(helpText(row.definition));
      }
    }
    const [child] = await afpAll([runs[0] as readonly string[]]);
    expect(child, 'the same as a child process').toEqual(results[0]);
  });

  test('a misspelt flag: exit 2, naming the flag meant', async () => {
    const flagged = rows.filter((row) => row.definition.flags.length > 0);
    const typos = flagged.map((row) => misspelt(row.definition.flags.map((flag) => flag.name)));
    const runs = flagged.map((row, index) => [...row.definition.path, `--${typos[index]?.typo ?? ''}`, 'x']);
    const results = await afpAllInProcess(runs);
    const [child] = await afpAll([runs[0] as readonly string[]]);
    expect(child, 'the same as a child process').toEqual(results[0]);
    for (const [index, row] of flagged.entries()) {
      const ran = results[index];
      expect(ran?.code, `${row.key}: ${ran?.stderr}`).toBe(EXIT.invalidInput);
      expect(ran?.stderr, row.key).toContain(
        `unknown flag --${typos[index]?.typo ?? ''} (did you mean --${typos[index]?.meant ?? ''}?)`,
      );
    }
  });

  test('a missing or invalid file: exit 2; with --json, one JSON object naming the command as typed (afp …)', async () => {
    // 'sweep', 'sweep merge' and 'shrink' named themselves without afp; load merge had no --json;
    // a scenario file's errors were on stderr only, the seed a number or "1".
    // One child per command: those with a JSON envelope get --json too.
    const json = rows.filter((row) => row.definition.json !== undefined).map((row) => row.key);
    expect(json.sort()).toEqual(
      [
        'audit fairness',
        'audit house-edge',
        'audit money',
        'check',
        'load',
        'load merge',
        'replay',
        'run',
        'scenario check',
        'shrink',
        'sweep',
        'sweep merge',
        'target probe',
      ].sort(),
    );
    const results = await afpAll(
      rows.map((row) => [
        ...(CASES[row.key] as { invalidFile: () => string[] }).invalidFile(),
        ...(json.includes(row.key) ? ['--json'] : []),
      ]),
    );
    for (const [index, row] of rows.entries()) {
      const ran = results[index];
      expect(ran?.code, `${row.key}: ${ran?.stderr}`).toBe(EXIT.invalidInput);
      if (!json.includes(row.key)) continue;
      const object = JSON.parse(ran?.stdout ?? '') as Record<string, unknown>;
      expect(object, row.key).toMatchObject({
        command: `afp ${row.key}`,
        seed: null,
        verdict: 'invalid-input',
        exit_code: EXIT.invalidInput,
      });
      // Every command's invalid input names its errors in the object, not on stderr only.
      expect((object['errors'] as unknown[] | undefined)?.length ?? 0, row.key).toBeGreaterThan(0);
    }
  });

  test('a directory where a file is read: exit 2, never a crash', async () => {
    // `afp replay DIR` crashed with EISDIR (exit 1). Every command whose argument names a file it
    // reads (scenario new writes one: its row is the refusal of a directory to write).
    const needs: Readonly<Record<string, readonly string[]>> = {
      load: ['--target', url],
      sweep: ['--seeds', '1'],
      replay: ['--target', url],
    };
    const reading = rows.filter((row) => /FILE|SCENARIO/.test(row.definition.positionals[0]?.name ?? ''));
    expect(reading.map((row) => row.key).sort()).toEqual(
      [
        'export k6',
        'load',
        'load merge',
        'replay',
        'run',
        'scenario check',
        'scenario new',
        'shrink',
        'sweep',
        'sweep merge',
      ].sort(),
    );
    const results = await afpAll(reading.map((row) => [...row.definition.path, work, ...(needs[row.key] ?? [])]));
    for (const [index, row] of reading.entries()) {
      expect(results[index]?.code, `${row.key}: ${results[index]?.stderr}`).toBe(EXIT.invalidInput);
      expect(results[index]?.stderr, row.key).not.toMatch(/crash|EISDIR/);
    }
  });

  test('an output directory that is a file: exit 2 naming it, before the command runs', async () => {
    const file = join(work, 'a-file');
    writeFileSync(file, '');
    const withDirectory = rows.flatMap((row) => {
      const directoryFlag = row.definition.flags.find((flag) => flag.value?.split('|')[0] === 'DIR');
      return directoryFlag === undefined ? [] : [{ row, name: directoryFlag.name }];
    });
    expect(withDirectory.map(({ row }) => row.key).sort()).toEqual(
      [
        'audit fairness',
        'audit house-edge',
        'audit money',
        'check',
        'load',
        'load merge',
        'replay',
        'run',
        'shrink',
        'sweep',
        'sweep merge',
      ].sort(),
    );
    const results = await afpAll(withDirectory.map(({ row, name }) => [...row.definition.path, `--${name}`, file]));
    for (const [index, { row, name }] of withDirectory.entries()) {
      expect(results[index]?.code, `${row.key}: ${results[index]?.stderr}`).toBe(EXIT.invalidInput);
      expect(results[index]?.stderr, row.key).toContain(`--${name} ${file}: is a file, not a directory`);
    }
  });

  test('an output file that is a directory: exit 2 naming it, before the command runs', async () => {
    const withFile = rows.flatMap((row) =>
      row.definition.flags.filter((flag) => flag.writesFile === true).map((flag) => ({ row, name: flag.name })),
    );
    expect(withFile.map(({ row, name }) => `${row.key} --${name}`).sort()).toEqual([
      'export k6 --out',
      'run --record',
      'target probe --out',
    ]);
    const results = await afpAll(withFile.map(({ row, name }) => [...row.definition.path, `--${name}`, work]));
    for (const [index, { row, name }] of withFile.entries()) {
      expect(results[index]?.code, `${row.key}: ${results[index]?.stderr}`).toBe(EXIT.invalidInput);
      expect(results[index]?.stderr, row.key).toContain(`--${name} ${work}: is a directory, not a file`);
    }
  });

  test('a target that does not answer (a closed loopback port): exit 4, saying so', async () => {
    const live = rows.filter((row) => CASES[row.key]?.unreachable !== undefined);
    expect(live.length).toBeGreaterThanOrEqual(7);
    const results = await afpAll(live.map((row) => CASES[row.key]?.unreachable?.() ?? []));
    for (const [index, row] of live.entries()) {
      expect(results[index]?.code, `${row.key}: ${results[index]?.stderr}`).toBe(EXIT.liveness);
      expect(results[index]?.stderr, row.key).toMatch(/answer|ECONNREFUSED|reach|connect/i);
    }
  });

  test('no command, an unknown command or subcommand: exit 2 with a suggestion', async () => {
    const [none, command, sub] = await afpAll([[], ['chek'], ['audit', 'fairnes']]);
    expect(none?.code).toBe(EXIT.invalidInput);
    expect(command?.code).toBe(EXIT.invalidInput);
    expect(command?.stderr).toContain("afp: unknown command 'chek' (did you mean check?)");
    expect(sub?.code).toBe(EXIT.invalidInput);
    expect(sub?.stderr).toContain("afp audit: unknown subcommand 'fairnes' (did you mean fairness?)");
  });
});
