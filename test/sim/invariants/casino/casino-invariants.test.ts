// The four casino invariants: each holds over a faithful run and each trips on a deliberate
// defect or an injected fault — casino-bets-verify on every draw or payout defect (and on a
// replayed nonce), casino-bet-limits on a bet above the Kelly limit, casino-conservation on an
// unexplained movement of the house, casino-referral-levels on commissions at other shares —
// while casino-payout-short leaves conservation intact (its records add up), and an overdraft
// under casino-skip-balance-check trips no-negative-balance.
import { describe, expect, test } from 'vitest';
import { EXTERNAL, agentAccount, type Transfer } from '../../../../src/core/ledger.ts';
import { usdc } from '../../../../src/core/money.ts';
import { Platform } from '../../../../src/platform/platform.ts';
import { DEFAULT_CASINO_CONFIG } from '../../../../src/services/casino/casino-config.ts';
import { coinFlip } from '../../../../src/services/casino/games/coin-flip.ts';
import { crashRoundAccount } from '../../../../src/services/casino/crash-rounds.ts';
import { CASINO_HOUSE } from '../../../../src/services/casino/referral-commission.ts';
import { dealHand } from '../../../../src/services/casino/video-poker-hands.ts';
import { DEFAULT_CONFIG } from '../../../../src/services/shared/config.ts';
import type { DefectName } from '../../../../src/services/shared/context.ts';
import type { DomainEvent } from '../../../../src/services/shared/events.ts';
import { INVARIANTS, type Violation } from '../../../../src/sim/invariants/index.ts';
import { scenarioFromTable } from '../../../../src/agent/load-scenario.ts';
import { runSimulationWith } from '../../../../src/sim/runner.ts';
import { addAgent } from '../../../fixtures/agents.ts';
import { AGENTS } from '../../../../agents/index.ts';

const START_MS = Date.UTC(2026, 0, 1);

const CASINO = `
name: casino-mix
duration: 3h
populations:
  - { agent: fixed-bettor, count: 2, params: { game: keno, params: { picks: [5, 10, 15] }, amount: 0.05, every: 3m } }
  - { agent: martingale, count: 3, params: { game: dice, params: { direction: over, threshold: 75 }, base: 0.10, max_doublings: 12, every: 1m } }
  - { agent: batch-bettor, count: 4, tier: pro, style: mixed, params: { referred: 0.9, every: 2m, mix: [{ game: roulette, params: { bet_type: odd } }, { game: multiplier, params: { target_multiplier: 3 } }] } }
  - { agent: challenger, count: 3, params: { every: 15m } }
  - { agent: tournament-player, count: 4, params: { game: coin_flip, every: 5m, length: 30m, create: 0.5 } }
casino: { starting_deposit: '20.00' }
`;

async function run(text: string, defects: DefectName[] = []) {
  return runSimulationWith(scenarioFromTable(text, { agents: AGENTS }), { agents: AGENTS, seed: 71, defects });
}

describe('a faithful casino', () => {
  test('holds every casino invariant, each checked many times', async () => {
    const result = await run(CASINO);
    expect(result.record.outcome).toBe('completed');
    for (const invariant of result.record.invariants) expect(invariant.violations, invariant.name).toBe(0);
    for (const name of ['casino-bet-limits', 'casino-bets-verify', 'casino-conservation', 'casino-referral-levels']) {
      expect(result.record.invariants.find((invariant) => invariant.name === name)?.checks, name).toBeGreaterThan(
        1_000,
      );
    }
  });
});

describe('deliberate defects', () => {
  const cases: readonly { defect: DefectName; invariant: string; message: RegExp }[] = [
    {
      defect: 'casino-payout-short',
      invariant: 'casino-bets-verify',
      message: /does not recompute from its seed: multiplier: recorded/,
    },
    { defect: 'casino-biased-draw', invariant: 'casino-bets-verify', message: /does not recompute from its seed/ },
    { defect: 'casino-keno-8', invariant: 'casino-bets-verify', message: /\(keno:3\): does not recompute/ },
    { defect: 'casino-replayable-nonce', invariant: 'casino-bets-verify', message: /was already used by another bet/ },
    {
      defect: 'casino-skip-balance-check',
      invariant: 'casino-bet-limits',
      message: /exceeds the Kelly limit .* of the balance .* before the bet/,
    },
  ];
  for (const { defect, invariant, message } of cases) {
    test(`${defect} trips ${invariant}`, async () => {
      const result = await run(CASINO, [defect]);
      expect(result.record.outcome).toBe('invariant-failed');
      expect(result.failure?.invariant).toBe(invariant);
      expect(result.failure?.violation.message).toMatch(message);
    });
  }

  test('casino-payout-short keeps the money consistent: conservation alone does not trip', async () => {
    const result = await run(`${CASINO}invariants: [conservation, casino-conservation, casino-referral-levels]\n`, [
      'casino-payout-short',
    ]);
    expect(result.record.outcome).toBe('completed');
    for (const invariant of result.record.invariants) expect(invariant.violations, invariant.name).toBe(0);
  });

  test('casino-skip-balance-check lets an overdraft through: no-negative-balance trips', async () => {
    const result = await run(
      `
name: overdraft
duration: 1h
populations:
  - { agent: fixed-bettor, count: 1, params: { game: coin_flip, amount: 0.05, overdraw_probe: true } }
casino: { starting_deposit: '5.00' }
`,
      ['casino-skip-balance-check'],
    );
    expect(result.failure?.invariant).toBe('no-negative-balance');
    expect(result.failure?.violation.message).toMatch(
      /^agent:fixed-bettor-0-[0-9a-f]{4} is negative \(-1000000 micro-USDC\) after casino.bet.stake$/,
    );
  });
});

/** A platform with agents `a` (referred by r1 ← r2 ← r3) and `b`, a checker watching it. */
function watched(name: keyof typeof INVARIANTS, options: { referralLevelsBps?: readonly bigint[] } = {}) {
  const config =
    options.referralLevelsBps === undefined
      ? DEFAULT_CONFIG
      : { ...DEFAULT_CONFIG, casino: { ...DEFAULT_CASINO_CONFIG, referralLevelsBps: options.referralLevelsBps } };
  const platform = new Platform({ seed: 'casino-invariants', startMs: START_MS, config });
  addAgent(platform, 'r3', { createdAtMs: START_MS });
  addAgent(platform, 'r2', { referrerId: 'r3', createdAtMs: START_MS });
  addAgent(platform, 'r1', { referrerId: 'r2', createdAtMs: START_MS });
  addAgent(platform, 'a', { referrerId: 'r1', fundMicro: usdc(100), createdAtMs: START_MS });
  const check = INVARIANTS[name].create({ platform, nowMs: () => START_MS });
  const violations: Violation[] = [];
  const keep = (violation: Violation | null | undefined): void => {
    if (violation !== null && violation !== undefined) violations.push(violation);
  };
  platform.ledger.onTransfer({ onTransfer: (transfer: Transfer) => keep(check.onTransfer?.(transfer)) });
  platform.onEvent((event: DomainEvent) => keep(check.onEvent?.(event)));
  const bet = (amountMicro: bigint): void => {
    const placed = platform.casino.bet(
      {
        agentId: 'a',
        game: coinFlip,
        params: { side: 'heads' },
        paramsJson: { side: 'heads' },
        amountMicro,
        clientSeed: null,
        source: 'A',
      },
      START_MS,
    );
    expect(placed.ok).toBe(true);
  };
  return { platform, check, violations, bet, keep };
}

describe('casino-conservation', () => {
  test('passes the bets of a faithful casino; catches an unexplained movement of the house at once', () => {
    const world = watched('casino-conservation');
    for (let index = 0; index < 50; index++) world.bet(usdc(1));
    world.keep(world.check.onHour?.(START_MS + 3_600_000));
    expect(world.violations).toEqual([]);
    world.platform.ledger.transfer({
      from: CASINO_HOUSE,
      to: agentAccount('a'),
      amountMicro: 1n,
      reason: 'casino.bonus',
      reference: 'gift',
    });
    expect(world.violations[0]?.message).toBe("casino-house moved 0.000001 for 'casino.bonus', not a casino reason");
  });

  test('catches a payout the records do not explain at the next bet and at the hourly audit', () => {
    const world = watched('casino-conservation');
    world.bet(usdc(1));
    world.platform.ledger.transfer({
      from: CASINO_HOUSE,
      to: agentAccount('a'),
      amountMicro: 500_000n,
      reason: 'casino.bet.payout',
      reference: 'bet_0000000000000000',
    });
    world.bet(usdc(1));
    expect(world.violations[0]?.message).toMatch(
      /^casino-house holds .*, its records say .* \(after bet bet_[0-9a-f]{16}\)$/,
    );
    expect(world.check.atEnd?.(START_MS)?.message).toMatch(/after the end of run audit/);
  });

  test('catches a challenge hold that does not match its record', () => {
    const world = watched('casino-conservation');
    addAgent(world.platform, 'b', { fundMicro: usdc(10), createdAtMs: START_MS });
    const created = world.platform.casino.challenges.create(
      { challengerId: 'a', challengedRef: 'b', game: 'coin_flip', amountMicro: usdc(2), message: null },
      START_MS,
    );
    expect(created.ok).toBe(true);
    expect(world.check.onHour?.(START_MS)).toBeNull();
    world.platform.ledger.transfer({
      from: EXTERNAL,
      to: `challenge:${created.ok ? created.value.id : ''}`,
      amountMicro: 1n,
      reason: 'test.leak',
      reference: 'x',
    });
    expect(world.check.onHour?.(START_MS)?.message).toMatch(
      /^challenge chl_[0-9a-f]{12} \(pending\) holds 2.000001, not 2.00$/,
    );
  });
});

describe('casino-conservation: crash-round and video-poker holds', () => {
  test('a crash round holds its unsettled stakes and a dealt hand its stake; a leak into either is caught at the audit', () => {
    const world = watched('casino-conservation');
    const casino = world.platform.casino;
    const placed = casino.crashRounds.bet(
      casino.state,
      { agentId: 'a', amountMicro: usdc(2), autoCashOutCents: 150 },
      START_MS,
    );
    expect(placed.ok).toBe(true);
    const dealt = dealHand(casino.state, { agentId: 'a', amountMicro: usdc(1), clientSeed: null }, START_MS);
    expect(dealt.ok).toBe(true);
    expect(world.check.onHour?.(START_MS)).toBeNull();
    const roundAccount = crashRoundAccount(placed.ok ? placed.value.round.id : '');
    expect(world.platform.ledger.balance(roundAccount)).toBe(usdc(2));
    world.platform.ledger.transfer({
      from: EXTERNAL,
      to: roundAccount,
      amountMicro: 1n,
      reason: 'test.leak',
      reference: 'x',
    });
    expect(world.check.onHour?.(START_MS)?.message).toBe(`${roundAccount} holds 2.000001, its records say 2.00`);
    world.platform.ledger.transfer({
      from: roundAccount,
      to: EXTERNAL,
      amountMicro: 1n,
      reason: 'test.unleak',
      reference: 'x',
    });
    expect(world.check.onHour?.(START_MS)).toBeNull();
    world.platform.ledger.transfer({
      from: 'video-poker:a',
      to: EXTERNAL,
      amountMicro: 1n,
      reason: 'test.leak',
      reference: 'x',
    });
    expect(world.check.atEnd?.(START_MS)?.message).toBe('video-poker:a holds 0.999999, its records say 1.00');
  });

  test('money left in the hold of an agent with no dealt hand is unexplained', () => {
    const world = watched('casino-conservation');
    world.platform.ledger.transfer({
      from: EXTERNAL,
      to: 'video-poker:a',
      amountMicro: 5n,
      reason: 'test.leak',
      reference: 'x',
    });
    expect(world.check.onHour?.(START_MS)?.message).toBe('video-poker:a holds 0.000005, its records say 0.00');
  });
});

describe('casino-referral-levels', () => {
  test('passes the 10% / 5% / 2.5% of the documents on every bet of a referred agent', () => {
    const world = watched('casino-referral-levels');
    for (let index = 0; index < 80; index++) world.bet(usdc(1));
    world.keep(world.check.atEnd?.(START_MS));
    expect(world.violations).toEqual([]);
    const state = world.platform.casino.state.commissions.state('a');
    expect(state?.paidMicro.every((paid) => paid > 0n)).toBe(true);
  });

  test('catches a casino paying level 3 at 3% instead of 2.5%', () => {
    const world = watched('casino-referral-levels', { referralLevelsBps: [1_000n, 500n, 300n] });
    for (let index = 0; index < 20 && world.violations.length === 0; index++) world.bet(usdc(1));
    expect(world.violations[0]?.message).toMatch(
      /^agent a: level 3 referral paid .*, due .* \(high-water net loss .*\)$/,
    );
  });
});

describe('casino-bet-limits', () => {
  test('passes bets within the limit; catches one above it that a skipped check let through', () => {
    const world = watched('casino-bet-limits');
    world.bet(usdc(12));
    expect(world.violations).toEqual([]);
    const skipping = new Platform({
      seed: 'casino-invariants',
      startMs: START_MS,
      defects: ['casino-skip-balance-check'],
    });
    addAgent(skipping, 'a', { fundMicro: usdc(100), createdAtMs: START_MS });
    const check = INVARIANTS['casino-bet-limits'].create({ platform: skipping, nowMs: () => START_MS });
    const seen: (Violation | null | undefined)[] = [];
    skipping.ledger.onTransfer({ onTransfer: (transfer) => seen.push(check.onTransfer?.(transfer)) });
    skipping.onEvent((event) => seen.push(check.onEvent?.(event)));
    skipping.casino.bet(
      {
        agentId: 'a',
        game: coinFlip,
        params: { side: 'tails' },
        paramsJson: { side: 'tails' },
        amountMicro: usdc(13),
        clientSeed: null,
        source: 'A',
      },
      START_MS,
    );
    expect(seen.find((violation) => violation !== null && violation !== undefined)?.message).toMatch(
      /amount 13.00 exceeds the Kelly limit 12.50 of the balance 100.00 before the bet$/,
    );
  });
});
