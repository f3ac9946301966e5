/**
 * Tournaments (casino.md "Tournament create fields", GET /tournaments, /tournaments/{id}, enter,
 * play; NOTES.md "Tournaments"; afp's choices in docs/decisions/casino.md, "Casino service").
 *
 * Money (one double-entry transfer per movement, hold `tournament:<id>`): creation moves the
 * prize pool from the creator's balance into the hold (never minted: the real casino's defect);
 * each entry fee joins the hold and the pool; plays are ordinary bets through `placeBet` (source
 * 'tournament'): stake and payout move on the agent's own balance against the house, and only
 * the score (net winnings of tournament plays) is the tournament's; at `endsAtMs` the hold is
 * paid out to exactly zero — 60/30/10% to the top three, missing ranks' shares to the creator.
 * Statuses: upcoming → active at `startsAtMs` → completed at `endsAtMs`, by 'casino.tournament'
 * timers; an operation at or past an instant whose timer has not yet run sees the later phase.
 * Precedence of failures: 400 bad input, 404 unknown, 403 not allowed, 409 state, 422 funds.
 * Non-goals: HTTP (the route layer renders records), video poker's two phases (a route concern).
 */
import { assert } from '../../../core/assert.ts';
import { fail, isFailure, succeed, type Failure, type Outcome } from '../../../core/errors.ts';
import { agentAccount } from '../../../core/ledger.ts';
import { formatDecimal } from '../../../core/money.ts';
import type { PlatformTimer } from '../../shared/context.ts';
import type { BetRecord } from '../bet-record.ts';
import type { CasinoState } from '../casino-state.ts';
import { placeBet } from '../place-bet.ts';
import { checkCreateTournament } from './check-tournament.ts';
import {
  TournamentBook,
  type MutableEntrant,
  type MutableTournament,
  type TournamentEntry,
} from './tournament-book.ts';
import { splitPrizes } from './tournament-prizes.ts';
import { rankEntrants } from './tournament-ranking.ts';
import {
  TOURNAMENT_LIMITS as LIMITS,
  tournamentAccount,
  type CreateTournamentCommand,
  type TournamentDetails,
  type TournamentEntrant,
  type TournamentPlayCommand,
  type TournamentRecord,
  type TournamentStatus,
} from './tournament-record.ts';

export type TournamentTimer = Extract<PlatformTimer, { kind: 'casino.tournament' }>;

export interface TournamentEntryResult {
  readonly tournament: TournamentRecord;
  readonly entrant: TournamentEntrant;
}

export interface TournamentPlayResult {
  readonly bet: BetRecord;
  readonly entrant: TournamentEntrant;
  readonly tournament: TournamentRecord;
}

/** The phase at `nowMs`: the stored status, moved on when an instant has passed before its timer ran. */
export function phaseAt(record: TournamentRecord, nowMs: number): TournamentStatus {
  if (record.status === 'completed' || nowMs >= record.endsAtMs) return 'completed';
  return nowMs >= record.startsAtMs ? 'active' : 'upcoming';
}

export class Tournaments {
  private readonly state: CasinoState;
  private readonly book = new TournamentBook();

  constructor(state: CasinoState) {
    const shares = state.config.tournamentPrizeBps;
    assert(
      shares.length >= 1 &&
        shares.every((share) => share >= 0n) &&
        shares.reduce((sum, share) => sum + share, 0n) === 10_000n,
      'tournament prize shares add up to 100%',
    );
    this.state = state;
  }

  find(tournamentId: string): TournamentRecord | undefined {
    return this.book.get(tournamentId)?.record;
  }

  all(): IterableIterator<TournamentRecord> {
    return this.book.all();
  }

  create(command: CreateTournamentCommand, nowMs: number): Outcome<TournamentRecord> {
    const { ctx } = this.state;
    const game = checkCreateTournament(command, nowMs);
    if (isFailure(game)) return game;
    if (!ctx.agents.has(command.creatorId))
      return fail('NOT_FOUND', `creator ${command.creatorId} is not a registered agent`);
    if (this.book.openCount >= LIMITS.openMax)
      return fail('CONFLICT', `at most ${LIMITS.openMax} tournaments may be upcoming or active at once`);
    if (this.book.openCountOf(command.creatorId) >= LIMITS.openPerCreatorMax) {
      return fail('CONFLICT', `an agent may have at most ${LIMITS.openPerCreatorMax} upcoming or active tournaments`);
    }
    // DEFECT 'tournament-pool-minted' (the real casino's, NOTES.md; tests and demos only): the pool
    // is minted instead of taken from the creator, who need not hold it.
    const minted = ctx.defects.has('tournament-pool-minted');
    const balanceMicro = ctx.ledger.balance(agentAccount(command.creatorId));
    if (!minted && balanceMicro < command.prizePoolMicro) {
      return fail(
        'INSUFFICIENT_BALANCE',
        `balance ${formatDecimal(balanceMicro)} is below the prize pool ${formatDecimal(command.prizePoolMicro)}`,
      );
    }
    const id = ctx.ids.next('tnm_', 12);
    if (minted) ctx.ledger.faultMint(tournamentAccount(id), command.prizePoolMicro);
    else
      ctx.ledger.transfer({
        from: agentAccount(command.creatorId),
        to: tournamentAccount(id),
        amountMicro: command.prizePoolMicro,
        reason: 'casino.tournament.fund',
        reference: id,
      });
    const record: MutableTournament = {
      id,
      creatorId: command.creatorId,
      name: command.name,
      game,
      entryFeeMicro: command.entryFeeMicro,
      fundedMicro: command.prizePoolMicro,
      prizePoolMicro: command.prizePoolMicro,
      maxAgents: command.maxAgents,
      entrantCount: 0,
      startsAtMs: command.startsAtMs,
      endsAtMs: command.endsAtMs,
      createdAtMs: nowMs,
      status: command.startsAtMs <= nowMs ? 'active' : 'upcoming',
      completedAtMs: null,
      prizes: [],
      creatorReturnMicro: 0n,
    };
    this.book.add(record);
    if (record.status === 'upcoming')
      ctx.timers.schedule(record.startsAtMs, { kind: 'casino.tournament', tournamentId: id });
    ctx.timers.schedule(record.endsAtMs, { kind: 'casino.tournament', tournamentId: id });
    ctx.emit({ type: 'casino.tournament', atMs: nowMs, tournamentId: id, status: record.status });
    return succeed(record);
  }

  /** Upcoming and active tournaments at `nowMs`: starts_at ascending, then id; at most `limit`. */
  list(nowMs: number, limit: number = LIMITS.listLimitDefault): Outcome<readonly TournamentRecord[]> {
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > LIMITS.listLimitMax)
      return fail('BAD_REQUEST', `limit must be between 1 and ${LIMITS.listLimitMax}`);
    const open: TournamentRecord[] = [];
    for (const entry of this.book.openEntries())
      if (phaseAt(entry.record, nowMs) !== 'completed') open.push(entry.record);
    open.sort((a, b) =>
      a.startsAtMs !== b.startsAtMs ? a.startsAtMs - b.startsAtMs : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
    );
    return succeed(open.slice(0, limit));
  }

  /** The record and its live leaderboard (every entrant, ranked). */
  details(tournamentId: string): Outcome<TournamentDetails> {
    const entry = this.book.get(tournamentId);
    if (entry === undefined) return fail('NOT_FOUND', `tournament ${tournamentId} not found`);
    return succeed({ tournament: entry.record, leaderboard: rankEntrants(entry.entrants.values()) });
  }

  /** Upcoming or active, not full, not entered yet; the entry fee joins the pool. */
  enter(agentId: string, tournamentId: string, nowMs: number): Outcome<TournamentEntryResult> {
    const { ctx } = this.state;
    const entry = this.book.get(tournamentId);
    if (entry === undefined) return fail('NOT_FOUND', `tournament ${tournamentId} not found`);
    if (!ctx.agents.has(agentId)) return fail('NOT_FOUND', `agent ${agentId} is not a registered agent`);
    const { record } = entry;
    if (phaseAt(record, nowMs) === 'completed') return fail('CONFLICT', 'tournament has ended');
    if (entry.entrants.has(agentId)) return fail('CONFLICT', 'already entered this tournament');
    if (entry.entrants.size >= record.maxAgents)
      return fail('CONFLICT', `tournament is full (${record.maxAgents} agents)`);
    const balanceMicro = ctx.ledger.balance(agentAccount(agentId));
    if (balanceMicro < record.entryFeeMicro) {
      return fail(
        'INSUFFICIENT_BALANCE',
        `balance ${formatDecimal(balanceMicro)} is below the entry fee ${formatDecimal(record.entryFeeMicro)}`,
      );
    }
    if (record.entryFeeMicro > 0n) {
      ctx.ledger.transfer({
        from: agentAccount(agentId),
        to: tournamentAccount(record.id),
        amountMicro: record.entryFeeMicro,
        reason: 'casino.tournament.entry',
        reference: record.id,
      });
    }
    const entrant: MutableEntrant = {
      agentId,
      enteredAtMs: nowMs,
      entryFeeMicro: record.entryFeeMicro,
      scoreMicro: 0n,
      plays: 0,
      wageredMicro: 0n,
      returnedMicro: 0n,
    };
    entry.entrants.set(agentId, entrant);
    record.entrantCount = entry.entrants.size;
    record.prizePoolMicro += record.entryFeeMicro;
    assert(ctx.ledger.balance(tournamentAccount(record.id)) === record.prizePoolMicro, 'the hold is the prize pool');
    return succeed({ tournament: record, entrant });
  }

  /** An entrant's bet in an active tournament of that game; the score follows the bet. */
  play<P>(command: TournamentPlayCommand<P>, nowMs: number): Outcome<TournamentPlayResult> {
    const entry = this.book.get(command.tournamentId);
    if (entry === undefined) return fail('NOT_FOUND', `tournament ${command.tournamentId} not found`);
    const refused = playRefusal(entry, command, nowMs);
    if (refused !== null) return refused;
    const placed = placeBet(this.state, { ...command, source: 'tournament', tournamentId: entry.record.id }, nowMs);
    if (!placed.ok) return placed;
    const bet = placed.value;
    const entrant = entry.entrants.get(command.agentId) as MutableEntrant;
    entrant.plays += 1;
    entrant.wageredMicro += bet.amountMicro;
    entrant.returnedMicro += bet.payoutMicro;
    entrant.scoreMicro += bet.payoutMicro - bet.amountMicro;
    return succeed({ bet, entrant, tournament: entry.record });
  }

  /** Runs a tournament timer: start at `startsAtMs`, completion and prizes at `endsAtMs`. */
  onTimer(timer: TournamentTimer, atMs: number): void {
    const entry = this.book.get(timer.tournamentId);
    assert(entry !== undefined, 'a tournament timer names a known tournament (completion is its last timer)');
    const { record } = entry;
    if (record.status === 'upcoming' && atMs >= record.startsAtMs && atMs < record.endsAtMs) {
      record.status = 'active';
      this.state.ctx.emit({ type: 'casino.tournament', atMs, tournamentId: record.id, status: 'active' });
      return;
    }
    if (record.status !== 'completed' && atMs >= record.endsAtMs) this.complete(entry, atMs);
  }

  private complete(entry: TournamentEntry, atMs: number): void {
    const { ctx, config } = this.state;
    const { record } = entry;
    const hold = tournamentAccount(record.id);
    assert(ctx.ledger.balance(hold) === record.prizePoolMicro, 'the hold is the prize pool at completion');
    const split = splitPrizes(record.prizePoolMicro, config.tournamentPrizeBps, rankEntrants(entry.entrants.values()));
    for (const prize of split.prizes) {
      if (prize.amountMicro > 0n)
        ctx.ledger.transfer({
          from: hold,
          to: agentAccount(prize.agentId),
          amountMicro: prize.amountMicro,
          reason: `casino.tournament.prize${prize.rank}`,
          reference: record.id,
        });
    }
    if (split.creatorReturnMicro > 0n) {
      ctx.ledger.transfer({
        from: hold,
        to: agentAccount(record.creatorId),
        amountMicro: split.creatorReturnMicro,
        reason: 'casino.tournament.return',
        reference: record.id,
      });
    }
    assert(ctx.ledger.balance(hold) === 0n, 'a completed tournament holds nothing');
    record.status = 'completed';
    record.completedAtMs = atMs;
    record.prizes = split.prizes;
    record.creatorReturnMicro = split.creatorReturnMicro;
    this.book.close(record);
    ctx.emit({ type: 'casino.tournament', atMs, tournamentId: record.id, status: 'completed' });
  }
}

/** 400 another game, 403 not entered, 409 not active; null when the play may go to placeBet. */
function playRefusal<P>(entry: TournamentEntry, command: TournamentPlayCommand<P>, nowMs: number): Failure | null {
  const { record } = entry;
  if (command.game.id !== record.game)
    return fail('BAD_REQUEST', `this tournament plays ${record.game}, not ${command.game.id}`);
  if (!entry.entrants.has(command.agentId)) return fail('FORBIDDEN', 'enter the tournament before playing');
  const phase = phaseAt(record, nowMs);
  if (phase !== 'active')
    return fail('CONFLICT', phase === 'upcoming' ? 'tournament has not started' : 'tournament has ended');
  return null;
}
