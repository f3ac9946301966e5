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
import { tornWalLine } from '../../src/server/start-loss.ts';
import { commandSeqsOfPage, tailSeqOfPage, walPromisedSeq } from '../../src/server/wal-tail.ts';

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

/**
 * A log-shaped database in WAL mode (command-log.ts's tables): 6 batches of 20 small entries, each
 * writing its last seq to log_tail in its transaction. `tailFirst`: log_tail's page comes before the
 * commands page, so a cut tears the commands page (the commit's last frame); else the tail's.
 */
function logCopy(name: string, tailFirst: boolean): string {
  const live = join(DIR, `${name}-live.db`);
  const db = new DatabaseSync(live);
  const tail = 'CREATE TABLE log_tail (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL) STRICT;';
  const commands =
    'CREATE TABLE commands (seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, kind TEXT NOT NULL, entry TEXT NOT NULL, body TEXT, crc INTEGER, chain INTEGER) STRICT;';
  db.exec(`PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; ${tailFirst ? tail + commands : commands + tail}`);
  const insert = db.prepare('INSERT INTO commands VALUES (?, ?, ?, ?, NULL, 7, 9)');
  const write = db.prepare(
    'INSERT INTO log_tail (id, seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET seq = excluded.seq',
  );
  let seq = 0;
  for (let batch = 0; batch < 6; batch++) {
    db.exec('BEGIN IMMEDIATE');
    for (let row = 0; row < 20; row++) insert.run(++seq, 1_000 + seq, 'clock', '{}');
    write.run(seq);
    db.exec('COMMIT');
  }
  const copy = join(DIR, `${name}.db`);
  copyFileSync(live, copy);
  copyFileSync(`${live}-wal`, `${copy}-wal`);
  db.close();
  return copy;
}

/** `file`'s WAL cut by 100 bytes, scanned, and the copy opened: the entries it holds and those the dropped frames held. */
function cutLog(file: string): { readonly held: number; readonly promised: number | null; readonly line: string } {
  truncateSync(`${file}-wal`, statSync(`${file}-wal`).size - 100);
  const scan = scanWal(`${file}-wal`);
  if (scan === null) throw new Error('no WAL scanned');
  const db = new DatabaseSync(file);
  const held = Number((db.prepare('SELECT max(seq) AS seq FROM commands').get() as { seq: number }).seq);
  const promised = walPromisedSeq(db, scan.uncommitted);
  db.close();
  return { held, promised, line: tornWalLine(file, scan, promised === null ? null : { last: held, promised }) };
}

describe('the entries held by the frames a torn WAL drops (wal-tail.ts)', () => {
  test("cut mid-frame, the commands page torn: the tail row's page says 120; the open keeps entries up to 100", () => {
    const cut = cutLog(logCopy('tail-whole', true));
    expect([cut.held, cut.promised]).toEqual([100, 120]);
    expect(cut.line).toContain(
      'which the open drops: they held entries up to 120, and the log ends at entry 100: 20 entries are missing',
    );
  });

  test("cut mid-frame, the tail row's page torn: the commands page before it says 120", () => {
    const cut = cutLog(logCopy('commands-whole', false));
    expect([cut.held, cut.promised]).toEqual([100, 120]);
  });

  test('an intact WAL drops no frame, so none is read; a page of another shape says nothing', () => {
    const file = logCopy('tail-intact', true);
    const scan = scanWal(`${file}-wal`);
    expect(scan?.uncommitted).toEqual([]);
    const db = new DatabaseSync(file);
    expect(walPromisedSeq(db, scan?.uncommitted ?? [])).toBeNull();
    db.close();
    expect(tailSeqOfPage(Buffer.alloc(4096))).toBeNull();
    const interior = Buffer.alloc(4096);
    interior[0] = 0x05;
    expect(tailSeqOfPage(interior)).toBeNull();
    expect(commandSeqsOfPage(interior)).toEqual([]);
  });
});
