/**
 * The deployed casino's bet answer (spec/DEPLOYED.md §2.4): `{ bet_id, game, amount_bet, result,
 * won, payout_multiplier, amount_won, new_balance, proof, kelly }` — afp's style A answer without
 * its `placed_at`, which the deployment does not send. As the deployment writes them: `won` when the
 * multiplier is above 0 (pushes, every plinko drop and the 0.5× wheel sector too);
 * `payout_multiplier` the rule's double itself (the bet keeps its exact decimal), on a lost bet the
 * multiplier of the bet as placed (shownMultiplier); `amount_won` and
 * `new_balance` rounded half up to the rules' display places (default 2) from afp's exact micro
 * amounts (the ledger keeps the micro). Also the refusal names of a bet (§2.4, §2.12) and cards as
 * the deployment shows them.
 * Float noise (rules `money.floatNoise` or --float-money, DEPLOYED.md §2.2): RouteContext.floatBalances
 * keeps each agent's balance as the deployment's double (`- amount`, then `+ amount × multiplier`),
 * and `amount_won` / `new_balance` are those doubles rounded to the display places.
 */
import type { Failure, JsonObject } from '../../../core/errors.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import type { Micro } from '../../../core/money.ts';
import type { Ratio } from '../../../core/ratio.ts';
import { fixedNumber } from '../../../services/casino/kelly/kelly-numbers.ts';
import { moneyA } from '../../render.ts';
import type { RouteContext } from '../../route.ts';
import { deployedRulesOf } from './deployed-rules-of.ts';
import { deployedFailure, renamed } from '../../deployed/deployed-errors.ts';
import type { FloatBalances } from '../../deployed/float-balances.ts';
import { betA } from '../casino/casino-render.ts';
import { deployedDraw } from '../../../services/casino/deployed/deployed-draw.ts';
import { isUnreadable } from '../../../services/casino/deployed/deployed-rule.ts';

export function deployedBet(bet: BetRecord, context: RouteContext): JsonObject {
  const { placed_at: _placedAt, ...answer } = betA(bet, context.platform.casino.state);
  const { display } = deployedRulesOf(context);
  const shown = { ...answer, won: bet.multiplier.num > 0n, payout_multiplier: shownMultiplier(bet, context) };
  if (context.floatBalances !== undefined) return floatMoneyBet(shown, bet, context.floatBalances, display);
  return {
    ...shown,
    amount_won: roundedMoney(bet.payoutMicro, display.amountWonPlaces),
    new_balance: roundedMoney(bet.balanceAfterMicro, display.newBalancePlaces),
  };
}

/**
 * The `payout_multiplier` the answer shows (§2.4): on a win the multiplier paid; on a loss the
 * multiplier of the bet as placed (the deployed rule's `placedNumber`, replayed from the bet's own
 * seed, which the stand-in holds), 0 where the game shows the multiplier reached (keno, scratch
 * card, video poker, slots, wheel) or where the rules say `display.multiplier_on_loss: false`.
 */
function shownMultiplier(bet: BetRecord, context: RouteContext): number {
  if (bet.multiplier.num > 0n) return exactNumber(bet.multiplier);
  const rules = deployedRulesOf(context);
  if (!rules.display.multiplierOnLoss) return 0;
  const seed = context.platform.casino.state.seeds.byCommitment(bet.seedHash)?.seed;
  if (seed === undefined) return 0;
  const drawn = deployedDraw(rules, {
    game: bet.game,
    params: bet.params,
    seedHex: seed.hex,
    clientSeed: bet.clientSeed,
    nonce: bet.nonce,
  });
  return isUnreadable(drawn) ? 0 : drawn.placedNumber;
}

/**
 * With float money, as the deployment settles (§2.4): the balance a double moved by `- amount` and
 * `+ amount × payout_multiplier`, shown rounded to its display places, and `amount_won` that
 * unrounded credit rounded likewise (both display fields).
 */
function floatMoneyBet(
  answer: JsonObject,
  bet: BetRecord,
  floatBalances: FloatBalances,
  display: { amountWonPlaces: number; newBalancePlaces: number },
): JsonObject {
  const multiplier = answer['payout_multiplier'] as number;
  const amount = answer['amount_bet'] as number;
  const balance = floatBalances.settle({
    agentId: bet.agentId,
    amountMicro: bet.amountMicro,
    payoutMicro: bet.payoutMicro,
    balanceAfterMicro: bet.balanceAfterMicro,
    multiplier,
  });
  return {
    ...answer,
    amount_won: bet.payoutMicro > 0n ? roundPlaces(amount * multiplier, display.amountWonPlaces) : 0,
    new_balance: roundPlaces(balance, display.newBalancePlaces),
  };
}

/** The deployment's display rounding of a double (`Math.round(x * 10^k) / 10^k`; k = 2 is roundCents). */
function roundPlaces(value: number, places: number): number {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
}

/** Decimal places beyond which a ratio is not shown as its exact decimal (a double has at most 767). */
const EXACT_PLACES_MAX = 40;

/** A ratio with a finite decimal (a denominator dividing 10^k) as the double that decimal names; others to 6 places. */
export function exactNumber(value: Ratio): number {
  let scale = 1n;
  for (let places = 0; places <= EXACT_PLACES_MAX; places += 1, scale *= 10n) {
    if (scale % value.den === 0n) return Number(`${value.num * (scale / value.den)}e-${places}`);
  }
  return fixedNumber(value);
}

/** Micro-USDC rounded half up to `places` decimals (0–6), as a JSON number. */
export function roundedMoney(amountMicro: Micro, places: number): number {
  const step = 10n ** BigInt(6 - places);
  const half = step / 2n;
  const rounded = amountMicro >= 0n ? ((amountMicro + half) / step) * step : -(((-amountMicro + half) / step) * step);
  return moneyA(rounded);
}

/** §2.4: `minimum_bet`, `insufficient_balance`, `kelly_limit_exceeded` (with `max_bet`); others by code. */
export function betRefusal(failure: Failure): Failure {
  if (failure.extra?.['error'] !== undefined) return failure;
  if (failure.code === 'INSUFFICIENT_BALANCE') return renamed(failure, 'insufficient_balance', 400);
  if (failure.code === 'GAME_CLOSED') return renamed(failure, 'game_closed', 400);
  if (failure.code !== 'BAD_REQUEST') return failure;
  // §2.4: the message alone ("Minimum bet is $0.01"), no extras.
  if (failure.extra?.['min_bet'] !== undefined) return deployedFailure(400, 'minimum_bet', failure.message);
  if (failure.message.includes('Kelly')) return renamed(failure, 'kelly_limit_exceeded', 400);
  if (failure.extra?.['max_bet'] !== undefined) return renamed(failure, 'maximum_bet', 400);
  return renamed(failure, 'invalid_params', 400);
}

const RANKS: Readonly<Record<string, string>> = { T: '10' };
const SUITS: Readonly<Record<string, string>> = { S: '♠', H: '♥', D: '♦', C: '♣' };

/** afp's card code ("QS", "TH") as the deployment's `{ rank, suit }` ({ rank: "Q", suit: "♠" }). */
export function cardObject(code: string): JsonObject {
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  return { rank: RANKS[rank] ?? rank, suit: SUITS[suit] ?? suit };
}
