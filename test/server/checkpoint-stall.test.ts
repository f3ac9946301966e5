// Checkpoints under write load do not hold the event loop (afp serve --data, in-process listeners
// on a real SQLite file): writers register agents while checkpoints are taken every 300 commands,
// and a probe sends GET /health every few ms; the slowest answer is printed and held to a bound
// (the goal is 50 ms). Why a second serve without checkpoints first: a machine busy with other
// work stalls the whole process on its own (a run at load 9 saw 1,455 ms), writers and probe
// alike, and that is not the checkpoints' doing. So the bound is 1 s, or three times the slowest
// answer of the same writes with no checkpoint taken, whichever is larger: checkpoints encoded on
// the loop instead of the worker would add their encoding to every fourth hundred writes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe } from '../../src/server/listeners.ts';
import { LOG_SETTINGS, openedLog } from '../fixtures/command-logs.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-stall-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Phase {
  readonly written: number;
  readonly probes: number;
  readonly slowestMs: number;
  readonly newestCheckpoint: number | null;
}

/** 16 writers register agents (1,200 writes or 4 s, whichever comes last) beside a /health probe every 5 ms. */
async function writePhase(name: string, checkpointEveryCommands: number): Promise<Phase> {
  const startMs = Date.UTC(2026, 0, 1);
  const log = await openedLog(join(DIR, `${name}.afp`), { ...LOG_SETTINGS, seed: '9', startMs });
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '9',
    port: 0,
    clockMode: 'manual',
    startMs,
    commandLog: log,
    checkpointEveryCommands,
    log: () => undefined,
  });
  try {
    const api = handle.urls.api as string;
    let running = true;
    let slowestMs = 0;
    let probes = 0;
    const probe = (async () => {
      while (running) {
        const startedMs = performance.now();
        await (await fetch(`${api}/health`)).arrayBuffer();
        slowestMs = Math.max(slowestMs, performance.now() - startedMs);
        probes++;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    // Until 1,200 writes (four checkpoints) or 4 s, whichever comes last; 60 s bounds a busy machine.
    const fullMs = performance.now() + 4_000;
    const untilMs = performance.now() + 60_000;
    let written = 0;
    const more = (): boolean => (written < 1_200 || performance.now() < fullMs) && performance.now() < untilMs;
    const writer = async (index: number): Promise<void> => {
      for (let count = 0; count < 5_000 && more(); count++) {
        const answer = await fetch(`${api}/register`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': `10.${index}.${count >> 8}.${count & 255}`,
          },
          body: JSON.stringify({ agent_id: `s${index}-${count}` }),
        });
        await answer.arrayBuffer();
        if (answer.status === 201) written++;
      }
    };
    await Promise.all(Array.from({ length: 16 }, (_, index) => writer(index)));
    running = false;
    await probe;
    // The checkpoint worker writes behind the writers: wait for the first one (a bound on a hang, not a budget).
    const newest = async (): Promise<number | null> =>
      ((await (await fetch(`${api}/_afp/state`)).json()) as { checkpoints: { newest_seq: number | null } }).checkpoints
        .newest_seq;
    let newestCheckpoint = await newest();
    const waitsForOne = checkpointEveryCommands <= written;
    for (let waited = 0; waitsForOne && newestCheckpoint === null && waited < 120_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      newestCheckpoint = await newest();
    }
    return { written, probes, slowestMs, newestCheckpoint };
  } finally {
    await handle.close();
    log.close();
  }
}

describe('checkpoints and the event loop', () => {
  test('GET /health stays answered while checkpoints are taken under writes', async () => {
    const without = await writePhase('no-checkpoints', 1_000_000);
    const withCheckpoints = await writePhase('checkpoints', 300);
    const bound = Math.max(1_000, 3 * without.slowestMs);
    process.stdout.write(
      `checkpoint stall: ${withCheckpoints.written} writes, checkpoints up to entry ${withCheckpoints.newestCheckpoint}; ${withCheckpoints.probes} /health probes, the slowest ${withCheckpoints.slowestMs.toFixed(1)} ms (without checkpoints: ${without.written} writes, the slowest of ${without.probes} probes ${without.slowestMs.toFixed(1)} ms; bound ${bound.toFixed(0)} ms)\n`,
    );
    expect(without.newestCheckpoint).toBe(null);
    expect(withCheckpoints.written).toBeGreaterThan(300);
    expect(withCheckpoints.newestCheckpoint).not.toBe(null);
    expect(withCheckpoints.slowestMs).toBeLessThan(bound);
  });
});
