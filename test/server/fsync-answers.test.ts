/**
 * `afp serve --data FILE --fsync-answers`: answers wait for the log's fsync (group-commit.ts
 * `answerAfterSync`), on a real startServe with a real node:sqlite log and real HTTP on 127.0.0.1:
 * concurrent writes are all answered, every batch is synced before its answers leave, and a restart
 * holds them all; the flag without --data exits 2 and names what it needs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { startServe } from '../../src/server/listeners.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';
import { SEED, START_MS } from '../client/fixtures.ts';
import { runCliChild } from '../fixtures/cli-child.ts';
import { openedLog } from '../fixtures/command-logs.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-fsync-answers-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const SETTINGS = {
  seed: SEED,
  startMs: START_MS,
  clockMode: 'manual',
  wallOffsetMs: 0,
  config: DEFAULT_CONFIG,
  faults: [],
  closures: [],
  defects: [],
} as const;

async function serveLog(file: string, fsyncAnswers: boolean) {
  const log = await openedLog(file, SETTINGS);
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: SEED,
    port: 0,
    clockMode: 'manual',
    commandLog: log,
    fsyncAnswers,
    log: () => undefined,
  });
  return { log, handle };
}

describe('--fsync-answers', () => {
  test('answers wait for the fsync of their batch; all answered, all there after a restart', async () => {
    const file = join(DIR, 'synced.db');
    const { log, handle } = await serveLog(file, true);
    const group = handle.groupCommit ?? expect.unreachable('a group commit');
    const api = handle.urls.api ?? '';
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        const answer = await fetch(`${api}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.3.0.${index}` },
          body: JSON.stringify({ agent_id: `s${index}` }),
        });
        // Its batch was committed and synced before this answer left.
        return { status: answer.status, syncedEntries: group.syncs > 0 ? group.entries : 0 };
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 40 }, () => 201));
    expect(answers.every((answer) => answer.syncedEntries > 0)).toBe(true);
    expect(group.entries).toBe(40);
    await handle.close();
    log.close();
    const again = await serveLog(file, false);
    try {
      expect(again.handle.recovery?.commands).toBe(40);
    } finally {
      await again.handle.close();
      again.log.close();
    }
  });

  test('without --data: exit 2, naming what it needs', async () => {
    const ran = await runCliChild(['serve', '--fsync-answers', '--port', '0']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--fsync-answers needs --data');
  });
});
