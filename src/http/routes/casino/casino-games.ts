/**
 * Casino style A game rows (mount 'casino', /api/v1): GET /games (the game table with rules),
 * one POST /games/<path> row per game, generated from the game table (STYLE rule 6: a new game is
 * a new module, not a copied handler), and POST /bets/batch (1 to 20 bets, each processed like a
 * single bet; an error in one element does not abort the rest — NOTES.md "Batch").
 * Video poker's two phases are their own rows (casino-video-poker.ts).
 */
import { assert } from '../../../core/assert.ts';
import { fail, Failure, isFailure, type JsonObject } from '../../../core/errors.ts';
import { ratioToNumber } from '../../../core/ratio.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import type { BetCommand } from '../../../services/casino/place-bet.ts';
import type { GameModule } from '../../../services/casino/games/game.ts';
import { findGame, GAMES } from '../../../services/casino/games/index.ts';
import type { DeployedCasinoRules } from '../../../services/casino/deployed/deployed-casino-rules.ts';
import { kellyInputs } from '../../../services/casino/kelly/kelly-inputs.ts';
import { moneyA } from '../../render.ts';
import { listCall } from '../../list-call.ts';
import { defineRoute, type Route, type RouteContext, type RouteInput } from '../../route.ts';
import { bodyOnly, knownQuery, NO_KEYS, type Fields } from '../../validate.ts';
import { parseBetFields, type ParsedBet } from './casino-bet-fields.ts';
import { batchSummary, type BatchResults } from './batch-summary.ts';
import { betA } from './casino-render.ts';

export function casinoCaller(context: RouteContext): string {
  assert(context.caller !== null, 'bearer rows run with an authenticated caller');
  return context.caller.id;
}

export function betCommand(context: RouteContext, parsed: ParsedBet, source: BetCommand['source']): BetCommand {
  return {
    agentId: casinoCaller(context),
    game: parsed.game,
    params: parsed.params,
    paramsJson: parsed.paramsJson,
    amountMicro: parsed.amountMicro,
    clientSeed: parsed.clientSeed,
    source,
  };
}

/** The games table as GET /games lists it (style A): rules, limits, edges, variants. */
export function gameRulesA(game: GameModule): JsonObject {
  const defaultVariant = game.variants()[0];
  const inputs = defaultVariant === undefined ? null : kellyInputs(game.distribution(defaultVariant.params));
  return {
    id: game.id,
    name: game.name,
    path: `/api/v1/games/${game.path}${game.id === 'video_poker' ? '/deal' : ''}`,
    parameters: [...game.paramFields],
    house_edge: game.advertisedEdgeText,
    theoretical_edge: inputs === null ? null : Number(ratioToNumber(inputs.edge).toFixed(6)),
    min_bet: moneyA(game.minBetMicro),
    max_bet: moneyA(game.maxBetMicro),
    variants: game.variants().map((variant) => variant.name),
  };
}

const gamesA = listCall(
  { items: ['games'], count: 'count' },
  defineRoute<null, readonly GameModule[]>({
    id: 'casino.A.games',
    service: 'casino',
    style: 'A',
    mount: 'casino',
    method: 'GET',
    path: '/api/v1/games',
    auth: 'bearer',
    summary: 'The 17 games with their parameters, limits and house edges.',
    parse: (input) => knownQuery(input.query, NO_KEYS) ?? null,
    run: () => ({ ok: true, value: GAMES }),
    successStatus: 200,
    render: (games, context) => ({
      games: games.map(gameRulesA),
      count: games.length,
      closed: [...context.platform.casino.state.closedGames].sort(),
    }),
  }),
);

function gameRow(game: GameModule): Route {
  return defineRoute<ParsedBet, BetRecord>({
    id: `casino.A.game.${game.id}`,
    service: 'casino',
    style: 'A',
    mount: 'casino',
    method: 'POST',
    path: `/api/v1/games/${game.path}`,
    auth: 'bearer',
    summary: `Play ${game.name} (${game.paramFields.length === 0 ? 'no parameters' : game.paramFields.join(', ')}); advertised house edge ${game.advertisedEdgeText}.`,
    parse: (input) => parseGameBody(input, game),
    run: (context, parsed) => context.platform.casino.bet(betCommand(context, parsed, 'A'), context.nowMs),
    successStatus: 200,
    render: (bet, context) => betA(bet, context.platform.casino.state),
  });
}

function parseGameBody(input: RouteInput, game: GameModule): ParsedBet | Failure {
  const unknownQuery = knownQuery(input.query, NO_KEYS);
  if (unknownQuery !== null) return unknownQuery;
  const body = input.body;
  if (body === undefined || body === null) return fail('BAD_REQUEST', 'request body must be a JSON object with amount');
  // objectBody's check with every key allowed (parseBetFields refuses the unknown ones).
  if (typeof body !== 'object' || Array.isArray(body)) return fail('BAD_REQUEST', 'request body must be a JSON object');
  return parseBetFields(body as Fields, game, 'number');
}

/** A batch's parsed elements, each a bet or its own refusal (the deployed dialect's batch too). */
export interface BatchCommand {
  readonly elements: ReadonlyArray<ParsedBet | Failure>;
}

/**
 * Places a batch's bets in order in one casino call, so that an element's refusal does not abort
 * the rest (NOTES.md "Batch"); with `deployedRules`, as the deployment settles them.
 */
export function placeBatch(
  context: RouteContext,
  command: BatchCommand,
  deployedRules?: DeployedCasinoRules,
): BatchResults {
  const commands = command.elements.map((element) => {
    if (isFailure(element)) return element;
    const bet = betCommand(context, element, 'batch');
    return deployedRules === undefined ? bet : { ...bet, deployedRules };
  });
  return context.platform.casino.batch(commands, context.nowMs).results;
}

const BATCH_KEYS = ['bets'];

function parseBatch(input: RouteInput, batchMax: number): BatchCommand | Failure {
  const fields = bodyOnly(input, BATCH_KEYS);
  if (isFailure(fields)) return fields;
  const bets = fields['bets'];
  if (!Array.isArray(bets) || bets.length < 1 || bets.length > batchMax)
    return fail('BAD_REQUEST', `bets must be an array of 1 to ${batchMax} bets`);
  const elements = (bets as unknown[]).map((element, index) => parseBatchElement(element, index));
  return { elements };
}

function parseBatchElement(element: unknown, index: number): ParsedBet | Failure {
  if (typeof element !== 'object' || element === null || Array.isArray(element))
    return fail('BAD_REQUEST', `bets[${index}] must be an object`);
  const fields = element as Readonly<Record<string, unknown>>;
  const gameId = fields['game'];
  const game = typeof gameId === 'string' ? findGame(gameId) : undefined;
  if (game === undefined || game.id === 'video_poker')
    return fail('BAD_REQUEST', `bets[${index}].game must be one of the single-call games`);
  const parsed = parseBetFields(fields, game, 'number', ['game']);
  return isFailure(parsed)
    ? new Failure(parsed.status, parsed.code, `bets[${index}]: ${parsed.message}`, parsed.extra)
    : parsed;
}

const batchA = defineRoute<BatchCommand, { results: BatchResults; balanceAfterMicro: bigint }>({
  id: 'casino.A.batch',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/bets/batch',
  auth: 'bearer',
  summary: 'Place 1 to 20 bets in one call; each is processed like a single bet.',
  parse: (input, context) => parseBatch(input, context.platform.config.casino.batchMax),
  run: (context, command) => {
    const results = placeBatch(context, command);
    return {
      ok: true,
      value: { results, balanceAfterMicro: context.platform.casino.balanceMicro(casinoCaller(context)) },
    };
  },
  successStatus: 200,
  render: (outcome, context) => renderBatch(outcome.results, outcome.balanceAfterMicro, context),
});

function renderBatch(results: BatchResults, balanceAfterMicro: bigint, context: RouteContext): JsonObject {
  const lines = batchSummary(results, context, {
    won: (bet) => bet.won,
    placed: (bet, index) => ({ index, ok: true, ...betA(bet, context.platform.casino.state) }),
    refused: (failure, index) => ({
      index,
      ok: false,
      error: failure.message,
      code: failure.code,
      ...(failure.extra ?? {}),
    }),
  });
  return { ...lines, balance_after: moneyA(balanceAfterMicro) };
}

export const casinoGameRoutes: readonly Route[] = [
  gamesA,
  ...GAMES.filter((game) => game.id !== 'video_poker').map(gameRow),
  batchA,
];
