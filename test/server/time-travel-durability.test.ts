// Time travel under `afp serve --data FILE`: snapshots, reverts and resets are commands of the log,
// so a real `afp serve` child SIGKILLed after them and restarted on the same file serves the same
// state (the same digest, the same clock), still holds the same snapshots (a revert to one taken
// before the crash works after it, its image loaded from a checkpoint: --checkpoint-every 7), and a
// timer due across the moves fires once in the final history.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildWorld, DAY_MS, HOUR_MS, observe, urlTarget, type Target } from './time-travel-world.ts';

const MAIN = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');
const DIR = mkdtempSync(join(tmpdir(), 'afp-time-travel-'));
const START = '2025-01-01T00:00:00Z';
const WAIT_MAX_MS = 30_000;

/** Every child spawned, killed at the end whatever happened. */
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(DIR, { recursive: true, force: true });
});

interface Child extends Target {
  readonly child: ChildProcess;
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
}

/** `afp serve --port 0 ARGS`, once it printed `ready`. */
async function serve(args: readonly string[]): Promise<Child> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  for (let waitedMs = 0; !/^ready$/m.test(stdout); waitedMs += 20) {
    if (child.exitCode !== null || waitedMs > WAIT_MAX_MS) throw new Error(`afp serve did not get ready:\n${stdout}\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const urls: Record<string, string> = {};
  for (const match of stdout.matchAll(/^(api|faucet|escrow|casino): (http:\S+)$/gm)) urls[match[1] as string] = match[2] as string;
  return { ...urlTarget(urls), child, stderr: () => stderr, exited };
}

async function crash(served: Child): Promise<void> {
  served.child.kill('SIGKILL');
  expect(await served.exited).toBe(null);
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
    expect((await first.admin('revert', { id: 'snap_1' })).body).toMatchObject({ now_ms: snapshotMs, dropped: ['snap_2'] });
    await first.admin('clock', { advance_ms: 2 * HOUR_MS + 1 });
    expect((await first.admin('snapshot')).body['id']).toBe('snap_3');
    const seen = await observe(first, world);
    const digest = await first.digest();
    const nowMs = await first.nowMs();
    await crash(first);

    const second = await serve(args);
    expect(second.stderr()).toMatch(/recovered: \d+ commands after the checkpoint of entry \d+/);
    expect(await second.nowMs()).toBe(nowMs);
    expect(await second.digest()).toBe(digest);
    expect(await observe(second, world)).toEqual(seen);
    // The snapshots held before the crash are held after it.
    expect((await second.admin('revert', { id: 'snap_2' })).status).toBe(404);
    expect((await second.admin('revert', { id: 'snap_1' })).body).toMatchObject({ now_ms: snapshotMs, dropped: ['snap_3'] });
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
  }, 120_000);
});
