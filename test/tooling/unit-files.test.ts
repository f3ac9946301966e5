// The unit project's list (test/unit-files.ts) stays true to the tree: every entry is an existing
// test file under test/, named once, in sorted order (so a renamed or deleted file is seen here,
// not silently dropped from the inner loop). What a listed file may do is the guard's job
// (test/unit-guard.ts), at run time.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { UNIT_FILES } from '../unit-files.ts';

const root = join(import.meta.dirname, '..', '..');

describe('test/unit-files.ts', () => {
  test('names existing test files under test/, each once, sorted', () => {
    expect(UNIT_FILES.filter((file) => !/^test\/[\w./-]+\.test\.ts$/.test(file))).toEqual([]);
    expect(UNIT_FILES.filter((file) => !existsSync(join(root, file)))).toEqual([]);
    expect([...UNIT_FILES]).toEqual([...new Set(UNIT_FILES)].sort());
  });

  test('lists this file, so the list is checked in the inner loop too', () => {
    expect(UNIT_FILES).toContain('test/tooling/unit-files.test.ts');
  });
});
