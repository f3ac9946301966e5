// The check of an output flag's value before a command runs (src/cli/output-path.ts): a path that
// does not exist yet, under a directory, is fine (the writer makes it); a directory that is a file,
// a file that is a directory, or a path through a file, is named. It only reads: nothing is created.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { outDirProblem, outFileProblem } from '../../src/cli/output-path.ts';

const work = mkdtempSync(join(tmpdir(), 'afp-output-path-'));
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

  test('an output file: a new or existing file is fine; a directory, or a path through a file, is named', () => {
    mkdirSync(join(work, 'records'));
    const file = join(work, 'records', 'run.jsonl');
    expect(outFileProblem(file)).toBeNull();
    expect(outFileProblem(join(work, 'records', 'new', 'run.jsonl'))).toBeNull();
    writeFileSync(file, '');
    expect(outFileProblem(file)).toBeNull();
    expect(outFileProblem(join(work, 'records'))).toBe('is a directory, not a file');
    expect(outFileProblem(`${join(work, 'records', 'later')}/`)).toBe('ends in /: it names a directory, not a file');
    expect(outFileProblem(join(file, 'x.jsonl'))).toBe(`${file} is a file`);
    expect(existsSync(join(work, 'records', 'new'))).toBe(false);
  });
});
