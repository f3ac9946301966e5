// The scheduler's total order: by time, then by scheduling sequence.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { Scheduler } from '../../src/core/scheduler.ts';

describe('Scheduler', () => {
  it('pops by time, then by sequence', () => {
    const scheduler = new Scheduler<string>();
    scheduler.schedule(20, 'c');
    scheduler.schedule(10, 'a');
    scheduler.schedule(20, 'd');
    scheduler.schedule(10, 'b');
    const order: string[] = [];
    for (let event = scheduler.pop(); event !== undefined; event = scheduler.pop()) order.push(event.payload);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('agrees with a stable sort for any schedule', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 200 }), (times) => {
        const scheduler = new Scheduler<number>();
        times.forEach((atMs, index) => scheduler.schedule(atMs, index));
        const expected = times
          .map((atMs, index) => ({ atMs, index }))
          .sort((a, b) => a.atMs - b.atMs || a.index - b.index);
        const actual: number[] = [];
        for (let event = scheduler.pop(); event !== undefined; event = scheduler.pop()) actual.push(event.payload);
        expect(actual).toEqual(expected.map((row) => row.index));
      }),
    );
  });

  it('is bounded', () => {
    const scheduler = new Scheduler<number>({ maxPending: 2 });
    scheduler.schedule(1, 1);
    scheduler.schedule(1, 2);
    expect(() => scheduler.schedule(1, 3)).toThrow(/at most 2/);
  });

  it('virtual time never runs backwards', () => {
    const clock = new VirtualClock(1000);
    clock.advance(5);
    expect(clock.nowMs()).toBe(1005);
    expect(() => clock.set(1000)).toThrow(/runs forward/);
  });
});
