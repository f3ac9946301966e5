/**
 * Bets in the reference model: the amount a command means (resolved against the model: the
 * minimum, just below it, the Kelly limit exactly and one micro above it, more than the balance,
 * above the game's maximum), the refusal the casino must answer, and for an accepted bet the exact
 * answer given the multiplier it reports.
 *
 * Refusals in afp's documented order (docs/decisions/casino.md "Casino service", "Casino Kelly rule"): bad input 400; below
 * the minimum 400 with `min_bet`; above the game's maximum 400 with `max_bet`; balance below the
 * amount 422 INSUFFICIENT_BALANCE; above the Kelly limit for the balance before the bet 400 with
 * `max_bet` = that limit. An accepted bet takes the agent's next nonce, moves the stake to the
 * house and floor(stake × multiplier) back, and pays referral commissions on net losses.
 * The multiplier is read from the answer and must be one the game pays (the answer is refused
 * otherwise); the revealed seed decides later whether it was the right one.
 */
import { parseDecimal, parseNumber } from '../../core/money.ts';
import type { Ratio } from '../../core/ratio.ts';
import type { JsonValue } from '../../core/errors.ts';
import { requireAgent, type CheckModel } from '../check-model.ts';
import { eq, money, object, text, time, type Matcher } from '../expectation.ts';
import { accrueCommissions, casinoAgent, nextDraw, takeDraw } from './model-casino.ts';
import type { ModelBet, ModelSeed } from './casino-state.ts';
import { field, learnHash, seedMatcher } from './model-casino-expect.ts';
import {
  choiceText,
  kellyLimitMicro,
  gameMaxBetMicro,
  MIN_BET_MICRO,
  support,
  validChoice,
  type ModelGameChoice,
} from './model-casino-games.ts';

export type AmountKind = 'min' | 'below-min' | 'small' | 'half-kelly' | 'kelly' | 'kelly+1' | 'balance+1' | 'over-max';

/** The micro-USDC a kind means for `slot` now (a Kelly kind on invalid parameters means 'small'). */
export function resolveAmount(
  model: Readonly<CheckModel>,
  slot: number,
  choice: ModelGameChoice,
  kind: AmountKind,
): bigint {
  const balanceMicro = requireAgent(model, slot).balanceMicro;
  const limit = (): bigint =>
    validChoice(choice) ? kellyLimitMicro(choice, balanceMicro, casinoAgent(model, slot).riskPercent) : 50_000n;
  switch (kind) {
    case 'min':
      return MIN_BET_MICRO;
    case 'below-min':
      return refusedAmountMicro(model, slot, kind);
    case 'small':
      return 50_000n;
    case 'half-kelly':
      return limit() / 2n;
    case 'kelly':
      return limit();
    case 'kelly+1':
      return limit() + 1n;
    case 'balance+1':
      return refusedAmountMicro(model, slot, kind);
    case 'over-max':
      return gameMaxBetMicro(choice.game) + 1n;
  }
}

/** Amounts every casino stake (bet, challenge, prize pool) is drawn at to be refused: below the minimum (400), over the balance (422). */
export type RefusedAmountKind = 'below-min' | 'balance+1';

/** One micro below the 0.01 minimum, or one micro above what `slot` holds now (at least 1). */
export function refusedAmountMicro(model: Readonly<CheckModel>, slot: number, kind: RefusedAmountKind): bigint {
  if (kind === 'below-min') return MIN_BET_MICRO - 1n;
  const balanceMicro = model.agents[slot]?.balanceMicro ?? 0n;
  return (balanceMicro < 0n ? 0n : balanceMicro) + 1n;
}

interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly body?: Readonly<Record<string, Matcher>>;
}

/**
 * Whether `game` is closed to a bet now, by the target's closures (GET /_afp/platform; check-model.ts
 * ModelFault). Within the time tolerance of a closure's edge (a wall-clock target, whose now the
 * model only estimates) the target's clock decides, and either answer is right: the answer says
 * which (`answeredClosed`: it was refused 409 GAME_CLOSED). Elsewhere the model's now decides.
 */
function gameClosed(model: Readonly<CheckModel>, game: string, answeredClosed: boolean): boolean {
  const nowMs = model.nowMs;
  const tolerance = model.timeToleranceMs;
  const closures = model.faults.filter((fault) => fault.game === game);
  const nearEdge = closures.some(
    (fault) => Math.abs(nowMs - fault.fromMs) < tolerance || Math.abs(nowMs - fault.untilMs) < tolerance,
  );
  if (nearEdge) return answeredClosed;
  return closures.some((fault) => nowMs >= fault.fromMs && nowMs < fault.untilMs);
}

/**
 * The refusal of a bet of `amountMicro` by `slot` with its current balance, or null when it settles.
 * `answeredClosed`: the target refused it 409 GAME_CLOSED (read only at a closure's edge, gameClosed).
 */
export function expectedBetRefusal(
  model: Readonly<CheckModel>,
  slot: number,
  choice: ModelGameChoice,
  amountMicro: bigint,
  answeredClosed: boolean,
): Refusal | null {
  if (amountMicro <= 0n || !validChoice(choice)) return { status: 400, code: 'BAD_REQUEST' };
  // The target's closures of this game (GET /_afp/platform): checked first, as the casino does.
  if (gameClosed(model, choice.game, answeredClosed)) return { status: 409, code: 'GAME_CLOSED' };
  if (amountMicro < MIN_BET_MICRO)
    return { status: 400, code: 'BAD_REQUEST', body: { min_bet: money('A', MIN_BET_MICRO) } };
  if (amountMicro > gameMaxBetMicro(choice.game))
    return { status: 400, code: 'BAD_REQUEST', body: { max_bet: money('A', gameMaxBetMicro(choice.game)) } };
  const balanceMicro = requireAgent(model, slot).balanceMicro;
  if (balanceMicro < amountMicro) return { status: 422, code: 'INSUFFICIENT_BALANCE' };
  const limitMicro = kellyLimitMicro(choice, balanceMicro, casinoAgent(model, slot).riskPercent);
  if (amountMicro > limitMicro) return { status: 400, code: 'BAD_REQUEST', body: { max_bet: money('A', limitMicro) } };
  return null;
}

/** Which multiplier of the game's law the answer reports: style A by `payout_multiplier` (6 decimals), B by the payout. */
export function inferMultiplier(
  choice: ModelGameChoice,
  amountMicro: bigint,
  reported: { style: 'A'; value: unknown } | { style: 'B'; value: unknown },
): Ratio | string {
  const payouts = support(choice);
  const listed = payouts.map((multiplier) => (Number(multiplier.num) / Number(multiplier.den)).toString()).join(', ');
  if (reported.style === 'A') {
    const micro = typeof reported.value === 'number' ? parseNumber(reported.value) : null;
    const found =
      typeof micro === 'bigint'
        ? payouts.find((multiplier) => 2n * abs(micro * multiplier.den - multiplier.num * 1_000_000n) <= multiplier.den)
        : undefined;
    return (
      found ??
      `payout_multiplier: expected one of the multipliers ${choiceText(choice)} pays (${listed}), got ${JSON.stringify(reported.value)}`
    );
  }
  const payoutMicro = typeof reported.value === 'string' ? parseDecimal(reported.value) : null;
  const found =
    typeof payoutMicro === 'bigint'
      ? payouts.find((multiplier) => (amountMicro * multiplier.num) / multiplier.den === payoutMicro)
      : undefined;
  return (
    found ??
    `payout: expected floor(amount × m) for a multiplier m ${choiceText(choice)} pays (${listed}), got ${JSON.stringify(reported.value)}`
  );
}

const abs = (value: bigint): bigint => (value < 0n ? -value : value);

/** An accepted bet as the model settles it. */
export interface Settlement {
  readonly slot: number;
  readonly choice: ModelGameChoice;
  readonly amountMicro: bigint;
  readonly multiplier: Ratio;
  readonly payoutMicro: bigint;
  readonly draw: { readonly seed: ModelSeed; readonly nonce: number };
  /** The client seed sent, or null when the casino generates one (read from the proof). */
  readonly clientSeed: string | null;
  readonly balanceAfterMicro: bigint;
}

export function settlementOf(
  model: Readonly<CheckModel>,
  slot: number,
  choice: ModelGameChoice,
  amountMicro: bigint,
  multiplier: Ratio,
  clientSeed: string | null,
): Settlement {
  const payoutMicro = (amountMicro * multiplier.num) / multiplier.den;
  const balanceAfterMicro = requireAgent(model, slot).balanceMicro - amountMicro + payoutMicro;
  return {
    slot,
    choice,
    amountMicro,
    multiplier,
    payoutMicro,
    draw: nextDraw(model, slot),
    clientSeed,
    balanceAfterMicro,
  };
}

/** The fields of a style-A bet answer (single bet, batch element, tournament play). */
export function betBodyA(model: Readonly<CheckModel>, settled: Settlement): Record<string, Matcher> {
  return {
    bet_id: text(),
    game: eq(settled.choice.game),
    amount_bet: money('A', settled.amountMicro),
    won: eq(settled.payoutMicro > settled.amountMicro),
    amount_won: money('A', settled.payoutMicro),
    new_balance: money('A', settled.balanceAfterMicro),
    proof: object({
      server_seed_hash: seedMatcher(settled.draw.seed),
      client_seed: settled.clientSeed === null ? text() : eq(settled.clientSeed),
      nonce: eq(settled.draw.nonce),
      result_hash: text(),
    }),
    placed_at: time(model.nowMs),
  };
}

/** The fields of a style-B bet answer: `{ bet_id, win, payout, balance, seed, nonce, game }`. */
export function betBodyB(settled: Settlement): Record<string, Matcher> {
  return {
    bet_id: text(),
    win: eq(settled.payoutMicro > settled.amountMicro),
    payout: money('B', settled.payoutMicro),
    balance: money('B', settled.balanceAfterMicro),
    seed: seedMatcher(settled.draw.seed),
    nonce: eq(settled.draw.nonce),
    game: eq(settled.choice.game === 'coin_flip' ? 'coinflip' : settled.choice.game),
  };
}

/** Applies an accepted bet whose answer matched: balance, nonce, commissions, the bet record. */
export function commitBet(
  model: CheckModel,
  settled: Settlement,
  answer: Readonly<Record<string, unknown>>,
  style: 'A' | 'B',
): ModelBet {
  const agent = requireAgent(model, settled.slot);
  agent.balanceMicro = settled.balanceAfterMicro;
  takeDraw(model, settled.slot, settled.draw);
  const proof = style === 'A' ? field(answer, 'proof') : answer;
  learnHash(settled.draw.seed, style === 'A' ? field(proof, 'server_seed_hash') : field(answer, 'seed'));
  accrueCommissions(model, settled.slot, settled.amountMicro, settled.payoutMicro);
  const clientSeed = settled.clientSeed ?? String(field(proof, 'client_seed'));
  const resultHash = style === 'A' ? field(proof, 'result_hash') : null;
  const bet: ModelBet = {
    id: String(answer['bet_id']),
    slot: settled.slot,
    choice: settled.choice,
    amountMicro: settled.amountMicro,
    multiplier: settled.multiplier,
    payoutMicro: settled.payoutMicro,
    clientSeed,
    nonce: settled.draw.nonce,
    seed: settled.draw.seed,
    detail: answer['result'] as JsonValue | undefined,
    resultHash: typeof resultHash === 'string' ? resultHash : null,
    atMs: model.nowMs,
    label: `bet#${model.casino.bets.length} of a${settled.slot} (${choiceText(settled.choice)}, nonce ${settled.draw.nonce})`,
  };
  model.casino.bets.push(bet);
  return bet;
}
