/**
 * A tournament's entry and play, on every dialect that serves them (the documents' style A and the
 * deployment, DEPLOYED.md §2.10): the same paths and bodies; a play is a bet of the tournament's
 * game, answered as the dialect answers a bet, with the tournament's id (and, on a deployment, the
 * entrant's score) beside it. One function per row over what differs: the answer's other fields
 * and the places a credit is shown to. Why: a recorded tournament is replayed through either.
 */
import { toNumber } from '../../core/money.ts';
import { readBet } from './bet-answer.ts';
import { row, type OperationRow } from './dialect.ts';
import { deployedPath } from '../../http/deployed/deployed-wire.ts';

/** The fields of an entry's answer read by no one, in either dialect. */
const ENTRY_FIELDS = [
  'entered',
  'name',
  'game',
  'status',
  'creator',
  'entry_fee',
  'prize_pool',
  'funded_by_creator',
  'max_agents',
  'entrants',
  'starts_at',
  'ends_at',
  'seconds_until_start',
  'created_at',
  'completed_at',
  'prizes',
  'new_balance',
  'agent_id',
  'position',
  'entry_fee_paid',
  'message',
];

export function tournamentEnterRow(): OperationRow<'casino.tournament-enter'> {
  return row('casino.tournament-enter', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: deployedPath('casino.deployed.tournaments.enter', { id: input.tournamentId }),
      auth: true,
    }),
    read: (reader) => {
      reader.knows(...ENTRY_FIELDS);
      const tournamentId = reader.string('tournament_id');
      return tournamentId === null ? null : { tournamentId };
    },
  });
}

/** `paidPlaces`: the places the answer shows a credit to (the deployment's `amount_won`: 2). */
export function tournamentPlayRow(paidPlaces: number | null): OperationRow<'casino.tournament-play'> {
  return row('casino.tournament-play', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: deployedPath('casino.deployed.tournaments.play', { id: input.tournamentId }),
      body: { amount: toNumber(input.amountMicro), client_seed: input.clientSeed, ...input.params },
      auth: true,
    }),
    read: (reader) => {
      reader.knows('tournament_id', 'tournament_score', 'kelly', 'placed_at');
      return readBet(reader, paidPlaces);
    },
  });
}
