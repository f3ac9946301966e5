// The lint step of `npm test` (`npm run lint`: oxlint with .oxlintrc.json, its typed rules and
// TypeScript's diagnostics) bites, through the real oxlint on a temp tree: the repository's
// .oxlintrc.json, tsconfig.json and the afp plugin (scripts/oxlint-plugin-afp.ts) copied, only
// node_modules/@types linked (the types tsconfig.json names; the whole node_modules would bring the
// package's own link back to the repository), and probe files written for the purpose (so a crash
// cannot leave a bad file in the tree, and the real lint of `npm test`, beside this file, never sees them).
// - One probe carries a type error, a floating promise, an ambient clock read and an exhaustiveness
//   gap: the one run names each (TypeScript's diagnostic beside the typed and untyped rules).
// - Every ban of STYLE rule 1 reports its line at a service path and an agents/ path, and nothing
//   at the doors (src/cli, src/http/server*, test/), so the globs and the doors are proven too.
// - No linted TypeScript file starts with a shebang (oxlint's programs are tsconfig.json's).
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const LINT_SCRIPT = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts['lint'];

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A temp tree with the lint config and `files` (path → text); `npm run lint`'s oxlint run there. */
function lint(files: Readonly<Record<string, string>>): { status: number | null; findings: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'afp-lint-'));
  made.push(dir);
  mkdirSync(join(dir, 'scripts'));
  for (const name of ['.oxlintrc.json', 'tsconfig.json', 'package.json', 'scripts/oxlint-plugin-afp.ts']) {
    copyFileSync(join(root, name), join(dir, name));
  }
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(join(root, 'node_modules', '@types'), join(dir, 'node_modules', '@types'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const [tool, ...args] = (LINT_SCRIPT ?? '').split(' ');
  expect(tool).toBe('oxlint');
  const ran = spawnSync(process.execPath, [join(root, 'node_modules', '.bin', 'oxlint'), ...args, '-f', 'unix'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
    // oxlint looks for oxlint-tsgolint (its typed half) under the working directory's node_modules.
    env: { ...process.env, OXLINT_TSGOLINT_PATH: join(root, 'node_modules', '.bin', 'tsgolint') },
  });
  if (ran.error !== undefined) throw ran.error;
  const findings = ran.stdout
    .split('\n')
    .map((line) => /^(.+?):(\d+):\d+: .* \[\w+\/([\w-]+\([\w/-]+\))\]$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => `${match[1]}:${match[2]} ${match[3]}`)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return { status: ran.status, findings };
}

describe('npm run lint (oxlint, .oxlintrc.json)', () => {
  test("one run: TypeScript's diagnostics, the typed rules and the untyped ones", () => {
    const probe = [
      "export const wrong: number = 'text';",
      'export const roll = (): number => Math.random();',
      'export async function settle(): Promise<void> {}',
      'settle();',
      "export function name(side: 'a' | 'b'): string {",
      '  switch (side) {',
      "    case 'a':",
      "      return 'A';",
      '  }',
      "  return '?';",
      '}',
      '',
    ].join('\n');
    const { status, findings } = lint({ 'src/services/probe.ts': probe });
    expect(status).toBe(1);
    expect(findings).toEqual([
      'src/services/probe.ts:1 typescript(TS2322)',
      'src/services/probe.ts:2 afp(no-ambient-text)',
      'src/services/probe.ts:2 eslint(no-restricted-properties)',
      'src/services/probe.ts:4 typescript(no-floating-promises)',
      'src/services/probe.ts:6 typescript(switch-exhaustiveness-check)',
    ]);
  }, 240_000);

  test('every ban reports its line in a service file and an agents/ file; clean code and the doors report nothing', () => {
    const violations = [
      "import { setTimeout as sleep } from 'node:timers/promises';", // 1 no-restricted-imports
      "import { randomUUID } from 'node:crypto';", // 2 no-restricted-imports (the name)
      'export const now = Date.now;', // 3 no-restricted-properties
      'export const roll = Math.random;', // 4 no-restricted-properties
      'export const tick = performance.now;', // 5 no-restricted-properties
      'export const day = new Date ();', // 6 afp/no-argless-date
      'export const later = globalThis.setImmediate;', // 7 no-restricted-properties
      'export const soon = setInterval;', // 8 no-restricted-globals
      'export const bytes = (c: { randomBytes: (n: number) => Uint8Array }) => c.randomBytes;', // 9 properties
      'export const id = (): string => randomUUID();', // 10 the text
      '// an example: Math.random() reads the real entropy', // 11 the text only
      'export const wait = (): Promise<void> => sleep(1);',
      '',
    ].join('\n');
    const clean = [
      "import { createHash } from 'node:crypto';",
      'export const at = (clock: { nowMs(): number }): Date => new Date(clock.nowMs());',
      "export const digest = (text: string): string => createHash('sha256').update(text).digest('hex');",
      '',
    ].join('\n');
    const expected = (path: string): string[] =>
      [
        '1 eslint(no-restricted-imports)',
        '2 eslint(no-restricted-imports)',
        '3 eslint(no-restricted-properties)',
        '4 eslint(no-restricted-properties)',
        '5 eslint(no-restricted-properties)',
        '6 afp(no-argless-date)',
        '7 eslint(no-restricted-properties)',
        '8 eslint(no-restricted-globals)',
        '9 eslint(no-restricted-properties)',
        '10 afp(no-ambient-text)',
        '11 afp(no-ambient-text)',
      ].map((finding) => `${path}:${finding}`);
    const { findings } = lint({
      'src/services/bans.ts': violations,
      'agents/bans.ts': violations,
      'src/services/clean.ts': clean,
      'src/cli/bans.ts': violations,
      'src/http/server-bans.ts': violations,
      'test/bans.ts': violations,
    });
    const bans = /(no-restricted-|afp\()/;
    expect(findings.filter((finding) => bans.test(finding))).toEqual(
      [...expected('agents/bans.ts'), ...expected('src/services/bans.ts')].sort((a, b) =>
        a.localeCompare(b, 'en', { numeric: true }),
      ),
    );
  }, 240_000);

  test('no linted TypeScript file starts with a shebang', () => {
    const typed = ['src', 'agents', 'test', 'bench', 'scripts'].flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.[mc]?ts$/.test(file) && !file.split('/').includes('tmp'))
        .map((file) => join(folder, file)),
    );
    expect(typed.length).toBeGreaterThan(500);
    expect(typed.filter((file) => readFileSync(join(root, file), 'utf8').startsWith('#!'))).toEqual([]);
  });
});
