/**
 * TurnBudget (src/http/server-turn-budget.ts): once a turn's admitted requests have taken the budget, the
 * others wait for the next turn, in the order they came, so a timer due meanwhile runs between
 * them; within the budget a turn admits them all; every turn admits at least one.
 */
import { describe, expect, test } from 'vitest';
import { TurnBudget } from '../../src/http/server-turn-budget.ts';

/** Holds the loop `ms` of wall time (a slow request's work). */
function busy(ms: number): void {
  const started = performance.now();
  while (performance.now() - started < ms);
}

/** `count` requests entering `budget` at once, each working `workMs` once admitted; the order they ran in, and how many had run when a timer the first set (due at once) fired. */
async function run(
  budget: TurnBudget,
  count: number,
  workMs: number,
): Promise<{ order: number[]; beforeTimer: number }> {
  const order: number[] = [];
  let beforeTimer = -1;
  let timer: Promise<void> = Promise.resolve();
  const requests = Array.from({ length: count }, async (_, index) => {
    await budget.enter();
    if (order.length === 0)
      timer = new Promise<void>((resolve) =>
        setTimeout(() => {
          beforeTimer = order.length;
          resolve();
        }, 0),
      );
    order.push(index);
    busy(workMs);
  });
  await Promise.all(requests);
  await timer;
  return { order, beforeTimer };
}

describe('a turn of the event loop admits requests up to its budget', () => {
  test('past the budget the rest wait for the next turn, in order, and a due timer runs between them', async () => {
    const { order, beforeTimer } = await run(new TurnBudget(10), 12, 4);
    expect(order).toEqual(Array.from({ length: 12 }, (_, index) => index));
    // At 4 ms each, a 10 ms turn admits 3 (the third starts at 8 ms): the timer ran after that turn, long before the last.
    expect(beforeTimer).toBeGreaterThanOrEqual(1);
    expect(beforeTimer).toBeLessThanOrEqual(6);
  });

  test('within the budget one turn admits them all (the timer runs after the last)', async () => {
    const { order, beforeTimer } = await run(new TurnBudget(60_000), 12, 0);
    expect(order).toHaveLength(12);
    expect(beforeTimer).toBe(12);
  });

  test('a request that alone exceeds the budget is still admitted, one a turn', async () => {
    const { order, beforeTimer } = await run(new TurnBudget(1), 4, 3);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(beforeTimer).toBe(1);
  });
});
