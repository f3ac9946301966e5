// readTextFile (src/core/text-file.ts): a user-named file read whole but bounded. The same text as
// fs.readFile gives, a directory refused by name, a file past the bound refused before it is read,
// a device without a size (/dev/zero) refused once the bound is passed, the system's own words for
// anything else.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { readTextFile } from '../../src/core/text-file.ts';

const work = mkdtempSync(join(tmpdir(), 'afp-text-file-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('readTextFile', () => {
  test('reads a file as fs.readFile does, invalid UTF-8 and all, across many pieces', async () => {
    const file = join(work, 'mixed.txt');
    const bytes = Buffer.concat([
      Buffer.from('name: ünïcødé 🎲\n'.repeat(20_000)),
      Buffer.from([0xff, 0xfe, 0x41]),
      Buffer.from('\r\nend'),
    ]);
    writeFileSync(file, bytes);
    const read = await readTextFile(file, bytes.length);
    expect(read).toEqual({ ok: true, text: readFileSync(file, 'utf8') });
    writeFileSync(join(work, 'empty'), '');
    expect(await readTextFile(join(work, 'empty'), 10)).toEqual({ ok: true, text: '' });
  });

  test('a file one byte over the bound is refused by its size', async () => {
    const file = join(work, 'eleven');
    writeFileSync(file, '12345678901');
    expect(await readTextFile(file, 11)).toEqual({ ok: true, text: '12345678901' });
    expect(await readTextFile(file, 10)).toEqual({ ok: false, reason: 'it is larger than 10 bytes' });
  });

  test('a directory is refused by name; a missing file keeps the system words', async () => {
    expect(await readTextFile(work, 100)).toEqual({ ok: false, reason: 'it is a directory, not a file' });
    const missing = await readTextFile(join(work, 'nope'), 100);
    expect(missing.ok).toBe(false);
    expect(missing).toMatchObject({ ok: false, code: 'ENOENT' });
    expect(missing.ok ? '' : missing.reason).toContain('no such file or directory');
  });

  test('a device with no size (/dev/zero) is read only up to the bound', async () => {
    expect(await readTextFile('/dev/zero', 100_000)).toEqual({ ok: false, reason: 'it is larger than 100000 bytes' });
  });
});
