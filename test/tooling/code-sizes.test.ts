// The house's size limits (scripts/code-sizes.ts) over src/ and agents/. Strict: no function over 70
// lines (any one fails, named); no file over 500 lines unless its header says why it is one piece
// ("One piece: "), and at most 5 such files in the whole tree. Each rule is shown to bite on a
// planted case. The exported names defined twice stay a ratchet: none may join the list in
// scripts/code-sizes.json, and one that no longer applies must leave it
// (`node scripts/code-sizes.ts --write`), so the list only gets shorter.
import { describe, expect, it } from 'vitest';
import {
  combine,
  FILE_LINES_MAX,
  filesTooLong,
  FUNCTION_LINES_MAX,
  functionsTooLong,
  measure,
  measureSource,
  ONE_PIECE,
  ONE_PIECE_FILES_MAX,
  readAllowances,
} from '../../scripts/code-sizes.ts';

const now = measure();
const allowed = readAllowances();

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

describe('the names ratchet', () => {
  it('no exported name gets a second definition beyond those listed', () => {
    const added = Object.entries(now.names)
      .filter(([name, where]) => where.some((file) => !(allowed.names[name] ?? []).includes(file)))
      .map(([name, where]) => `${name}: ${where.join(', ')}`);
    expect(added).toEqual([]);
  });

  it('the list holds only names still defined twice (rewrite it after a change: node scripts/code-sizes.ts --write)', () => {
    expect(Object.keys(allowed.names).filter((name) => now.names[name] === undefined)).toEqual([]);
  });
});
