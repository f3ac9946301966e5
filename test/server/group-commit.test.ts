/**
 * Group commit on a real `startServe` with a real node:sqlite log and real HTTP on 127.0.0.1:
 * entries appended in one event-loop turn share one transaction (and a batch past its bound commits
 * at once), concurrent requests are all answered and all recovered, and
 * a failed commit (the real SQLITE_FULL of `PRAGMA max_page_count`) answers 503 for its whole
 * batch, closes the server to further work and reports the failure, while the log keeps exactly
 * the batches committed before it. An answer leaves at its batch's commit, before the WAL's fsync
 * returns; with --fsync-answers only after it (and the flag needs --data).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, test, vi } from 'vitest';
import type { CommandLog } from '../../src/server/command-log.ts';
import { GroupCommit } from '../../src/server/group-commit.ts';
import type { ServeHandle } from '../../src/server/listeners.ts';
import { START_MS } from '../client/fixtures.ts';
import { runCliChild } from '../fixtures/cli-child.ts';
import { LOG_SETTINGS, openedLog, servedOnLog } from '../fixtures/command-logs.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-group-commit-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

async function served(file: string, fsyncAnswers = false): Promise<{ log: CommandLog; handle: ServeHandle }> {
  const log = await openedLog(file, LOG_SETTINGS);
  const handle = await servedOnLog(log, { fsyncAnswers });
  return { log, handle };
}

/** POST /register for `count` agents at once, each from its own IP (the register-IP row allows 10 a minute). */
function registerAll(handle: ServeHandle, prefix: string, count: number): Promise<Response[]> {
  const api = handle.urls.api ?? '';
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      fetch(`${api}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.1.${index >> 8}.${index & 255}` },
        body: JSON.stringify({ agent_id: `${prefix}${index}` }),
      }),
    ),
  );
}

describe('group commit', () => {
  test('one transaction per event-loop turn, and at once past the entry bound', async () => {
    const log = await openedLog(join(DIR, 'unit.db'), LOG_SETTINGS);
    const failures: string[] = [];
    const group = new GroupCommit({
      log,
      onFailure: (error) => failures.push(error),
      entriesMax: 4,
      answerAfterSync: true,
    });
    const tick = (count: number): Promise<void> | null => {
      for (let index = 0; index < count; index++) {
        log.appendAdmin({ kind: 'clock', fromMs: START_MS, toMs: START_MS });
        group.appended();
      }
      return group.hold();
    };
    expect(group.hold()).toBe(null); // nothing pending: answer at once
    const held = tick(3);
    expect(held).not.toBe(null);
    expect(log.pendingEntries).toBe(3);
    await held; // the turn ended: one commit, then one fsync of the WAL before the answers are released
    expect({
      batches: group.batches,
      entries: group.entries,
      syncs: group.syncs,
      pending: log.pendingEntries,
    }).toEqual({ batches: 1, entries: 3, syncs: 1, pending: 0 });
    expect(group.hold()).toBe(null); // committed and synced: nothing to wait for
    await tick(10); // 4 + 4 at once (the bound), the last 2 at the end of the turn
    expect({ batches: group.batches, entries: group.entries }).toEqual({ batches: 4, entries: 13 });
    // One sync in flight at a time: the batches committed meanwhile share the next one.
    expect(group.syncs).toBeGreaterThanOrEqual(3);
    expect(group.syncs).toBeLessThanOrEqual(4);
    expect(failures).toEqual([]);
    log.close();
  });

  test('by default an answer leaves at its commit, before the fsync returns (which follows off the loop)', async () => {
    const log = await openedLog(join(DIR, 'at-commit.db'), LOG_SETTINGS);
    const group = new GroupCommit({ log, onFailure: () => undefined });
    log.appendAdmin({ kind: 'clock', fromMs: START_MS, toMs: START_MS });
    group.appended();
    await group.hold();
    // Released in the turn of the commit: the fsync's callback (libuv's poll phase) cannot have run yet.
    expect({ batches: group.batches, syncs: group.syncs, pending: log.pendingEntries }).toEqual({
      batches: 1,
      syncs: 0,
      pending: 0,
    });
    expect(group.hold()).toBe(null);
    await vi.waitFor(() => expect(group.syncs).toBe(1), { timeout: 10_000 });
    log.close();
  });

  test('200 concurrent registrations over HTTP: all answered, all committed, all there after a restart', async () => {
    const file = join(DIR, 'batches.db');
    const { log, handle } = await served(file);
    const answers = await registerAll(handle, 'g', 200);
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 200 }, () => 201));
    const group = handle.groupCommit ?? expect.unreachable('a group commit');
    expect(group.entries).toBe(200);
    expect(group.batches).toBeLessThanOrEqual(200); // how many share one depends on how the client's sends interleave
    await handle.close();
    log.close();
    const again = await served(file);
    try {
      expect(again.handle.recovery?.commands).toBe(200);
      expect(again.handle.platform.agents.size).toBe(200);
    } finally {
      await again.handle.close();
      again.log.close();
    }
  });

  test('a failed commit: its batch answered 503, nothing handled after it, the failure reported; the log keeps what was committed', async () => {
    const file = join(DIR, 'full.db');
    const { log, handle } = await served(file);
    const before = await registerAll(handle, 'ok', 5);
    expect(before.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
    // The disk is "full": SQLite may not grow the database by one more page (a real SQLITE_FULL).
    const db = (log as unknown as { db: DatabaseSync }).db;
    const pages = Number((db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count);
    db.exec(`PRAGMA max_page_count = ${pages}`);
    // WAL mode: commits go on while free pages last, then one fails; its batch and everything after is 503.
    const later = await registerAll(handle, 'lost', 300);
    const statuses = later.map((answer) => answer.status);
    expect(statuses.every((status) => status === 201 || status === 503)).toBe(true);
    expect(statuses).toContain(503);
    const acknowledged = statuses.flatMap((status, index) => (status === 201 ? [`lost${index}`] : []));
    expect(await handle.logFailure).toMatch(/cannot commit \d+ entries: .*full/);
    expect(handle.groupCommit?.open).toBe(false);
    const after = await fetch(`${handle.urls.api ?? ''}/_afp/state`);
    expect(after.status).toBe(503); // not even a read: memory is ahead of the disk
    await handle.close({ forceAfterMs: 100 });
    log.close();

    const again = await served(file);
    try {
      // Every acknowledged registration is there; none answered 503 is (its batch was rolled back).
      expect(again.handle.recovery?.commands).toBe(5 + acknowledged.length);
      expect(
        again.handle.platform.agents
          .all()
          .map((agent) => agent.id)
          .sort(),
      ).toEqual(['ok0', 'ok1', 'ok2', 'ok3', 'ok4', ...acknowledged].sort());
    } finally {
      await again.handle.close();
      again.log.close();
    }
  });

  test('--fsync-answers: answers wait for the fsync of their batch; all answered, all there after a restart', async () => {
    const file = join(DIR, 'synced.db');
    const { log, handle } = await served(file, true);
    const group = handle.groupCommit ?? expect.unreachable('a group commit');
    const api = handle.urls.api ?? '';
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        const answer = await fetch(`${api}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.3.0.${index}` },
          body: JSON.stringify({ agent_id: `s${index}` }),
        });
        // Its batch was committed and synced before this answer left (at the commit, the first ones would see 0 syncs).
        return { status: answer.status, synced: group.syncs > 0 };
      }),
    );
    expect(answers).toEqual(Array.from({ length: 40 }, () => ({ status: 201, synced: true })));
    expect(group.entries).toBe(40);
    await handle.close();
    log.close();
    const again = await served(file);
    try {
      expect(again.handle.recovery?.commands).toBe(40);
    } finally {
      await again.handle.close();
      again.log.close();
    }
  });

  test('--fsync-answers without --data: exit 2, naming what it needs', async () => {
    const ran = await runCliChild(['serve', '--fsync-answers', '--port', '0']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--fsync-answers needs --data');
  });
});
