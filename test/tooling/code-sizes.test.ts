// The house's size limits (scripts/code-sizes.ts) over src/ and agents/. Strict: no function over 70
// lines (any one fails, named); no file over 500 lines unless its header says why it is one piece
// ("One piece: "), and at most 5 such files in the whole tree. Each rule is shown to bite on a
// planted case. Names strictly: no exported name is defined by two files (contracts aside: the k6
// stand-ins, the command modules' `main`), and the check is shown to bite on a duplicate planted
// beside the tree.
import { describe, expect, it } from 'vitest';
import {
  combine,
  duplicateNames,
  exportedNames,
  FILE_LINES_MAX,
  filesTooLong,
  FUNCTION_LINES_MAX,
  functionsTooLong,
  measure,
  measureSource,
  ONE_PIECE,
  ONE_PIECE_FILES_MAX,
} from '../../scripts/code-sizes.ts';
import ts from 'typescript';

const now = measure();

/** A function of `lines` lines (its declaration and closing brace included). */
function functionOf(name: string, lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, index) => `  const value${index} = ${index};`);
  return [`export function ${name}(): void {`, ...body, '}', ''].join('\n');
}

/** A file of `lines` lines: a header comment (with `onePiece` as its ONE_PIECE line, where given), then short constants. */
function fileOf(lines: number, onePiece?: string): string {
  const header = [
    '/**',
    ' * A planted file.',
    ...(onePiece === undefined ? [] : [` * ${ONE_PIECE}${onePiece}`]),
    ' */',
  ];
  const body = Array.from({ length: lines - header.length }, (_, index) => `export const row${index} = ${index};`);
  return [...header, ...body, ''].join('\n');
}

describe('the function limit', () => {
  it(`no function of src/ or agents/ is over ${FUNCTION_LINES_MAX} lines`, () => {
    expect(functionsTooLong(now)).toEqual([]);
  });

  it(`bites on a planted function of ${FUNCTION_LINES_MAX + 1} lines, naming it, and passes one of ${FUNCTION_LINES_MAX}`, () => {
    const planted = combine([
      measureSource('planted.ts', functionOf('tooLong', FUNCTION_LINES_MAX + 1)),
      measureSource('fits.ts', functionOf('fits', FUNCTION_LINES_MAX)),
    ]);
    expect(functionsTooLong(planted)).toEqual([
      `planted.ts#tooLong: ${FUNCTION_LINES_MAX + 1} lines (limit ${FUNCTION_LINES_MAX}): split it into named steps`,
    ]);
  });
});

describe('the file limit', () => {
  it(`files over ${FILE_LINES_MAX} lines say why they are one piece, and there are at most ${ONE_PIECE_FILES_MAX}`, () => {
    expect(filesTooLong(now)).toEqual([]);
    expect(Object.keys(now.files).length).toBeLessThanOrEqual(ONE_PIECE_FILES_MAX);
  });

  it(`bites on a planted file of ${FILE_LINES_MAX + 1} lines without the "${ONE_PIECE}" line, and passes it with one`, () => {
    const bare = combine([measureSource('bare.ts', fileOf(FILE_LINES_MAX + 1))]);
    expect(filesTooLong(bare)).toEqual([
      `bare.ts: ${FILE_LINES_MAX + 1} lines (limit ${FILE_LINES_MAX}): split it by concept, or say in its header "${ONE_PIECE}<why>"`,
    ]);
    const explained = combine([measureSource('table.ts', fileOf(FILE_LINES_MAX + 1, 'a table of rows'))]);
    expect(explained.files['table.ts']).toEqual({ lines: FILE_LINES_MAX + 1, onePiece: 'a table of rows' });
    expect(filesTooLong(explained)).toEqual([]);
  });

  it(`bites when more than ${ONE_PIECE_FILES_MAX} files over the limit say they are one piece`, () => {
    const many = Array.from({ length: ONE_PIECE_FILES_MAX + 1 }, (_, index) =>
      measureSource(`table-${index}.ts`, fileOf(FILE_LINES_MAX + 1, 'a table')),
    );
    expect(filesTooLong(combine(many.slice(0, ONE_PIECE_FILES_MAX)))).toEqual([]);
    const problems = filesTooLong(combine(many));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(`${ONE_PIECE_FILES_MAX + 1} files over ${FILE_LINES_MAX} lines say they are one piece`);
  });
});

describe('the single definition of exported names', () => {
  it('each exported name of src/ and agents/ is defined in one file', () => {
    const twice = Object.entries(now.names).map(([name, where]) => `${name}: defined in ${where.join(' and ')}`);
    expect(twice).toEqual([]);
  });
});

/** The definitions of one planted file of `text`. */
function planted(file: string, text: string): { file: string; names: string[] } {
  return { file, names: exportedNames(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)) };
}

describe('the single definition of exported names', () => {
  it('a second definition planted beside the tree fails, naming both files', () => {
    const plant = planted('src/check/planted.ts', "export type EscrowStatus = 'locked' | 'released';\n");
    expect(duplicateNames([...now.definitions, plant])).toEqual({
      EscrowStatus: ['src/check/planted.ts', 'src/services/escrow/escrow-record.ts'],
    });
  });

  it('every kind of declaration counts; a re-export and a local name do not', () => {
    const text = [
      'export const A = 1, B = 2;',
      'export function f(): void {}',
      'export class C {}',
      'export interface I {}',
      'export type T = number;',
      'export enum E { X }',
      "export { DAY_MS } from '../core/clock.ts';",
      "export type { Micro } from '../core/money.ts';",
      'const local = 1;',
      'export { local };',
    ].join('\n');
    expect(planted('src/x.ts', text).names).toEqual(['A', 'B', 'f', 'C', 'I', 'T', 'E']);
  });

  it("contracts are not duplicates: the k6 stand-ins and the command modules' main", () => {
    const definitions = [
      planted('src/http/routes/index.ts', 'export const ALL_ROUTES = [];'),
      planted('src/export/k6/shims/route-rows.ts', 'export const ALL_ROUTES = [];'),
      planted('src/cli/run.ts', 'export async function main(): Promise<number> { return 0; }'),
      planted('src/cli/serve.ts', 'export async function main(): Promise<number> { return 0; }'),
    ];
    expect(duplicateNames(definitions)).toEqual({});
    // `main` outside the command modules is a second definition (the command modules count as their first).
    const outside = planted('src/sim/main.ts', 'export function main(): void {}');
    expect(duplicateNames([...definitions, outside])).toEqual({
      main: ['src/cli/run.ts', 'src/sim/main.ts'],
    });
  });
});
