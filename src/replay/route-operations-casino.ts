/**
 * The casino's recorded routes as afp operations (route-operations.ts's rows, one file for the
 * casino): every style A game and style B's bet are `casino.bet`, the batch `casino.batch`, and the
 * balance, seed rotation, seed list and active seed's hash, a bet's audit and verification, the
 * withdrawal, the Kelly risk factor, a challenge, and a tournament's creation, entry, play, list
 * and read their own operations. Why: a
 * recording's casino traffic is most of a casino scenario, and a deployment offers all of it
 * (DEPLOYED.md §2); a replay that skipped it reached a casino only through its registrations.
 *
 * A bet is sent with its recorded stake, parameters and client seed (the request's, else the one the
 * recorded answer shows, else the replay's own): what the target draws is its own, and the replay
 * compares what holds whatever the draw (drawn-outcomes.ts). A recorded bet id is the target's
 * through the bindings (`ids.bet`), so an audit names the bet the target placed.
 */
import type { JsonObject } from '../core/errors.ts';
import type { Micro } from '../core/money.ts';
import { parseDecimal, parseNumber } from '../core/money.ts';
import { GAMES } from '../services/casino/games/index.ts';
import type { BetInput, OperationInput, OperationName } from '../live.ts';
import { isObject } from './json-pointer.ts';
import type { AnyRouteOperation, IdTranslation, RecordedCall, RouteOperation } from './route-operations-types.ts';

/** A batch holds at most this many bets (NOTES.md "Batch": 1 to 20); a longer recorded one is bad input. */
const BATCH_BETS_MAX = 20;
/** The client seed of a bet whose recording shows none (the target draws its own in any case). */
const REPLAY_CLIENT_SEED = 'afp-replay';
/** Style B's game names that are not afp's ids. */
const STYLE_B_GAMES: Readonly<Record<string, string>> = { coinflip: 'coin_flip' };
/** Fields of a bet's body that are not the game's parameters. */
const NOT_PARAMS = new Set(['amount', 'client_seed', 'game', 'params']);

function row<O extends OperationName>(route: string, op: O, input: RouteOperation<O>['input']): RouteOperation<O> {
  return { route, op, input };
}

function stake(value: unknown): Micro | null {
  const parsed =
    typeof value === 'number' ? parseNumber(value) : typeof value === 'string' ? parseDecimal(value) : null;
  return typeof parsed === 'bigint' && parsed > 0n ? parsed : null;
}

/** The client seed the recorded bet used: its request's, else its answer's, else the replay's. */
function clientSeedOf(body: JsonObject, answer: unknown): string {
  const sent = body['client_seed'];
  if (typeof sent === 'string' && sent !== '') return sent;
  const shown = isObject(answer) ? answer['client_seed'] : undefined;
  return typeof shown === 'string' && shown !== '' ? shown : REPLAY_CLIENT_SEED;
}

/** One bet's body (a game's request, a batch element, style B's bet) as afp's bet; null when it is not one. */
function betOf(game: string, body: unknown, answer: unknown): BetInput | null {
  if (!isObject(body)) return null;
  const amountMicro = stake(body['amount']);
  if (amountMicro === null) return null;
  const params: JsonObject = {};
  for (const [name, value] of Object.entries(body)) if (!NOT_PARAMS.has(name)) params[name] = value as never;
  const nested = body['params'];
  if (isObject(nested)) Object.assign(params, nested);
  return { game, amountMicro, clientSeed: clientSeedOf(body as JsonObject, answer), params };
}

function batchInput(call: RecordedCall): OperationInput<'casino.batch'> | null {
  const bets = isObject(call.body) ? call.body['bets'] : undefined;
  if (!Array.isArray(bets) || bets.length === 0 || bets.length > BATCH_BETS_MAX) return null;
  const answers = isObject(call.answer) ? call.answer['results'] : undefined;
  const read = bets.map((bet, index) => {
    const game = isObject(bet) ? bet['game'] : undefined;
    const answer = Array.isArray(answers) ? answers[index] : undefined;
    return typeof game === 'string' ? betOf(game, bet, answer) : null;
  });
  return read.every((bet) => bet !== null) ? { bets: read as BetInput[] } : null;
}

function styleBBet(call: RecordedCall): OperationInput<'casino.bet'> | null {
  const game = isObject(call.body) ? call.body['game'] : undefined;
  if (typeof game !== 'string') return null;
  return betOf(STYLE_B_GAMES[game] ?? game, call.body, call.answer);
}

function tournamentOf(call: RecordedCall, ids: IdTranslation): string | null {
  const id = call.params['id'];
  return id === undefined || id === '' ? null : ids.tournament(id);
}

function playInput(call: RecordedCall, ids: IdTranslation): OperationInput<'casino.tournament-play'> | null {
  const tournamentId = tournamentOf(call, ids);
  const bet = betOf('', call.body, call.answer);
  if (tournamentId === null || bet === null) return null;
  return { tournamentId, amountMicro: bet.amountMicro, clientSeed: bet.clientSeed, params: bet.params };
}

/** An instant as the documents write it (ISO 8601) in ms; null when it is none. */
function instantMs(value: unknown): number | null {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? ms : null;
}

function createInput(call: RecordedCall): OperationInput<'casino.tournament-create'> | null {
  const body = isObject(call.body) ? call.body : {};
  const [name, game, maxAgents] = [body['name'], body['game'], body['max_agents']];
  const entryFeeMicro = stake(body['entry_fee']);
  const prizePoolMicro = stake(body['prize_pool']);
  const [startsAtMs, endsAtMs] = [instantMs(body['starts_at']), instantMs(body['ends_at'])];
  if (typeof name !== 'string' || typeof game !== 'string' || typeof maxAgents !== 'number') return null;
  if (entryFeeMicro === null || prizePoolMicro === null || startsAtMs === null || endsAtMs === null) return null;
  return { name, game, entryFeeMicro, prizePoolMicro, maxAgents, startsAtMs, endsAtMs };
}

function withdrawInput(call: RecordedCall): OperationInput<'casino.withdraw'> | null {
  const amountMicro = isObject(call.body) ? stake(call.body['amount']) : null;
  const address = isObject(call.body) ? call.body['address'] : undefined;
  return amountMicro === null || typeof address !== 'string' ? null : { amountMicro, address };
}

function auditInput(call: RecordedCall, ids: IdTranslation): OperationInput<'casino.audit'> | null {
  const betId = call.params['betId'];
  return betId === undefined || betId === '' ? null : { betId: ids.bet(betId) };
}

function challenged(call: RecordedCall): readonly string[] {
  const named = isObject(call.body) ? call.body['challenged_agent_id'] : undefined;
  return typeof named === 'string' && named !== '' ? [named] : [];
}

function challengeInput(call: RecordedCall, ids: IdTranslation): OperationInput<'casino.challenge'> | null {
  const body = isObject(call.body) ? call.body : {};
  const [named] = challenged(call);
  const amountMicro = stake(body['amount']);
  const game = body['game'];
  if (named === undefined || amountMicro === null || typeof game !== 'string') return null;
  return { challengedId: ids.agent(named), game, amountMicro };
}

/** Every game of afp's table has its style A route (casino-games.ts), video poker's two phases aside. */
const GAME_ROWS: readonly AnyRouteOperation[] = GAMES.filter((game) => game.id !== 'video_poker').map((game) =>
  row(`casino.A.game.${game.id}`, 'casino.bet', (call) => betOf(game.id, call.body, call.answer)),
);

export const CASINO_ROUTE_OPERATIONS: readonly AnyRouteOperation[] = [
  ...GAME_ROWS,
  row('casino.B.bet', 'casino.bet', styleBBet),
  row('casino.A.batch', 'casino.batch', batchInput),
  row('casino.A.balance', 'casino.balance', () => ({})),
  row('casino.A.fairness.rotate', 'casino.rotate', () => ({})),
  row('casino.A.fairness.seeds', 'casino.seeds', () => ({})),
  row('casino.A.fairness.audit', 'casino.audit', auditInput),
  row('casino.A.fairness.verify', 'casino.verify', (call, ids) => {
    const betId = isObject(call.body) ? call.body['bet_id'] : undefined;
    return typeof betId === 'string' && betId !== '' ? { betId: ids.bet(betId) } : null;
  }),
  row('casino.A.withdraw', 'casino.withdraw', withdrawInput),
  row('casino.A.tournaments.create', 'casino.tournament-create', createInput),
  row('casino.A.tournaments.enter', 'casino.tournament-enter', (call, ids) => {
    const tournamentId = tournamentOf(call, ids);
    return tournamentId === null ? null : { tournamentId };
  }),
  row('casino.A.tournaments.play', 'casino.tournament-play', playInput),
  row('casino.A.tournaments.list', 'casino.tournaments', () => ({})),
  row('casino.A.tournaments.get', 'casino.tournament', (call, ids) => {
    const tournamentId = tournamentOf(call, ids);
    return tournamentId === null ? null : { tournamentId };
  }),
  row('casino.A.fairness.seed-hash', 'casino.seed-hash', () => ({})),
  row('casino.A.kelly.config', 'casino.kelly-config', (call) => {
    const riskFactor = isObject(call.body) ? call.body['risk_factor'] : undefined;
    return typeof riskFactor === 'number' && Number.isFinite(riskFactor) ? { riskFactor } : null;
  }),
  { ...row('casino.A.challenges.create', 'casino.challenge', challengeInput), agents: challenged },
];
