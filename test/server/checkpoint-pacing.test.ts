/**
 * Checkpoint pacing (src/server/checkpoints.ts WORKER_DUTY_MAX): after a checkpoint whose job cost
 * the worker at least `pacedFromCpuMs` of CPU, the next one waits for its pause even when
 * `everyCommands` more commands were committed; without pacing (duty 1) it starts at once: at the
 * next write, or, when those commands were committed while the first was in flight, as soon as
 * the first is written (no write need follow: an idle server does not keep the tail). A real
 * command log, a real worker thread, real registrations through the logged dispatcher.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import { Checkpointer } from '../../src/server/checkpoints.ts';
import { LoggedDispatcher } from '../../src/server/recovery.ts';
import { TimeTravel } from '../../src/server/time-travel.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';
import { SEED, START_MS } from '../client/fixtures.ts';
import { openedLog } from '../fixtures/command-logs.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-checkpoint-pacing-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
/**
 * Commands per checkpoint: enough agents that encoding the state costs well above one tick of the
 * thread CPU clock (getrusage counts whole ticks, 4 ms here): with 20 the encoding often read
 * 0 ms, and a pause of 10^6 × 0 is none (the test failed on a fresh clone).
 */
const EVERY = 3_000;

/**
 * Two checkpoints' worth of registrations, the second committed after the first checkpoint is
 * written (`after`: does the next write start the second?) or while it is in flight (`during`:
 * does the second start once the first is written, with no write after it?).
 */
async function secondStartsAtOnce(name: string, workerDutyMax: number, second: 'after' | 'during'): Promise<boolean> {
  const settings = { seed: SEED, startMs: START_MS, config: DEFAULT_CONFIG, faults: [], closures: [], defects: [] };
  const log = await openedLog(join(DIR, `${name}.db`), { ...settings, clockMode: 'manual', wallOffsetMs: 0 });
  const platform = new Platform(settings);
  const dispatcher = new LoggedDispatcher(platform, ALL_ROUTES, log);
  // Any job is "costly" (pacedFromCpuMs 0), and the pause is 10^6 times its CPU: seconds at least.
  const pacing = { everyCommands: EVERY, workerDutyMax, pacedFromCpuMs: 0 };
  const checkpointer = new Checkpointer({
    log,
    platform,
    timeTravel: new TimeTravel(platform, settings),
    clockMovedMs: 0,
    ...pacing,
  });
  const register = (from: number): void => {
    for (let index = from; index < from + EVERY; index++) {
      const request = { mount: 'api', method: 'POST', path: '/register', body: { agent_id: `p${index}` } } as const;
      const address = `10.2.${Math.floor(index / 250)}.${index % 250}`;
      const status = dispatcher.dispatch(request, START_MS, address).status;
      if (status !== 201) throw new Error(`registration ${index} answered ${status}`);
    }
    const committed = log.commit();
    if (!committed.ok) throw new Error(committed.error);
  };
  try {
    register(0);
    expect(checkpointer.afterRequest()).toBe(true);
    if (second === 'during') register(EVERY);
    await checkpointer.idle();
    expect(checkpointer.view().newest_seq).toBe(EVERY);
    // The premise: the first job's encoding was measured as costing something (else no pause is due).
    expect(checkpointer.view().worker_encode_cpu_ms).toBeGreaterThan(0);
    if (second === 'after') {
      register(EVERY);
      return checkpointer.afterRequest();
    }
    // The next job is looked for one turn after the first is written.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const started = checkpointer.view().in_flight;
    await checkpointer.idle();
    expect(checkpointer.view().newest_seq).toBe(started ? 2 * EVERY : EVERY);
    return started;
  } finally {
    await checkpointer.stop();
    log.close();
  }
}

describe('checkpoint pacing', () => {
  test('a costly checkpoint pauses the next one past its command count; unpaced, it starts at once', async () => {
    expect(await secondStartsAtOnce('paced', 1e-6, 'after')).toBe(false);
    expect(await secondStartsAtOnce('unpaced', 1, 'after')).toBe(true);
  });

  test('commands committed while a checkpoint is in flight get the next one when it is written, with no later write', async () => {
    expect(await secondStartsAtOnce('paced-during', 1e-6, 'during')).toBe(false);
    expect(await secondStartsAtOnce('unpaced-during', 1, 'during')).toBe(true);
  });
});
