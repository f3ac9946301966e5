// A pending stop-loss and an agent's risk settings across a restart from a checkpoint (src/server/
// checkpoint-codec.ts, the bytes `afp serve --data` recovers from): the platform is written while
// the trigger is pending, read back as a fresh object graph, and both — the one that never stopped
// and the restored one — fire the trigger at the same instant with the same money. (A served
// restart cannot hold a trigger yet: `--dialect deployed` refuses `--data`, docs/decisions/deployed-dialect.md.)
import { describe, expect, test } from 'vitest';
import { agentAccount } from '../../src/core/ledger.ts';
import { usdc } from '../../src/core/money.ts';
import { Platform } from '../../src/platform/platform.ts';
import { PLATFORM_TRANSIENT, stateClassRegistry } from '../../src/platform/state-classes.ts';
import { decodeCheckpoint, encodeCheckpoint } from '../../src/server/checkpoint-codec.ts';
import { marketBySymbol } from '../../src/services/trading/market-catalogue.ts';
import { addAgent } from '../fixtures/agents.ts';

const START = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const SHOCK_AT = START + 6 * HOUR;

function platform(): Platform {
  const built = new Platform({
    seed: 'trigger-restart',
    startMs: START,
    trading: { shocks: [{ base: 'BTC', atMs: SHOCK_AT, moveBps: -2500 }] },
  });
  addAgent(built, 'alice', { createdAtMs: START, fundMicro: usdc(5_000) });
  return built;
}

describe('a pending trigger across a checkpoint restart', () => {
  test('the restored platform fires it at the same instant, closing the same position with the same money; risk settings kept', () => {
    const running = platform();
    running.advanceTo(START + 60_000);
    const order = running.trading.place(
      {
        agentId: 'alice',
        symbol: 'BTC-PERP',
        side: 'buy',
        type: 'market',
        amountMicro: usdc(1_000),
        leverage: 2,
        limitPrice: null,
      },
      START + 60_000,
    );
    expect(order.ok).toBe(true);
    const position = running.trading.book.openPositionsOf('alice')[0];
    const btc = marketBySymbol('BTC-PERP');
    if (position === undefined || btc === undefined) throw new Error('a BTC position is open');
    const stop = (running.trading.prices.mid(btc, START + 60_000) * 85n) / 100n;
    const trigger = running.trading.setTrigger(
      { agentId: 'alice', positionId: position.id, kind: 'stop-loss', triggerPrice: stop },
      START + 60_000,
    );
    if (!trigger.ok) throw new Error(trigger.message);
    running.trading.risk.set('alice', { maxLeverage: 4, dailyLossLimitMicro: usdc(300) });
    running.advanceTo(SHOCK_AT - HOUR);
    expect(running.trading.triggers.pendingCount).toBe(1);

    const registry = stateClassRegistry();
    const restored = decodeCheckpoint(encodeCheckpoint(running, registry, PLATFORM_TRANSIENT), registry) as Platform;
    expect(restored.trading.triggers.trigger(trigger.value.id)).toMatchObject({
      status: 'pending',
      triggerPrice: stop,
      positionId: position.id,
    });
    expect(restored.trading.risk.settingsOf('alice')).toEqual({ maxLeverage: 4, dailyLossLimitMicro: usdc(300) });

    for (const one of [running, restored]) one.advanceTo(SHOCK_AT + HOUR);
    for (const one of [running, restored]) {
      expect(one.trading.triggers.trigger(trigger.value.id)).toMatchObject({ status: 'fired', endedAtMs: SHOCK_AT });
      expect(one.trading.book.position(position.id)).toMatchObject({ status: 'closed', closedAtMs: SHOCK_AT });
    }
    expect(restored.ledger.balance(agentAccount('alice'))).toBe(running.ledger.balance(agentAccount('alice')));
    expect(restored.trading.risk.dayOf('alice', SHOCK_AT)).toEqual(running.trading.risk.dayOf('alice', SHOCK_AT));
    expect(restored.trading.book.position(position.id)?.exitPrice).toBe(
      running.trading.book.position(position.id)?.exitPrice,
    );
  });
});
