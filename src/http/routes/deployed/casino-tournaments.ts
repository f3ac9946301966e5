/**
 * The deployed casino's tournaments (spec/DEPLOYED.md §2.10) over afp's style A rows and afp's
 * tournament rules (afp funds the prize pool from the creator, where the deployment mints it):
 * create `{ name, game, entry_fee_usdc, prize_pool_usdc, max_agents, starts_at, ends_at }` (unix
 * seconds) → 201; the public list and details; enter; play (a bet answer plus `tournament_id` and
 * `tournament_score`). Refusals take the deployment's names: `tournament_closed`,
 * `already_entered`, `tournament_full`, `insufficient_balance`, `tournament_not_active`,
 * `wrong_game`, 403 `not_entered`. Ids are afp's (`tnm_` + 12 hex; the deployment's `trn_`).
 */
import type { Failure, JsonObject } from '../../../core/errors.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import type {
  RankedEntrant,
  TournamentDetails,
  TournamentRecord,
} from '../../../services/casino/tournaments/tournament-record.ts';
import { renamed } from '../../deployed/deployed-errors.ts';
import { moneyA } from '../../render.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { deployedBet } from './casino-bet-answer.ts';
import { adaptedRow } from './deployed-row.ts';
import { deployedRulesOf } from './deployed-rules-of.ts';
import type { ParsedBet } from '../casino/casino-bet-fields.ts';
import { casinoCaller } from '../casino/casino-games.ts';

const unixSeconds = (ms: number): number => Math.floor(ms / 1000);

function tournamentRefusal(failure: Failure): Failure {
  const message = failure.message;
  if (failure.code === 'FORBIDDEN') return renamed(failure, 'not_entered', 403);
  if (failure.code === 'INSUFFICIENT_BALANCE') return renamed(failure, 'insufficient_balance', 400);
  if (failure.code === 'NOT_FOUND') return renamed(failure, 'not_found', 404);
  if (message.startsWith('this tournament plays')) return renamed(failure, 'wrong_game', 400);
  if (failure.code !== 'CONFLICT') return renamed(failure, 'invalid_params', 400);
  if (message.startsWith('already entered')) return renamed(failure, 'already_entered', 400);
  if (message.startsWith('tournament is full')) return renamed(failure, 'tournament_full', 400);
  if (message.includes('not started')) return renamed(failure, 'tournament_not_active', 400);
  return renamed(failure, 'tournament_closed', 400);
}

function listLine(record: TournamentRecord): JsonObject {
  return {
    id: record.id,
    name: record.name,
    game: record.game,
    entry_fee: moneyA(record.entryFeeMicro),
    prize_pool: moneyA(record.prizePoolMicro),
    agent_count: record.entrantCount,
    max_agents: record.maxAgents,
    starts_at: unixSeconds(record.startsAtMs),
    ends_at: unixSeconds(record.endsAtMs),
    status: record.status,
  };
}

/** The deployment's create body as afp's: `_usdc` amounts, unix-second instants as ISO text. */
function createInput(input: RouteInput): RouteInput {
  const body = input.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return input;
  const fields = body as Record<string, unknown>;
  const instant = (value: unknown): unknown =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value < 1e11
      ? new Date(value * 1000).toISOString()
      : value;
  const mapped: Record<string, unknown> = {
    name: fields['name'],
    game: fields['game'],
    entry_fee: fields['entry_fee_usdc'],
    prize_pool: fields['prize_pool_usdc'],
    max_agents: fields['max_agents'],
    starts_at: instant(fields['starts_at']),
    ends_at: instant(fields['ends_at']),
  };
  for (const key of Object.keys(mapped)) if (mapped[key] === undefined) delete mapped[key];
  return { ...input, body: mapped };
}

const createBase = adaptedRow('casino.A.tournaments.create', {
  id: 'casino.deployed.tournaments.create',
  summary:
    'Create a tournament ({ name, game, entry_fee_usdc, prize_pool_usdc, max_agents, starts_at, ends_at }, unix seconds).',
  bodyKeys: ['name', 'game', 'entry_fee', 'prize_pool', 'max_agents', 'starts_at', 'ends_at'],
  successStatus: 201,
  refusal: tournamentRefusal,
  render: (value) => {
    const record = value as TournamentRecord;
    const { id: _id, agent_count: _count, ...line } = listLine(record);
    return {
      tournament_id: record.id,
      ...line,
      message: 'Tournament created. Agents enter with POST /api/v1/tournaments/:id/enter.',
    };
  },
});
const create: Route = { ...createBase, parse: (input, context) => createBase.parse(createInput(input), context) };

const list = adaptedRow('casino.A.tournaments.list', {
  id: 'casino.deployed.tournaments.list',
  summary: 'Tournaments (public).',
  auth: 'none',
  bodyKeys: [],
  queryKeys: ['limit'],
  render: (value) => ({ tournaments: (value as readonly TournamentRecord[]).map(listLine) }),
});

const details = adaptedRow('casino.A.tournaments.get', {
  id: 'casino.deployed.tournaments.get',
  summary: 'A tournament and its leaderboard (public).',
  auth: 'none',
  bodyKeys: [],
  refusal: tournamentRefusal,
  render: (value) => {
    const view = value as TournamentDetails;
    return {
      tournament: listLine(view.tournament),
      leaderboard: view.leaderboard.map((entrant: RankedEntrant) => ({
        rank: entrant.rank,
        agent_id: entrant.agentId,
        score: moneyA(entrant.scoreMicro),
        winnings: moneyA(entrant.returnedMicro),
      })),
    };
  },
});

const enter = adaptedRow('casino.A.tournaments.enter', {
  id: 'casino.deployed.tournaments.enter',
  summary: 'Enter a tournament (the entry fee joins the pool).',
  bodyKeys: [],
  refusal: tournamentRefusal,
  render: (value, context: RouteContext) => {
    const { tournament, entrant } = value as {
      tournament: TournamentRecord;
      entrant: RankedEntrant | { agentId: string };
    };
    return {
      tournament_id: tournament.id,
      agent_id: entrant.agentId,
      position: 'rank' in entrant ? entrant.rank : tournament.entrantCount,
      entry_fee_paid: moneyA(tournament.entryFeeMicro),
      message: `Entered ${tournament.name}. Play with POST /api/v1/tournaments/${tournament.id}/play; balance ${moneyA(context.platform.casino.balanceMicro(entrant.agentId))}.`,
    };
  },
});

/** What a tournament bet reads besides `game` (the OpenAPI document reads it too: openapi-deployed.ts). */
export const TOURNAMENT_PLAY_KEYS: readonly string[] = [
  'amount',
  'client_seed',
  'side',
  'direction',
  'threshold',
  'target_multiplier',
  'bet_type',
  'bet_value',
  'win_probability',
  'cash_out_at',
  'pick',
  'action',
  'rows',
  'risk',
  'guess',
  'picks',
  'mines',
  'reveals',
  'bet_on',
];

const playBase = adaptedRow('casino.A.tournaments.play', {
  id: 'casino.deployed.tournaments.play',
  summary: "Play the tournament's game ({ amount, ...params, client_seed? }).",
  bodyKeys: ['game', ...TOURNAMENT_PLAY_KEYS],
  refusal: tournamentRefusal,
  render: (value, context) => {
    const bet = (value as { bet: BetRecord }).bet;
    const tournamentId = bet.tournamentId ?? '';
    const entrant = context.platform.casino.tournaments.details(tournamentId);
    const score = entrant.ok
      ? (entrant.value.leaderboard.find((line) => line.agentId === bet.agentId)?.scoreMicro ?? 0n)
      : 0n;
    return { ...deployedBet(bet, context), tournament_score: moneyA(score), tournament_id: tournamentId };
  },
});

/** A play is an ordinary bet of the deployment's engine (its rules: deployed-rules-of.ts). */
const play: Route = {
  ...playBase,
  run: (context, value) => {
    const { id, bet } = value as { id: string; bet: ParsedBet };
    const command = {
      agentId: casinoCaller(context),
      tournamentId: id,
      game: bet.game,
      params: bet.params,
      paramsJson: bet.paramsJson,
      amountMicro: bet.amountMicro,
      clientSeed: bet.clientSeed,
      deployedRules: deployedRulesOf(context),
    };
    const outcome = context.platform.casino.tournaments.play(command, context.nowMs);
    return outcome.ok ? outcome : tournamentRefusal(outcome);
  },
};

export const deployedTournamentRoutes: readonly Route[] = [create, list, details, enter, play];
