// The four trading archetypes each follow their own rule (issue 20, point 9), read from the run's
// orders and positions: the market maker quotes limit orders on both sides of the mid (a buy below
// a sell, placed together); the over-leveraged gambler trades at its 10x; the momentum trader
// sends market orders only; the funding-rate harvester opens, half an hour before a funding
// instant (or at its first look), the side the period's rate pays (short when positive) on the watched perpetual with the
// largest rate in size — checked against the seeded rate itself.
import { describe, expect, test } from 'vitest';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { marketBySymbol } from '../../../src/services/trading/market-catalogue.ts';
import { fundingRatePpm, seedHashOf } from '../../../src/services/trading/price-path.ts';
import type { TradingOrderRow } from '../../../src/report/run-record.ts';
import { AGENTS } from '../../../agents/index.ts';

const SEED = '11';
const PERIOD_MS = 8 * 3_600_000;
const WATCHED = ['BTC', 'ETH', 'SOL'];

const ARCHETYPES = `
name: trading-archetypes
duration: 2d
populations:
  - { agent: leveraged-gambler, count: 3, params: { markets: [BTC, ETH], leverage: 10, notional: 20, long: 0.5, wait: 2h } }
  - { agent: momentum-trader, count: 3, params: { market: ETH, amount: 2, leverage: 3, threshold_bps: 5, every: 20m } }
  - { agent: market-maker, count: 2, params: { market: SOL, amount: 1, leverage: 2, spread_bps: 20, every: 30m } }
  - { agent: funding-harvester, count: 3, params: { markets: [${WATCHED.join(', ')}], amount: 3, leverage: 2 } }
invariants: [conservation, no-negative-balance, trading-conservation, trading-liquidation-solvent, trading-funding-exact]
reports: [summary, orders, positions]
`;

const archetypeOf = (agentId: string): string => agentId.replace(/-\d+-[0-9a-f]+$/, '');

function rateAt(base: string, atMs: number): number {
  const market = marketBySymbol(`${base}-PERP`);
  if (market === undefined) throw new Error(`${base}-PERP is listed`);
  return fundingRatePpm(seedHashOf(SEED), market, Math.floor(atMs / PERIOD_MS));
}

describe('trading archetypes follow their rules', () => {
  test('maker both sides, gambler 10x, momentum market orders, harvester the paid side of the largest rate', async () => {
    const record = await runScenarioWith(scenarioFromTable(ARCHETYPES, { agents: AGENTS }), {
      agents: AGENTS,
      seed: SEED,
    });
    expect(record.outcome).toBe('completed');
    for (const invariant of record.invariants) expect(invariant.violations, invariant.name).toBe(0);
    const orders = record.trading?.orders ?? [];
    const by = (name: string): TradingOrderRow[] => orders.filter((order) => archetypeOf(order.agentId) === name);

    const maker = by('market-maker');
    expect(maker.length).toBeGreaterThanOrEqual(8);
    expect(maker.every((order) => order.type === 'limit' && order.symbol === 'SOL-PERP')).toBe(true);
    // Quotes come in pairs placed at one instant by one agent: a buy below a sell.
    const pairs = new Map<string, TradingOrderRow[]>();
    for (const order of maker)
      pairs.set(`${order.agentId}@${order.createdAtMs}`, [
        ...(pairs.get(`${order.agentId}@${order.createdAtMs}`) ?? []),
        order,
      ]);
    for (const pair of pairs.values()) {
      expect(pair.map((order) => order.side).sort()).toEqual(['buy', 'sell']);
      const [buy, sell] = [pair.find((order) => order.side === 'buy'), pair.find((order) => order.side === 'sell')];
      expect((buy?.limitPrice ?? 0n) < (sell?.limitPrice ?? 0n)).toBe(true);
    }

    const gambler = by('leveraged-gambler');
    expect(gambler.length).toBeGreaterThan(0);
    expect(gambler.every((order) => order.leverage === 10 && order.kind === 'perp')).toBe(true);

    const momentum = by('momentum-trader');
    expect(momentum.length).toBeGreaterThan(0);
    expect(
      momentum.every((order) => order.type === 'market' && order.symbol === 'ETH-PERP' && order.leverage === 3),
    ).toBe(true);

    const harvested = (record.trading?.positions ?? []).filter(
      (position) => archetypeOf(position.agentId) === 'funding-harvester',
    );
    expect(harvested.length).toBeGreaterThanOrEqual(3);
    const firstOf = new Set<string>();
    let atLead = 0;
    for (const position of harvested) {
      // Its first position follows its first look (right after it registers); every later one half an hour before an instant.
      if (firstOf.has(position.agentId)) {
        expect(position.openedAtMs % PERIOD_MS).toBe(PERIOD_MS - 30 * 60_000);
        atLead++;
      }
      firstOf.add(position.agentId);
      const base = position.symbol.replace(/-PERP$/, '');
      const rate = rateAt(base, position.openedAtMs);
      expect(
        position.side,
        `${position.agentId} ${position.symbol} opened at ${position.openedAtMs}, rate ${rate} ppm`,
      ).toBe(rate > 0 ? 'short' : 'long');
      const largest = Math.max(...WATCHED.map((watched) => Math.abs(rateAt(watched, position.openedAtMs))));
      expect(Math.abs(rate)).toBe(largest);
    }
    expect(atLead).toBeGreaterThan(0);
  });
});
