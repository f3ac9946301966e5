// The check of an output flag's value before a command runs (src/cli/output-path.ts): a path that
// does not exist yet, under a directory, is fine (the writer makes it); a directory that is a file,
// a file that is a directory, or a path through a file, is named. Nothing is left behind (a directory
// is asked by making and removing an empty one in it).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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

  test('a place where nothing can be made, though access(2) may say writable (root on /sys), or an overlong name: named', () => {
    expect(outDirProblem('/sys/afp-output')).toMatch(/^\/sys is not writable \(E[A-Z]+\)$/);
    expect(outFileProblem('/sys/afp-record.jsonl')).toMatch(/^\/sys is not writable \(E[A-Z]+\)$/);
    expect(outDirProblem(join(work, 'y'.repeat(300)))).toBe(
      'has a name of more than 255 bytes (yyyyyyyyyyyyyyyyyyyy…)',
    );
    expect(outFileProblem(join(work, 'é'.repeat(128), 'r.jsonl'))).toMatch(/^has a name of more than 255 bytes/);
    expect(readdirSync(work).filter((name) => name.startsWith('.afp-'))).toStrictEqual([]);
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
