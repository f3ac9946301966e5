// afp's own lint rules (scripts/oxlint-plugin-afp.ts) bite: each catches what it bans and passes
// clean code, on small fixtures, through oxlint's RuleTester (in-process). That .oxlintrc.json applies
// them, with the other bans of STYLE rule 1, to src/ and agents/ and not to the doors:
// test/tooling/lint-config.test.ts, through the real oxlint. The real tree is checked by the rules
// themselves, in the lint step of `npm test`.
import { RuleTester } from 'oxlint/plugins-dev';
import { describe, it } from 'vitest';
import { afpPlugin, BANNED_TEXT } from '../../scripts/oxlint-plugin-afp.ts';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

type TesterRule = Parameters<RuleTester['run']>[1];
const tester = new RuleTester({ languageOptions: { sourceType: 'module' } });

describe('afp/no-ambient-text (the strict text scan)', () => {
  tester.run('no-ambient-text', afpPlugin.rules['no-ambient-text'] as unknown as TesterRule, {
    valid: [
      'export const at = (clock) => new Date(clock.nowMs());',
      "import { createHash } from 'node:crypto';\nexport const digest = (text) => createHash('sha256').update(text);",
      'export const roll = (rng) => rng.next(); // the seeded Rng, never the ambient one',
      "export const dateNow = 'Date.now';",
    ],
    invalid: [
      ...BANNED_TEXT.map((needle) => ({
        code: `export const f = (x) => ${needle.endsWith(')') ? needle : `${needle}x)`};`,
        errors: [{ messageId: 'banned', data: { needle }, line: 1, column: 24 }],
      })),
      {
        code: '// e.g. Math.random() reads real entropy\nexport const a = 1;',
        errors: [{ messageId: 'banned', line: 1, column: 8 }],
      },
      { code: "export const text = 'new Date()';", errors: [{ messageId: 'banned', line: 1, column: 21 }] },
      {
        code: 'export const later = (t) => t.setTimeout(() => t.setTimeout(null));',
        errors: [
          { messageId: 'banned', column: 30 },
          { messageId: 'banned', column: 49 },
        ],
      },
    ],
  });
});

describe('afp/no-argless-date (new Date() reads the real clock)', () => {
  tester.run('no-argless-date', afpPlugin.rules['no-argless-date'] as unknown as TesterRule, {
    valid: [
      'export const at = (clock) => new Date(clock.nowMs());',
      "export const epoch = new Date('2026-01-01T00:00:00Z');",
      'export const other = (Date) => new Date.Other();',
    ],
    invalid: [
      { code: 'export const day = new Date();', errors: [{ messageId: 'banned', line: 1, column: 19 }] },
      { code: 'export const day = new Date ;', errors: [{ messageId: 'banned', line: 1, column: 19 }] },
    ],
  });
});
