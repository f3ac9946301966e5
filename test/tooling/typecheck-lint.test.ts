// scripts/typecheck-lint.ts, the type check and lint of `npm test` over one program: a probe file
// (in memory, never on disk, so nothing else sees it) carries a type error and a floating promise;
// tsc's diagnostics name the first, and eslint, given that program, reports the second through a
// typed rule and the determinism ban through an untyped one (and afp's text scan, a local rule).
// Beside it, a scan: no typed file starts with a shebang, which would make `eslint .` build a
// second whole program for it (eslint.config.js's header).
// Invariants: the program has tsconfig.json's compiler options with the probe as its one root (the
// whole program would cost seconds of CPU here), and the ESLint is the real eslint.config.js, so
// this shows the handover of the program, not a copy of it.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  createIncrementalTscProgram,
  createTscProgram,
  eslintWithProgram,
  format,
  tscDiagnostics,
} from '../../scripts/typecheck-lint.ts';

const root = join(import.meta.dirname, '..', '..');
const TYPED_FOLDERS = ['src', 'agents', 'test', 'bench', 'scripts'];
const probe = join(root, 'src', 'services', '__typecheck-lint-probe__.ts');
const source = [
  "export const wrong: number = 'text';",
  'export const roll = (): number => Math.random();',
  'export async function settle(): Promise<void> {}',
  'settle();',
  '',
].join('\n');

describe('scripts/typecheck-lint.ts', () => {
  test("one program: tsc's diagnostics, then eslint's typed and untyped rules over it", async () => {
    const program = createTscProgram(new Map([[probe, source]]));
    const diagnostics = tscDiagnostics(program, program.getSourceFile(probe));
    expect(format(diagnostics)).toMatch(/^src\/services\/__typecheck-lint-probe__\.ts\(1,14\): error TS2322: /);
    expect(diagnostics).toHaveLength(1);

    const [result] = await eslintWithProgram(program, false).lintText(source, { filePath: probe });
    const messages = (result?.messages ?? []).map((message) => `${message.line} ${message.ruleId}`);
    expect(messages).toEqual([
      '2 afp/no-ambient-text',
      '2 no-restricted-properties',
      '4 @typescript-eslint/no-floating-promises',
    ]);
  }, 240_000);

  test("--cache: with tsc's incremental state written, an unchanged file's error is reported again, a fix clears it and a new break is seen (never a stale answer)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'afp-tsc-state-'));
    const buildInfo = join(dir, 'state.tsbuildinfo');
    const errorsOf = (text: string): string[] => {
      const builder = createIncrementalTscProgram(buildInfo, new Map([[probe, text]]));
      const file = builder.getProgram().getSourceFile(probe);
      const found = tscDiagnostics(builder, file).map((diagnostic) => format([diagnostic]).split(': error ')[1] ?? '');
      builder.emit();
      return found;
    };
    try {
      const wrong = "export const wrong: number = 'text';\n";
      expect(errorsOf(wrong)).toEqual([expect.stringMatching(/^TS2322: /)]);
      expect(existsSync(buildInfo)).toBe(true);
      // The same text again (its diagnostics kept in the state), a fix, then the break again.
      expect(errorsOf(wrong)).toEqual([expect.stringMatching(/^TS2322: /)]);
      expect(errorsOf('export const right: number = 1;\n')).toEqual([]);
      expect(errorsOf(wrong)).toEqual([expect.stringMatching(/^TS2322: /)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  test('no typed file starts with a shebang', () => {
    const typed = TYPED_FOLDERS.flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.[mc]?ts$/.test(file) && !file.split('/').includes('tmp'))
        .map((file) => join(folder, file)),
    );
    expect(typed.length).toBeGreaterThan(500);
    expect(typed.filter((file) => readFileSync(join(root, file), 'utf8').startsWith('#!'))).toEqual([]);
  });
});
