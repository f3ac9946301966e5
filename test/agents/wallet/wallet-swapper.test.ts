// wallet-swapper, rule by rule: swappers registered under one another swap what they hold by
// contract address; orders open, get their deposit and end (most finished, the payout at least
// the minimum received, checked by the agents); every finished swap's fee pays the referrers
// above 10 / 5 / 2.5 % (referral-levels checked after every fee; referrals.csv's wallet column has
// earnings at levels 1 to 3); same seed, same digest. From stubbed answers: a quote whose fee is
// not 0.5 % of the amount, an order moving back, and a payout below the minimum are reported.
import { describe, expect, test } from 'vitest';
import { walletSwapper } from '../../../agents/wallet/wallet-swapper.ts';
import type { HeldWallet } from '../../../agents/wallet/wallet-kit.ts';
import { renderReports } from '../../../src/report/write-reports.ts';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { ok, stubContext } from './wallet-stub.ts';
import { AGENTS } from '../../../agents/index.ts';

const SWAPPERS = `
name: wallet-swappers
seed: 8
duration: 12h
populations:
  - { agent: wallet-swapper, count: 10, style: mixed, params: { every: 1h, amount_pct: 10, referred: 1, referrer: wallet-swapper } }
wallet:
  starting_funds:
    - { chain: ethereum, amount: '1' }
    - { chain: ethereum, token: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', amount: '3000' }
    - { chain: base, amount: '1' }
    - { chain: solana, amount: '20' }
    - { chain: tron, amount: '20000' }
    - { chain: tron, token: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amount: '3000' }
invariants: [conservation, no-negative-balance, wallet-conservation, referral-levels, rate-limit-headers, error-shape]
reports: [summary, agents, endpoints, events, referrals, wallet]
`;

const NOW = Date.UTC(2026, 0, 1, 1);
const WALLET: HeldWallet = {
  addresses: { ethereum: '0xme', base: '0xme', solana: 'me', bitcoin: 'bc1me', tron: 'Tme', monero: '4me' },
  keys: { ethereum: 'k', base: 'k', solana: 'k', bitcoin: 'k', tron: 'k' },
  monero: { viewKey: 'v', spendKey: 's' },
};
const SOL = {
  chain: 'solana',
  address: 'So11111111111111111111111111111111111111112',
  symbol: 'SOL',
  decimals: 9,
  native: true,
} as const;
const PARAMS = {
  every: 3_600_000,
  poll: 120_000,
  from_chains: ['base'],
  amount_pct: 5,
  referred: 0,
  referrer: 'referral-recruiter',
};

function memory(extra: Record<string, unknown>) {
  return {
    registered: true,
    nextClaimBAtMs: null,
    claimedA: false,
    registerAttempts: 1,
    wallet: WALLET,
    createAttempts: 1,
    assets: [SOL],
    order: null,
    nextSwapAtMs: NOW + 3_600_000,
    nextPollAtMs: 0,
    ...extra,
  };
}

describe('wallet-swapper', () => {
  test('swaps by contract address to the end of each order; the fees pay three levels of referrers; byte-stable', async () => {
    const scenario = scenarioFromTable(SWAPPERS, { agents: AGENTS });
    const record = await runScenarioWith(scenario, { agents: AGENTS, seed: 8 });
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants)
      expect({ name: result.name, violations: result.violations }).toEqual({ name: result.name, violations: 0 });
    const ends = new Map<string, string>();
    for (const event of keptEvents(record)) if (event.type === 'wallet.swap') ends.set(event.orderId, event.status);
    const statuses = [...ends.values()];
    expect(statuses.filter((status) => status === 'finished').length).toBeGreaterThan(20);
    expect(
      statuses.filter((status) => !['finished', 'failed', 'refunded', 'expired'].includes(status)).length,
    ).toBeLessThanOrEqual(10);
    const fees = keptEvents(record).filter((event) => event.type === 'wallet.fee');
    expect(fees).toHaveLength(statuses.filter((status) => status === 'finished').length);
    const rendered = renderReports(record, scenario.reports);
    const referrals = (rendered.files.find((file) => file.file === 'referrals.csv')?.text ?? '').trimEnd().split('\n');
    expect(referrals[0]).toBe('referrer,level,referred_agents,faucet,escrow,trading,domains,casino,wallet,total');
    const walletLevels = new Set(
      referrals
        .slice(1)
        .map((row) => row.split(','))
        .filter((row) => Number(row[8]) > 0)
        .map((row) => row[1]),
    );
    expect(walletLevels).toEqual(new Set(['1', '2', '3']));
    const csv = rendered.files.find((file) => file.file === 'wallet.csv')?.text ?? '';
    const feeTotal = csv
      .trimEnd()
      .split('\n')
      .slice(1)
      .reduce((sum, row) => sum + BigInt((row.split(',')[9] ?? '0').replace('.', '')), 0n);
    expect(feeTotal).toBe(fees.reduce((sum, event) => sum + event.feeMicro, 0n));
    const again = await runScenarioWith(scenario, { agents: AGENTS, seed: 8 });
    expect(renderReports(again, scenario.reports).digest).toBe(rendered.digest);
  });

  test('a wallet outage longer than its reads of an order: only answered reads count, the order is followed to its end', async () => {
    // Before, the 503s of a 5-hour fault window counted as reads of the order, and the swapper
    // reported "order … did not end after 100 reads" (agent-assertions) on a working platform.
    const scenario = scenarioFromTable(
      `${SWAPPERS.replace('name: wallet-swappers', 'name: wallet-outage')}faults:\n  - { service: wallet, from: 1h, for: 5h, answer: 503 }\n`,
      { agents: AGENTS },
    );
    const record = await runScenarioWith(scenario, { agents: AGENTS, seed: 8 });
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants)
      expect({ name: result.name, violations: result.violations }).toEqual({ name: result.name, violations: 0 });
  });

  test('reports a quote whose fee is not 0.5 % of the amount', async () => {
    const native = { symbol: 'ETH', contract: null, amount: '1', base_units: '1000000000000000000', decimals: 18 };
    const stub = stubContext({ ...PARAMS }, NOW, {
      balance: () => ok({ balance: { native, tokens: [] } }),
      quote: () => ok({ quote: { toAmount: '10', minReceived: '9.9', fee: { amount: '0.0001' } } }),
    });
    stub.context.memory = memory({
      assets: [
        {
          chain: 'base',
          address: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
          symbol: 'ETH',
          decimals: 18,
          native: true,
        },
        SOL,
      ],
      nextSwapAtMs: NOW,
    });
    await walletSwapper.step(stub.context);
    expect(stub.reports.map((entry) => entry.message)).toEqual([
      'quote of 0.05 ETH: fee 0.0001 (due 0.00025), min received 9.9 of 10',
    ]);
  });

  test('reports an order that moves back, and a finished payout below its minimum', async () => {
    const order = (status: string, payout: string | null) => ({ order_id: 'swp_1', status, payout_tx: payout });
    const back = stubContext({ ...PARAMS }, NOW, { swapStatus: () => ok(order('exchanging', null)) });
    back.context.memory = memory({ order: { id: 'swp_1', rank: 3, polls: 0, to: SOL, minReceived: 1n } });
    await walletSwapper.step(back.context);
    expect(back.reports.map((entry) => entry.message)).toEqual(['order swp_1 moved back to exchanging']);

    const short = stubContext({ ...PARAMS }, NOW, {
      swapStatus: () => ok(order('finished', 'payout1')),
      tx: () => ok({ status: 'confirmed', to: 'me', amount: '0.5' }),
    });
    short.context.memory = memory({ order: { id: 'swp_1', rank: 3, polls: 0, to: SOL, minReceived: 600_000_000n } });
    await walletSwapper.step(short.context);
    expect(short.reports.map((entry) => entry.message)).toEqual([
      'finished order swp_1: payout 0.5 confirmed to me, at least 0.6 due to its own address',
    ]);

    const sound = stubContext({ ...PARAMS }, NOW, {
      swapStatus: () => ok(order('finished', 'payout1')),
      tx: () => ok({ status: 'confirmed', to: 'me', amount: '0.7' }),
    });
    sound.context.memory = memory({ order: { id: 'swp_1', rank: 3, polls: 0, to: SOL, minReceived: 600_000_000n } });
    await walletSwapper.step(sound.context);
    expect(sound.reports).toEqual([]);
    expect((sound.context.memory as { order: unknown }).order).toBeNull();
  });

  test('its params are validated strictly', () => {
    const population = (params: string) =>
      `name: x\nduration: 1d\npopulations:\n  - { agent: wallet-swapper, count: 1, params: ${params} }\n`;
    expect(() => scenarioFromTable(population('{ from_chains: [] }'), { agents: AGENTS })).toThrow(/from_chains/);
    expect(() => scenarioFromTable(population('{ amount_pct: 0 }'), { agents: AGENTS })).toThrow(/amount_pct/);
    expect(() => scenarioFromTable(population('{ poll: 1s }'), { agents: AGENTS })).toThrow(/poll/);
    expect(() => scenarioFromTable(population('{ referred: -1 }'), { agents: AGENTS })).toThrow(/referred/);
    expect(() => scenarioFromTable(population('{ colour: red }'), { agents: AGENTS })).toThrow(/unknown key 'colour'/);
  });
});
