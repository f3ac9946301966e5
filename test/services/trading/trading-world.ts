// Test world for the trading service: a platform at 2026-01-01 00:00 UTC with funded agents
// (added straight to the registry), helpers that advance the platform's clock before each call,
// the money checks every trading test repeats (ledger sums to zero, no negative account, margin
// and hold accounts equal what the open positions and orders say), and the events seen.
import { expect } from 'vitest';
import { addAgent as addFixtureAgent } from '../../fixtures/agents.ts';
import type { Failure, Outcome } from '../../../src/core/errors.ts';
import { usdc, type Micro } from '../../../src/core/money.ts';
import { Platform, type PlatformOptions } from '../../../src/platform/platform.ts';
import type { DomainEvent } from '../../../src/services/shared/events.ts';
import {
  tradingHoldAccount,
  marginAccount,
  type OrderRecord,
  type PlaceOrderCommand,
} from '../../../src/services/trading/trading-record.ts';

export const START = Date.UTC(2026, 0, 1);
export const MINUTE = 60_000;
export const HOUR = 3_600_000;

export interface TradingWorld {
  platform: Platform;
  events: DomainEvent[];
  nowMs: number;
  balance(account: string): Micro;
  at(ms: number): number;
  order(command: Partial<PlaceOrderCommand>, atMs?: number): Outcome<OrderRecord>;
  checkMoney(): void;
}

export function ok<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

export function failed<T>(outcome: Outcome<T>): Failure {
  if (outcome.ok) throw new Error('expected a failure, got success');
  return outcome;
}

export function tradingWorld(
  options: Partial<PlatformOptions> = {},
  funds: Record<string, Micro> = { alice: usdc(10_000), bob: usdc(10_000) },
): TradingWorld {
  const platform = new Platform({ seed: 'trading-test', startMs: START, ...options });
  addFixtureAgent(platform, 'rita', { createdAtMs: START });
  for (const [id, fundMicro] of Object.entries(funds))
    addFixtureAgent(platform, id, { createdAtMs: START, fundMicro, referrerId: 'rita' });
  const events: DomainEvent[] = [];
  platform.onEvent((event) => events.push(event));
  const world: TradingWorld = {
    platform,
    events,
    nowMs: START,
    balance: (account) => platform.ledger.balance(account),
    at(ms) {
      world.nowMs = ms;
      platform.advanceTo(ms);
      return ms;
    },
    order(command, atMs) {
      const nowMs = world.at(atMs ?? world.nowMs + 1000);
      return platform.trading.place(
        {
          agentId: 'alice',
          symbol: 'BTC-PERP',
          side: 'buy',
          type: 'market',
          amountMicro: usdc(100),
          leverage: 1,
          limitPrice: null,
          ...command,
        },
        nowMs,
      );
    },
    checkMoney() {
      const ledger = platform.ledger;
      expect(ledger.sumMicro).toBe(0n);
      expect(ledger.auditSum()).toBe(0n);
      expect(ledger.negativeAccounts()).toEqual([]);
      const margins = new Map<string, Micro>();
      for (const position of platform.trading.book.openPositionList())
        margins.set(position.agentId, (margins.get(position.agentId) ?? 0n) + position.marginMicro);
      const holds = new Map<string, Micro>();
      for (const order of platform.trading.book.openOrderList())
        holds.set(order.agentId, (holds.get(order.agentId) ?? 0n) + order.holdMicro);
      for (const agent of platform.agents.all()) {
        expect(ledger.balance(marginAccount(agent.id)), `margin of ${agent.id}`).toBe(margins.get(agent.id) ?? 0n);
        expect(ledger.balance(tradingHoldAccount(agent.id)), `hold of ${agent.id}`).toBe(holds.get(agent.id) ?? 0n);
      }
    },
  };
  return world;
}
