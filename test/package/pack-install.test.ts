/**
 * afp as a user gets it: `npm pack` (of dist/ built as its prepack builds it: buildAsPrepackDoes),
 * installed into an empty folder, run on the oldest Node afp supports (22.13, node:sqlite without
 * a flag) and on Node 24, and refused on Node 20 with one line. Why a test of the tarball and not of the clone: a clone hides what the package forgets
 * (an unbuilt file, a `.ts` URL, a type from a dev dependency, a file left out of `files`).
 * The same scenario must give byte-identical reports from the clone's sources and from the
 * package on both Nodes: determinism does not depend on the runtime. The typed import is the
 * README's library example, so the README cannot drift from the API.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeBinariesSkipReason, nodeBinary } from './node-binaries.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const OLDEST_NODE = '22.13.0';
const TOO_OLD_NODE = '20.20.2';
const SCENARIO = 'scenarios/k6-smoke.yaml';
const REPORTS = ['agents.csv', 'endpoints.csv', 'escrows.csv', 'events.jsonl'];

const skipReason = nodeBinariesSkipReason();
if (skipReason !== null) console.log(`package test skipped: ${skipReason}`);

let work = '';
let consumer = '';
let tarball = '';
let cloneOut = '';

// Time limits here are bounds on a hang, not budgets: building dist/ took over 300 s at load 35.
function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; node?: string; timeoutMs?: number },
): SpawnSyncReturns<string> {
  // The bin's `#!/usr/bin/env node` finds the Node under test first on PATH, as a user's shell would.
  const path =
    options.node === undefined ? process.env['PATH'] : `${dirname(options.node)}:${process.env['PATH'] ?? ''}`;
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 600_000,
    env: { ...process.env, PATH: path, NO_COLOR: '1' },
  });
  if (result.error !== undefined) throw result.error;
  return result;
}

function expectOk(result: SpawnSyncReturns<string>, what: string): void {
  expect(result.status, `${what}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
}

/**
 * dist/ as `npm pack`'s prepack builds it (`npm run build`: package.json's build script, a checked
 * tsc build), emitted without its type check (--noCheck), then packed with --ignore-scripts. Why:
 * the check is half the build (16 -> 8 CPU s measured), and npm test's typecheck step checks the
 * same sources with the same options (tsconfig.build.json extends tsconfig.json). What --noCheck
 * keeps: the emitted JavaScript is byte-identical, declaration emit still reports its own errors
 * (TS4094 and the like), and the .d.ts files differ from the checked build's only in the order of
 * union members and mapped keys (three zod schema files), which types do not see. Users' `npm
 * pack` is unchanged: the scripts are asserted to be that checked build.
 */
function buildAsPrepackDoes(): void {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(scripts['prepack']).toBe('npm run build');
  const [tool, ...args] = (scripts['build'] ?? '').split(' ');
  expect(tool).toBe('tsc');
  expect(args).not.toContain('--noCheck');
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  expectOk(run(process.execPath, [tsc, ...args, '--noCheck'], { cwd: ROOT, timeoutMs: 1_200_000 }), 'the build');
}

/** The README's library example, exactly as a reader copies it. */
function readmeLibraryExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const found = /<!-- library-example -->\n```ts\n([\s\S]*?)```\n<!-- \/library-example -->/.exec(readme);
  if (found?.[1] === undefined) throw new Error('README.md lacks the library example between its markers');
  return found[1];
}

describe.skipIf(skipReason !== null)('the packed package', () => {
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'afp-package-'));
    buildAsPrepackDoes();
    const packed = run('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--json'], {
      cwd: ROOT,
      timeoutMs: 1_200_000,
    });
    expectOk(packed, 'npm pack');
    const [entry] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[];
    tarball = join(work, entry?.filename ?? 'missing.tgz');
    consumer = join(work, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    expectOk(
      run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], {
        cwd: consumer,
        timeoutMs: 1_200_000,
      }),
      'npm install of the tarball',
    );
    cloneOut = join(work, 'run-clone');
    expectOk(
      run(process.execPath, ['src/cli/main.ts', 'run', SCENARIO, '--out', cloneOut], { cwd: ROOT }),
      'afp run from the clone',
    );
    writeFileSync(join(consumer, 'use-afp.ts'), readmeLibraryExample());
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2024',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
        },
        files: ['use-afp.ts'],
      }),
    );
  }, 1_800_000);

  afterAll(() => {
    if (work !== '') rmSync(work, { recursive: true, force: true });
  });

  it('ships the bin, the built JavaScript with declarations and the data files, and no sources or tests', () => {
    const listed = run('tar', ['tzf', tarball], { cwd: work });
    expectOk(listed, 'tar tzf');
    const files = listed.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.replace(/^package\//, ''));
    for (const needed of [
      'package.json',
      'README.md',
      'bin/afp.js',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/cli/main.js',
      'dist/agents/index.js',
      'schemas/scenario.schema.json',
      SCENARIO,
      'targets/deployed.yaml',
    ]) {
      expect(files, needed).toContain(needed);
    }
    const unwanted = files.filter(
      (file) =>
        /^(src|test|bench|scripts|\.ci|reports|node_modules)\//.test(file) ||
        file.endsWith('.map') ||
        (file.endsWith('.ts') && !file.endsWith('.d.ts')),
    );
    expect(unwanted).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules', 'afp', 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies ?? {})).not.toContain('node');
  });

  // A TypeScript user's import, checked against the shipped declarations with skipLibCheck off:
  // a declaration that needs a dev dependency's types fails here. consumer-type-check.ts is
  // `tsc -p .` that leaves out the semantic check of the other packages' declarations (not afp's).
  it('type-checks a TypeScript import of the library API', () => {
    const checked = run(process.execPath, [join(import.meta.dirname, 'consumer-type-check.ts'), consumer], {
      cwd: consumer,
      timeoutMs: 600_000,
    });
    expectOk(checked, 'type check of a typed import');
    expect(checked.stdout).toMatch(/^type-checked \d+ of \d+ files\n$/);
  }, 900_000);

  it('refuses a Node older than 22.13 with one line and no stack trace', () => {
    const result = run('node_modules/.bin/afp', ['--version'], { cwd: consumer, node: nodeBinary(TOO_OLD_NODE) });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`afp needs Node 22.13 or later (this is Node ${TOO_OLD_NODE})\n`);
  }, 900_000);

  describe.each([
    ['the oldest supported Node', () => nodeBinary(OLDEST_NODE)],
    ['Node 24', () => process.execPath],
  ])('on %s', (name, node) => {
    it('prints its version, runs a scenario to the same bytes as the clone, and runs the typed import', () => {
      const binary = node();
      const version = run('node_modules/.bin/afp', ['--version'], { cwd: consumer, node: binary });
      expectOk(version, 'afp --version');
      const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
      expect(version.stdout).toBe(`afp ${manifest.version}\n`);

      const packageOut = join(work, `run-${name.replaceAll(' ', '-')}`);
      expectOk(
        run('node_modules/.bin/afp', ['run', `node_modules/afp/${SCENARIO}`, '--out', packageOut], {
          cwd: consumer,
          node: binary,
        }),
        'afp run from the package',
      );
      for (const report of REPORTS) {
        expect(readFileSync(join(packageOut, report), 'utf8'), report).toBe(
          readFileSync(join(cloneOut, report), 'utf8'),
        );
      }

      const strip = binary === process.execPath ? [] : ['--experimental-strip-types', '--no-warnings'];
      const libraryOut = join(work, `lib-${name.replaceAll(' ', '-')}`);
      const used = run(binary, [...strip, 'use-afp.ts', libraryOut], { cwd: consumer });
      expectOk(used, 'node use-afp.ts');
      const answer = JSON.parse(used.stdout) as { claim: number; stake: string; digest: string };
      expect(answer.claim).toBe(200);
      expect(answer.stake).toBe('10.00');
      expect(readdirSync(libraryOut)).toEqual(expect.arrayContaining(REPORTS));
    }, 900_000);
  });
});
