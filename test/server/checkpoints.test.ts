// Bounded recovery (afp serve --data with checkpoints): a served platform on a real SQLite file,
// real listeners on 127.0.0.1, a mixed history (escrows, casino bets, tournaments, challenges,
// deposits, time travel, clock moves) with a checkpoint every 40 commands. The recovery from the
// newest checkpoint + the tail, the full replay of the log, and the live server have the same state
// digest; keys are never at rest in a checkpoint; a checkpoint that cannot be used is skipped, and
// recovery still ends in the same state.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { platformDigest } from '../../src/platform/state-digest.ts';
import type { CommandLog } from '../../src/server/command-log.ts';
import { startServe } from '../../src/server/listeners.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOG_SETTINGS, openedLog, recoveredLog, servedOnLog } from '../fixtures/command-logs.ts';
import { buildWorld, HOUR_MS, urlTarget, type Target, type World } from './time-travel-world.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-checkpoints-'));
const SEED = '31';
const EVERY = 40;
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const opened = (file: string): Promise<CommandLog> => openedLog(file);

/** A few hundred commands of every kind, with a snapshot held and a revert on the way. */
async function history(target: Target, world: World): Promise<void> {
  const games: Array<[string, unknown]> = [
    ['/api/v1/games/dice', { direction: 'over', threshold: 50, amount: 0.5 }],
    ['/api/v1/games/coin-flip', { side: 'heads', amount: 0.25 }],
    ['/api/v1/games/roulette', { bet_type: 'red', amount: 0.5 }],
  ];
  for (let round = 0; round < 30; round++) {
    const key = round % 2 === 0 ? world.alice : world.bob;
    for (const [path, body] of games) await target.send('casino', 'POST', path, { key, body });
    await target.send('api', 'GET', '/status', { key });
    await target.send('api', 'POST', '/escrow', {
      key,
      body: { amount: '0.10', receiver: round % 2 === 0 ? 'bob' : 'alice', expires_in: 600 + round * 60 },
    });
    if (round === 10) expect((await target.admin('snapshot')).status).toBe(200);
    if (round === 20) expect((await target.admin('revert', { id: 'snap_1' })).status).toBe(200);
    if (round === 22) expect((await target.admin('snapshot')).status).toBe(200);
    await target.admin('clock', { advance_ms: 7 * 60_000 });
    if (round % 10 === 9) await target.admin('casino/deposit', { agent_id: 'bob', chain: 'base', amount: '3' });
    if (round % 10 === 4)
      await target.admin('casino/deposit', { agent_id: 'alice', chain: 'solana', amount: '2', confirmed: true });
  }
  await target.admin('clock', { advance_ms: 3 * HOUR_MS });
}

const recovered = recoveredLog;

describe('checkpoints', () => {
  test('checkpoint + tail = full replay = live, by state digest; no key at rest; unusable checkpoints are skipped', async () => {
    const file = join(DIR, 'history.afp');
    const log = await opened(file);
    expect(log.adopt({ ...LOG_SETTINGS, seed: SEED })).toEqual([]);
    const lines: string[] = [];
    const served = await servedOnLog(log, {
      checkpointEveryCommands: EVERY,
      log: (line) => lines.push(line),
    });
    const target = urlTarget(served.urls);
    await history(target, await buildWorld(target));
    const live = await target.digest();
    expect(platformDigest(served.platform)).toBe(live);
    await served.close();
    log.close();
    expect(lines.filter((line) => line.includes('checkpoint'))).toEqual([]); // every checkpoint came from the worker

    const reopened = await opened(file);
    try {
      const fromCheckpoint = recovered(reopened);
      const full = recovered(reopened, { checkpoints: false });
      expect(fromCheckpoint.stats.checkpointSeq).toBeGreaterThan(0);
      expect(fromCheckpoint.stats.commands).toBeLessThan(EVERY);
      expect(fromCheckpoint.stats.commands + (fromCheckpoint.stats.checkpointSeq ?? 0)).toBe(full.stats.commands);
      expect(platformDigest(fromCheckpoint.platform)).toBe(live);
      expect(platformDigest(full.platform)).toBe(live);
      expect(fromCheckpoint.stats.lastAtMs).toBe(full.stats.lastAtMs);
      expect(fromCheckpoint.stats.clockMovedMs).toBe(full.stats.clockMovedMs);
      expect(fromCheckpoint.timeTravel.list().map((entry) => [entry.id, entry.atMs])).toEqual(
        full.timeTravel.list().map((entry) => [entry.id, entry.atMs]),
      );
      expect(fromCheckpoint.timeTravel.list().map((entry) => platformDigest(entry.image.copy))).toEqual(
        full.timeTravel.list().map((entry) => platformDigest(entry.image.copy)),
      );
    } finally {
      reopened.close();
    }

    // Keys never at rest: the checkpoints and images hold hashes only.
    const db = new DatabaseSync(file);
    const stored = [
      ...(db.prepare('SELECT state FROM checkpoints').all() as Array<{ state: Uint8Array }>),
      ...(db.prepare('SELECT state FROM travel_images').all() as Array<{ state: Uint8Array }>),
    ];
    expect(stored.length).toBeGreaterThan(2);
    for (const { state } of stored) expect(Buffer.from(state).toString('latin1')).not.toMatch(/sk_live_[0-9a-f]{48}/);
    // The newest checkpoint written by another build's classes, the older one unreadable.
    const seqs = (db.prepare('SELECT seq FROM checkpoints ORDER BY seq DESC').all() as Array<{ seq: number }>).map(
      (row) => Number(row.seq),
    );
    expect(seqs).toHaveLength(2);
    db.prepare('UPDATE checkpoints SET codec = ? WHERE seq = ?').run('another-build', seqs[0] as number);
    const older = (
      db.prepare('SELECT state FROM checkpoints WHERE seq = ?').get(seqs[1] as number) as { state: Uint8Array }
    ).state;
    db.prepare('UPDATE checkpoints SET state = ? WHERE seq = ?').run(
      older.subarray(0, older.length - 9),
      seqs[1] as number,
    );
    db.close();
    const damaged = await opened(file);
    try {
      const fallback = recovered(damaged);
      expect(fallback.stats.checkpointSeq).toBeUndefined();
      expect(fallback.stats.skippedCheckpoints).toHaveLength(2);
      expect(platformDigest(fallback.platform)).toBe(live);
    } finally {
      damaged.close();
    }
  });

  test('after a restart the checkpoint worker starts from the stored checkpoint (and its snapshot images) and stays exact', async () => {
    const file = join(DIR, 'restarted.afp');
    const settings = {
      seed: SEED,
      startMs: START_MS,
      clockMode: 'manual' as const,
      wallOffsetMs: 0,
      config: DEFAULT_CONFIG,
      faults: [],
      closures: [],
      defects: [],
    };
    const lines: string[] = [];
    const serveOn = async (log: CommandLog) =>
      startServe({
        trustedProxies: LOOPBACK_PROXIES,
        routes: ALL_ROUTES,
        seed: SEED,
        port: 0,
        clockMode: 'manual',
        commandLog: log,
        checkpointEveryCommands: EVERY,
        log: (line) => lines.push(line),
      });
    const first = await opened(file);
    expect(first.adopt(settings)).toEqual([]);
    const before = await serveOn(first);
    const world = await buildWorld(urlTarget(before.urls));
    await history(urlTarget(before.urls), world);
    await before.close();
    first.close();

    const second = await opened(file);
    const after = await serveOn(second);
    const firstSeq = after.recovery?.checkpointSeq ?? 0;
    expect(firstSeq).toBeGreaterThan(0);
    const target = urlTarget(after.urls);
    for (let round = 0; round < 40; round++) {
      await target.send('casino', 'POST', '/api/v1/games/dice', {
        key: round % 2 === 0 ? world.alice : world.bob,
        body: { direction: 'under', threshold: 40, amount: 0.25 },
      });
      await target.send('api', 'POST', '/escrow', {
        key: world.bob,
        body: { amount: '0.05', receiver: 'alice', expires_in: 900 },
      });
      await target.admin('clock', { advance_ms: 3 * 60_000 });
    }
    const live = await target.digest();
    await after.close();
    second.close();
    expect(lines.filter((line) => line.includes('checkpoint'))).toEqual([]);

    const reopened = await opened(file);
    try {
      const fromCheckpoint = recovered(reopened);
      expect(fromCheckpoint.stats.checkpointSeq).toBeGreaterThan(firstSeq + EVERY);
      expect(fromCheckpoint.stats.commands).toBeLessThan(EVERY);
      expect(fromCheckpoint.timeTravel.list().length).toBeGreaterThan(0);
      expect(platformDigest(fromCheckpoint.platform)).toBe(live);
      expect(platformDigest(recovered(reopened, { checkpoints: false }).platform)).toBe(live);
    } finally {
      reopened.close();
    }
  });
});
