/**
 * The deployed casino's bet answer (spec/DEPLOYED.md §2.4): `{ bet_id, game, amount_bet, result,
 * won, payout_multiplier, amount_won, new_balance, proof, kelly }` — afp's style A answer without
 * its `placed_at`, which the deployment does not send. The figures are afp's, exactly: `amount_won`
 * and `new_balance` to the micro (the deployment rounds them to 2 dp), `won` when the payout exceeds
 * the stake (the deployment also says true for pushes and every plinko drop), `bet_id` afp's id.
 * With --float-money (RouteContext.floatBalances) the money is the deployment's doubles instead.
 * Also the refusal names of a bet (§2.4, §2.12) and cards as the deployment shows them.
 */
import type { Failure, JsonObject } from '../../../core/errors.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import type { CasinoState } from '../../../services/casino/casino-state.ts';
import { renamed } from '../../deployed/deployed-errors.ts';
import { roundCents, type FloatBalances } from '../../deployed/float-balances.ts';
import { betA } from '../casino/casino-render.ts';

export function deployedBet(bet: BetRecord, state: CasinoState, floatBalances?: FloatBalances): JsonObject {
  const { placed_at: _placedAt, ...answer } = betA(bet, state);
  return floatBalances === undefined ? answer : floatMoneyBet(answer, bet, floatBalances);
}

/**
 * With --float-money, as the deployment settles (§2.4): the balance a double moved by `- amount` and
 * `+ amount × payout_multiplier`, shown rounded to 2 dp, and `amount_won` that unrounded credit
 * rounded to 2 dp (both display fields).
 */
function floatMoneyBet(answer: JsonObject, bet: BetRecord, floatBalances: FloatBalances): JsonObject {
  const multiplier = answer['payout_multiplier'] as number;
  const amount = answer['amount_bet'] as number;
  const balance = floatBalances.settle({ agentId: bet.agentId, amountMicro: bet.amountMicro, payoutMicro: bet.payoutMicro, balanceAfterMicro: bet.balanceAfterMicro, multiplier });
  return { ...answer, amount_won: bet.payoutMicro > 0n ? roundCents(amount * multiplier) : 0, new_balance: roundCents(balance) };
}

/** §2.4: `minimum_bet`, `insufficient_balance`, `kelly_limit_exceeded` (with `max_bet`); others by code. */
export function betRefusal(failure: Failure): Failure {
  if (failure.extra?.['error'] !== undefined) return failure;
  if (failure.code === 'INSUFFICIENT_BALANCE') return renamed(failure, 'insufficient_balance', 400);
  if (failure.code === 'GAME_CLOSED') return renamed(failure, 'game_closed', 400);
  if (failure.code !== 'BAD_REQUEST') return failure;
  if (failure.extra?.['min_bet'] !== undefined) return renamed(failure, 'minimum_bet', 400);
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
