// The bans of STYLE rule 1 (time and randomness come in as arguments, never from ambient globals)
// bite: each rule catches what it bans and passes clean code, on small fixtures. The real tree is
// checked by the rules themselves, in the lint pass of `npm test` (scripts/typecheck-lint.ts, over
// tsc's program), so a ban broken in src/ or agents/ still fails `npm test`; this file no longer
// reads the tree or builds its type information a second time.
// Two layers: the strict text scan (afp/no-ambient-text, scripts/eslint-plugin-afp.ts: comments and
// strings count too) through ESLint's RuleTester; then every ban through the real eslint.config.js,
// handed a program of the fixtures alone (tsconfig.json's options), at a service path and an agents/
// path (banned) and at door paths (allowed), so the file globs and the doors are proven too.
import { join } from 'node:path';
import { RuleTester } from 'eslint';
import { describe, expect, it, test } from 'vitest';
import { afpPlugin, BANNED_TEXT } from '../../scripts/eslint-plugin-afp.ts';
import { createTscProgram, eslintWithProgram } from '../../scripts/typecheck-lint.ts';

const root = join(import.meta.dirname, '..', '..');

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const noAmbientText = afpPlugin.rules?.['no-ambient-text'];
if (noAmbientText === undefined || typeof noAmbientText === 'function') throw new Error('afp/no-ambient-text missing');

describe('afp/no-ambient-text (the strict text scan)', () => {
  new RuleTester().run('no-ambient-text', noAmbientText, {
    valid: [
      'export const at = (clock) => new Date(clock.nowMs());',
      "import { createHash } from 'node:crypto';\nexport const digest = (text) => createHash('sha256').update(text);",
      'export const roll = (rng) => rng.next(); // the seeded Rng, never the ambient one',
      "export const dateNow = 'Date.now';",
    ],
    invalid: [
      ...BANNED_TEXT.map((needle) => ({
        code: `export const f = (x) => ${needle.endsWith(')') ? needle : `${needle}x)`};`,
        errors: [{ messageId: 'banned', data: { needle }, line: 1, column: 25 }],
      })),
      {
        code: '// e.g. Math.random() reads real entropy\nexport const a = 1;',
        errors: [{ messageId: 'banned', line: 1, column: 9 }],
      },
      { code: "export const text = 'new Date()';", errors: [{ messageId: 'banned', line: 1, column: 22 }] },
      {
        code: 'export const later = (t) => t.setTimeout(() => t.setTimeout(null));',
        errors: [
          { messageId: 'banned', column: 31 },
          { messageId: 'banned', column: 50 },
        ],
      },
    ],
  });
});

/** One violation per line of each ban, the line's rules in comments; the types need not check. */
const violations = [
  "import { setTimeout as sleep } from 'node:timers/promises';", // 1 no-restricted-imports
  "import { randomUUID } from 'node:crypto';", // 2 no-restricted-syntax (the import)
  'export const now = Date.now;', // 3 no-restricted-properties
  'export const roll = Math.random;', // 4 no-restricted-properties
  'export const tick = performance.now;', // 5 no-restricted-properties
  'export const day = new Date ();', // 6 no-restricted-syntax
  'export const later = globalThis.setImmediate;', // 7 no-restricted-properties
  'export const soon = setInterval;', // 8 no-restricted-globals
  'export const bytes = (c: { randomBytes: (n: number) => Uint8Array }) => c.randomBytes;', // 9 properties
  'export const id = (): string => randomUUID();', // 10 no-restricted-syntax (the call) + the text
  '// an example: Math.random() reads the real entropy', // 11 the text only
  'export const wait = (): Promise<void> => sleep(1);',
  '',
].join('\n');

const expected = [
  '1 no-restricted-imports',
  '2 no-restricted-syntax',
  '3 no-restricted-properties',
  '4 no-restricted-properties',
  '5 no-restricted-properties',
  '6 no-restricted-syntax',
  '7 no-restricted-properties',
  '8 no-restricted-globals',
  '9 no-restricted-properties',
  '10 afp/no-ambient-text',
  '10 no-restricted-syntax',
  '11 afp/no-ambient-text',
];

const clean = [
  "import { createHash } from 'node:crypto';",
  'export const at = (clock: { nowMs(): number }): Date => new Date(clock.nowMs());',
  "export const digest = (text: string): string => createHash('sha256').update(text).digest('hex');",
  '',
].join('\n');

const BAN_RULES = /^(no-restricted-(properties|syntax|imports|globals)|afp\/no-ambient-text)$/;
const probes = {
  service: join(root, 'src', 'services', '__bans-probe__.ts'),
  agents: join(root, 'agents', '__bans-probe__.ts'),
  clean: join(root, 'src', 'services', '__bans-clean-probe__.ts'),
  cliDoor: join(root, 'src', 'cli', '__bans-probe__.ts'),
  serverDoor: join(root, 'src', 'http', 'server-bans-probe.ts'),
  test: join(root, 'test', '__bans-probe__.ts'),
} as const;

describe('eslint.config.js applies every ban to src/ and agents/, outside the doors', () => {
  const texts = new Map<string, string>(Object.values(probes).map((path) => [path, violations]));
  texts.set(probes.clean, clean);
  const eslint = eslintWithProgram(createTscProgram(texts), false);
  const banned = async (path: string): Promise<string[]> => {
    const [result] = await eslint.lintText(texts.get(path) ?? '', { filePath: path });
    expect(result?.messages.filter((message) => message.fatal === true)).toEqual([]);
    return (result?.messages ?? [])
      .filter((message) => BAN_RULES.test(message.ruleId ?? ''))
      .map((message) => `${message.line} ${message.ruleId}`)
      .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10) || a.localeCompare(b));
  };

  test('a service file and an agents/ file: each ban reports its line', async () => {
    expect(await banned(probes.service)).toEqual(expected);
    expect(await banned(probes.agents)).toEqual(expected);
  }, 240_000);

  test('clean code, and the doors (src/cli, src/http/server*, test/) report nothing', async () => {
    expect(await banned(probes.clean)).toEqual([]);
    expect(await banned(probes.cliDoor)).toEqual([]);
    expect(await banned(probes.serverDoor)).toEqual([]);
    expect(await banned(probes.test)).toEqual([]);
  }, 240_000);
});
