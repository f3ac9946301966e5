/**
 * Tournaments in the reference model (NOTES.md "Tournaments"; afp's choices in docs/decisions/casino.md
 * "Casino service"): create with the prize pool moved from the creator's balance (422 when short), enter
 * (the fee joins the pool), play (an ordinary bet whose net result is the entrant's score),
 * details with the live leaderboard, and the end on the clock: 60% / 30% / 10% of the pool to the
 * top three scores (score desc, then earlier entry, then agent id), floor each, the remainder to
 * rank 1, missing ranks' shares to the creator.
 *
 * Statuses follow the clock: upcoming before starts_at, active from it, completed from ends_at.
 * Precedence: create 400 (ranges) → 409 (20 open per creator) → 422; enter 404 → 409 ended →
 * 409 entered → 409 full → 422; play 404 → 400 amount → 403 not entered → 409 not active → the
 * bet's own refusals.
 */
import { requireAgent, type CheckModel } from '../check-model.ts';
import { eq, list, money, object, text, time, type Matcher, type Prediction } from '../expectation.ts';
import type { ModelEntrant, ModelTournament } from './casino-state.ts';
import type { TournamentStatus } from '../../services/casino/tournaments/tournament-record.ts';

/** NOTES.md: prizes 60% / 30% / 10%, in basis points. */
export const PRIZE_BPS: readonly bigint[] = [6_000n, 3_000n, 1_000n];
const OPEN_PER_CREATOR_MAX = 20;
const POOL_MIN_MICRO = 10_000n;
const DAY_MS = 86_400_000;

export function statusAt(tournament: ModelTournament, nowMs: number): TournamentStatus {
  if (tournament.completedAtMs !== null || nowMs >= tournament.endsAtMs) return 'completed';
  return nowMs >= tournament.startsAtMs ? 'active' : 'upcoming';
}

/** A tournament a command names: the k-th created (modulo the count), or an unknown id. */
export type TournamentRef = { readonly index: number } | 'unknown';
export const UNKNOWN_TOURNAMENT_ID = 'tnm_000000000000';

export function resolveTournament(model: Readonly<CheckModel>, ref: TournamentRef): ModelTournament | undefined {
  const all = model.casino.tournaments;
  return ref === 'unknown' || all.length === 0 ? undefined : all[ref.index % all.length];
}

export interface CreateTournament {
  readonly creatorSlot: number;
  readonly name: string;
  readonly game: 'coin_flip' | 'dice';
  readonly entryFeeMicro: bigint;
  readonly poolMicro: bigint;
  readonly maxAgents: number;
  readonly startsAtMs: number;
  readonly endsAtMs: number;
}

export function predictCreateTournament(model: Readonly<CheckModel>, input: CreateTournament): Prediction {
  const now = model.nowMs;
  if (
    input.poolMicro < POOL_MIN_MICRO ||
    input.startsAtMs < now ||
    input.startsAtMs - now > 30 * DAY_MS ||
    input.endsAtMs <= input.startsAtMs ||
    input.endsAtMs - input.startsAtMs > 30 * DAY_MS
  ) {
    return { expected: { status: 400, code: 'BAD_REQUEST' } };
  }
  const open = model.casino.tournaments.filter(
    (tournament) => tournament.creatorSlot === input.creatorSlot && statusAt(tournament, now) !== 'completed',
  ).length;
  if (open >= OPEN_PER_CREATOR_MAX) return { expected: { status: 409, code: 'CONFLICT' } };
  const creator = requireAgent(model, input.creatorSlot);
  if (creator.balanceMicro < input.poolMicro) return { expected: { status: 422, code: 'INSUFFICIENT_BALANCE' } };
  const draft: ModelTournament = {
    id: '',
    creatorSlot: input.creatorSlot,
    name: input.name,
    game: input.game,
    entryFeeMicro: input.entryFeeMicro,
    fundedMicro: input.poolMicro,
    poolMicro: input.poolMicro,
    maxAgents: input.maxAgents,
    startsAtMs: input.startsAtMs,
    endsAtMs: input.endsAtMs,
    createdAtMs: now,
    entrants: [],
    completedAtMs: null,
    prizes: [],
  };
  return {
    expected: { status: 201, body: { ...tournamentView(model, draft), tournament_id: text() } },
    commit: (answer) => {
      creator.balanceMicro -= input.poolMicro;
      (model as CheckModel).casino.tournaments.push({ ...draft, id: String(answer['tournament_id']) });
    },
  };
}

/** The fields of a tournament record as every tournament answer shows it. */
export function tournamentView(model: Readonly<CheckModel>, tournament: ModelTournament): Record<string, Matcher> {
  const now = model.nowMs;
  const idOf = (slot: number): string => model.agents[slot]?.id ?? '?';
  return {
    tournament_id: eq(tournament.id),
    name: eq(tournament.name),
    game: eq(tournament.game),
    status: eq(statusAt(tournament, now)),
    creator: eq(idOf(tournament.creatorSlot)),
    entry_fee: money('A', tournament.entryFeeMicro),
    prize_pool: money('A', tournament.poolMicro),
    funded_by_creator: money('A', tournament.fundedMicro),
    max_agents: eq(tournament.maxAgents),
    entrants: eq(tournament.entrants.length),
    starts_at: time(tournament.startsAtMs),
    ends_at: time(tournament.endsAtMs),
    seconds_until_start: eq(Math.max(0, Math.ceil((tournament.startsAtMs - now) / 1000))),
    created_at: time(tournament.createdAtMs),
    completed_at: time(tournament.completedAtMs),
    prizes: list(
      tournament.prizes.map((prize) =>
        object({ rank: eq(prize.rank), agent_id: eq(idOf(prize.slot)), amount: money('A', prize.amountMicro) }),
      ),
    ),
  };
}

export function predictEnter(
  model: Readonly<CheckModel>,
  slot: number,
  tournament: ModelTournament | undefined,
): Prediction {
  if (tournament === undefined) return { expected: { status: 404, code: 'NOT_FOUND' } };
  if (statusAt(tournament, model.nowMs) === 'completed') return { expected: { status: 409, code: 'CONFLICT' } };
  if (tournament.entrants.some((entrant) => entrant.slot === slot))
    return { expected: { status: 409, code: 'CONFLICT' } };
  if (tournament.entrants.length >= tournament.maxAgents) return { expected: { status: 409, code: 'CONFLICT' } };
  const agent = requireAgent(model, slot);
  if (agent.balanceMicro < tournament.entryFeeMicro) return { expected: { status: 422, code: 'INSUFFICIENT_BALANCE' } };
  const after: ModelTournament = {
    ...tournament,
    poolMicro: tournament.poolMicro + tournament.entryFeeMicro,
    entrants: [...tournament.entrants, newEntrant(slot, model.nowMs)],
  };
  return {
    expected: {
      status: 200,
      body: {
        entered: eq(true),
        ...tournamentView(model, after),
        new_balance: money('A', agent.balanceMicro - tournament.entryFeeMicro),
      },
    },
    commit: () => {
      agent.balanceMicro -= tournament.entryFeeMicro;
      tournament.poolMicro += tournament.entryFeeMicro;
      tournament.entrants.push(newEntrant(slot, model.nowMs));
    },
  };
}

const newEntrant = (slot: number, nowMs: number): ModelEntrant => ({
  slot,
  enteredAtMs: nowMs,
  scoreMicro: 0n,
  plays: 0,
  wageredMicro: 0n,
  returnedMicro: 0n,
});

/** The refusal a play meets before its bet is checked, or null. */
export function playRefusal(
  model: Readonly<CheckModel>,
  slot: number,
  tournament: ModelTournament | undefined,
  amountMicro: bigint,
): Prediction | null {
  if (tournament === undefined) return { expected: { status: 404, code: 'NOT_FOUND' } };
  if (amountMicro <= 0n) return { expected: { status: 400, code: 'BAD_REQUEST' } };
  if (!tournament.entrants.some((entrant) => entrant.slot === slot))
    return { expected: { status: 403, code: 'FORBIDDEN' } };
  if (statusAt(tournament, model.nowMs) !== 'active') return { expected: { status: 409, code: 'CONFLICT' } };
  return null;
}

/** Entrants ranked: score descending, then earlier entry, then agent id. */
export function ranked(model: Readonly<CheckModel>, tournament: ModelTournament): ModelEntrant[] {
  const idOf = (slot: number): string => model.agents[slot]?.id ?? '';
  return [...tournament.entrants].sort((a, b) => {
    if (a.scoreMicro !== b.scoreMicro) return a.scoreMicro > b.scoreMicro ? -1 : 1;
    if (a.enteredAtMs !== b.enteredAtMs) return a.enteredAtMs - b.enteredAtMs;
    return idOf(a.slot) < idOf(b.slot) ? -1 : idOf(a.slot) > idOf(b.slot) ? 1 : 0;
  });
}

export function predictDetails(model: Readonly<CheckModel>, tournament: ModelTournament | undefined): Prediction {
  if (tournament === undefined) return { expected: { status: 404, code: 'NOT_FOUND' } };
  const board = ranked(model, tournament).map((entrant, index) =>
    object({
      rank: eq(index + 1),
      agent_id: eq(model.agents[entrant.slot]?.id ?? '?'),
      score: money('A', entrant.scoreMicro),
      plays: eq(entrant.plays),
      wagered: money('A', entrant.wageredMicro),
      returned: money('A', entrant.returnedMicro),
      entered_at: time(entrant.enteredAtMs),
    }),
  );
  return { expected: { status: 200, body: { ...tournamentView(model, tournament), leaderboard: list(board) } } };
}

/** The end at ends_at: the pool paid out to exactly zero. */
export function completeTournament(model: CheckModel, tournament: ModelTournament): void {
  const order = ranked(model, tournament);
  let creatorReturnMicro = 0n;
  let sharedMicro = 0n;
  const prizes: { rank: number; slot: number; amountMicro: bigint }[] = [];
  PRIZE_BPS.forEach((bps, index) => {
    const shareMicro = (tournament.poolMicro * bps) / 10_000n;
    sharedMicro += shareMicro;
    const entrant = order[index];
    if (entrant === undefined) creatorReturnMicro += shareMicro;
    else prizes.push({ rank: index + 1, slot: entrant.slot, amountMicro: shareMicro });
  });
  const remainderMicro = tournament.poolMicro - sharedMicro;
  const first = prizes[0];
  if (first === undefined) creatorReturnMicro += remainderMicro;
  else first.amountMicro += remainderMicro;
  for (const prize of prizes) requireAgent(model, prize.slot).balanceMicro += prize.amountMicro;
  requireAgent(model, tournament.creatorSlot).balanceMicro += creatorReturnMicro;
  tournament.prizes = prizes;
  tournament.completedAtMs = tournament.endsAtMs;
}
