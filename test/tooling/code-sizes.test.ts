// The house's size limits as a ratchet (scripts/code-sizes.ts): no function of src/ or agents/
// over 70 lines, no file over 500, no exported name defined twice, except those listed in
// scripts/code-sizes.json at the size they had; a listed one may not grow, and one that shrank
// under its limit must leave the list (`node scripts/code-sizes.ts --write`), so it only gets
// shorter. The list is the work left of issue 72's part 5, in one place.
import { describe, expect, it } from 'vitest';
import { FILE_LINES_MAX, FUNCTION_LINES_MAX, measure, readAllowances } from '../../scripts/code-sizes.ts';

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

  it('no exported name gets a second definition beyond those listed', () => {
    const added = Object.entries(now.names)
      .filter(([name, where]) => where.some((file) => !(allowed.names[name] ?? []).includes(file)))
      .map(([name, where]) => `${name}: ${where.join(', ')}`);
    expect(added).toEqual([]);
  });

  it('the list holds only what is still past a limit (rewrite it after a split: node scripts/code-sizes.ts --write)', () => {
    const stale = [
      ...Object.keys(allowed.functions).filter((key) => now.functions[key] === undefined),
      ...Object.keys(allowed.files).filter((key) => now.files[key] === undefined),
      ...Object.keys(allowed.names).filter((name) => now.names[name] === undefined),
    ];
    expect(stale).toEqual([]);
  });
});
