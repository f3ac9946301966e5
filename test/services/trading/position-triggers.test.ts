// Stop-loss and take-profit triggers in afp's trading model (src/services/trading/position-triggers.ts):
// a price shock moves the mark at a known tick boundary; the trigger fires exactly then, once, closing
// the whole position at the taker quote; refused triggers change nothing; replaced and orphaned
// triggers end cancelled; and the invariant `trading-triggers-exact` stays quiet on an honest run and
// reports a fake firing and a missed one.
import { describe, expect, test } from 'vitest';
import { usdc } from '../../../src/core/money.ts';
import { tradingTriggersExact } from '../../../src/sim/invariants/trading/trading-triggers-exact.ts';
import { marketBySymbol } from '../../../src/services/trading/market-catalogue.ts';
import { formatPrice } from '../../../src/services/trading/price-scale.ts';
import { HOUR, MINUTE, START, failed, ok, tradingWorld, type TradingWorld } from './trading-world.ts';

const SHOCK_AT = START + 5 * HOUR;
const BTC = marketBySymbol('BTC-PERP');

function shocked(moveBps: number): TradingWorld {
  return tradingWorld({ trading: { shocks: [{ base: 'BTC', atMs: SHOCK_AT, moveBps }] } });
}

function mark(world: TradingWorld, atMs: number): bigint {
  if (BTC === undefined) throw new Error('BTC-PERP is listed');
  return world.platform.trading.prices.mid(BTC, atMs);
}

/** The mark at every tick boundary in (fromMs, toMs]. */
function marksBetween(world: TradingWorld, fromMs: number, toMs: number): bigint[] {
  const marks: bigint[] = [];
  for (let at = Math.floor(fromMs / MINUTE) * MINUTE + MINUTE; at <= toMs; at += MINUTE) marks.push(mark(world, at));
  return marks;
}

/** Wires the invariant to the world's events; the returned function sweeps (hour, end) and gives every violation seen. */
function violations(world: TradingWorld): () => string[] {
  const checker = tradingTriggersExact.create({ platform: world.platform, nowMs: () => world.nowMs });
  const messages: string[] = [];
  world.platform.onEvent((event) => {
    const violation = checker.onEvent?.(event);
    if (violation) messages.push(violation.message);
  });
  return () => {
    for (const violation of [checker.onHour?.(world.nowMs), checker.atEnd?.(world.nowMs)])
      if (violation) messages.push(violation.message);
    return messages;
  };
}

describe('stop-loss and take-profit', () => {
  test("a long's stop-loss fires at the exact tick the mark crosses it, once, and closes the whole position at the bid", () => {
    const world = shocked(-2000);
    const seen = violations(world);
    ok(world.order({ amountMicro: usdc(1000), leverage: 2 }, START + MINUTE + 1));
    const position = world.platform.trading.book.openPositionsOf('alice')[0];
    if (position === undefined) throw new Error('the order opened a position');
    const stop = (mark(world, world.nowMs) * 90n) / 100n;
    // Precondition of the test: the walk alone does not reach 90% of the mark before the shock; the shock does.
    expect(marksBetween(world, world.nowMs, SHOCK_AT - MINUTE).every((one) => one > stop)).toBe(true);
    expect(mark(world, SHOCK_AT) <= stop).toBe(true);
    const trigger = ok(
      world.platform.trading.setTrigger(
        { agentId: 'alice', positionId: position.id, kind: 'stop-loss', triggerPrice: stop },
        world.at(START + 2 * HOUR),
      ),
    );
    expect(trigger).toMatchObject({ status: 'pending', kind: 'stop-loss', side: 'long', triggerPrice: stop });
    world.at(SHOCK_AT - 1);
    expect(world.platform.trading.book.position(position.id)?.status).toBe('open');
    world.at(SHOCK_AT + 3 * HOUR);
    const closed = world.platform.trading.book.position(position.id);
    expect(closed).toMatchObject({ status: 'closed', closedAtMs: SHOCK_AT });
    if (BTC === undefined) throw new Error('BTC-PERP is listed');
    expect(closed?.exitPrice).toBe(world.platform.trading.prices.quote(BTC, SHOCK_AT).bid);
    expect(world.platform.trading.triggers.trigger(trigger.id)).toMatchObject({
      status: 'fired',
      endedAtMs: SHOCK_AT,
      firedMark: mark(world, SHOCK_AT),
    });
    const fired = world.events.filter((event) => event.type === 'trading.trigger-fired');
    expect(fired).toEqual([
      expect.objectContaining({
        atMs: SHOCK_AT,
        triggerId: trigger.id,
        positionId: position.id,
        triggerPrice: formatPrice(stop),
        markPrice: formatPrice(mark(world, SHOCK_AT)),
      }),
    ]);
    expect(world.platform.trading.triggers.pendingCount).toBe(0);
    world.checkMoney();
    expect(seen()).toEqual([]);
  });

  test("a short's take-profit is below the mark and fires when the mark falls to it", () => {
    const world = shocked(-1500);
    const seen = violations(world);
    ok(world.order({ side: 'sell', amountMicro: usdc(500), leverage: 5 }, START + 10 * MINUTE + 5));
    const position = world.platform.trading.book.openPositionsOf('alice')[0];
    if (position === undefined) throw new Error('the order opened a position');
    const target = (mark(world, world.nowMs) * 92n) / 100n;
    expect(marksBetween(world, world.nowMs, SHOCK_AT - MINUTE).every((one) => one > target)).toBe(true);
    const above = failed(
      world.platform.trading.setTrigger(
        { agentId: 'alice', positionId: position.id, kind: 'take-profit', triggerPrice: mark(world, world.nowMs) + 1n },
        world.nowMs,
      ),
    );
    expect(above).toMatchObject({ code: 'BAD_REQUEST' });
    expect(above.message).toMatch(/short position's take-profit must be below/);
    ok(
      world.platform.trading.setTrigger(
        { agentId: 'alice', positionId: position.id, kind: 'take-profit', triggerPrice: target },
        world.nowMs,
      ),
    );
    world.at(SHOCK_AT + HOUR);
    expect(world.platform.trading.book.position(position.id)).toMatchObject({ status: 'closed', closedAtMs: SHOCK_AT });
    expect(world.platform.trading.book.position(position.id)?.realizedPnlMicro ?? 0n).toBeGreaterThan(0n);
    world.checkMoney();
    expect(seen()).toEqual([]);
  });

  test("refusals change nothing: unknown, another agent's, ended positions, a price already crossed, a non-positive price", () => {
    const world = tradingWorld();
    ok(world.order({ amountMicro: usdc(200), leverage: 2 }));
    const position = world.platform.trading.book.openPositionsOf('alice')[0];
    if (position === undefined) throw new Error('the order opened a position');
    const now = world.nowMs;
    const set = (
      agentId: string,
      positionId: string,
      triggerPrice: bigint,
      kind: 'stop-loss' | 'take-profit' = 'stop-loss',
    ) => world.platform.trading.setTrigger({ agentId, positionId, kind, triggerPrice }, now);
    const before = world.events.length;
    expect(failed(set('alice', 'pos_nope', 1n)).code).toBe('NOT_FOUND');
    expect(failed(set('bob', position.id, 1n)).code).toBe('FORBIDDEN');
    expect(failed(set('alice', position.id, mark(world, now))).code).toBe('BAD_REQUEST');
    expect(failed(set('alice', position.id, mark(world, now), 'take-profit')).code).toBe('BAD_REQUEST');
    expect(failed(set('alice', position.id, 0n)).code).toBe('BAD_REQUEST');
    expect(world.platform.trading.triggers.count).toBe(0);
    expect(world.events.length).toBe(before);
    ok(world.platform.trading.closePosition({ agentId: 'alice', positionId: position.id }, world.at(now + 1000)));
    expect(failed(set('alice', position.id, 1n)).code).toBe('CONFLICT');
    expect(world.platform.trading.triggers.count).toBe(0);
  });

  test('setting a kind again replaces it; a position closed by hand cancels its pending triggers', () => {
    const world = tradingWorld();
    const seen = violations(world);
    ok(world.order({ amountMicro: usdc(200), leverage: 2 }));
    const position = world.platform.trading.book.openPositionsOf('alice')[0];
    if (position === undefined) throw new Error('the order opened a position');
    const now = mark(world, world.nowMs);
    const first = ok(
      world.platform.trading.setTrigger(
        { agentId: 'alice', positionId: position.id, kind: 'stop-loss', triggerPrice: now / 2n },
        world.nowMs,
      ),
    );
    const second = ok(
      world.platform.trading.setTrigger(
        { agentId: 'alice', positionId: position.id, kind: 'stop-loss', triggerPrice: now / 3n },
        world.nowMs,
      ),
    );
    const profit = ok(
      world.platform.trading.setTrigger(
        { agentId: 'alice', positionId: position.id, kind: 'take-profit', triggerPrice: now * 3n },
        world.nowMs,
      ),
    );
    expect(world.platform.trading.triggers.trigger(first.id)).toMatchObject({ status: 'cancelled', cause: 'replaced' });
    expect(world.platform.trading.triggers.pendingOf(position.id).map((one) => one.id)).toEqual([second.id, profit.id]);
    ok(
      world.platform.trading.closePosition({ agentId: 'alice', positionId: position.id }, world.at(world.nowMs + 1000)),
    );
    for (const id of [second.id, profit.id])
      expect(world.platform.trading.triggers.trigger(id)).toMatchObject({
        status: 'cancelled',
        cause: 'position-ended',
        endedAtMs: world.nowMs,
      });
    expect(
      world.events.filter((event) => event.type === 'trading.trigger-cancelled').map((event) => event.cause),
    ).toEqual(['replaced', 'position-ended', 'position-ended']);
    world.at(world.nowMs + 2 * HOUR);
    expect(seen()).toEqual([]);
  });

  test('the invariant reports a firing that is not recorded, and a crossed trigger left pending', () => {
    const world = tradingWorld();
    const checker = tradingTriggersExact.create({ platform: world.platform, nowMs: () => world.nowMs });
    const fake = {
      type: 'trading.trigger-fired' as const,
      atMs: START + HOUR,
      triggerId: 'trg_fake',
      positionId: 'pos_x',
      agentId: 'alice',
      symbol: 'BTC-PERP',
      kind: 'stop-loss' as const,
      triggerPrice: '1',
      markPrice: '1',
      exitPrice: '1',
    };
    expect(checker.onEvent?.(fake)?.message).toMatch(/not recorded fired/);
    expect(checker.onEvent?.(fake)?.message).toMatch(/fired twice/);
    ok(world.order({ amountMicro: usdc(200), leverage: 2 }));
    const position = world.platform.trading.book.openPositionsOf('alice')[0];
    if (position === undefined) throw new Error('the order opened a position');
    // A trigger slipped into the book behind the service's back after the ticks it was crossed at ran: never fired then.
    const createdAtMs = world.nowMs;
    world.at(world.nowMs + 10 * MINUTE);
    world.platform.trading.triggers.add({
      id: 'trg_missed',
      agentId: 'alice',
      positionId: position.id,
      symbol: 'BTC-PERP',
      kind: 'stop-loss',
      side: 'long',
      triggerPrice: mark(world, createdAtMs) * 2n,
      createdAtMs,
    });
    expect(checker.onHour?.(world.nowMs)?.message).toMatch(/trg_missed .* is still pending/);
  });
});
