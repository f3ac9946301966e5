// A damaged `afp serve --data FILE` (log-salvage.ts, checkpoint-codec.ts): real `afp serve`
// children on real SQLite files. One history is written (a small world, then many clock moves,
// checkpoints every 40 entries) and copies of it are damaged three ways: 16 flipped bytes in the
// middle of the newest checkpoint (skipped, with its line, for the previous one: same digest);
// a flipped byte in a log row after the checkpoints (refused with the exact intact report, FILE
// byte for byte as it was; --salvage goes on from the entry before it); the file truncated at several offsets (each
// refused, saying which entries are intact; --salvage serves exactly those).
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCliChild } from '../fixtures/cli-child.ts';
import { startServeChild, type ServeChild } from '../fixtures/serve-child.ts';
import { buildWorld, urlTarget } from './time-travel-world.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-damaged-'));
const BASE = join(DIR, 'base.afp');
const ARGS = ['--clock', 'manual', '--start', '2026-01-01T00:00:00Z', '--seed', '5'];
const children: ServeChild[] = [];
let digest = '';
let entries = 0;
let newestCheckpoint = 0;
let previousCheckpoint = 0;

afterAll(async () => {
  for (const child of children) await child.kill9();
  rmSync(DIR, { recursive: true, force: true });
});

async function serve(
  file: string,
  extra: readonly string[] = [],
  checkpointEvery = '40',
): Promise<ServeChild & { target: ReturnType<typeof urlTarget> }> {
  const child = await startServeChild([
    '--port',
    '0',
    '--data',
    file,
    ...ARGS,
    '--checkpoint-every',
    checkpointEvery,
    ...extra,
  ]);
  children.push(child);
  return { ...child, target: urlTarget(child.urls) };
}

function copyOf(name: string): string {
  const file = join(DIR, name);
  copyFileSync(BASE, file);
  return file;
}

function flip(bytes: Uint8Array, at: number, count: number): Uint8Array {
  const damaged = Uint8Array.from(bytes);
  for (let index = at; index < at + count; index++) damaged[index] = (damaged[index] as number) ^ 0x5a;
  return damaged;
}

/** The checkpoints' sequence numbers in a stopped server's file, newest first. */
function checkpointSeqs(file: string): number[] {
  const db = new DatabaseSync(file, { readOnly: true });
  const seqs = (db.prepare('SELECT seq FROM checkpoints ORDER BY seq DESC').all() as Array<{ seq: number }>).map(
    (row) => Number(row.seq),
  );
  db.close();
  return seqs;
}

beforeAll(async () => {
  const first = await serve(BASE);
  await buildWorld(first.target);
  for (let move = 0; move < 120; move++) await first.target.admin('clock', { advance_ms: 60_000 + move });
  // Wait (bounded) until the worker has written the checkpoint of the last 40 entries and none is in flight.
  for (let tries = 0; tries < 1_500; tries++) {
    const checkpoints = (await first.target.send('api', 'GET', '/_afp/state')).body['checkpoints'] as {
      newest_seq: number | null;
      log_seq: number;
      in_flight: boolean;
    };
    if (checkpoints.newest_seq !== null && checkpoints.newest_seq >= checkpoints.log_seq - 40 && !checkpoints.in_flight)
      break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(await first.stop()).toBe(0);
  // The tests need log entries after the newest checkpoint (newest + 5 is damaged below). A late
  // worker may have covered the last entry, so the last eight are written by a restart that takes
  // no checkpoint (an interval past them): however busy the machine, they stay after the newest.
  const second = await serve(BASE, [], '999999999');
  for (let move = 0; move < 8; move++) await second.target.admin('clock', { advance_ms: 1_000 });
  entries = ((await second.target.send('api', 'GET', '/_afp/state')).body['checkpoints'] as { log_seq: number })
    .log_seq;
  digest = await second.target.digest();
  expect(await second.stop()).toBe(0);
  const seqs = checkpointSeqs(BASE);
  expect(seqs.length).toBe(2);
  [newestCheckpoint, previousCheckpoint] = seqs as [number, number];
  expect(entries).toBeGreaterThan(newestCheckpoint + 5);
});

describe('a damaged --data file', () => {
  test('16 flipped bytes in the newest checkpoint: skipped with its line, recovered from the previous one, same digest', async () => {
    const file = copyOf('checkpoint.afp');
    const db = new DatabaseSync(file);
    const state = (
      db.prepare('SELECT state FROM checkpoints WHERE seq = ?').get(newestCheckpoint) as { state: Uint8Array }
    ).state;
    db.prepare('UPDATE checkpoints SET state = ? WHERE seq = ?').run(
      flip(state, Math.floor(state.byteLength / 2), 16),
      newestCheckpoint,
    );
    db.close();
    const served = await serve(file);
    expect(served.stderr()).toContain(
      `afp serve: skipped the checkpoint after entry ${newestCheckpoint}: damaged: its SHA-256 is`,
    );
    expect(served.stderr()).toMatch(
      new RegExp(
        `recovered: ${entries - previousCheckpoint} commands after the checkpoint of entry ${previousCheckpoint} `,
      ),
    );
    expect(await served.target.digest()).toBe(digest);
    await served.stop();
  });

  test('a flipped byte in a log row: refused with what is intact; --salvage goes on from the entry before it', async () => {
    const file = copyOf('row.afp');
    const damagedSeq = newestCheckpoint + 5;
    const db = new DatabaseSync(file);
    const row = db.prepare('SELECT at_ms, kind, entry FROM commands WHERE seq = ?').get(damagedSeq) as {
      at_ms: number;
      kind: string;
      entry: string;
    };
    // A digit changed inside the JSON: still JSON, another command — only the row's CRC-32 tells.
    const entry = row.entry.replace(/\d/, (digit) => String((Number(digit) + 1) % 10));
    expect(entry).not.toBe(row.entry);
    db.prepare('UPDATE commands SET entry = ? WHERE seq = ?').run(entry, damagedSeq);
    db.close();
    const before = createHash('sha256').update(readFileSync(file)).digest('hex');
    const refused = await runCliChild(['serve', '--port', '0', '--data', file, ...ARGS], { timeoutMs: 60_000 });
    expect(refused.code).toBe(2);
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before);
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(refused.stderr).toContain(`afp serve: --data ${file} is damaged: `);
    expect(refused.stderr).toContain(
      `afp serve:   log entries 1..${damagedSeq - 1} (${damagedSeq - 1} commands, up to `,
    );
    expect(refused.stderr).toContain(
      `afp serve:   then: entry ${damagedSeq} is damaged (its CRC-32 does not match its bytes (damaged)); nothing after it is used`,
    );
    expect(refused.stderr).toContain(`afp serve:   checkpoint after entry ${newestCheckpoint} (`);
    expect(refused.stderr).toContain('refusing to start on a damaged log; run again with --salvage');
    const salvaged = await serve(file, ['--salvage']);
    expect(salvaged.stderr()).toContain(`afp serve: salvaged --data ${file}: kept log entries 1..${damagedSeq - 1} `);
    expect(salvaged.stderr()).toContain(
      `dropped: every log entry after ${damagedSeq - 1} (entry ${damagedSeq} is damaged`,
    );
    expect(salvaged.stderr()).toContain(`the damaged file is kept as ${file}.damaged`);
    expect(salvaged.stderr()).toMatch(
      new RegExp(`recovered: 4 commands after the checkpoint of entry ${newestCheckpoint} `),
    );
    const state = (await salvaged.target.send('api', 'GET', '/_afp/state')).body['checkpoints'] as { log_seq: number };
    expect(state.log_seq).toBe(damagedSeq - 1);
    await salvaged.stop();
  });

  test('truncated at several offsets: each refused with the entries intact; --salvage serves exactly those', async () => {
    const size = statSync(BASE).size;
    const seen: string[] = [];
    for (const fraction of [0.3, 0.6, 0.9]) {
      const file = copyOf(`cut-${fraction}.afp`);
      truncateSync(file, Math.floor((size * fraction) / 4096) * 4096 + 1234);
      const refused = await runCliChild(['serve', '--port', '0', '--data', file, ...ARGS], { timeoutMs: 60_000 });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain('afp serve: what is intact:');
      const intact = /log entries 1\.\.(\d+) \((\d+) commands/.exec(refused.stderr);
      expect(intact, refused.stderr).not.toBe(null);
      const kept = Number(intact?.[1]);
      expect(kept).toBeLessThanOrEqual(entries);
      seen.push(`${fraction}: ${kept} of ${entries}`);
      const salvaged = await serve(file, ['--salvage']);
      expect(salvaged.stderr()).toContain(`kept log entries 1..${kept}`);
      expect(salvaged.stderr()).toMatch(/recovered: \d+ commands/);
      const state = (await salvaged.target.send('api', 'GET', '/_afp/state')).body['checkpoints'] as {
        log_seq: number;
      };
      expect(state.log_seq).toBe(kept);
      await salvaged.stop();
    }
    process.stdout.write(`truncated logs salvaged: ${seen.join('; ')}\n`);
  });
});

describe('a damaged --data file keeps its evidence (issue 69 part 6)', () => {
  const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

  test('cut by 0.1%: the refused start changes no byte of FILE; --salvage still salvages it and keeps FILE.damaged', async () => {
    const file = copyOf('cut-tenth-percent.afp');
    truncateSync(file, Math.floor(statSync(file).size * 0.999));
    const before = sha(file);
    const refused = await runCliChild(['serve', '--port', '0', '--data', file, ...ARGS], { timeoutMs: 60_000 });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('cut short');
    expect(sha(file)).toBe(before);
    expect(existsSync(`${file}-wal`)).toBe(false);
    const salvaged = await serve(file, ['--salvage']);
    expect(salvaged.stderr()).toMatch(/kept log entries 1\.\.\d+/);
    await salvaged.stop();
    expect(sha(`${file}.damaged`)).toBe(before);
  });

  test('a write-ahead file beside FILE: a start refused for other settings or a damaged entry keeps FILE and FILE-wal byte for byte; --salvage keeps both', async () => {
    const file = join(DIR, 'wal-damaged.afp');
    const first = await serve(file, [], '999999999');
    await buildWorld(first.target);
    for (let move = 0; move < 20; move++) await first.target.admin('clock', { advance_ms: 1_000 });
    await first.kill9();
    // Another process changes a digit of entry 30 (its CRC-32 no longer matches) and is killed before
    // its close would copy the WAL into FILE: FILE-wal holds the damage.
    const damage = `const { DatabaseSync } = require('node:sqlite');
      const db = new DatabaseSync(${JSON.stringify(file)});
      const row = db.prepare('SELECT entry FROM commands WHERE seq = 30').get();
      db.prepare('UPDATE commands SET entry = ? WHERE seq = 30').run(row.entry.replace(/\\d/, (d) => String((Number(d) + 1) % 10)));
      process.kill(process.pid, 'SIGKILL');`;
    spawnSync(process.execPath, ['-e', damage], { timeout: 30_000 });
    expect(existsSync(`${file}-wal`)).toBe(true);
    const before = [sha(file), sha(`${file}-wal`)];
    const otherSeed = ARGS.map((arg) => (arg === '5' ? '6' : arg));
    const otherSettings = await runCliChild(['serve', '--port', '0', '--data', file, ...otherSeed], {
      timeoutMs: 60_000,
    });
    expect(otherSettings.code, otherSettings.stderr).toBe(2);
    expect(otherSettings.stderr).toContain('was written with other settings');
    expect([sha(file), sha(`${file}-wal`)]).toEqual(before);
    const refused = await runCliChild(['serve', '--port', '0', '--data', file, ...ARGS], { timeoutMs: 60_000 });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('entry 30 is corrupt');
    expect([sha(file), sha(`${file}-wal`)]).toEqual(before);
    expect(readdirSync(DIR).filter((name) => name.endsWith('.kept'))).toEqual([]);
    const salvaged = await serve(file, ['--salvage']);
    expect(salvaged.stderr()).toContain('kept log entries 1..29 ');
    await salvaged.stop();
    expect([sha(`${file}.damaged`), sha(`${file}.damaged-wal`)]).toEqual(before);
  });

  test('rows after the newest checkpoint lost: the server starts, saying how many entries are missing', async () => {
    const file = copyOf('lost-tail.afp');
    const db = new DatabaseSync(file);
    db.prepare('DELETE FROM commands WHERE seq > ?').run(newestCheckpoint);
    db.close();
    const started = await serve(file);
    const missing = entries - newestCheckpoint;
    expect(started.stderr()).toContain(
      `the log ends at entry ${newestCheckpoint}, but it committed entries up to ${entries}: ${missing} entries are missing`,
    );
    const state = (await started.target.send('api', 'GET', '/_afp/state')).body['checkpoints'] as {
      log_seq: number;
      lost_at_start: Record<string, unknown>;
    };
    expect(state.log_seq).toBe(newestCheckpoint);
    expect(state.lost_at_start).toEqual({
      log_ends_at: newestCheckpoint,
      promised_up_to: entries,
      entries_missing: missing,
      wal_frames_lost: 0,
      wal_bytes_lost: 0,
    });
    await started.stop();
  });
});

describe('a torn write-ahead file (issue 69 part 6)', () => {
  test('its lost frames and the entries they held are counted at start, before SQLite drops them without a word', async () => {
    const file = join(DIR, 'torn.afp');
    const first = await serve(file, [], '999999999');
    await buildWorld(first.target);
    for (let move = 0; move < 20; move++) await first.target.admin('clock', { advance_ms: 1_000 });
    const promised = ((await first.target.send('api', 'GET', '/_afp/state')).body['checkpoints'] as { log_seq: number })
      .log_seq;
    await first.kill9();
    const size = statSync(`${file}-wal`).size;
    truncateSync(`${file}-wal`, size - 1_000);
    const started = await serve(file);
    const state = (await started.target.send('api', 'GET', '/_afp/state')).body['checkpoints'] as {
      log_seq: number;
      lost_at_start: { entries_missing: number; wal_frames_lost: number; promised_up_to: number };
    };
    const held = state.log_seq;
    const missing = promised - held;
    expect(missing).toBeGreaterThan(0);
    expect(started.stderr()).toMatch(
      /afp serve: --data \S+torn\.afp: its write-ahead file ends in \d+ frames? \(\d+ bytes\) past its last complete commit, which the open drops/,
    );
    expect(started.stderr()).toContain(
      `which the open drops: they held entries up to ${promised}, and the log ends at entry ${held}: ${missing} entr${missing === 1 ? 'y is' : 'ies are'} missing`,
    );
    expect(state.lost_at_start.entries_missing).toBe(missing);
    expect(state.lost_at_start.promised_up_to).toBe(promised);
    expect(state.lost_at_start.wal_frames_lost).toBeGreaterThan(0);
    await started.stop();
  });
});
