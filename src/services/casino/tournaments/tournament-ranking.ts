/**
 * The live leaderboard of a tournament: entrants by score (net winnings of tournament plays)
 * descending, then earlier entry, then agent id — a total order, so equal scores rank the same
 * way in every run and the prizes follow the same order.
 */
import type { RankedEntrant, TournamentEntrant } from './tournament-record.ts';

export function compareEntrants(a: TournamentEntrant, b: TournamentEntrant): number {
  if (a.scoreMicro !== b.scoreMicro) return a.scoreMicro > b.scoreMicro ? -1 : 1;
  if (a.enteredAtMs !== b.enteredAtMs) return a.enteredAtMs - b.enteredAtMs;
  return a.agentId < b.agentId ? -1 : a.agentId > b.agentId ? 1 : 0;
}

/** Every entrant with its 1-based rank (copies: later plays do not change a returned board). */
export function rankEntrants(entrants: Iterable<TournamentEntrant>): RankedEntrant[] {
  const sorted = [...entrants].sort(compareEntrants);
  return sorted.map((entrant, index) => ({ ...entrant, rank: index + 1 }));
}
