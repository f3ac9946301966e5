/**
 * The deployed casino's batch (spec/DEPLOYED.md §2.6): `POST /api/v1/bets/batch { bets }`, 1 to 20
 * elements run in order, each like a single bet (afp's placeBet through casino.batch); an element's
 * refusal is an `{ error, message, ...extras }` object in `results` and does not stop the rest (more
 * than 20 → 400 `too_many_bets`). Missing parameters take the deployment's defaults (side heads,
 * direction over, threshold 50, ...). Games: all but video_poker, baccarat and parlay (a parlay
 * element is refused as an unknown game is: invalid_game). Summary `{ total, won, lost, errors, total_wagered, total_won, net_pnl, win_rate_pct }`
 * with afp's exact figures (the deployment's `total_wagered` is always 0: that is the
 * `batch-summary-zero` defect here), `balance_after`, `kelly_max_next_bet` = balance × risk factor
 * (rounded down to the cent).
 */
import { isFailure, type Failure, type JsonObject } from '../../../core/errors.ts';
import { applyToMicro } from '../../../core/ratio.ts';
import { findGame } from '../../../services/casino/games/index.ts';
import { riskFactorOf } from '../../../services/casino/kelly-rule.ts';
import { deployedFailure, deployedRefusal } from '../../deployed/deployed-errors.ts';
import { moneyA } from '../../render.ts';
import { roundCents } from '../../deployed/float-balances.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { parseBetFields, type ParsedBet } from '../casino/casino-bet-fields.ts';
import { batchSummary, type BatchResults } from '../casino/batch-summary.ts';
import { casinoCaller, placeBatch, type BatchCommand } from '../casino/casino-games.ts';
import { betRefusal, deployedBet } from './casino-bet-answer.ts';
import { deployedRoute, knownFields } from './deployed-row.ts';
import { deployedRulesOf } from './deployed-rules-of.ts';

/** §2.6's defaults for a batch element's missing parameters. */
const DEFAULTS: Readonly<Record<string, unknown>> = {
  side: 'heads',
  direction: 'over',
  threshold: 50,
  target_multiplier: 2,
  bet_type: 'red',
  win_probability: 50,
  action: 'stand',
  cash_out_at: 2,
  rows: 8,
  risk: 'low',
  pick: 3,
  guess: 'higher',
  picks: [1, 2, 3],
  mines: 3,
  reveals: 3,
};
const NOT_IN_BATCH: readonly string[] = ['video_poker', 'baccarat', 'parlay'];

function parseElement(element: unknown, index: number): ParsedBet | Failure {
  if (typeof element !== 'object' || element === null || Array.isArray(element))
    return deployedFailure(400, 'invalid_bet', `bets[${index}] must be an object`);
  const gameId = (element as Record<string, unknown>)['game'];
  const game = typeof gameId === 'string' ? findGame(gameId) : undefined;
  if (game === undefined || NOT_IN_BATCH.includes(game.id))
    return deployedFailure(
      400,
      'invalid_game',
      `bets[${index}].game must be a single-call game other than ${NOT_IN_BATCH.join(', ')}`,
    );
  const fields = knownFields(element, ['amount', 'client_seed', ...game.paramFields]) as Record<string, unknown>;
  for (const field of game.paramFields)
    if (fields[field] === undefined && DEFAULTS[field] !== undefined) fields[field] = DEFAULTS[field];
  const parsed = parseBetFields(fields, game, 'number');
  return isFailure(parsed) ? betRefusal(parsed) : parsed;
}

function parseBatch(input: RouteInput, batchMax: number): BatchCommand | Failure {
  const body = input.body;
  const bets =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)['bets']
      : undefined;
  if (!Array.isArray(bets) || bets.length === 0)
    return deployedFailure(400, 'invalid_request', 'bets must be an array of 1 to 20 bets');
  if (bets.length > batchMax) return deployedFailure(400, 'too_many_bets', `Maximum ${batchMax} bets per batch`);
  return { elements: bets.map((element: unknown, index) => parseElement(element, index)) };
}

function renderBatch(results: BatchResults, context: RouteContext): JsonObject {
  const agentId = casinoCaller(context);
  // The deployment counts a bet as won when it pays anything (a push too).
  const lines = batchSummary(results, context, {
    won: (bet) => bet.multiplier.num > 0n,
    placed: (bet) => deployedBet(bet, context),
    refused: (failure) => deployedRefusal(betRefusal(failure), 'casino').body,
  });
  const balanceMicro = context.platform.casino.balanceMicro(agentId);
  const kellyMicro =
    (applyToMicro(balanceMicro, riskFactorOf(context.platform.casino.state, agentId)) / 10_000n) * 10_000n;
  return {
    ...lines,
    balance_after:
      context.floatBalances === undefined
        ? moneyA(balanceMicro)
        : roundCents(context.floatBalances.balance(agentId, balanceMicro)),
    kelly_max_next_bet: moneyA(kellyMicro),
  };
}

const batch = deployedRoute<BatchCommand, BatchResults>({
  id: 'casino.deployed.batch',
  service: 'casino',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Place 1 to 20 bets ({ bets: [{ game, amount, ...params }] }); each is processed like a single bet.',
  parse: (input, context) => parseBatch(input, context.platform.config.casino.batchMax),
  run: (context, command) => ({ ok: true, value: placeBatch(context, command, deployedRulesOf(context)) }),
  successStatus: 200,
  render: renderBatch,
});

export const deployedBatchRoutes: readonly Route[] = [batch];
