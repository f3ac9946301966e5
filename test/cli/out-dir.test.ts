// The check of a directory flag's value before a command runs (src/cli/out-dir.ts): a path that
// does not exist yet, under a directory, is fine (the writer makes it); a file, or a path through a
// file, is named. It only reads: nothing is created.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { outDirProblem } from '../../src/cli/out-dir.ts';

const work = mkdtempSync(join(tmpdir(), 'afp-out-dir-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('outDirProblem', () => {
  test('an existing directory, or a path still to be made under one: no problem, and nothing made', () => {
    mkdirSync(join(work, 'reports'));
    expect(outDirProblem(join(work, 'reports'))).toBeNull();
    expect(outDirProblem(join(work, 'reports', 'a', 'b', 'c'))).toBeNull();
    expect(existsSync(join(work, 'reports', 'a'))).toBe(false);
  });

  test('a file, or a path through a file: named', () => {
    const file = join(work, 'notes.txt');
    writeFileSync(file, 'x');
    expect(outDirProblem(file)).toBe('is a file, not a directory');
    expect(outDirProblem(join(file, 'deeper', 'still'))).toBe(`${file} is a file`);
  });
});
