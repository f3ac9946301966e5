// afp's own ESLint rules, a local plugin of eslint.config.js. Why here and not in a test: the lint
// pass of `npm test` (scripts/typecheck-lint.ts) already reads every file of the tree; a test that
// read and scanned the tree again paid for it twice. test/tooling/bans.test.ts proves each rule
// catches what it bans and passes clean code, on small fixtures.
// - `no-ambient-text`: STYLE rule 1's strict text scan. The AST bans of eslint.config.js
//   (no-restricted-properties, -syntax, -imports, -globals) see code only; this one sees the text,
//   so comments and strings count too: a banned call never appears outside the allowed doors, not
//   even as an example, and a door-less call the AST rules miss (`timers.setTimeout(`, a banned
//   method of any object) is caught by its name.
// Invariants: the needles are plain substrings of one line (no regular expression, no parsing), so
// the rule cannot miss what a reader sees; which files it applies to is eslint.config.js's choice
// (src/ and agents/, minus `nondeterminismAllowed`), one list for every ban.
import type { ESLint, Rule } from 'eslint';

/** What the text scan bans: each a call as it reads in the source. */
export const BANNED_TEXT = [
  'Date.now(',
  'new Date()',
  'Math.random(',
  'performance.now(',
  'randomUUID(',
  'randomBytes(',
  'setTimeout(',
  'setInterval(',
] as const;

const noAmbientText: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'STYLE rule 1: no ambient time, randomness or timers, not even in comments or strings' },
    messages: {
      banned:
        "STYLE rule 1: '{{needle}}' outside the allowed doors (time and randomness come from the injected Clock/Rng; comments and strings count too).",
    },
    schema: [],
  },
  create(context) {
    return {
      Program(): void {
        const lines = context.sourceCode.lines;
        lines.forEach((line, index) => {
          for (const needle of BANNED_TEXT) {
            for (let column = line.indexOf(needle); column !== -1; column = line.indexOf(needle, column + 1)) {
              const loc = {
                start: { line: index + 1, column },
                end: { line: index + 1, column: column + needle.length },
              };
              context.report({ loc, messageId: 'banned', data: { needle } });
            }
          }
        });
      },
    };
  },
};

export const afpPlugin: ESLint.Plugin = {
  meta: { name: 'afp' },
  rules: { 'no-ambient-text': noAmbientText },
};
