// Sweep reports' money columns follow the run's money table (src/sim/money-holders.ts): one column
// per holder row, zeros included, in the table's order; a trading run's house, insurance, margin
// and order reserves appear in seeds.csv, sweep.json and distributions.csv, add up to total held,
// and survive `afp sweep merge` byte for byte.
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import { HOLDER_NAMES } from '../../src/sim/money-holders.ts';
import { parseScenario } from '../../src/scenario/scenario.ts';
import { runSeed } from '../../src/sweep/seed-run.ts';
import { mergeSweepTexts } from '../../src/sweep/sweep-merge.ts';
import { FIGURES } from '../../src/sweep/seed-figures.ts';
import {
  renderDistributionsCsv,
  renderSeedsCsv,
  renderSweepJson,
  type SweepReport,
} from '../../src/sweep/sweep-report.ts';

const SCENARIO = [
  'name: sweep-money',
  'duration: 3h',
  'populations:',
  '  - agent: leveraged-gambler',
  '    count: 4',
  '    params: { markets: [BTC, ETH], leverage: 10, notional: 40, long: 0.5, wait: 20m }',
  '  - agent: market-maker',
  '    count: 2',
  '    params: { market: ETH, amount: 2, leverage: 2, spread_bps: 20, every: 15m }',
  'reports: [summary]',
].join('\n');

async function sweepOf(seeds: readonly string[]): Promise<SweepReport> {
  const parsed = parseScenario(SCENARIO, {
    fileName: 'sweep-money.yaml',
    agentParams: (name) => AGENTS[name]?.params,
    knownAgents: AGENT_NAMES,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const results = [];
  for (const [index, seed] of seeds.entries())
    results.push({ ...(await runSeed(parsed.scenario, 'sweep-money.yaml', seed, [], AGENTS)), index });
  return {
    scenario: 'sweep-money',
    file: 'sweep-money.yaml',
    defects: [],
    shard: null,
    seedsTotal: seeds.length,
    seedsGiven: seeds.join(','),
    swarm: false,
    results,
  };
}

const money = (text: string | undefined): bigint => {
  const [whole = '0', fraction = ''] = (text ?? '').replace('-', '').split('.');
  const value = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  return text?.startsWith('-') === true ? -value : value;
};

describe('sweep money columns', () => {
  it('lists one money column per money-table row, in its order, between the faucet pool and total held', () => {
    const names = FIGURES.map((figure) => figure.name);
    const holders = HOLDER_NAMES.map((name) => name.replaceAll(' ', '_'));
    expect(names).toEqual([
      'agents',
      'requests',
      'escrows',
      'events',
      'agent_balances',
      'fee_income',
      'faucet_pool',
      ...holders,
      'total_held',
      'ledger_sum',
    ]);
    expect(holders).toEqual(
      expect.arrayContaining([
        'trading_house',
        'trading_insurance',
        'trading_margin_held',
        'trading_order_reserves',
        'escrow_held',
        'referral_payable',
        'casino_house',
        'casino_stakes_held',
        'other_accounts',
      ]),
    );
  });

  it('a trading sweep shows the house, insurance and margin; the money columns add up to total held; merge keeps the bytes', async () => {
    const report = await sweepOf(['1', '2']);
    expect(report.results.map((result) => result.outcome)).toEqual(['completed', 'completed']);
    const csv = renderSeedsCsv(report);
    const [headerLine = '', ...lines] = csv.trim().split('\n');
    const header = headerLine.split(',');
    for (const line of lines) {
      const cells = line.split(',');
      const cell = (name: string): string | undefined => cells[header.indexOf(name)];
      expect(money(cell('trading_house'))).toBeGreaterThan(0n);
      expect(money(cell('trading_insurance'))).toBeGreaterThan(0n);
      const moneyColumns = FIGURES.filter(
        (figure) => figure.money && figure.name !== 'total_held' && figure.name !== 'ledger_sum',
      );
      const sum = moneyColumns.reduce((total, figure) => total + money(cell(figure.name)), 0n);
      expect(sum).toBe(money(cell('total_held')));
      expect(cell('ledger_sum')).toBe('0.000000');
    }
    expect(renderDistributionsCsv(report)).toMatch(/^trading_margin_held,2,/m);
    const json = renderSweepJson(report);
    const merged = mergeSweepTexts([{ name: 'sweep.json', text: json }]);
    if (!merged.ok) throw new Error(merged.message);
    expect(renderSeedsCsv(merged.report)).toBe(csv);
    expect(renderSweepJson(merged.report)).toBe(json);
    // Byte-stable: the same seeds give the same bytes.
    expect(renderSeedsCsv(await sweepOf(['1', '2']))).toBe(csv);
  });
});
