/**
 * The deployed casino's parlay row (spec/DEPLOYED.md §2.5): `POST /api/v1/games/parlay { amount
 * 0.01–10, bets: 2–5 × { game, params } }`, legs coin_flip, dice, simple_dice, multiplier, placed as
 * one bet (services/casino/parlay-bet.ts) → `{ parlay_id, total_bet, legs, all_won, legs_won,
 * combined_multiplier, payout, balance_after }`, each leg `{ game, params, nonce, ...its result
 * fields, won }`. `payout` and `balance_after` are shown rounded half up to the cent (the ledger keeps
 * the micro), as the deployment's round2; with float money, the balance is the deployment's double.
 * Refusals: the deployment's `{ error, message }` at 400 (betRefusal's names: minimum_bet,
 * maximum_bet, insufficient_balance, invalid_params). Not in the batch (§2.6); no referral (§2.9).
 * Keys other than amount and bets are ignored, as the deployment ignores them.
 */
import { isFailure, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import { isClientSeed } from '../../../services/casino/place-bet.ts';
import type { ParlayCommand } from '../../../services/casino/parlay-bet.ts';
import { PARLAY_LEG_GAMES, PARLAY_LEGS_MAX, PARLAY_LEGS_MIN } from '../../../services/casino/deployed/parlay-rule.ts';
import { deployedFailure } from '../../deployed/deployed-errors.ts';
import { roundCents } from '../../deployed/float-balances.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { deployedRoute } from './deployed-row.ts';
import { amountField } from '../casino/casino-bet-fields.ts';
import { casinoCaller } from '../casino/casino-games.ts';
import { betRefusal, roundedMoney } from './casino-bet-answer.ts';
import { deployedRulesOf } from './deployed-rules-of.ts';

type ParsedParlay = Omit<ParlayCommand, 'agentId' | 'rules'>;

const invalid = (message: string): Failure => deployedFailure(400, 'invalid_params', message);

/**
 * 2 to 5 legs, each a `{ game, params? }` object of a leg game whose client seed, where sent, is a
 * client seed; the leg's fields are its rule's to read (when placed).
 */
function legsOf(bets: unknown): JsonObject[] | Failure {
  if (!Array.isArray(bets) || bets.length < PARLAY_LEGS_MIN || bets.length > PARLAY_LEGS_MAX)
    return invalid(`bets must be an array of ${PARLAY_LEGS_MIN} to ${PARLAY_LEGS_MAX} legs { game, params }`);
  const legs: JsonObject[] = [];
  for (const [index, bet] of (bets as unknown[]).entries()) {
    if (typeof bet !== 'object' || bet === null || Array.isArray(bet))
      return invalid(`bets[${index}] must be an object { game, params }`);
    const { game, params } = bet as Record<string, unknown>;
    if (typeof game !== 'string' || !PARLAY_LEG_GAMES.includes(game))
      return invalid(`bets[${index}].game must be one of ${PARLAY_LEG_GAMES.join(', ')}`);
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
      return invalid(`bets[${index}].params must be an object`);
    const seed =
      typeof params === 'object' && params !== null ? (params as Record<string, unknown>)['client_seed'] : null;
    if (seed !== undefined && seed !== null && (typeof seed !== 'string' || !isClientSeed(seed)))
      return invalid(`bets[${index}].params.client_seed must be 1 to 64 printable characters without ':'`);
    legs.push(params === undefined ? ({ game } as JsonObject) : ({ game, params } as JsonObject));
  }
  return legs;
}

function parseParlay(input: RouteInput): ParsedParlay | Failure {
  const body = input.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return invalid('the body must be an object { amount, bets }');
  const fields = body as Record<string, unknown>;
  const amountMicro = amountField({ amount: fields['amount'] }, 'number');
  if (isFailure(amountMicro)) return betRefusal(amountMicro);
  const bets = legsOf(fields['bets']);
  return isFailure(bets) ? bets : { amountMicro, bets };
}

function renderParlay(bet: BetRecord, context: RouteContext): JsonObject {
  const detail = bet.detail;
  const balanceAfter =
    context.floatBalances === undefined
      ? roundedMoney(bet.balanceAfterMicro, 2)
      : roundCents(
          context.floatBalances.settle({
            agentId: bet.agentId,
            amountMicro: bet.amountMicro,
            payoutMicro: bet.payoutMicro,
            balanceAfterMicro: bet.balanceAfterMicro,
            multiplier: (detail['all_won'] === true ? detail['combined_multiplier'] : 0) as number,
          }),
        );
  return {
    parlay_id: bet.id,
    total_bet: roundedMoney(bet.amountMicro, 2),
    legs: detail['legs'] ?? [],
    all_won: detail['all_won'] ?? false,
    legs_won: detail['legs_won'] ?? 0,
    combined_multiplier: detail['combined_multiplier'] ?? 0,
    payout: roundedMoney(bet.payoutMicro, 2),
    balance_after: balanceAfter,
  };
}

const parlay = deployedRoute<ParsedParlay, BetRecord>({
  id: 'casino.deployed.game.parlay',
  service: 'casino',
  style: 'deployed',
  auth: 'bearer',
  summary:
    'Play a parlay ({ amount 0.01–10, bets: 2–5 × { game, params } }; coin_flip, dice, simple_dice, multiplier legs): every leg must win.',
  parse: (input) => parseParlay(input),
  run: (context, command) => {
    const outcome = context.platform.casino.parlay(
      { ...command, agentId: casinoCaller(context), rules: deployedRulesOf(context) },
      context.nowMs,
    );
    return outcome.ok ? outcome : betRefusal(outcome);
  },
  successStatus: 200,
  render: renderParlay,
});

export const deployedParlayRoutes: readonly Route[] = [parlay];
