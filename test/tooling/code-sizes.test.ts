// The house's size limits (scripts/code-sizes.ts). Functions and files as a ratchet: no function
// of src/ or agents/ over 70 lines, no file over 500, except those listed in
// scripts/code-sizes.json at the size they had; a listed one may not grow, and one that shrank
// under its limit must leave the list (`node scripts/code-sizes.ts --write`), so it only gets
// shorter. The list is the work left of issue 72's part 5, in one place. Names strictly: no
// exported name is defined by two files (contracts aside: the k6 stand-ins, the command modules'
// `main`), and the check is shown to bite on a duplicate planted beside the tree.
import { describe, expect, it } from 'vitest';
import {
  duplicateNames,
  exportedNames,
  FILE_LINES_MAX,
  FUNCTION_LINES_MAX,
  measure,
  parsed,
  readAllowances,
} from '../../scripts/code-sizes.ts';

const now = measure();
const allowed = readAllowances();

/** What `current` has past `allowance` (new, or grown), in words. */
function grown(current: Record<string, number>, allowance: Record<string, number>, limit: number): string[] {
  return Object.entries(current)
    .filter(([key, lines]) => lines > (allowance[key] ?? limit))
    .map(
      ([key, lines]) =>
        `${key}: ${lines} lines (${allowance[key] === undefined ? `limit ${limit}` : `listed at ${allowance[key]}`})`,
    );
}

describe('the size ratchet', () => {
  it(`no function over ${FUNCTION_LINES_MAX} lines joins scripts/code-sizes.json, and none listed grows`, () => {
    expect(grown(now.functions, allowed.functions, FUNCTION_LINES_MAX)).toEqual([]);
  });

  it(`no file over ${FILE_LINES_MAX} lines joins the list, and none listed grows`, () => {
    expect(grown(now.files, allowed.files, FILE_LINES_MAX)).toEqual([]);
  });

  it('each exported name of src/ and agents/ is defined in one file', () => {
    const twice = Object.entries(now.names).map(([name, where]) => `${name}: defined in ${where.join(' and ')}`);
    expect(twice).toEqual([]);
  });

  it('the list holds only what is still past a limit (rewrite it after a split: node scripts/code-sizes.ts --write)', () => {
    const stale = [
      ...Object.keys(allowed.functions).filter((key) => now.functions[key] === undefined),
      ...Object.keys(allowed.files).filter((key) => now.files[key] === undefined),
    ];
    expect(stale).toEqual([]);
  });
});

/** The definitions of one planted file of `text`. */
function planted(file: string, text: string): { file: string; names: string[] } {
  return { file, names: exportedNames(parsed(file, text)) };
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
