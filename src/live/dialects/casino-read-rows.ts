/**
 * The casino's reads and settings a recorded casino scenario asks besides its bets, on the dialects
 * that serve them at the same paths (the documents' style A and a deployment, DEPLOYED.md §2.7,
 * §2.8, §2.10): the active seed's commitment, the Kelly risk factor, the tournament list and one
 * tournament. Why one file: the requests are the same bytes in both, only the answers' fields
 * differ (style A's list is split into `active` and `upcoming`, a deployment's is one
 * `tournaments` list with `id`; style A's tournament is flat, a deployment's under `tournament`).
 */
import type { TournamentLine } from '../operation-views.ts';
import type { WireReader } from '../wire-reader.ts';
import { deployedPath } from '../../http/deployed/deployed-wire.ts';
import { row, type DialectTable, type OperationRow } from './dialect.ts';

/** Fields of a tournament line no one reads, in either dialect. */
const LINE_FIELDS = [
  'name',
  'game',
  'creator',
  'entry_fee',
  'prize_pool',
  'funded_by_creator',
  'max_agents',
  'starts_at',
  'ends_at',
  'seconds_until_start',
  'created_at',
  'completed_at',
  'prizes',
];

function lineOf(reader: WireReader, id: string, entrants: string): TournamentLine | null {
  reader.knows(...LINE_FIELDS);
  const tournamentId = reader.string(id);
  const status = reader.string('status', { optional: true });
  const count = reader.number(entrants, { optional: true });
  return tournamentId === null ? null : { tournamentId, status, entrants: count };
}

const seedHashRow = (known: readonly string[]): OperationRow<'casino.seed-hash'> =>
  row('casino.seed-hash', {
    request: () => ({
      service: 'casino',
      method: 'GET',
      path: deployedPath('casino.deployed.fairness.seed-hash'),
      auth: true,
    }),
    read: (reader) => {
      reader.knows(...known);
      const seedHash = reader.string('server_seed_hash');
      return seedHash === null ? null : { seedHash };
    },
  });

const kellyConfigRow: OperationRow<'casino.kelly-config'> = row('casino.kelly-config', {
  request: (input) => ({
    service: 'casino',
    method: 'PUT',
    path: deployedPath('casino.deployed.kelly.config'),
    body: { risk_factor: input.riskFactor },
    auth: true,
  }),
  read: (reader) => {
    reader.knows('message', 'new_limits');
    return { riskFactor: reader.number('risk_factor', { optional: true }) };
  },
});

const tournamentPath = (tournamentId: string): string =>
  deployedPath('casino.deployed.tournaments.get', { id: tournamentId });
const listPath = deployedPath('casino.deployed.tournaments.list');

export const CASINO_READS_A: DialectTable = {
  'casino.seed-hash': seedHashRow(['next_nonce', 'created_at']),
  'casino.kelly-config': kellyConfigRow,
  'casino.tournaments': row('casino.tournaments', {
    request: () => ({ service: 'casino', method: 'GET', path: listPath, auth: true }),
    read: (reader) => {
      reader.knows('count');
      const line = (item: WireReader): TournamentLine | null => lineOf(item, 'tournament_id', 'entrants');
      return { tournaments: [...reader.items('active', line), ...reader.items('upcoming', line)] };
    },
  }),
  'casino.tournament': row('casino.tournament', {
    request: (input) => ({ service: 'casino', method: 'GET', path: tournamentPath(input.tournamentId), auth: true }),
    read: (reader) => {
      reader.knows('leaderboard');
      return lineOf(reader, 'tournament_id', 'entrants');
    },
  }),
};

export const CASINO_READS_DEPLOYED: DialectTable = {
  'casino.seed-hash': seedHashRow(['note', 'how_to_verify']),
  'casino.kelly-config': kellyConfigRow,
  'casino.tournaments': row('casino.tournaments', {
    request: () => ({ service: 'casino', method: 'GET', path: listPath, auth: false }),
    read: (reader) => ({ tournaments: reader.items('tournaments', (item) => lineOf(item, 'id', 'agent_count')) }),
  }),
  'casino.tournament': row('casino.tournament', {
    request: (input) => ({ service: 'casino', method: 'GET', path: tournamentPath(input.tournamentId), auth: false }),
    read: (reader) => {
      reader.knows('tournament', 'leaderboard');
      const line = reader.object('tournament');
      return line === null ? null : lineOf(reader.nested(line, 'tournament'), 'id', 'agent_count');
    },
  }),
};
