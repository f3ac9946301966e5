// A write-ahead file read as SQLite reads it (src/server/wal-scan.ts), on real WAL files node:sqlite
// writes: an intact one loses nothing; cut mid-frame, its last commit's frames are counted lost
// (SQLite drops them on open, and the rows they held are gone: checked by opening the copy); a
// flipped byte in the last frame the same. Issue 69 part 6: a torn WAL's lost frames are counted.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { scanWal } from '../../src/server/wal-scan.ts';
import { tornWalLine } from '../../src/server/data-preflight.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-wal-scan-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** A database in WAL mode, 5 transactions of 20 rows, copied with its WAL while still open (nothing checkpointed). */
function walCopy(name: string): string {
  const live = join(DIR, `${name}-live.db`);
  const db = new DatabaseSync(live);
  db.exec(
    'PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; CREATE TABLE rows (id INTEGER PRIMARY KEY, text TEXT)',
  );
  const insert = db.prepare('INSERT INTO rows (text) VALUES (?)');
  for (let batch = 0; batch < 5; batch++) {
    db.exec('BEGIN');
    for (let row = 0; row < 20; row++) insert.run('x'.repeat(300));
    db.exec('COMMIT');
  }
  const copy = join(DIR, `${name}.db`);
  copyFileSync(live, copy);
  copyFileSync(`${live}-wal`, `${copy}-wal`);
  db.close();
  return copy;
}

const rowsOf = (file: string): number => {
  const db = new DatabaseSync(file);
  const count = Number((db.prepare('SELECT count(*) AS n FROM rows').get() as { n: number }).n);
  db.close();
  return count;
};

describe('scanWal', () => {
  test('an intact WAL: every frame applied, none lost', () => {
    const file = walCopy('intact');
    const scan = scanWal(`${file}-wal`);
    expect(scan?.lost).toBe(0);
    expect(scan?.committed).toBeGreaterThan(5);
    expect(rowsOf(file)).toBe(100);
  });

  test("cut mid-frame: the last commit's frames are counted lost, as the open drops its rows", () => {
    const file = walCopy('cut');
    const size = statSync(`${file}-wal`).size;
    truncateSync(`${file}-wal`, size - 100);
    const scan = scanWal(`${file}-wal`);
    expect(scan?.lost).toBeGreaterThan(0);
    expect(rowsOf(file)).toBeLessThan(100);
    expect(tornWalLine(file, scan as NonNullable<typeof scan>)).toMatch(
      /its write-ahead file ends in \d+ frames? \(\d+ bytes\) past its last complete commit, which the open drops/,
    );
  });

  test('a flipped byte in the last frame: lost too; a file that is no WAL is not scanned', () => {
    const file = walCopy('flipped');
    const bytes = readFileSync(`${file}-wal`);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] as number) ^ 0xff;
    writeFileSync(`${file}-wal`, bytes);
    expect(scanWal(`${file}-wal`)?.lost).toBeGreaterThan(0);
    writeFileSync(join(DIR, 'not-a-wal'), 'x'.repeat(64));
    expect(scanWal(join(DIR, 'not-a-wal'))).toBeNull();
    expect(scanWal(join(DIR, 'missing-wal'))).toBeNull();
  });
});
