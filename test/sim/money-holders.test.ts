// The run summary's money table lists every account holding money (issue 20): the rows add up
// to what the ledger holds. Unit: accounts grouped by name (trading house, insurance, margin,
// order reserves, escrow, casino…), zero groups left out, unknown accounts under `other accounts`.
// End to end: a small trading run with a shock (liquidations draw on insurance) shows the
// trading rows, its rows sum to `total held` = minus the external account, the text and JSON
// reports show them, and the same seed gives the same bytes.
import { describe, expect, test } from 'vitest';
import {
  Ledger,
  EXTERNAL,
  FAUCET_POOL,
  FEE_INCOME,
  agentAccount,
  escrowAccount,
  referralAccount,
} from '../../src/core/ledger.ts';
import { renderReports } from '../../src/report/write-reports.ts';
import { summaryTable } from '../../src/report/summary-table.ts';
import type { RunTotals } from '../../src/report/run-record.ts';
import { scenarioFromTable } from '../../src/agent/load-scenario.ts';
import { moneyHolders } from '../../src/sim/money-holders.ts';
import { runScenarioWith } from '../../src/sim/runner.ts';
import {
  TRADING_HOUSE,
  TRADING_INSURANCE,
  tradingHoldAccount,
  marginAccount,
} from '../../src/services/trading/trading-record.ts';
import { AGENTS } from '../../agents/index.ts';

const CRASH = `
name: money-table
seed: 4
duration: 1d
populations:
  - { agent: leveraged-gambler, count: 10, params: { markets: [BTC], leverage: 10, notional: 80, long: 1, wait: 30m } }
  - { agent: market-maker, count: 3, params: { market: ETH, amount: 1, every: 30m } }
  - { agent: escrow-buyer, count: 2 }
  - { agent: escrow-seller, count: 2 }
trading:
  shocks: [{ market: BTC, at: 12h, move_bps: -3000 }]
invariants: [conservation, no-negative-balance, trading-conservation]
reports: [summary, agents]
`;

/** What the money rows before `total held` add up to. */
function rowsSum(totals: RunTotals): bigint {
  return (
    totals.agentBalancesMicro +
    totals.feeIncomeMicro +
    totals.faucetPoolMicro +
    (totals.holders ?? []).reduce((sum, holder) => sum + holder.amountMicro, 0n)
  );
}

describe('moneyHolders', () => {
  test('groups the system accounts by name, in table order, zero groups left out, the rest under other accounts', () => {
    const ledger = new Ledger();
    const move = (to: string, amountMicro: bigint, from: string = EXTERNAL): void =>
      ledger.transfer({ from, to, amountMicro, reason: 'test', reference: 'r' });
    move(FAUCET_POOL, 1_000n);
    move(agentAccount('a'), 500n);
    move(TRADING_INSURANCE, 300n);
    move(marginAccount('a'), 40n, agentAccount('a'));
    move(marginAccount('b'), 2n, agentAccount('a'));
    move(tradingHoldAccount('a'), 7n, agentAccount('a'));
    move(TRADING_HOUSE, 11n, marginAccount('a'));
    move(escrowAccount('e1'), 5n, agentAccount('a'));
    move(FEE_INCOME, 3n, agentAccount('a'));
    move('mystery:1', 9n);
    // A group back at zero (a referral paid out) is left out.
    move(referralAccount('a'), 4n, agentAccount('a'));
    move(agentAccount('a'), 4n, referralAccount('a'));
    const { holders, totalHeldMicro } = moneyHolders(ledger.accounts());
    expect(holders).toEqual([
      { name: 'escrow held', amountMicro: 5n },
      { name: 'trading house', amountMicro: 11n },
      { name: 'trading insurance', amountMicro: 300n },
      { name: 'trading margin held', amountMicro: 31n },
      { name: 'trading order reserves', amountMicro: 7n },
      { name: 'other accounts', amountMicro: 9n },
    ]);
    expect(totalHeldMicro).toBe(1_809n);
    const apart = ledger.balance(agentAccount('a')) + ledger.balance(FEE_INCOME) + ledger.balance(FAUCET_POOL);
    expect(apart + holders.reduce((sum, holder) => sum + holder.amountMicro, 0n)).toBe(totalHeldMicro);
  });
});

describe('the money table of a trading run', () => {
  test('lists the house, insurance and margin; its rows add up to total held; text and JSON agree; same seed, same bytes', async () => {
    const scenario = scenarioFromTable(CRASH, { agents: AGENTS });
    const record = await runScenarioWith(scenario, { agents: AGENTS, seed: 4 });
    expect(record.outcome).toBe('completed');
    const totals = record.totals;
    const names = (totals.holders ?? []).map((holder) => holder.name);
    expect(names).toEqual(expect.arrayContaining(['trading house', 'trading insurance', 'trading margin held']));
    expect(names).not.toContain('other accounts');
    expect(totals.totalHeldMicro).toBeGreaterThan(0n);
    expect(rowsSum(totals)).toBe(totals.totalHeldMicro);
    expect(totals.ledgerSumMicro).toBe(0n);
    const text = summaryTable(record);
    for (const name of [...names, 'total held']) expect(text).toMatch(new RegExp(`^${name} +-?\\d+\\.\\d{6}$`, 'm'));
    const rendered = renderReports(record, scenario.reports);
    const summary = rendered.files.find((file) => file.file === 'summary.json')?.text ?? '';
    const json = JSON.parse(summary) as { totals: Record<string, unknown> };
    expect(json.totals['trading_insurance']).toBeDefined();
    expect(Object.keys(json.totals).slice(-2)).toEqual(['total_held', 'ledger_sum']);
    const again = renderReports(await runScenarioWith(scenario, { agents: AGENTS, seed: 4 }), scenario.reports);
    expect(again.files).toEqual(rendered.files);
    expect(again.digest).toBe(rendered.digest);
  });
});
