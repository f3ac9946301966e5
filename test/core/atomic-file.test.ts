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
    expect(existsSync(file.temporary)).toBe(true);
    file.abort();
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(existsSync(file.temporary)).toBe(false);
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

  test('two writes of one path never share a temporary name', () => {
    const path = join(DIR, 'twice.json');
    const first = new AtomicFile(path);
    const second = new AtomicFile(path);
    expect(second.temporary).not.toBe(first.temporary);
    first.write('first');
    second.write('second');
    first.commit();
    second.commit();
    expect(readFileSync(path, 'utf8')).toBe('second');
    rmSync(path);
  });

  test('replace: false writes only where no file is: an existing path keeps what it held (EEXIST), no temporary left', () => {
    const path = join(DIR, 'target.yaml');
    writeFileAtomic(path, 'mine', 0o644, { replace: false });
    expect(readFileSync(path, 'utf8')).toBe('mine');
    expect(() => writeFileAtomic(path, 'probed', 0o644, { replace: false })).toThrow(/EEXIST/);
    expect(readFileSync(path, 'utf8')).toBe('mine');
    expect(readdirSync(DIR).filter((name) => name.includes('target.yaml'))).toEqual(['target.yaml']);
    rmSync(path);
  });

  test("a dead writer's temporary file is removed by the next commit of that path; a live writer's is left", () => {
    const path = join(DIR, 'record.afprec');
    // Above Linux's largest process id (2^22): no process has it.
    const gone = 4_194_305;
    const dead = join(DIR, `.record.afprec.afp-${gone}-7.tmp`);
    const alive = join(DIR, `.record.afprec.afp-${process.ppid}-1.tmp`);
    const other = join(DIR, `.other.afp-${gone}-1.tmp`);
    for (const leftover of [dead, alive, other]) writeFileSync(leftover, '{"complete":true,"exchanges":72559}\n');
    writeFileAtomic(path, 'whole');
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(alive)).toBe(true);
    expect(existsSync(other)).toBe(true);
    expect(temporaryPathOf(path)).toMatch(new RegExp(`/\\.record\\.afprec\\.afp-${process.pid}-\\d+\\.tmp$`));
    for (const leftover of [alive, other, path]) rmSync(leftover);
  });
});
