// wallet-holder, rule by rule: every holder creates exactly one wallet and the scenario's starting
// funds reach it; it sends native coins and tokens on every chain to other holders' published
// addresses, each send settles at the block its answer named (and is in wallet.csv); its keys
// appear in no report and no event (they live in its memory only); same seed, same digest. From
// stubbed answers: a transaction still pending after its block, or listed with another status in
// the sender's history, is reported. Its params are validated strictly.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AGENTS } from '../../../agents/index.ts';
import type { HeldWallet } from '../../../agents/wallet/wallet-kit.ts';
import { walletHolder } from '../../../agents/wallet/wallet-holder.ts';
import { renderReports } from '../../../src/report/write-reports.ts';
import type { AnyAgentDefinition } from '../../../src/agent/agent.ts';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { ok, stubContext } from './wallet-stub.ts';

const HOLDERS = `
name: wallet-holders
seed: 4
duration: 8h
populations:
  - { agent: wallet-holder, count: 8, style: mixed, params: { every: 20m, send_pct: 5, token_share: 0.5 } }
wallet:
  starting_funds:
    - { chain: ethereum, amount: '1' }
    - { chain: ethereum, token: '0xdAC17F958D2ee523a2206206994597C13D831ec7', amount: '100' }
    - { chain: base, amount: '1' }
    - { chain: base, token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', amount: '100' }
    - { chain: solana, amount: '10' }
    - { chain: bitcoin, amount: '0.1' }
    - { chain: tron, amount: '1000' }
    - { chain: tron, token: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amount: '100' }
    - { chain: monero, amount: '5' }
invariants: [conservation, wallet-conservation, rate-limit-headers, error-shape]
reports: [summary, agents, endpoints, events, wallet]
`;

/** The holder, with every key it ever held collected after each step (the test's view of its memory). */
function spiedHolder(keys: Set<string>): AnyAgentDefinition {
  return {
    ...walletHolder,
    async step(context) {
      const result = await walletHolder.step(context);
      const wallet = (context.memory as { wallet: HeldWallet | null }).wallet;
      if (wallet !== null)
        for (const key of [...Object.values(wallet.keys), wallet.monero.viewKey, wallet.monero.spendKey]) keys.add(key);
      return result;
    },
  };
}

describe('wallet-holder', () => {
  test('one wallet each, funded; sends coins and tokens on every chain, settled at their block; keys in memory only; byte-stable', async () => {
    const scenario = scenarioFromTable(HOLDERS, { agents: AGENTS });
    const keys = new Set<string>();
    const record = await runScenarioWith(scenario, {
      seed: 4,
      agents: { ...AGENTS, 'wallet-holder': spiedHolder(keys) },
    });
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants)
      expect({ name: result.name, violations: result.violations }).toEqual({ name: result.name, violations: 0 });
    const created = keptEvents(record)
      .filter((event) => event.type === 'wallet.created')
      .map((event) => event.agentId);
    expect(created.sort()).toEqual([...new Set(created)].sort());
    expect(created).toHaveLength(8);
    // Nine starting funds per wallet, minted right after its creation.
    expect(keptEvents(record).filter((event) => event.type === 'wallet.minted')).toHaveLength(8 * 9);
    const sends = keptEvents(record).flatMap((event) =>
      event.type === 'wallet.sent' && event.kind === 'send' ? [event] : [],
    );
    expect(new Set(sends.map((event) => event.chain))).toEqual(
      new Set(['ethereum', 'base', 'solana', 'bitcoin', 'tron', 'monero']),
    );
    const natives = new Set([
      '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
      'So11111111111111111111111111111111111111112',
      'native',
      'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
    ]);
    expect(sends.some((event) => !natives.has(event.asset))).toBe(true);
    const settled = new Map(
      keptEvents(record).flatMap((event) =>
        event.type === 'wallet.settled' ? [[event.hash, event.atMs] as const] : [],
      ),
    );
    for (const send of sends)
      if (send.blockAtMs <= record.endMs) expect(settled.get(send.hash), send.hash).toBe(send.blockAtMs);
    // Keys: 8 wallets × (4 single keys: ethereum and base share one; + monero's 2), none in any report byte.
    expect(keys.size).toBe(8 * 6);
    const rendered = renderReports(record, scenario.reports);
    const text = rendered.files
      .map((file) => file.text)
      .join('\n')
      .toLowerCase();
    for (const key of keys)
      expect(text.includes(key.toLowerCase().replace(/^0x/, '')), 'a key in the reports').toBe(false);
    const csv = rendered.files.find((file) => file.file === 'wallet.csv')?.text ?? '';
    const rows = csv
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((row) => row.split(','));
    expect(rows.map((row) => row[0])).toEqual(['ethereum', 'base', 'solana', 'bitcoin', 'tron', 'monero']);
    expect(rows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(sends.length);
    const again = await runScenarioWith(scenario, { agents: AGENTS, seed: 4 });
    expect(renderReports(again, scenario.reports).digest).toBe(rendered.digest);
  });

  test('reports a transaction still pending after its block, and one whose history says otherwise', async () => {
    const nowMs = Date.UTC(2026, 0, 1, 1);
    const wallet: HeldWallet = {
      addresses: { ethereum: '0x1', base: '0x1', solana: 's', bitcoin: 'b', tron: 't', monero: 'm' },
      keys: { ethereum: 'k', base: 'k', solana: 'k', bitcoin: 'k', tron: 'k' },
      monero: { viewKey: 'v', spendKey: 's' },
    };
    const memory = () => ({
      registered: true,
      nextClaimBAtMs: null,
      claimedA: false,
      registerAttempts: 1,
      wallet,
      createAttempts: 1,
      nextSendAtMs: nowMs + 3_600_000,
      pending: { hash: '0xabc', chain: 'base', blockAtMs: nowMs - 2_000 },
    });
    const params = { every: 3_600_000, chains: ['base'], send_pct: 2, token_share: 0, counterparty: 'wallet-holder' };
    const tx = (status: string) => ({
      tx_hash: '0xabc',
      chain: 'base',
      status,
      block_at: new Date(nowMs - 2_000).toISOString(),
    });

    const stillPending = stubContext(params, nowMs, { tx: () => ok(tx('pending')) });
    stillPending.context.memory = memory();
    await walletHolder.step(stillPending.context);
    expect(stillPending.reports.map((entry) => entry.message)).toEqual([
      expect.stringMatching(/0xabc is still pending after its block/),
    ]);

    const disagrees = stubContext(params, nowMs, {
      tx: () => ok(tx('confirmed')),
      transactions: () => ok({ transactions: [tx('failed')], count: 1 }),
    });
    disagrees.context.memory = memory();
    await walletHolder.step(disagrees.context);
    expect(disagrees.reports.map((entry) => entry.message)).toEqual([
      'transaction 0xabc is confirmed by hash but failed in the history',
    ]);

    const sound = stubContext(params, nowMs, {
      tx: () => ok(tx('confirmed')),
      transactions: () => ok({ transactions: [tx('confirmed')], count: 1 }),
    });
    sound.context.memory = memory();
    expect(await walletHolder.step(sound.context)).toEqual({ wakeInMs: 3_600_000 });
    expect(sound.reports).toEqual([]);
  });

  test('its params are validated strictly', () => {
    const population = (params: string) =>
      `name: x\nduration: 1d\npopulations:\n  - { agent: wallet-holder, count: 1, params: ${params} }\n`;
    expect(() => scenarioFromTable(population('{ chains: [dogecoin] }'), { agents: AGENTS })).toThrow(/params\.chains/);
    expect(() => scenarioFromTable(population('{ send_pct: 80 }'), { agents: AGENTS })).toThrow(/send_pct/);
    expect(() => scenarioFromTable(population('{ token_share: 2 }'), { agents: AGENTS })).toThrow(/token_share/);
    expect(() => scenarioFromTable(population('{ every: 5 }'), { agents: AGENTS })).toThrow(/every/);
    expect(() => scenarioFromTable(population('{ colour: red }'), { agents: AGENTS })).toThrow(/unknown key 'colour'/);
  });

  test('starting funds are checked per asset', () => {
    const funds = (fund: string) =>
      `name: x\nduration: 1d\npopulations: [{ agent: wallet-holder, count: 1 }]\nwallet:\n  starting_funds:\n    - ${fund}\n`;
    expect(() => scenarioFromTable(funds("{ chain: base, token: USDC, amount: '1' }"), { agents: AGENTS })).toThrow(
      /not a symbol/,
    );
    expect(() => scenarioFromTable(funds("{ chain: bitcoin, amount: '0.000000001' }"), { agents: AGENTS })).toThrow(
      /at most 8 decimals/,
    );
    expect(() => scenarioFromTable(funds("{ chain: dogecoin, amount: '1' }"), { agents: AGENTS })).toThrow(/chain/);
    expect(
      scenarioFromTable(funds("{ chain: tron, token: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amount: '2.5' }"), {
        agents: AGENTS,
      }).wallet.startingFunds,
    ).toEqual([{ chain: 'tron', token: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amount: '2.5' }]);
  });

  test('scenarios/wallet-swaps.yaml loads with its funds, holders and swappers', () => {
    const text = readFileSync(join(import.meta.dirname, '..', '..', '..', 'scenarios', 'wallet-swaps.yaml'), 'utf8');
    const scenario = scenarioFromTable(text, { agents: AGENTS });
    expect(scenario.populations.map((population) => population.agent)).toEqual(['wallet-holder', 'wallet-swapper']);
    expect(scenario.wallet.startingFunds.length).toBeGreaterThan(5);
    expect(scenario.reports).toContain('wallet');
    expect(scenario.invariants).toEqual(
      expect.arrayContaining(['wallet-conservation', 'referral-levels', 'conservation']),
    );
  });
});
