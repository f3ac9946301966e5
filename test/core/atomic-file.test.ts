// Files written whole or not at all (src/core/atomic-file.ts): a write that fails midway (here a
// part that throws, as a full disk or a kill would stop it) leaves the path as it was and no
// temporary file; a committed write replaces it whole. Issue 69 part 5.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { AtomicFile, temporaryPathOf, writeChunksAtomic, writeFileAtomic } from '../../src/core/atomic-file.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-atomic-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('atomic files', () => {
  test('a committed write replaces the file whole; an aborted one leaves it as it was', () => {
    const path = join(DIR, 'summary.json');
    writeFileSync(path, 'old');
    const file = new AtomicFile(path);
    file.write('new, ');
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(existsSync(temporaryPathOf(path))).toBe(true);
    file.abort();
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(existsSync(temporaryPathOf(path))).toBe(false);
    writeFileAtomic(path, 'new, whole');
    expect(readFileSync(path, 'utf8')).toBe('new, whole');
    expect(readdirSync(DIR)).toEqual(['summary.json']);
    expect(statSync(path).mode & 0o777).toBe(0o644);
    writeFileAtomic(join(DIR, 'resume.json'), '{}', 0o600);
    expect(statSync(join(DIR, 'resume.json')).mode & 0o777).toBe(0o600);
    rmSync(join(DIR, 'resume.json'));
  });

  test('a record written in parts that stops midway leaves the previous record, and no part of the new one', async () => {
    const path = join(DIR, 'run.afprec');
    writeFileSync(path, '{"complete":true}\nline 1\n');
    function* parts(): Generator<string> {
      yield '{"complete":true,"exchanges":72559}\n';
      yield 'line 1\n'.repeat(1_000);
      throw new Error('killed while writing');
    }
    await expect(writeChunksAtomic(path, parts())).rejects.toThrow('killed while writing');
    expect(readFileSync(path, 'utf8')).toBe('{"complete":true}\nline 1\n');
    expect(readdirSync(DIR).filter((name) => name.includes('afp-'))).toEqual([]);
    await writeChunksAtomic(path, ['{"complete":false}\n', 'line 1\n']);
    expect(readFileSync(path, 'utf8')).toBe('{"complete":false}\nline 1\n');
  });

  test('a path that cannot be written throws, and leaves nothing behind', () => {
    const folder = join(DIR, 'a-folder');
    writeFileSync(join(DIR, 'placeholder'), '');
    expect(() => writeFileAtomic(join(folder, 'x.json'), 'x')).toThrow();
    expect(existsSync(folder)).toBe(false);
  });
});
