// The trading crash end to end on a small scenario (the shape of scenarios/trading-crash.yaml,
// fewer agents, fewer days): every trading archetype runs with no broken rule; a BTC shock at 1d
// liquidates the 10x BTC longs at the tick it falls in (their margin gone, the shortfall from
// insurance, no balance negative); every trading invariant holds; funding events fall on 00/08/16
// UTC; orders.csv and positions.csv are written; the same seed gives the same digest and bytes,
// another seed another digest. And the shipped scenario file parses.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { renderReports } from '../../../src/report/write-reports.ts';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { AGENTS } from '../../../agents/index.ts';

const CRASH = `
name: small-crash
seed: 3
duration: 2d
populations:
  - { agent: leveraged-gambler, count: 25, params: { markets: [BTC], leverage: 10, notional: 80, long: 1, wait: 30m } }
  - { agent: momentum-trader, count: 6, style: mixed, params: { market: ETH, amount: 2, every: 20m } }
  - { agent: market-maker, count: 4, params: { market: SOL, amount: 1, every: 30m } }
  - { agent: funding-harvester, count: 5, style: mixed, params: { amount: 3 } }
trading:
  shocks: [{ market: BTC, at: 1d, move_bps: -3000 }]
  closures: [{ market: SOL-PERP, from: 1d, for: 2h }]
invariants: [conservation, no-negative-balance, trading-conservation, trading-liquidation-solvent, trading-funding-exact, error-shape]
reports: [summary, agents, endpoints, events, orders, positions]
`;

const DAY_MS = 86_400_000;

describe('trading crash', () => {
  test('the shock liquidates the 10x longs at its tick; every invariant holds; reports are byte-stable', async () => {
    const scenario = scenarioFromTable(CRASH, { agents: AGENTS });
    const record = await runScenarioWith(scenario, { agents: AGENTS, seed: 3 });
    expect(record.outcome).toBe('completed');
    for (const invariant of record.invariants) expect(invariant.violations, invariant.name).toBe(0);
    const shockTick = scenario.startMs + DAY_MS; // the shock falls on a tick boundary
    const liquidations = keptEvents(record).filter((event) => event.type === 'trading.liquidated');
    const atShock = liquidations.filter((event) => event.atMs === shockTick);
    expect(atShock.length).toBeGreaterThanOrEqual(10);
    expect(
      atShock.every(
        (event) => event.type === 'trading.liquidated' && event.symbol === 'BTC-PERP' && event.shortfallMicro > 0n,
      ),
    ).toBe(true);
    const funding = keptEvents(record).filter((event) => event.type === 'trading.funding');
    expect(funding.length).toBeGreaterThan(0);
    expect(funding.every((event) => event.atMs % (8 * 3_600_000) === 0)).toBe(true);
    const archetypes = new Set(record.trading?.orders.map((order) => order.agentId.replace(/-\d+-[0-9a-f]+$/, '')));
    expect([...archetypes].sort()).toEqual([
      'funding-harvester',
      'leveraged-gambler',
      'market-maker',
      'momentum-trader',
    ]);
    const files = renderReports(record, scenario.reports);
    const names = files.files.map((file) => file.file);
    expect(names).toEqual(expect.arrayContaining(['orders.csv', 'positions.csv']));
    const again = renderReports(await runScenarioWith(scenario, { agents: AGENTS, seed: 3 }), scenario.reports);
    expect(again.digest).toBe(files.digest);
    expect(again.files).toEqual(files.files);
    const other = renderReports(await runScenarioWith(scenario, { agents: AGENTS, seed: 4 }), scenario.reports);
    expect(other.digest).not.toBe(files.digest);
  });

  test('scenarios/trading-crash.yaml parses: shocks, a closure, every trading archetype', () => {
    const scenario = scenarioFromTable(
      readFileSync(new URL('../../../scenarios/trading-crash.yaml', import.meta.url), 'utf8'),
      { agents: AGENTS },
    );
    expect(scenario.trading.shocks.map((shock) => shock.base)).toEqual(['BTC', 'ETH']);
    expect(scenario.trading.closures).toHaveLength(1);
    expect(scenario.populations.map((population) => population.agent).sort()).toEqual([
      'funding-harvester',
      'leveraged-gambler',
      'market-maker',
      'momentum-trader',
    ]);
    expect(scenario.reports).toEqual(expect.arrayContaining(['orders', 'positions']));
  });
});
