// The bans of STYLE rule 1, checked twice: a plain text scan that needs no lint, and a probe
// proving the ESLint rule that enforces the same bans is active.
// Invariants: the scan is strict on purpose (comments and strings count too), so a banned name
// never appears outside the allowed doors, not even as an example; the allowed list here is the
// same as `nondeterminismAllowed` in eslint.config.js (bench/, scripts/, test/ are not scanned).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const scannedRoots = ['src', 'agents'];
const sourceExtension = /\.(?:ts|mts|cts|js|mjs|cjs)$/;

const banned = [
  'Date.now(',
  'new Date()',
  'Math.random(',
  'performance.now(',
  'randomUUID(',
  'randomBytes(',
  'setTimeout(',
  'setInterval(',
];

const allowed: readonly RegExp[] = [
  /^src\/core\/clock\.ts$/,
  /^src\/core\/rng\.ts$/,
  /^src\/load\//,
  /^src\/cli\//,
  /^src\/server\//,
  /^src\/export\/k6\/k6-script\.ts$/,
  /^src\/http\/server[^/]*\.ts$/,
];

function listSourceFiles(directory: string): string[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return []; // a root that does not exist yet (agents/ early on) has nothing to scan
  }
  const files: string[] = [];
  for (const name of names.sort()) {
    if (name === 'node_modules') continue;
    const path = join(directory, name);
    if (statSync(path).isDirectory()) files.push(...listSourceFiles(path));
    else if (sourceExtension.test(name)) files.push(path);
  }
  return files;
}

function findViolations(): string[] {
  const violations: string[] = [];
  for (const scannedRoot of scannedRoots) {
    for (const file of listSourceFiles(join(root, scannedRoot))) {
      const path = relative(root, file).split(sep).join('/');
      if (allowed.some((pattern) => pattern.test(path))) continue;
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, index) => {
        for (const needle of banned) {
          if (line.includes(needle)) violations.push(`${path}:${index + 1}: ${needle}`);
        }
      });
    }
  }
  return violations;
}

describe('STYLE rule 1: no ambient time, randomness or timers', () => {
  test('no banned call outside the allowed paths (text scan of src/ and agents/)', () => {
    expect(findViolations()).toEqual([]);
  });

  test('the ESLint ban rule reports Math.random() in a service file', async () => {
    // The probe file does not exist on disk, so tsconfig.json does not list it; the project
    // service is told to type it with the default project (same compiler options).
    const probe = 'src/services/__lint-probe__.ts';
    const eslint = new ESLint({
      cwd: root,
      overrideConfigFile: join(root, 'eslint.config.js'),
      overrideConfig: {
        files: [probe],
        languageOptions: {
          parserOptions: {
            projectService: { allowDefaultProject: [probe], defaultProject: 'tsconfig.json' },
          },
        },
      },
    });
    const source = [
      'export const roll = (): number => Math.random();',
      'export async function settle(): Promise<void> {}',
      'settle();',
      '',
    ].join('\n');
    const [result] = await eslint.lintText(source, { filePath: join(root, probe) });
    const messages = (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
    expect(messages).toContainEqual(expect.stringMatching(/^no-restricted-properties: 'Math\.random'/));
    // A typed rule firing proves the project service (type information) works as well.
    expect(messages).toContainEqual(expect.stringMatching(/^@typescript-eslint\/no-floating-promises: /));
  });
});
