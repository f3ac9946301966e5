/**
 * The rows of the casino's pots, tournaments and challenges, on every dialect that serves them
 * (the documents' style A and the deployment, DEPLOYED.md §2.10–§2.11): the same paths, and a
 * create body that differs only in names (`prize_pool` / `prize_pool_usdc`) and in how an instant
 * is written (ISO 8601 / unix seconds). Each row is one function over what differs, as the other
 * shared casino rows are (casino-rows.ts). Amounts are read as the target writes them (a double
 * with float noise included) and taken to the micro.
 */
import { toMicro } from '../../core/live-amount.ts';
import { toNumber, type Micro } from '../../core/money.ts';
import type { JsonValue } from '../../core/errors.ts';
import type { WireReader } from '../wire-reader.ts';
import { row, type OperationRow } from './dialect.ts';
import { deployedPath } from '../../http/deployed/deployed-wire.ts';

export interface TournamentCreateShape {
  readonly entryFee: string;
  readonly prizePool: string;
  /** An instant (ms) as the dialect writes it. */
  readonly instant: (ms: number) => JsonValue;
  /** The answer's fields read by no one. */
  readonly known: readonly string[];
}

export interface ChallengeAcceptShape {
  /** The payout's field, and the documents' name where the dialect renames it. */
  readonly payout: string;
  readonly payoutDocuments?: string;
  readonly known: readonly string[];
}

/** An optional amount of the answer, to the micro; null when absent. */
function amountMicro(reader: WireReader, path: string, documents?: string): Micro | null {
  const amount = reader.amount(path, documents === undefined ? { optional: true } : { documents, optional: true });
  return amount === null ? null : toMicro(amount).micro;
}

export function tournamentCreateRow(shape: TournamentCreateShape): OperationRow<'casino.tournament-create'> {
  return row('casino.tournament-create', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: deployedPath('casino.deployed.tournaments.create'),
      body: {
        name: input.name,
        game: input.game,
        [shape.entryFee]: toNumber(input.entryFeeMicro),
        [shape.prizePool]: toNumber(input.prizePoolMicro),
        max_agents: input.maxAgents,
        starts_at: shape.instant(input.startsAtMs),
        ends_at: shape.instant(input.endsAtMs),
      },
      auth: true,
    }),
    read: (reader) => {
      const tournamentId = reader.string('tournament_id');
      const prizePoolMicro = amountMicro(reader, 'prize_pool');
      reader.knows(...shape.known);
      return tournamentId === null ? null : { tournamentId, prizePoolMicro };
    },
  });
}

export function challengeRow(known: readonly string[]): OperationRow<'casino.challenge'> {
  return row('casino.challenge', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: deployedPath('casino.deployed.challenges.create'),
      body: { challenged_agent_id: input.challengedId, game: input.game, amount: toNumber(input.amountMicro) },
      auth: true,
    }),
    read: (reader) => {
      const challengeId = reader.string('challenge_id');
      const status = reader.string('status', { optional: true });
      reader.knows(...known);
      return challengeId === null ? null : { challengeId, status };
    },
  });
}

export function challengeAcceptRow(shape: ChallengeAcceptShape): OperationRow<'casino.challenge-accept'> {
  return row('casino.challenge-accept', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: deployedPath('casino.deployed.challenges.accept', { id: input.challengeId }),
      auth: true,
    }),
    read: (reader) => {
      const winnerId = reader.string('winner', { optional: true });
      const houseCutMicro = amountMicro(reader, 'house_cut');
      const payoutMicro = amountMicro(reader, shape.payout, shape.payoutDocuments);
      reader.knows(...shape.known);
      return { winnerId, houseCutMicro, payoutMicro };
    },
  });
}
