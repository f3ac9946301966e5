// CasinoRunLog's bankroll samples (issue 19): each archetype's total is kept from the ledger's
// transfers instead of reading every agent's balance per sample; a sample must still be exactly
// the mean balance of the archetype's agents, for transfers between agents of two archetypes,
// to and from other accounts, and for balances an agent had before the log was built.
import { describe, expect, test } from 'vitest';
import { agentAccount, EXTERNAL, Ledger } from '../../src/core/ledger.ts';
import type { Platform } from '../../src/platform/platform.ts';
import type { BetRecord } from '../../src/services/casino/bet-record.ts';
import { CasinoRunLog } from '../../src/sim/casino-run-log.ts';
import type { Scenario } from '../../src/scenario/scenario.ts';

const START_MS = Date.parse('2026-01-01T00:00:00Z');
const AGENTS = [
  { agentId: 'a-1', archetype: 'fixed-bettor' },
  { agentId: 'a-2', archetype: 'fixed-bettor' },
  { agentId: 'b-1', archetype: 'martingale' },
];

describe('CasinoRunLog bankroll samples', () => {
  test('are the exact mean balances of each archetype, sample after sample', () => {
    const ledger = new Ledger();
    const move = (from: string, to: string, amountMicro: bigint): void =>
      ledger.transfer({ from, to, amountMicro, reason: 'test', reference: 'test' });
    move(EXTERNAL, agentAccount('a-1'), 7n);
    const bet: BetRecord = {
      agentId: 'a-1',
      game: 'dice',
      variant: 'dice:x',
      amountMicro: 1n,
      payoutMicro: 0n,
      multiplier: { num: 0n, den: 1n },
      source: 'video-poker',
      params: {},
    } as unknown as BetRecord;
    const platform = { ledger, casino: { findBet: () => bet } } as unknown as Platform;
    const scenario = { startMs: START_MS, durationMs: 3_600_000, casino: { closures: [] } } as unknown as Scenario;
    const log = new CasinoRunLog({ platform, scenario, agents: AGENTS });
    const means: bigint[][] = [];
    const sampleNow = (atMs: number): void => {
      log.sample(atMs);
      means.push([
        (ledger.balance(agentAccount('a-1')) + ledger.balance(agentAccount('a-2'))) / 2n,
        ledger.balance(agentAccount('b-1')),
      ]);
    };
    sampleNow(START_MS);
    move(EXTERNAL, agentAccount('a-2'), 100n);
    move(EXTERNAL, agentAccount('b-1'), 50n);
    sampleNow(START_MS + 1);
    move(agentAccount('a-2'), agentAccount('b-1'), 33n);
    move(agentAccount('b-1'), 'casino-house', 20n);
    sampleNow(START_MS + 2);
    log.onBet('bet_0');
    const data = log.data(START_MS + 3);
    const series = data?.bankrolls.find((row) => row.archetype === 'fixed-bettor');
    expect(series?.agents).toBe(2);
    expect(series?.points.map((point) => point.meanBalanceMicro)).toEqual([
      ...means.map((mean) => mean[0]),
      (7n + 67n) / 2n,
    ]);
    expect(means.map((mean) => mean[0])).toEqual([3n, 53n, 37n]);
  });
});
