// The shared progress line, driven by a hand-moved clock: what is drawn when, on a terminal and in
// a plain log, and nothing when quiet. Exact texts: the line is a pure function of count and time.
import { describe, expect, test } from 'vitest';
import { formatElapsed, Progress, progressText, type ProgressOptions } from '../../src/cli/progress.ts';

function harness(overrides: Partial<ProgressOptions>): {
  progress: Progress;
  writes: string[];
  advance(ms: number): void;
} {
  let nowMs = 1_000_000;
  const writes: string[] = [];
  const progress = new Progress({
    label: 'replay',
    unit: 'exchanges',
    total: 1_000,
    write: (text) => writes.push(text),
    isTty: false,
    quiet: false,
    clock: { nowMs: () => nowMs },
    ...overrides,
  });
  return { progress, writes, advance: (ms) => (nowMs += ms) };
}

describe('progressText', () => {
  test('count, percent, elapsed, rate and ETA', () => {
    const options = { label: 'replay', unit: 'exchanges', total: 1_000 };
    expect(progressText(options, 250, 10_000)).toBe(
      'replay: 250/1000 exchanges (25%) · elapsed 10s · 25.0 exchanges/s · ETA 30s',
    );
    expect(progressText(options, 0, 0)).toBe('replay: 0/1000 exchanges (0%) · elapsed 0s');
    expect(progressText({ label: 'run', unit: 'virtual time', total: 100, percent: true }, 40, 10_000)).toBe(
      'run: 40% of virtual time · elapsed 10s · 4.00 %/s · ETA 15s',
    );
    expect(progressText({ ...options, total: null, budgetMs: 600_000 }, 42, 60_000)).toBe(
      'replay: 42 exchanges · elapsed 1m 00s · 0.70 exchanges/s · ETA at most 9m 00s (the time budget)',
    );
  });

  test('elapsed times: seconds, minutes, hours', () => {
    expect([formatElapsed(0), formatElapsed(59_400), formatElapsed(189_000), formatElapsed(3_720_000)]).toEqual([
      '0s',
      '59s',
      '3m 09s',
      '1h 02m',
    ]);
  });
});

describe('Progress', () => {
  test('a plain log gets a line at most every 10 s, never redrawn', () => {
    const { progress, writes, advance } = harness({});
    progress.update(10);
    advance(9_999);
    progress.update(100);
    expect(writes).toEqual([]);
    advance(1);
    progress.update(200);
    advance(5_000);
    progress.update(300);
    advance(5_000);
    progress.update(400);
    progress.finish();
    expect(writes).toEqual([
      // The ETA goes by the pace since the first units were seen (10 at 0 s): 19 and 19.5 a second.
      'replay: 200/1000 exchanges (20%) · elapsed 10s · 20.0 exchanges/s · ETA 42s\n',
      'replay: 400/1000 exchanges (40%) · elapsed 20s · 20.0 exchanges/s · ETA 31s\n',
    ]);
  });

  test('a long set-up before the first unit does not stretch the ETA of the rest', () => {
    const { progress, writes, advance } = harness({});
    // Three minutes of set-up (accounts funded on a wall clock), then a unit every half second.
    advance(180_000);
    progress.update(1);
    for (let unit = 2; unit <= 21; unit++) {
      advance(500);
      progress.update(unit);
    }
    expect(writes).toEqual([
      // One unit after the set-up tells nothing of the rest: no ETA yet (by the whole run's rate it was 49h 57m).
      'replay: 1/1000 exchanges (0%) · elapsed 3m 00s · 0.01 exchanges/s\n',
      'replay: 21/1000 exchanges (2%) · elapsed 3m 10s · 0.11 exchanges/s · ETA 8m 10s\n',
    ]);
  });

  test('a terminal gets one line redrawn in place at most every 200 ms, cleared at the end', () => {
    const { progress, writes, advance } = harness({ isTty: true });
    progress.update(0);
    advance(100);
    progress.step(5);
    advance(100);
    progress.step(5);
    progress.finish();
    const long = 'replay: 10/1000 exchanges (1%) · elapsed 0s · 50.0 exchanges/s · ETA 20s';
    expect(writes).toEqual([
      '\rreplay: 0/1000 exchanges (0%) · elapsed 0s',
      `\r${long}`,
      `\r${' '.repeat(long.length)}\r`,
    ]);
  });

  test('a shorter line is padded over the longer one before it; no escape sequence (TERM=dumb shows it too)', () => {
    const { progress, writes, advance } = harness({ isTty: true });
    progress.update(0);
    advance(200);
    progress.step(10);
    advance(200);
    progress.update(0);
    progress.finish();
    const [, second = '', third = '', last] = writes;
    expect(third.trimEnd()).toBe('\rreplay: 0/1000 exchanges (0%) · elapsed 0s · 0.00 exchanges/s');
    expect(third).toHaveLength(second.length);
    expect(last).toBe(`\r${' '.repeat(third.trimEnd().length - 1)}\r`);
    expect(writes.join('')).not.toContain('\x1b');
  });

  test('quiet draws nothing', () => {
    const { progress, writes, advance } = harness({ isTty: true, quiet: true });
    for (let step = 0; step < 100; step++) {
      advance(1_000);
      progress.step();
    }
    progress.finish();
    expect(writes).toEqual([]);
  });
});
