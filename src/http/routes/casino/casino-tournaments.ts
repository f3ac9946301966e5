/**
 * Casino tournament and challenge rows, style A (mount 'casino'). Tournaments: create with a
 * prize pool funded from the creator's balance, list active and upcoming, details with the live
 * leaderboard, enter (fee deducted), play (a bet on the tournament's game). Challenges: create
 * (challenger's stake held), list incoming and outgoing pending, accept (both stakes, game
 * resolved, winner paid minus 2%), decline (refund). Instants are ISO 8601 with a zone.
 */
import { fail, isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import type { ChallengeRecord, PendingChallenges } from '../../../services/casino/challenges/challenge-record.ts';
import { findGame } from '../../../services/casino/games/index.ts';
import type {
  RankedEntrant,
  TournamentDetails,
  TournamentRecord,
} from '../../../services/casino/tournaments/tournament-record.ts';
import { isoTime, moneyA } from '../../render.ts';
import { listCall } from '../../list-call.ts';
import { defineRoute, type Route, type RouteInput } from '../../route.ts';
import {
  bodyOnly,
  emptyBody,
  knownQuery,
  NO_KEYS,
  objectBody,
  optionalInteger,
  optionalString,
  queryLimit,
  requiredAmount,
  requiredString,
  type Fields,
} from '../../validate.ts';
import { parseBetFields, type ParsedBet } from './casino-bet-fields.ts';
import { casinoCaller } from './casino-games.ts';
import { betA, challengeProof } from './casino-render.ts';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const ID_PATTERN = /^[a-z]{3}_[0-9a-f]{12}$/;

function instantField(fields: Fields, name: string): number | Failure {
  const value = fields[name];
  const parsed = typeof value === 'string' && ISO_INSTANT.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isFinite(parsed)
    ? parsed
    : fail('BAD_REQUEST', `${name} must be an ISO 8601 instant with a zone, e.g. 2026-01-01T12:00:00Z`);
}

function pathId(input: RouteInput, what: string): string | Failure {
  const id = input.params['id'] ?? '';
  return ID_PATTERN.test(id)
    ? id
    : fail(
        'BAD_REQUEST',
        `${what} id must look like ${what === 'tournament' ? 'tnm_' : 'chl_'} followed by 12 hex characters`,
      );
}

function tournamentView(record: TournamentRecord, nowMs: number): JsonObject {
  return {
    tournament_id: record.id,
    name: record.name,
    game: record.game,
    status: record.status,
    creator: record.creatorId,
    entry_fee: moneyA(record.entryFeeMicro),
    prize_pool: moneyA(record.prizePoolMicro),
    funded_by_creator: moneyA(record.fundedMicro),
    max_agents: record.maxAgents,
    entrants: record.entrantCount,
    starts_at: isoTime(record.startsAtMs),
    ends_at: isoTime(record.endsAtMs),
    seconds_until_start: Math.max(0, Math.ceil((record.startsAtMs - nowMs) / 1000)),
    created_at: isoTime(record.createdAtMs),
    completed_at: record.completedAtMs === null ? null : isoTime(record.completedAtMs),
    prizes: record.prizes.map((prize) => ({
      rank: prize.rank,
      agent_id: prize.agentId,
      amount: moneyA(prize.amountMicro),
    })),
  };
}

const entrantView = (entrant: RankedEntrant): JsonObject => ({
  rank: entrant.rank,
  agent_id: entrant.agentId,
  score: moneyA(entrant.scoreMicro),
  plays: entrant.plays,
  wagered: moneyA(entrant.wageredMicro),
  returned: moneyA(entrant.returnedMicro),
  entered_at: isoTime(entrant.enteredAtMs),
});

const CREATE_KEYS = ['name', 'game', 'entry_fee', 'prize_pool', 'max_agents', 'starts_at', 'ends_at'];

function parseCreate(input: RouteInput):
  | Failure
  | {
      name: string;
      game: string;
      entryFeeMicro: bigint;
      prizePoolMicro: bigint;
      maxAgents: number;
      startsAtMs: number;
      endsAtMs: number;
    } {
  const fields = objectBody(input.body, CREATE_KEYS);
  if (isFailure(fields)) return fields;
  const name = requiredString(fields['name'], 'name', 64);
  if (isFailure(name)) return name;
  const game = requiredString(fields['game'], 'game', 32);
  if (isFailure(game)) return game;
  const entryFee =
    fields['entry_fee'] === 0
      ? 0n
      : fields['entry_fee'] === undefined
        ? 0n
        : requiredAmount(fields['entry_fee'], 'entry_fee', 'number');
  if (isFailure(entryFee)) return entryFee;
  const prizePoolMicro = requiredAmount(fields['prize_pool'], 'prize_pool', 'number');
  if (isFailure(prizePoolMicro)) return prizePoolMicro;
  const maxAgents = optionalInteger(fields['max_agents'], 'max_agents', 2, 1000);
  if (isFailure(maxAgents)) return maxAgents;
  const startsAtMs = instantField(fields, 'starts_at');
  if (isFailure(startsAtMs)) return startsAtMs;
  const endsAtMs = instantField(fields, 'ends_at');
  if (isFailure(endsAtMs)) return endsAtMs;
  return { name, game, entryFeeMicro: entryFee, prizePoolMicro, maxAgents: maxAgents ?? 100, startsAtMs, endsAtMs };
}

const create = defineRoute<Exclude<ReturnType<typeof parseCreate>, Failure>, TournamentRecord>({
  id: 'casino.A.tournaments.create',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/tournaments/create',
  auth: 'bearer',
  summary:
    'Create a tournament (name, game, entry_fee, prize_pool, max_agents, starts_at, ends_at); the pool comes from your balance.',
  parse: (input) => knownQuery(input.query, NO_KEYS) ?? parseCreate(input),
  run: (context, command) =>
    context.platform.casino.tournaments.create({ creatorId: casinoCaller(context), ...command }, context.nowMs),
  successStatus: 201,
  render: (record, context) => tournamentView(record, context.nowMs),
});

const LIST_QUERY = ['limit'];

const list = defineRoute<number, readonly TournamentRecord[]>({
  id: 'casino.A.tournaments.list',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/tournaments',
  auth: 'bearer',
  summary: 'Active and upcoming tournaments, by start time (?limit= 1..100, default 50).',
  parse: (input) => knownQuery(input.query, LIST_QUERY) ?? queryLimit(input.query, 50, 100),
  run: (context, limit) => context.platform.casino.tournaments.list(context.nowMs, limit),
  successStatus: 200,
  render: (records, context) => ({
    active: records
      .filter((record) => record.status === 'active')
      .map((record) => tournamentView(record, context.nowMs)),
    upcoming: records
      .filter((record) => record.status === 'upcoming')
      .map((record) => tournamentView(record, context.nowMs)),
    count: records.length,
  }),
});

const details = defineRoute<string, TournamentDetails>({
  id: 'casino.A.tournaments.get',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/tournaments/:id',
  auth: 'bearer',
  summary: 'A tournament with its live leaderboard (score = net winnings of tournament plays).',
  parse: (input) => knownQuery(input.query, NO_KEYS) ?? pathId(input, 'tournament'),
  run: (context, id) => context.platform.casino.tournaments.details(id),
  successStatus: 200,
  render: (view, context) => ({
    ...tournamentView(view.tournament, context.nowMs),
    leaderboard: view.leaderboard.map(entrantView),
  }),
});

const enter = defineRoute<string, { tournament: TournamentRecord; entrant: RankedEntrant | { agentId: string } }>({
  id: 'casino.A.tournaments.enter',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/tournaments/:id/enter',
  auth: 'bearer',
  summary: 'Enter a tournament; the entry fee is deducted and joins the prize pool.',
  parse: (input) => knownQuery(input.query, NO_KEYS) ?? emptyBody(input.body) ?? pathId(input, 'tournament'),
  run: (context, id) => context.platform.casino.tournaments.enter(casinoCaller(context), id, context.nowMs),
  successStatus: 200,
  render: (result, context) => ({
    entered: true,
    ...tournamentView(result.tournament, context.nowMs),
    new_balance: moneyA(context.platform.casino.balanceMicro(casinoCaller(context))),
  }),
});

const play = defineRoute<{ id: string; bet: ParsedBet }, { bet: BetRecord }>({
  id: 'casino.A.tournaments.play',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/tournaments/:id/play',
  auth: 'bearer',
  limits: { serviceRowB: true, row: 'casino-play' },
  summary: "Play the tournament's game (amount, client_seed?, game parameters); 60 per minute.",
  parse: (input, context) => {
    const query = knownQuery(input.query, NO_KEYS);
    if (query !== null) return query;
    const body = input.body;
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body))
      return fail('BAD_REQUEST', 'request body must be a JSON object with amount');
    const id = pathId(input, 'tournament');
    if (isFailure(id)) return id;
    const tournament = context.platform.casino.tournaments.find(id);
    if (tournament === undefined) return fail('NOT_FOUND', `tournament ${id} not found`);
    const game = findGame(tournament.game);
    if (game === undefined) return fail('BAD_REQUEST', `tournament game ${tournament.game} is unknown`);
    const fields = objectBody(input.body, Object.keys((input.body ?? {}) as object));
    if (isFailure(fields)) return fields;
    const { game: named, ...rest } = fields as Record<string, unknown>;
    if (named !== undefined && named !== game.id) return fail('BAD_REQUEST', `this tournament plays ${game.id}`);
    const bet = parseBetFields(rest, game, 'number');
    return isFailure(bet) ? bet : { id, bet };
  },
  run: (context, command) =>
    context.platform.casino.tournaments.play(
      {
        agentId: casinoCaller(context),
        tournamentId: command.id,
        game: command.bet.game,
        params: command.bet.params,
        paramsJson: command.bet.paramsJson,
        amountMicro: command.bet.amountMicro,
        clientSeed: command.bet.clientSeed,
      },
      context.nowMs,
    ),
  successStatus: 200,
  render: (result, context) => ({
    tournament_id: result.bet.tournamentId,
    ...betA(result.bet, context.platform.casino.state),
  }),
});

function challengeView(record: ChallengeRecord): JsonObject {
  return {
    challenge_id: record.id,
    challenger: record.challengerId,
    challenged: record.challengedId,
    game: record.game,
    amount: moneyA(record.amountMicro),
    message: record.message,
    status: record.status,
    created_at: isoTime(record.createdAtMs),
    expires_at: isoTime(record.expiresAtMs),
    settled_at: record.settledAtMs === null ? null : isoTime(record.settledAtMs),
    winner: record.winnerId,
    payout: moneyA(record.payoutMicro),
    house_cut: moneyA(record.houseCutMicro),
    result: record.result === null ? null : structuredClone(record.result),
    proof: challengeProof(record),
  };
}

const CHALLENGE_KEYS = ['challenged_agent_id', 'game', 'amount', 'message'];

const challenge = defineRoute<
  { challengedRef: string; game: string; amountMicro: bigint; message: string | null },
  ChallengeRecord
>({
  id: 'casino.A.challenges.create',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/challenges',
  auth: 'bearer',
  summary: 'Challenge another agent (challenged_agent_id, game coin_flip|dice, amount, message?); your stake is held.',
  parse: (input) => {
    const fields = bodyOnly(input, CHALLENGE_KEYS);
    if (isFailure(fields)) return fields;
    const challengedRef = requiredString(fields['challenged_agent_id'], 'challenged_agent_id', 128);
    if (isFailure(challengedRef)) return challengedRef;
    const game = optionalString(fields['game'], 'game', 32);
    if (isFailure(game)) return game;
    const amountMicro = requiredAmount(fields['amount'], 'amount', 'number');
    if (isFailure(amountMicro)) return amountMicro;
    const message = optionalString(fields['message'], 'message', 280);
    if (isFailure(message)) return message;
    return { challengedRef, game: game ?? 'coin_flip', amountMicro, message: message ?? null };
  },
  run: (context, command) =>
    context.platform.casino.challenges.create({ challengerId: casinoCaller(context), ...command }, context.nowMs),
  successStatus: 201,
  render: challengeView,
});

const challenges = listCall(
  { items: ['incoming', 'outgoing'] },
  defineRoute<null, PendingChallenges>({
    id: 'casino.A.challenges.list',
    service: 'casino',
    style: 'A',
    mount: 'casino',
    method: 'GET',
    path: '/api/v1/challenges',
    auth: 'bearer',
    summary: 'Your pending challenges, incoming and outgoing, newest first.',
    parse: (input) => knownQuery(input.query, NO_KEYS) ?? null,
    run: (context) => succeed(context.platform.casino.challenges.list(casinoCaller(context))),
    successStatus: 200,
    render: (pending) => ({
      incoming: pending.incoming.map(challengeView),
      outgoing: pending.outgoing.map(challengeView),
    }),
  }),
);

function challengeAction(action: 'accept' | 'decline'): Route {
  return defineRoute<string, ChallengeRecord>({
    id: `casino.A.challenges.${action}`,
    service: 'casino',
    style: 'A',
    mount: 'casino',
    method: 'POST',
    path: `/api/v1/challenges/:id/${action}`,
    auth: 'bearer',
    summary:
      action === 'accept'
        ? 'Accept a challenge: your stake is held, the game resolved, the winner paid.'
        : 'Decline a challenge: the challenger is refunded.',
    parse: (input) => knownQuery(input.query, NO_KEYS) ?? emptyBody(input.body) ?? pathId(input, 'challenge'),
    run: (context, id) => context.platform.casino.challenges[action](casinoCaller(context), id, context.nowMs),
    successStatus: 200,
    render: (record, context) => ({
      ...challengeView(record),
      new_balance: moneyA(context.platform.casino.balanceMicro(casinoCaller(context))),
    }),
  });
}

export const casinoTournamentRoutes: readonly Route[] = [
  create,
  list,
  details,
  enter,
  play,
  challenge,
  challenges,
  challengeAction('accept'),
  challengeAction('decline'),
];
