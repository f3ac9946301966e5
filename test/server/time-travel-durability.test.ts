// Time travel under `afp serve --data FILE`: snapshots, reverts and resets are commands of the log,
// so a real `afp serve` child SIGKILLed after them and restarted on the same file serves the same
// state (the same digest, the same clock), still holds the same snapshots (a revert to one taken
// before the crash works after it, its image loaded from a checkpoint: --checkpoint-every 7), and a
// timer due across the moves fires once in the final history.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { startServeChild, type ServeChild } from '../fixtures/serve-child.ts';
import { buildWorld, DAY_MS, HOUR_MS, observe, urlTarget, type Target } from './time-travel-world.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-time-travel-'));
const START = '2025-01-01T00:00:00Z';

/** Every child spawned, killed at the end whatever happened. */
const children: ServeChild[] = [];
afterAll(async () => {
  for (const child of children) await child.kill9();
  rmSync(DIR, { recursive: true, force: true });
});

type Child = Target & { readonly server: ServeChild; readonly stderr: () => string };

/** `afp serve --port 0 ARGS` in its own process, once ready. */
async function serve(args: readonly string[]): Promise<Child> {
  const server = await startServeChild(['--port', '0', ...args]);
  children.push(server);
  return { ...urlTarget(server.urls), server, stderr: server.stderr };
}

/** Waits (at most 30 s) until GET /_afp/state shows a checkpoint written and none in flight. */
async function checkpointWritten(served: Child): Promise<void> {
  for (let tries = 0; tries < 1_500; tries++) {
    const checkpoints = (await served.send('api', 'GET', '/_afp/state')).body['checkpoints'] as {
      newest_seq: number | null;
      in_flight: boolean;
    };
    if (checkpoints.newest_seq !== null && !checkpoints.in_flight) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no checkpoint was written within 30 s');
}

async function crash(served: Child): Promise<void> {
  expect(await served.server.kill9()).toBe(null);
}

describe('time travel with --data', () => {
  test('snapshots, reverts and resets survive a crash; a timer due across them fires once', async () => {
    const file = join(DIR, 'travel.afp');
    const args = ['--data', file, '--clock', 'manual', '--start', START, '--seed', '21', '--checkpoint-every', '7'];
    const first = await serve(args);
    const world = await buildWorld(first);
    expect((await first.admin('snapshot')).body['id']).toBe('snap_1');
    const snapshotMs = await first.nowMs();
    await first.admin('clock', { advance_ms: 2 * DAY_MS });
    expect((await first.admin('snapshot')).body['id']).toBe('snap_2');
    expect((await first.admin('revert', { id: 'snap_1' })).body).toMatchObject({
      now_ms: snapshotMs,
      dropped: ['snap_2'],
    });
    await first.admin('clock', { advance_ms: 2 * HOUR_MS + 1 });
    expect((await first.admin('snapshot')).body['id']).toBe('snap_3');
    const seen = await observe(first, world);
    const digest = await first.digest();
    const nowMs = await first.nowMs();
    // Checkpoints are taken by a worker, off the loop: the crash waits until one is written and none is in flight.
    await checkpointWritten(first);
    await crash(first);

    const second = await serve(args);
    // The line is written before `ready`, but on stderr: its pipe may be read after stdout's (a fresh
    // clone at load 8 read it empty). Waited for, at most 10 s.
    const recovered = /recovered: \d+ commands after the checkpoint of entry \d+/;
    for (let waited = 0; !recovered.test(second.stderr()) && waited < 10_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.stderr()).toMatch(recovered);
    expect(await second.nowMs()).toBe(nowMs);
    expect(await second.digest()).toBe(digest);
    expect(await observe(second, world)).toEqual(seen);
    // The snapshots held before the crash are held after it.
    expect((await second.admin('revert', { id: 'snap_2' })).status).toBe(404);
    expect((await second.admin('revert', { id: 'snap_1' })).body).toMatchObject({
      now_ms: snapshotMs,
      dropped: ['snap_3'],
    });
    await second.admin('clock', { advance_ms: 2 * DAY_MS });
    const final = await observe(second, world);
    const finalDigest = await second.digest();

    // The twin: the final history (everything after snap_1 was reverted away), no travel, no crash.
    const twin = await serve(['--clock', 'manual', '--start', START, '--seed', '21']);
    expect(await buildWorld(twin)).toEqual(world);
    await twin.admin('clock', { to_ms: snapshotMs + 2 * DAY_MS });
    expect(await observe(twin, world)).toEqual(final);
    expect(await twin.digest()).toBe(finalDigest);

    // A reset, a little traffic, a crash: the restart serves the fresh history.
    await second.admin('reset');
    await buildWorld(second);
    const afterReset = await second.digest();
    await crash(second);
    const third = await serve(args);
    expect(await third.digest()).toBe(afterReset);
    expect((await third.admin('revert', { id: 'snap_1' })).status).toBe(404);
    expect((await third.admin('snapshot')).body['id']).toBe('snap_4');
    await crash(third);
    await crash(twin);
  });
});
