// ESLint flat config: typed rules for async safety and exhaustiveness, plus the bans of
// STYLE rule 1 (time and randomness come in as arguments, never from ambient globals).
// Invariants:
// - Only TypeScript under src, agents, test, bench and scripts is linted with type information,
//   from tsconfig.json's program: in `npm test` tsc's own program, built once for both the type
//   check and the lint (scripts/typecheck-lint.ts, through `parserOptions.programs`); under `eslint .`
//   or an editor, the project service's, built from the same tsconfig.json.
// - Every typed file is in that one program: a file outside tsconfig.json's include fails the npm
//   test lint ("not found in any of the provided program instance(s)") rather than getting a second
//   program. No linted TypeScript file starts with a shebang (`#!`): ESLint reads it as a comment, so
//   the text differs from the program's and typescript-eslint builds a second whole program for that
//   file (a cold `eslint .` at load 5: 50 -> 56 CPU s, 47 -> 57 s); TypeScript entries run as `node file.ts`.
// - Generated TypeScript (src/client/endpoint-table.ts, the zod-derived schemas, the video-poker law)
//   stays linted: 40 KB of the 8 MB linted, and in the program anyway, as the code that imports it.
// - The determinism bans apply everywhere except the few doors listed in `nondeterminismAllowed`,
//   one list for both kinds: the AST bans below (code only) and the strict text scan of src/ and
//   agents/ (afp/no-ambient-text, scripts/eslint-plugin-afp.ts: comments and strings count too).
//   test/tooling/bans.test.ts proves on fixtures that each one bites, through this very config.
// - `no-restricted-*` rules do not merge across config objects: a later object that sets one of
//   them replaces the bans. Add new bans to the lists below instead.
// Non-goals: formatting (Prettier's job, checked in npm test); the type-checked presets (dozens of rules unrelated
// to STYLE; a typed rule joins the list below when it earns its place). Lint runs in every
// `npm test`, so rules that need whole-program analysis stay out. The typed rules' cost is mostly the
// type checker's, which the type check pays anyway when they share the program.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { afpPlugin } from './scripts/eslint-plugin-afp.ts';

/** The files linted with type information (scripts/typecheck-lint.ts gives them tsc's program). */
export const typedFiles = ['{src,agents,test,bench,scripts}/**/*.{ts,mts,cts}'];
const linted = typedFiles;

// The only places allowed to read the real clock, real randomness or real timers.
const nondeterminismAllowed = [
  'src/core/clock.ts',
  'src/core/rng.ts',
  'src/load/**',
  'src/cli/**',
  'src/server/**',
  // The k6 script's glue: k6's own clock and WebCrypto, handed to the agent runtime inside k6 (live mode).
  'src/export/k6/k6-script.ts',
  // A random source that refuses: noble's curves inside k6 multiply without blinding (its header).
  'src/export/k6/shims/curve-random.ts',
  'src/http/server*.ts',
  'bench/**',
  'scripts/**',
  'test/**',
];

/** What the text scan reads: every source file of the shipped code (the tests, bench and scripts are doors). */
export const scannedFiles = ['{src,agents}/**/*.{ts,mts,cts,js,mjs,cjs}'];

const why = 'STYLE rule 1: take time and randomness from the injected Clock/Rng';

// Whole timer modules are banned; from node:crypto only the random functions are (see the
// import selector below), so `import { createHash } from 'node:crypto'` stays allowed.
const bannedImports = ['node:timers', 'node:timers/promises', 'timers', 'timers/promises'].map((name) => ({
  name,
  message: `${why} (wake-ups are scheduled by the simulator).`,
}));

const bannedTimers = ['setTimeout', 'setInterval', 'setImmediate'];

export default defineConfig([
  globalIgnores(['node_modules/', 'reports/', '**/tmp/', 'coverage/', 'dist/']),
  js.configs.recommended,
  // The bin is plain JavaScript that any Node parses (so an old one can be refused in one line).
  { files: ['bin/**/*.js'], languageOptions: { globals: { process: 'readonly', URL: 'readonly' } } },
  {
    files: linted,
    extends: [tseslint.configs.recommended],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: linted,
    ignores: nondeterminismAllowed,
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: `${why} (clock.nowMs()).` },
        { object: 'Math', property: 'random', message: `${why} (rng).` },
        { object: 'performance', property: 'now', message: `${why} (clock.nowMs()).` },
        { property: 'randomUUID', message: `${why} (ids come from the seeded Rng).` },
        { property: 'randomBytes', message: `${why} (bytes come from the seeded Rng).` },
        ...bannedTimers.map((property) => ({
          object: 'globalThis',
          property,
          message: `${why} (wake-ups are scheduled by the simulator).`,
        })),
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: `${why} (new Date(clock.nowMs())).`,
        },
        {
          selector:
            'ImportDeclaration[source.value=/^(node:)?crypto$/] > ImportSpecifier[imported.name=/^random(UUID|Bytes)$/]',
          message: `${why} (ids and bytes come from the seeded Rng).`,
        },
        {
          selector: "CallExpression[callee.type='Identifier'][callee.name=/^random(UUID|Bytes)$/]",
          message: `${why} (ids and bytes come from the seeded Rng).`,
        },
      ],
      'no-restricted-imports': ['error', { paths: bannedImports }],
      'no-restricted-globals': [
        'error',
        ...bannedTimers.map((name) => ({
          name,
          message: `${why} (wake-ups are scheduled by the simulator).`,
        })),
      ],
    },
  },
  {
    files: scannedFiles,
    ignores: nondeterminismAllowed,
    plugins: { afp: afpPlugin },
    rules: { 'afp/no-ambient-text': 'error' },
  },
]);
