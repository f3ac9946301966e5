// The three trading checkers against hand-made breaches and against honest platforms: a margin
// account that drifts from its positions, fees recorded without their transfer, a liquidation
// transfer that touches an agent, funding at a wrong instant or twice, a position missed at a
// funding instant — each reported; a real run of orders, funding and a liquidation — none.
import { describe, expect, test } from 'vitest';
import { agentAccount } from '../../../../src/core/ledger.ts';
import { usdc } from '../../../../src/core/money.ts';
import type { InvariantChecker } from '../../../../src/sim/invariants/checker.ts';
import { tradingConservation } from '../../../../src/sim/invariants/trading/trading-conservation.ts';
import { tradingFundingExact } from '../../../../src/sim/invariants/trading/trading-funding-exact.ts';
import { tradingLiquidationSolvent } from '../../../../src/sim/invariants/trading/trading-liquidation-solvent.ts';
import { TRADING_HOUSE, marginAccount } from '../../../../src/services/trading/trading-record.ts';
import { HOUR, START, ok, tradingWorld, type TradingWorld } from '../../../services/trading/trading-world.ts';

/** Wires a checker to the world's platform the way the monitor does; returns the violations seen. */
function watch(
  world: TradingWorld,
  create: (typeof tradingConservation)['create'],
): { checker: InvariantChecker; messages: string[] } {
  const checker = create({ platform: world.platform, nowMs: () => world.nowMs });
  const messages: string[] = [];
  const keep = (violation: { message: string } | null | undefined): void => {
    if (violation) messages.push(violation.message);
  };
  world.platform.ledger.onTransfer({ onTransfer: (transfer) => keep(checker.onTransfer?.(transfer)) });
  world.platform.onEvent((event) => keep(checker.onEvent?.(event)));
  return { checker, messages };
}

describe('trading invariants', () => {
  test('an honest run of orders, funding and a shock liquidation breaks none of them', () => {
    const world = tradingWorld({ trading: { shocks: [{ base: 'BTC', atMs: START + 20 * HOUR, moveBps: -4000 }] } });
    const watched = [tradingConservation, tradingLiquidationSolvent, tradingFundingExact].map((definition) =>
      watch(world, definition.create.bind(definition)),
    );
    ok(world.order({ amountMicro: usdc(500), leverage: 10 }, START + HOUR));
    ok(world.order({ symbol: 'ETH-PERP', side: 'sell', amountMicro: usdc(300), leverage: 3 }, START + 2 * HOUR));
    ok(world.order({ symbol: 'ETH-USDC', amountMicro: usdc(100) }, START + 3 * HOUR));
    world.at(START + 30 * HOUR);
    expect(world.events.some((event) => event.type === 'trading.liquidated')).toBe(true);
    for (const { checker, messages } of watched) {
      messages.push(
        ...[checker.onHour?.(world.nowMs), checker.atEnd?.(world.nowMs)].flatMap((violation) =>
          violation ? [violation.message] : [],
        ),
      );
      expect(messages).toEqual([]);
    }
  });

  test('conservation: a margin account that drifts from its positions, and fees without transfers, are reported', () => {
    const world = tradingWorld();
    const { checker } = watch(world, tradingConservation.create.bind(tradingConservation));
    ok(world.order({ amountMicro: usdc(100), leverage: 2 }));
    expect(checker.onHour?.(world.nowMs) ?? null).toBeNull();
    world.platform.ledger.faultMint(marginAccount('alice'), 1n);
    expect(checker.onHour?.(world.nowMs)?.message).toMatch(/trading-margin:alice holds/);
    const other = tradingWorld();
    const second = watch(other, tradingConservation.create.bind(tradingConservation));
    const order = ok(other.order({ amountMicro: usdc(100) }));
    (order as { feeMicro: bigint }).feeMicro += 1n;
    expect(second.checker.atEnd?.(other.nowMs)?.message).toMatch(/fees/);
  });

  test('liquidation-solvent: a liquidation transfer from an agent balance is reported', () => {
    const world = tradingWorld();
    const { messages } = watch(world, tradingLiquidationSolvent.create.bind(tradingLiquidationSolvent));
    world.platform.ledger.transfer({
      from: agentAccount('alice'),
      to: TRADING_HOUSE,
      amountMicro: 5n,
      reason: 'trading.liquidation',
      reference: 'pos_x',
    });
    expect(messages[0]).toMatch(/touched the agent balance agent:alice/);
  });

  test('funding-exact: off-instant and repeated funding, and a position missed at an instant, are reported', () => {
    const world = tradingWorld();
    const checker = tradingFundingExact.create({ platform: world.platform, nowMs: () => world.nowMs });
    const event = {
      type: 'trading.funding' as const,
      agentId: 'alice',
      symbol: 'BTC-PERP',
      positionId: 'pos_a',
      ratePpm: 100,
      paymentMicro: 1n,
    };
    expect(checker.onEvent?.({ ...event, atMs: START + 8 * HOUR + 1 })?.message).toMatch(/not at 00, 08 or 16 UTC/);
    expect(checker.onEvent?.({ ...event, atMs: START + 8 * HOUR }) ?? null).toBeNull();
    expect(checker.onEvent?.({ ...event, atMs: START + 8 * HOUR })?.message).toMatch(/twice/);
    const missed = tradingWorld();
    const watcher = tradingFundingExact.create({ platform: missed.platform, nowMs: () => missed.nowMs });
    ok(missed.order({ amountMicro: usdc(100), leverage: 2 }, START + HOUR));
    missed.at(START + 9 * HOUR); // funding ran at 08:00, but this checker never saw its event
    expect(watcher.onHour?.(START + 9 * HOUR)?.message).toMatch(/not funded then/);
  });
});
