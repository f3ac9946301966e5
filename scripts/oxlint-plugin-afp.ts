// afp's own lint rules, a local JS plugin of .oxlintrc.json (oxlint runs ESLint-style rules from
// `jsPlugins`). Why here and not in a test: the lint pass of `npm test` already reads every file of
// the tree; a test that read and scanned the tree again paid for it twice. test/tooling/bans.test.ts
// proves each rule catches what it bans and passes clean code, on small fixtures.
// - `no-ambient-text`: STYLE rule 1's strict text scan. The AST bans of .oxlintrc.json
//   (no-restricted-properties, -imports, -globals, and no-argless-date below) see code only; this
//   one sees the text, so comments and strings count too: a banned call never appears outside the
//   allowed doors, not even as an example, and a door-less call the AST rules miss
//   (`timers.setTimeout(`, a banned method of any object) is caught by its name.
// - `no-argless-date`: `new Date()` without an argument reads the real clock (`new Date(clock.nowMs())`
//   does not). oxlint has no `no-restricted-syntax`, the rule ESLint wrote this ban with.
// Invariants: the needles are plain substrings of one line (no regular expression, no parsing), so
// the rule cannot miss what a reader sees; which files the rules apply to is .oxlintrc.json's choice
// (src/ and agents/, minus the doors of its last override), one list for every ban.
// Typed by the few members used (oxlint's plugin API is ESLint's; its package ships no rule types).

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

interface Position {
  readonly line: number;
  readonly column: number;
}

interface RuleContext {
  readonly sourceCode: { readonly lines: readonly string[] };
  report(descriptor: {
    readonly messageId: string;
    readonly data?: Record<string, string>;
    readonly loc?: { readonly start: Position; readonly end: Position };
    readonly node?: unknown;
  }): void;
}

interface NewExpressionNode {
  readonly callee: { readonly type: string; readonly name?: string };
  readonly arguments: readonly unknown[];
}

export interface AfpRule {
  readonly meta: {
    readonly type: 'problem';
    readonly docs: { readonly description: string };
    readonly messages: Record<string, string>;
    readonly schema: readonly never[];
  };
  create(context: RuleContext): Record<string, (node: never) => void>;
}

const noAmbientText: AfpRule = {
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
        context.sourceCode.lines.forEach((line, index) => {
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

const noArglessDate: AfpRule = {
  meta: {
    type: 'problem',
    docs: { description: 'STYLE rule 1: no `new Date()` without an argument (it reads the real clock)' },
    messages: {
      banned: 'STYLE rule 1: take time and randomness from the injected Clock/Rng (new Date(clock.nowMs())).',
    },
    schema: [],
  },
  create(context) {
    return {
      NewExpression(node: NewExpressionNode): void {
        if (node.callee.type === 'Identifier' && node.callee.name === 'Date' && node.arguments.length === 0) {
          context.report({ node, messageId: 'banned' });
        }
      },
    };
  },
};

export const afpPlugin = {
  meta: { name: 'afp' },
  rules: { 'no-ambient-text': noAmbientText, 'no-argless-date': noArglessDate },
} as const;

export default afpPlugin;
