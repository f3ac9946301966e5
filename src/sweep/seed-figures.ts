/**
 * A seed's figures: the numbers a sweep's distributions are made of, read from one run's record
 * (counts, and money as the run's money table lists it). Its own file: the worker that runs a
 * seed (seed-run.ts) computes them without loading the sweep's report writers.
 */
import type { RunRecord } from '../report/run-record.ts';
import { HOLDER_NAMES } from '../sim.ts';

/**
 * The figures a sweep's distributions are made of, by column name (FIGURES below):
 * counts, and money in micro-USDC — one column per row of the run's money table.
 */
export type SeedFigures = Readonly<Record<string, bigint>>;

/** A money-table row's column name: `trading margin held` → `trading_margin_held`. */
const columnOf = (holder: string): string => holder.replaceAll(' ', '_');

/**
 * The columns, in order: counts, then money as the run's money table lists it (agent balances,
 * fee income, faucet pool, one column per holder row of src/sim/money-holders.ts — every row,
 * zeros included, so every sweep of every scenario has the same columns — total held, ledger sum).
 */
export const FIGURES: readonly { readonly name: string; readonly money: boolean }[] = [
  ...['agents', 'requests', 'escrows', 'events'].map((name) => ({ name, money: false })),
  ...['agent_balances', 'fee_income', 'faucet_pool', ...HOLDER_NAMES.map(columnOf), 'total_held', 'ledger_sum'].map(
    (name) => ({ name, money: true }),
  ),
];

/** A run's figures by column name. */
export function seedFigures(record: RunRecord): SeedFigures {
  const { totals } = record;
  const holders = new Map((totals.holders ?? []).map((holder) => [columnOf(holder.name), holder.amountMicro]));
  return {
    agents: BigInt(totals.agents),
    requests: BigInt(totals.requests),
    escrows: BigInt(totals.escrows),
    events: BigInt(record.events.count),
    agent_balances: totals.agentBalancesMicro,
    fee_income: totals.feeIncomeMicro,
    faucet_pool: totals.faucetPoolMicro,
    ...Object.fromEntries(HOLDER_NAMES.map((name) => [columnOf(name), holders.get(columnOf(name)) ?? 0n])),
    total_held: totals.totalHeldMicro ?? 0n,
    ledger_sum: totals.ledgerSumMicro,
  };
}
