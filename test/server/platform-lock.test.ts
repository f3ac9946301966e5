// The platform lock (src/server/platform-lock.ts) alone, no sockets: a job runs in slices with the
// loop free between them; work that arrives meanwhile runs after it, in arrival order, each piece
// whole; a job started inside a turn goes ahead of the turns behind it; shared holders keep jobs
// waiting and a waiting job keeps new shared holders waiting; a full queue refuses, internal
// waiters are never refused; a job that throws releases the lock.
import { describe, expect, test } from 'vitest';
import { isLockBusy, PlatformLock, runWhole, type SlicedJob } from '../../src/server/platform-lock.ts';

/** A job of `pieces` steps that logs each, 3 ms of work per step (sliceMs 1: one step per slice). */
function countingJob(log: string[], name: string, pieces: number): SlicedJob<string> {
  let done = 0;
  return {
    step: () => {
      const untilMs = performance.now() + 3;
      while (performance.now() < untilMs);
      log.push(`${name}:${++done}`);
      return done >= pieces;
    },
    finish: () => {
      log.push(`${name}:finish`);
      return name;
    },
  };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('PlatformLock', () => {
  test('a job runs in slices; the loop turns between them; work that arrives waits and runs after it in order', async () => {
    const lock = new PlatformLock({ sliceMs: 1 });
    const log: string[] = [];
    const job = lock.job(() => countingJob(log, 'job', 4));
    expect(log).toEqual(['job:1']); // the first slice runs at once
    expect(lock.free).toBe(false);
    const ticks: number[] = [];
    const ticker = (async () => {
      for (let turn = 0; turn < 3; turn++) {
        await tick();
        ticks.push(log.length);
      }
    })();
    const first = lock.later(() => log.push('a'));
    const second = lock.later(() => log.push('b'));
    expect(isLockBusy(first) || isLockBusy(second)).toBe(false);
    expect(await job).toBe('job');
    await Promise.all([first, second, ticker]);
    expect(log).toEqual(['job:1', 'job:2', 'job:3', 'job:4', 'job:finish', 'a', 'b']);
    expect(ticks.some((length) => length > 1 && length < 5)).toBe(true); // the loop turned mid-job
    expect(lock.free).toBe(true);
    expect(lock.view()).toMatchObject({ held: false, waiting: 0, jobs: 1, slices: 4, waiting_max: 2 });
    // The last job's own figures: a second job of two slices counts only its own.
    expect(await lock.job(() => countingJob(log, 'next', 2))).toBe('next');
    const view = lock.view();
    expect(view).toMatchObject({ jobs: 2, slices: 6, last_job_slices: 2 });
    expect(Number(view['last_job_longest_slice_cpu_ms'])).toBeLessThanOrEqual(Number(view['longest_slice_cpu_ms']));
    expect(Number(view['last_job_longest_slice_ms'])).toBeGreaterThanOrEqual(3);
  });

  test('a job started inside a turn runs before the turns behind it', async () => {
    const lock = new PlatformLock({ sliceMs: 1 });
    const log: string[] = [];
    const blocker = lock.job(() => countingJob(log, 'first', 2));
    let second: Promise<string> | undefined;
    const row = lock.later(() => {
      log.push('row');
      second = lock.job(() => countingJob(log, 'second', 2));
    });
    const after = lock.later(() => log.push('after'));
    await Promise.all([blocker, row, after]);
    await second;
    expect(log).toEqual([
      'first:1',
      'first:2',
      'first:finish',
      'row',
      'second:1',
      'second:2',
      'second:finish',
      'after',
    ]);
  });

  test('shared holders keep a job waiting; a waiting job keeps new shared holders and turns waiting', async () => {
    const lock = new PlatformLock({ sliceMs: 1 });
    const log: string[] = [];
    const release = Promise.withResolvers<void>();
    const holder = lock.shared(async () => {
      log.push('shared:start');
      await release.promise;
      log.push('shared:end');
    });
    expect(lock.free).toBe(true); // a turn may still run beside a shared holder
    const job = lock.job(() => countingJob(log, 'job', 1));
    const late = lock.shared(async () => {
      log.push('late');
      return Promise.resolve();
    });
    await tick();
    expect(log).toEqual(['shared:start']);
    release.resolve();
    await Promise.all([holder, job, late]);
    expect(log).toEqual(['shared:start', 'shared:end', 'job:1', 'job:finish', 'late']);
  });

  test('a full queue refuses with Retry-After; internal waiters are never refused; a throwing job releases', async () => {
    const lock = new PlatformLock({ sliceMs: 1, queueMax: 2 });
    const log: string[] = [];
    const job = lock.job(() => countingJob(log, 'job', 3));
    const admitted = [lock.later(() => 1), lock.later(() => 2)];
    const refused = lock.later(() => 3);
    expect(isLockBusy(refused) && refused.retryAfterSeconds).toBe(1);
    const internal = lock.later(() => 4, { bounded: false });
    expect(isLockBusy(internal)).toBe(false);
    await job;
    expect(await Promise.all([...admitted, internal])).toEqual([1, 2, 4]);
    expect(lock.view()).toMatchObject({ refused: 1 });
    const failing = lock.job(() => ({
      step: () => {
        throw new Error('a bug');
      },
      finish: () => 0,
    }));
    await expect(failing).rejects.toThrow('a bug');
    expect(lock.free).toBe(true);
    expect(runWhole(countingJob(log, 'whole', 2))).toBe('whole');
  });
});
