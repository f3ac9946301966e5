// The casino part of the reference model of `afp check` on its own: game laws, Kelly limits,
// refusals in precedence order, multipliers read from answers, referral commissions, prizes,
// challenge cuts, withdrawals, time, and the replay of a revealed seed. Where a number also lives
// in the casino service, the test checks that the two independent computations agree.
import { describe, expect, it } from 'vitest';
import { createModel, type CheckModel } from '../../../src/check/check-model.ts';
import { runNames } from '../../../src/check/check-target.ts';
import { INVALID_CHOICES, VALID_CHOICES } from '../../../src/check/casino/command-casino-table.ts';
import { eq, money } from '../../../src/check/expectation.ts';
import { predictCasinoBalance, predictWithdraw } from '../../../src/check/casino/model-casino-account.ts';
import {
  expectedBetRefusal,
  commitBet,
  inferMultiplier,
  resolveAmount,
  settlementOf,
} from '../../../src/check/casino/model-casino-bets.ts';
import {
  houseCutMicro,
  predictAccept,
  predictCreateChallenge,
} from '../../../src/check/casino/model-casino-challenges.ts';
import { predictRotate, replayProblems, sha256Hex } from '../../../src/check/casino/model-casino-fairness.ts';
import {
  detailProblems,
  kellyLimitMicro,
  law,
  paramsA,
  support,
  validChoice,
  type ModelGameChoice,
} from '../../../src/check/casino/model-casino-games.ts';
import {
  completeTournament,
  predictCreateTournament,
  predictEnter,
} from '../../../src/check/casino/model-casino-tournaments.ts';
import { predictRegister } from '../../../src/check/faucet/model-faucet.ts';
import { advanceModel, timeBoundaries } from '../../../src/check/model-time.ts';
import { ONE, add, ratio, ratioFromDecimal, type Ratio } from '../../../src/core/ratio.ts';
import { DrawStream } from '../../../src/services/casino/fair/draw-stream.ts';
import { findGame } from '../../../src/services/casino/games/index.ts';
import { kellyInputs } from '../../../src/services/casino/kelly/kelly-inputs.ts';
import { maxBetMicro } from '../../../src/services/casino/kelly/kelly-limit.ts';

const START_MS = Date.parse('2025-03-01T09:30:00.000Z');
const USDC = 1_000_000n;

function newModel(): CheckModel {
  return createModel({
    nowMs: START_MS,
    capabilities: {
      styleA: true,
      exactTime: true,
      advance: true,
      pool: true,
      casino: true,
      deposits: true,
      domains: true,
      trading: true,
      wallet: true,
    },
    names: runNames('', 1),
  });
}

function register(model: CheckModel, slot: number, referrerSlot: number | null = null): void {
  const prediction = predictRegister(model, {
    slot,
    style: 'B',
    referrer: referrerSlot === null ? null : { slot: referrerSlot, via: 'id' },
  });
  prediction.commit?.({
    api_key: `key-${slot}`,
    agent_address: `0x${String(slot).repeat(40)}`,
    referral_code: `ref_${slot}`,
  });
}

const COIN: ModelGameChoice = { game: 'coin_flip', side: 'heads' };

/** Settles a bet in the model as an accepted answer with `multiplier` would. */
function bet(
  model: CheckModel,
  slot: number,
  choice: ModelGameChoice,
  amountMicro: bigint,
  multiplier: Ratio,
  detail: unknown = {},
): void {
  const settled = settlementOf(model, slot, choice, amountMicro, multiplier, `seed-${model.casino.bets.length}`);
  commitBet(
    model,
    settled,
    {
      bet_id: `bet_${model.casino.bets.length}`,
      result: detail as never,
      proof: { server_seed_hash: 'h0', result_hash: 'r' },
    },
    'A',
  );
}

describe('model: casino games', () => {
  it('states an exact law summing to 1 for every drawn choice, and refuses the invalid ones', () => {
    for (const choice of VALID_CHOICES) {
      expect(validChoice(choice)).toBe(true);
      expect(law(choice).reduce((sum, [probability]) => add(sum, probability), ratio(0))).toEqual(ONE);
    }
    for (const choice of INVALID_CHOICES) expect(validChoice(choice)).toBe(false);
    expect(support({ game: 'dice', direction: 'over', threshold: 90 })).toEqual([ratio(0), ratioFromDecimal('9.8')]);
    expect(support({ game: 'roulette', betType: 'number', betValue: 17 })).toEqual([
      ratio(0),
      ratioFromDecimal('34.3'),
    ]);
  });

  it('agrees with the game modules on the return to player of every choice', () => {
    for (const choice of VALID_CHOICES) {
      const game = findGame(choice.game);
      const params = game?.parse(paramsA(choice));
      if (game === undefined || params === undefined || !params.ok) throw new Error(`${choice.game} parses`);
      expect(kellyInputs(law(choice)).returnToPlayer, JSON.stringify(choice)).toEqual(
        kellyInputs(game.distribution(params.value)).returnToPlayer,
      );
    }
  });

  it('computes the Kelly limit of NOTES.md: bankroll × risk × p, rounded down; 0 when nothing beats the stake', () => {
    expect(kellyLimitMicro(COIN, 10n * USDC, 25)).toBe(1_250_000n);
    expect(kellyLimitMicro({ game: 'dice', direction: 'over', threshold: 90 }, 10n * USDC, 25)).toBe(250_000n);
    expect(kellyLimitMicro({ game: 'dice', direction: 'over', threshold: 1 }, 10n * USDC, 100)).toBe(0n);
    expect(kellyLimitMicro({ game: 'dice', direction: 'under', threshold: 99 }, 10n * USDC, 100)).toBe(0n);
    expect(kellyLimitMicro({ game: 'roulette', betType: 'red', betValue: null }, 3_700_001n, 10)).toBe(180_000n);
    expect(kellyLimitMicro(COIN, 0n, 25)).toBe(0n);
  });

  it('gives the same Kelly limit as the casino service for every choice, bankroll and risk factor', () => {
    for (const choice of VALID_CHOICES) {
      const game = findGame(choice.game);
      const params = game?.parse(paramsA(choice));
      if (game === undefined || params === undefined || !params.ok) throw new Error(`${choice.game} parses`);
      const inputs = kellyInputs(game.distribution(params.value));
      for (const bankrollMicro of [1n, 999_999n, 10n * USDC, 1_234_567_891n]) {
        for (const percent of [10, 25, 100])
          expect(kellyLimitMicro(choice, bankrollMicro, percent)).toBe(
            maxBetMicro(bankrollMicro, ratio(percent, 100), inputs),
          );
      }
    }
  });

  it('checks a result against its multiplier and the rule: keno draws 20 numbers, plinko pays the bin of its path', () => {
    const keno: ModelGameChoice = { game: 'keno', picks: [7] };
    const twenty = Array.from({ length: 20 }, (_, index) => index + 1);
    expect(detailProblems(keno, ratioFromDecimal('3.5'), { drawn: twenty })).toEqual([]);
    expect(detailProblems(keno, ratio(0), { drawn: twenty })).toHaveLength(1);
    expect(detailProblems(keno, ratio(0), { drawn: twenty.slice(0, 8) })[0]).toMatch(/20 distinct numbers/);
    expect(
      detailProblems({ game: 'plinko', rows: 8, risk: 'low' }, ratioFromDecimal('5.6'), { path: 'RRRRRRRR' }),
    ).toEqual([]);
    expect(
      detailProblems({ game: 'plinko', rows: 8, risk: 'low' }, ratioFromDecimal('5.6'), { path: 'RRRRRRRL' }),
    ).toHaveLength(1);
  });
});

describe('model: casino bets', () => {
  it('refuses in precedence order: bad input, minimum, maximum, balance, Kelly (with max_bet)', () => {
    const model = newModel();
    register(model, 0);
    expect(expectedBetRefusal(model, 0, INVALID_CHOICES[0] as ModelGameChoice, 50_000n, false)).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
    });
    expect(expectedBetRefusal(model, 0, COIN, 9_999n, false)).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      body: { min_bet: money('A', 10_000n) },
    });
    expect(expectedBetRefusal(model, 0, COIN, 10_000n * USDC + 1n, false)).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      body: { max_bet: money('A', 10_000n * USDC) },
    });
    expect(expectedBetRefusal(model, 0, COIN, 10n * USDC + 1n, false)).toEqual({
      status: 422,
      code: 'INSUFFICIENT_BALANCE',
    });
    expect(expectedBetRefusal(model, 0, COIN, resolveAmount(model, 0, COIN, 'kelly+1'), false)).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      body: { max_bet: money('A', 1_250_000n) },
    });
    expect(expectedBetRefusal(model, 0, COIN, resolveAmount(model, 0, COIN, 'kelly'), false)).toBeNull();
  });

  it("decides a bet at a closure's edge on a wall-clock target by the target's answer, elsewhere by the model's now", () => {
    // A wall-clock target's now is an estimate (within the time tolerance): at a closure's edge
    // the model cannot say which side the target's clock is on. Before, it predicted by its own
    // estimate, so a bet the target settled a moment after reopening was a false mismatch.
    const MIN_MS = 60_000;
    const closure = {
      service: 'casino',
      game: 'coin_flip',
      fromMs: START_MS + 10 * MIN_MS,
      untilMs: START_MS + 60 * MIN_MS,
      status: 409,
      code: 'GAME_CLOSED',
    };
    const at = (nowMs: number, toleranceMs: number): CheckModel => {
      const model = createModel({
        nowMs,
        capabilities: newModel().capabilities,
        names: runNames('', 1),
        timeToleranceMs: toleranceMs,
        faults: [closure],
      });
      register(model, 0);
      return model;
    };
    const CLOSED = { status: 409, code: 'GAME_CLOSED' };
    const refusals = (model: CheckModel, choice: ModelGameChoice = COIN): unknown[] =>
      [false, true].map((answeredClosed) => expectedBetRefusal(model, 0, choice, 50_000n, answeredClosed));
    const TOLERANCE_MS = 5 * MIN_MS;
    // Within the tolerance of either edge, on either side: the answer decides.
    for (const nowMs of [
      closure.fromMs - MIN_MS,
      closure.fromMs + MIN_MS,
      closure.untilMs - 1,
      closure.untilMs + MIN_MS,
    ])
      expect(refusals(at(nowMs, TOLERANCE_MS))).toEqual([null, CLOSED]);
    // Far from the edges: the model's now decides, whatever the answer.
    expect(refusals(at(closure.fromMs + 20 * MIN_MS, TOLERANCE_MS))).toEqual([CLOSED, CLOSED]);
    expect(refusals(at(closure.untilMs + 10 * MIN_MS, TOLERANCE_MS))).toEqual([null, null]);
    // Another game is never closed by it.
    expect(refusals(at(closure.fromMs, TOLERANCE_MS), { game: 'dice', direction: 'over', threshold: 50 })).toEqual([
      null,
      null,
    ]);
    // An exact clock (manual: no tolerance) decides by the model's now to the millisecond.
    expect(refusals(at(closure.fromMs - 1, 0))).toEqual([null, null]);
    expect(refusals(at(closure.fromMs, 0))).toEqual([CLOSED, CLOSED]);
    expect(refusals(at(closure.untilMs - 1, 0))).toEqual([CLOSED, CLOSED]);
    expect(refusals(at(closure.untilMs, 0))).toEqual([null, null]);
  });

  it('reads the multiplier from the answer: style A by payout_multiplier (6 decimals), style B by the payout', () => {
    const dice: ModelGameChoice = { game: 'dice', direction: 'over', threshold: 97 };
    expect(inferMultiplier(dice, USDC, { style: 'A', value: 32.666667 })).toEqual(ratio(98, 3));
    expect(inferMultiplier(COIN, USDC, { style: 'A', value: 1.9404 })).toMatch(
      /expected one of the multipliers coin_flip heads pays \(0, 1.96\), got 1.9404/,
    );
    expect(inferMultiplier(COIN, 333_333n, { style: 'B', value: '0.653332' })).toEqual(ratioFromDecimal('1.96'));
    expect(inferMultiplier(COIN, 333_333n, { style: 'B', value: '0.653333' })).toMatch(/^payout: /);
  });

  it('settles a bet: balance, next nonce, and commissions on net losses up three levels at their high-water mark', () => {
    const model = newModel();
    register(model, 0);
    register(model, 1, 0);
    register(model, 2, 1);
    bet(model, 2, COIN, USDC, ratio(0));
    expect(model.agents[2]?.balanceMicro).toBe(9n * USDC);
    expect(model.agents[1]?.pendingReferralMicro).toBe(100_000n);
    expect(model.agents[0]?.pendingReferralMicro).toBe(50_000n);
    bet(model, 2, COIN, USDC, ratioFromDecimal('1.96'));
    expect(model.agents[1]?.pendingReferralMicro).toBe(100_000n);
    bet(model, 2, COIN, 500_000n, ratio(0));
    expect(model.agents[1]?.pendingReferralMicro).toBe(100_000n);
    bet(model, 2, COIN, 500_000n, ratio(0));
    expect(model.agents[1]?.pendingReferralMicro).toBe(104_000n);
    expect(model.casino.bets.map((placed) => placed.nonce)).toEqual([0, 1, 2, 3]);
  });
});

describe('model: fairness', () => {
  it('replays a revealed seed: the recorded multiplier and result must be what the draws give', () => {
    const model = newModel();
    register(model, 0);
    const hex = 'ab'.repeat(32);
    const truth = findGame('coin_flip')?.play({ side: 'heads' }, new DrawStream(hex, 'seed-0', 0));
    const wrong = truth?.multiplier.num === 0n ? ratioFromDecimal('1.96') : ratio(0);
    bet(model, 0, COIN, 100_000n, wrong, truth?.detail);
    const prediction = predictRotate('rotate(a0)', model, 0);
    expect(prediction.expected.body?.['revealed']).toMatchObject({ kind: 'object' });
    expect(() =>
      prediction.commit?.({
        revealed: { server_seed_hash: 'h0', server_seed: hex },
        active: { server_seed_hash: 'h1' },
      }),
    ).toThrow(/its SHA-256 .* is not the commitment h0/);
    const seed = model.casino.bets[0]?.seed;
    if (seed === undefined) throw new Error('a seed');
    seed.hash = sha256Hex(hex);
    seed.hex = hex;
    const problems = replayProblems(model, seed);
    expect(problems.some((problem) => /answered multiplier/.test(problem))).toBe(true);
  });
});

describe('model: tournaments, challenges, withdrawals', () => {
  it('pays 60/30/10 at the end, the rounding remainder to rank 1 and missing ranks to the creator', () => {
    const model = newModel();
    register(model, 0);
    register(model, 1);
    const create = predictCreateTournament(model, {
      creatorSlot: 0,
      name: 'cup',
      game: 'coin_flip',
      entryFeeMicro: 333_333n,
      poolMicro: USDC,
      maxAgents: 3,
      startsAtMs: START_MS,
      endsAtMs: START_MS + 3_600_000,
    });
    expect(create.expected.status).toBe(201);
    create.commit?.({ tournament_id: 'tnm_000000000001' });
    const tournament = model.casino.tournaments[0];
    if (tournament === undefined) throw new Error('created');
    predictEnter(model, 1, tournament).commit?.({});
    expect(predictEnter(model, 1, tournament).expected).toEqual({ status: 409, code: 'CONFLICT' });
    expect(tournament.poolMicro).toBe(1_333_333n);
    expect(timeBoundaries(model)).toContain(START_MS + 3_600_000);
    advanceModel(model, START_MS + 3_600_000);
    expect(tournament.prizes.map((prize) => [prize.slot, prize.amountMicro])).toEqual([[1, 800_001n]]);
    expect(model.agents[1]?.balanceMicro).toBe(10n * USDC - 333_333n + 800_001n);
    expect(model.agents[0]?.balanceMicro).toBe(10n * USDC - USDC + 533_332n);
    expect(predictEnter(model, 0, tournament).expected).toEqual({ status: 409, code: 'CONFLICT' });
    const before = model.agents[0]?.balanceMicro ?? 0n;
    const empty = { ...tournament, id: 'tnm_000000000002', entrants: [], completedAtMs: null, prizes: [] };
    completeTournament(model, empty);
    expect(empty.prizes).toEqual([]);
    expect(model.agents[0]?.balanceMicro).toBe(before + tournament.poolMicro);
  });

  it('takes a 2% cut of both stakes, rounded up, and pays the winner the rest', () => {
    expect(houseCutMicro(500_000n)).toBe(20_000n);
    expect(houseCutMicro(10_001n)).toBe(401n);
    const model = newModel();
    register(model, 0);
    register(model, 1);
    expect(
      predictCreateChallenge(model, {
        challengerSlot: 0,
        challenged: { slot: 0, via: 'id' },
        game: 'coin_flip',
        amountMicro: USDC,
        message: null,
      }).expected.status,
    ).toBe(400);
    expect(
      predictCreateChallenge(model, {
        challengerSlot: 0,
        challenged: { slot: 3, via: 'id' },
        game: 'coin_flip',
        amountMicro: USDC,
        message: null,
      }).expected.status,
    ).toBe(404);
    predictCreateChallenge(model, {
      challengerSlot: 0,
      challenged: { slot: 1, via: 'code' },
      game: 'dice',
      amountMicro: USDC,
      message: null,
    }).commit?.({ challenge_id: 'chl_000000000001' });
    const challenge = model.casino.challenges[0];
    expect(predictAccept(model, 0, challenge, null).expected).toEqual({ status: 403, code: 'FORBIDDEN' });
    const accept = predictAccept(model, 1, challenge, model.agents[1]?.id);
    expect(accept.expected.body?.['payout']).toEqual(money('A', 1_960_000n));
    expect(accept.expected.body?.['new_balance']).toEqual(money('A', 10n * USDC - USDC + 1_960_000n));
    accept.commit?.({ proof: { server_seed_hash: 'h', result_hash: 'r' }, result: {} });
    expect(model.agents[0]?.balanceMicro).toBe(9n * USDC);
    expect(challenge?.draw?.nonce).toBe(0);
  });

  it('withdraws with the 0.50 fee, refuses below 1.00 or above the balance, and reviews above 1,000 for 24 h', () => {
    const model = newModel();
    register(model, 0);
    expect(
      predictWithdraw(model, { slot: 0, amountMicro: 990_000n, address: '0x' + 'a'.repeat(40), chain: null }).expected
        .status,
    ).toBe(400);
    expect(predictWithdraw(model, { slot: 0, amountMicro: USDC, address: '0x1234', chain: null }).expected.status).toBe(
      400,
    );
    expect(
      predictWithdraw(model, { slot: 0, amountMicro: 9_500_001n, address: '0x' + 'a'.repeat(40), chain: null }).expected
        .code,
    ).toBe('INSUFFICIENT_BALANCE');
    const all = predictWithdraw(model, {
      slot: 0,
      amountMicro: 9_500_000n,
      address: '0x' + 'a'.repeat(40),
      chain: 'base',
    });
    expect(all.expected.body?.['status']).toEqual(eq('completed'));
    all.commit?.({ withdrawal_id: 'wd_1' });
    expect(model.agents[0]?.balanceMicro).toBe(0n);
    model.casino.deposits.push({
      slot: 0,
      amountMicro: 2_000n * USDC,
      creditAtMs: START_MS + 120_000,
      credited: false,
    });
    expect(predictCasinoBalance(model, 0).expected.body?.['pending_deposits']).toEqual(money('A', 2_000n * USDC));
    advanceModel(model, START_MS + 120_000);
    const review = predictWithdraw(model, {
      slot: 0,
      amountMicro: 1_000n * USDC + 1n,
      address: '0x' + 'a'.repeat(40),
      chain: null,
    });
    expect(review.expected.body?.['status']).toEqual(eq('pending_review'));
    review.commit?.({ withdrawal_id: 'wd_2' });
    expect(predictCasinoBalance(model, 0).expected.body?.['pending_withdrawals']).toEqual(
      money('A', 1_000n * USDC + 1n),
    );
    advanceModel(model, START_MS + 120_000 + 86_400_000);
    expect(model.casino.withdrawals[1]?.completedAtMs).toBe(START_MS + 120_000 + 86_400_000);
  });
});
