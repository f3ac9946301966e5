/**
 * The integrity of `afp serve --data FILE` beyond each row's own CRC (command-log.ts, checkpoint-store.ts,
 * checkpoints.ts, covered-scan.ts): a log is served in-process (LoggedDispatcher, snapshots held,
 * checkpoints written on the loop), then copies of its file are edited the way a prober did, and
 * each is either refused with what is wrong or recovered into exactly the full replay's state:
 * a checkpoint past the log's end, a snapshot image swapped for another, a checkpoint copied from
 * another row, settings edited (with or without their hash), an entry missing, entries before the
 * checkpoint damaged (a warning), a log of the previous schema (opened, upgraded), an empty file.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApiRequest } from '../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { platformDigest } from '../../src/platform/state-digest.ts';
import { applyClockMove } from '../../src/server/admin.ts';
import { Checkpointer } from '../../src/server/checkpoints.ts';
import { metaSha256, openCommandLog, type CommandLog } from '../../src/server/command-log.ts';
import { coveredDamageLines, scanCoveredEntries } from '../../src/server/covered-scan.ts';
import { recoverPlatform, type Recovered } from '../../src/server/recovery.ts';
import { applySnapshot } from '../../src/server/time-travel-routes.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOG_SETTINGS, openedLog, recoveredLog } from '../fixtures/command-logs.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-log-integrity-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const SOURCE = join(DIR, 'source.afp');
/** The checkpoints of the source: after entries CHECKPOINTS[0] and CHECKPOINTS[1]; entries run to LAST. */
let checkpoints: number[] = [];
let last = 0;
let truth = '';

/** Serves `log` on the loop: registrations, clock moves, two snapshots, checkpoints after `at` entries. */
function serveHistory(log: CommandLog, checkpointAt: readonly number[]): void {
  const served = recoveredLog(log);
  const checkpointer = new Checkpointer({
    log,
    platform: served.platform,
    timeTravel: served.timeTravel,
    clockMovedMs: 0,
  });
  let nowMs = START_MS;
  const send = (request: Partial<ApiRequest> & { path: string }): void => {
    served.dispatcher.handle(
      { mount: 'api', method: 'GET', query: {}, headers: {}, ip: '10.0.0.1', ...request },
      nowMs,
    );
  };
  for (let round = 0; round < 12; round++) {
    send({ method: 'POST', path: '/register', body: { agent_id: `agent${round}` } });
    const fromMs = nowMs;
    nowMs += 61_000;
    log.appendAdmin({ kind: 'clock', fromMs, toMs: nowMs });
    applyClockMove(served.platform, nowMs);
    if (round === 3 || round === 7) {
      const id = served.timeTravel.nextSnapshotId();
      if (typeof id !== 'string') throw new Error('a snapshot id');
      log.appendAdmin({ kind: 'snapshot', id, atMs: nowMs });
      applySnapshot(served.timeTravel, id, nowMs);
    }
    expect(log.commit().ok).toBe(true);
    const due = checkpointAt[checkpoints.length];
    if (due !== undefined && log.lastSeq >= due) {
      checkpointer.write(log.lastSeq);
      checkpoints.push(log.lastSeq);
    }
  }
}

/** A copy of the source log, edited by `sql` (run on the file, outside afp). */
function copyOf(name: string, sql = ''): string {
  const file = join(DIR, name);
  copyFileSync(SOURCE, file);
  if (existsSync(`${SOURCE}-wal`)) copyFileSync(`${SOURCE}-wal`, `${file}-wal`);
  if (sql !== '') {
    const db = new DatabaseSync(file);
    db.exec(sql);
    db.close();
  }
  return file;
}

async function recoveredFrom(file: string): Promise<{ log: CommandLog; result: Recovered | { error: string } }> {
  const log = await openedLog(file, LOG_SETTINGS);
  return { log, result: recoverPlatform(log, ALL_ROUTES) };
}

function recoveredOk(result: Recovered | { error: string }): Recovered {
  if ('error' in result) throw new Error(result.error);
  return result;
}

beforeAll(async () => {
  const log = await openedLog(SOURCE, LOG_SETTINGS);
  checkpoints = [];
  serveHistory(log, [10, 20]);
  last = log.lastSeq;
  truth = platformDigest(recoveredLog(log, { checkpoints: false }).platform);
  log.close();
  expect(checkpoints).toHaveLength(2);
  expect(last).toBeGreaterThan(checkpoints[1] as number);
});

describe('a log, its checkpoints and its snapshot images are tied together', () => {
  test('the source recovers from its newest checkpoint into the full replay’s state', async () => {
    const { log, result } = await recoveredFrom(copyOf('plain.afp'));
    const recovered = recoveredOk(result);
    expect(recovered.stats.checkpointSeq).toBe(checkpoints[1]);
    expect(recovered.stats.skippedCheckpoints).toBeUndefined();
    expect(platformDigest(recovered.platform)).toBe(truth);
    log.close();
  });

  test('a checkpoint numbered past the log’s end is not used, and writes after it survive a restart', async () => {
    const file = copyOf('past-end.afp', `UPDATE checkpoints SET seq = seq + 100000 WHERE seq = ${checkpoints[1]}`);
    const { log, result } = await recoveredFrom(file);
    const recovered = recoveredOk(result);
    expect(recovered.stats.checkpointSeq).toBe(checkpoints[0]);
    expect(recovered.stats.skippedCheckpoints).toEqual([
      `checkpoint after entry ${(checkpoints[1] as number) + 100000}: it follows entry ${(checkpoints[1] as number) + 100000}, past the log's last entry ${last}`,
    ]);
    expect(platformDigest(recovered.platform)).toBe(truth);
    // Acknowledged writes after the restart, and a checkpoint after them: all there on the next start.
    recovered.dispatcher.handle(
      {
        mount: 'api',
        method: 'POST',
        path: '/register',
        query: {},
        headers: {},
        ip: '10.0.0.2',
        body: { agent_id: 'late' },
      },
      START_MS + 13 * 61_000,
    );
    expect(log.commit().ok).toBe(true);
    const live = platformDigest(recovered.platform);
    new Checkpointer({ log, platform: recovered.platform, timeTravel: recovered.timeTravel, clockMovedMs: 0 }).write(
      log.lastSeq,
    );
    log.close();
    const again = await recoveredFrom(file);
    const restarted = recoveredOk(again.result);
    expect(restarted.stats.checkpointSeq).toBe(last + 1);
    expect(restarted.platform.agents.get('late')).toBeDefined();
    expect(platformDigest(restarted.platform)).toBe(live);
    again.log.close();
  });

  test('a snapshot image swapped for another one’s bytes: not used (a full replay), and written again', async () => {
    const file = copyOf(
      'swapped.afp',
      "UPDATE travel_images SET state = (SELECT state FROM travel_images WHERE id = 'snap_2') WHERE id = 'snap_1'",
    );
    const { log, result } = await recoveredFrom(file);
    const recovered = recoveredOk(result);
    expect(recovered.stats.checkpointSeq).toBeUndefined();
    expect(recovered.stats.skippedCheckpoints?.[0]).toContain(
      'the image of snap_1 is not the snapshot snap_1 of this log',
    );
    expect(recovered.stats.unusableImages).toEqual(['snap_1']);
    expect(recovered.stats.internalErrors).toBe(0);
    expect(platformDigest(recovered.platform)).toBe(truth);
    expect(recovered.timeTravel.list().map((entry) => platformDigest(entry.image.copy))).toEqual(
      recoveredLog(log, { checkpoints: false })
        .timeTravel.list()
        .map((entry) => platformDigest(entry.image.copy)),
    );
    // The checkpointer drops the image; its next checkpoint encodes it from the replayed snapshot.
    new Checkpointer({
      log,
      platform: recovered.platform,
      timeTravel: recovered.timeTravel,
      clockMovedMs: recovered.stats.clockMovedMs,
      unusableImages: ['snap_1'],
    }).write(log.lastSeq);
    const next = recoveredLog(log);
    expect(next.stats.checkpointSeq).toBe(last);
    expect(platformDigest(next.platform)).toBe(truth);
    log.close();
  });

  test('a checkpoint copied, seal and all, from another place: not used', async () => {
    const [older, newer] = checkpoints as [number, number];
    const file = copyOf(
      'copied.afp',
      `UPDATE checkpoints SET (at_ms, codec, travel, state, seal) =
        (SELECT at_ms, codec, travel, state, seal FROM checkpoints WHERE seq = ${older}) WHERE seq = ${newer}`,
    );
    const { log, result } = await recoveredFrom(file);
    const recovered = recoveredOk(result);
    expect(recovered.stats.checkpointSeq).toBe(older);
    expect(recovered.stats.skippedCheckpoints?.[0]).toContain(
      `its seal does not match this log's settings and history up to entry ${newer}`,
    );
    expect(platformDigest(recovered.platform)).toBe(truth);
    log.close();
  });

  test('settings rewritten with a matching hash (another run’s): the checkpoints are not used', async () => {
    const file = copyOf('other-run.afp', "UPDATE meta SET value = '1795' WHERE key = 'wall_offset_ms'");
    const db = new DatabaseSync(file);
    const meta = new Map(
      (db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((row) => [
        row.key,
        row.value,
      ]),
    );
    db.prepare("UPDATE meta SET value = ? WHERE key = 'meta_sha256'").run(metaSha256(meta));
    db.close();
    const log = await openedLog(file);
    const recovered = recoveredOk(recoverPlatform(log, ALL_ROUTES));
    expect(recovered.stats.checkpointSeq).toBeUndefined();
    expect(recovered.stats.skippedCheckpoints).toHaveLength(2);
    log.close();
  });

  test('an edited seed or config is refused at open, naming the meta', async () => {
    for (const [name, sql] of [
      ['seed.afp', "DELETE FROM checkpoints; UPDATE meta SET value = '2' WHERE key = 'seed'"],
      [
        'config.afp',
        'UPDATE meta SET value = replace(value, \'"feeBps":{"$bigint":"100"}\', \'"feeBps":{"$bigint":"500"}\') WHERE key = \'config\'',
      ],
    ] as const) {
      const opened = await openCommandLog(copyOf(name, sql), { knownDefects: [] });
      expect(opened).toEqual({
        error: expect.stringMatching(/corrupt meta: its SHA-256 does not match its rows \(the seed, start, config/),
      });
    }
  });

  test('a missing entry is refused, not skipped: after the checkpoint, and as the first one after it', async () => {
    const [older, newer] = checkpoints as [number, number];
    for (const [name, missing] of [
      ['gap.afp', older + 3],
      ['gap-first.afp', older + 1],
    ] as const) {
      const file = copyOf(
        name,
        `DELETE FROM checkpoints WHERE seq = ${newer}; DELETE FROM commands WHERE seq = ${missing}`,
      );
      const { log, result } = await recoveredFrom(file);
      expect(result).toEqual({
        error: `--data ${file}: entry ${missing} is corrupt (missing: the log goes on at entry ${missing + 1})`,
      });
      log.close();
    }
  });

  test('damaged entries a checkpoint covers are reported (a warning), the state served is whole', async () => {
    const file = copyOf(
      'covered.afp',
      "UPDATE commands SET entry = replace(entry, '10.0.0.1', '10.0.0.9') WHERE seq IN (3, 5)",
    );
    const { log, result } = await recoveredFrom(file);
    const recovered = recoveredOk(result);
    expect(platformDigest(recovered.platform)).toBe(truth);
    const newer = checkpoints[1] as number;
    const damage = await scanCoveredEntries(log, newer, () => false);
    expect(damage).toEqual({ entries: [3, 5], count: 2, unreadable: null, readUpTo: newer });
    expect(coveredDamageLines(file, newer, damage ?? expect.unreachable())).toEqual([
      expect.stringContaining(`2 log entries before the checkpoint after entry ${newer} are damaged or missing (3, 5)`),
    ]);
    expect(await scanCoveredEntries(log, newer, () => true)).toBeNull();
    log.close();
    const { log: whole } = await recoveredFrom(copyOf('covered-whole.afp'));
    expect(await scanCoveredEntries(whole, newer, () => false)).toBeNull();
    whole.close();
  });

  test('a log of the previous schema (no chain, no seals, no meta hash) opens, replays whole once, then is sealed', async () => {
    const file = copyOf(
      'schema-2.afp',
      `UPDATE commands SET chain = NULL; UPDATE checkpoints SET seal = NULL; UPDATE travel_images SET seal = NULL;
       DELETE FROM meta WHERE key = 'meta_sha256'; PRAGMA user_version = 2;`,
    );
    const { log, result } = await recoveredFrom(file);
    const recovered = recoveredOk(result);
    expect(recovered.stats.checkpointSeq).toBeUndefined();
    expect(recovered.stats.skippedCheckpoints?.[0]).toContain('it has no seal tying it to its log');
    expect(platformDigest(recovered.platform)).toBe(truth);
    const db = log.database;
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 3 });
    expect(db.prepare("SELECT count(*) AS n FROM meta WHERE key = 'meta_sha256'").get()).toEqual({ n: 1 });
    new Checkpointer({
      log,
      platform: recovered.platform,
      timeTravel: recovered.timeTravel,
      clockMovedMs: recovered.stats.clockMovedMs,
    }).write(log.lastSeq);
    expect(db.prepare('SELECT count(*) AS n FROM travel_images WHERE seal IS NULL').get()).toEqual({ n: 0 });
    const next = recoveredLog(log);
    expect(next.stats.checkpointSeq).toBe(last);
    expect(platformDigest(next.platform)).toBe(truth);
    log.close();
  });

  test('an empty file is opened as a new log, and says so', async () => {
    const file = join(DIR, 'empty.afp');
    writeFileSync(file, '');
    const log = await openedLog(file);
    expect([log.existed, log.wasEmptyFile]).toEqual([false, true]);
    log.close();
    const fresh = await openedLog(join(DIR, 'missing.afp'));
    expect([fresh.existed, fresh.wasEmptyFile]).toEqual([false, false]);
    fresh.close();
  });
});
