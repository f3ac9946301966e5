/**
 * The prize split of a completed tournament (NOTES.md: 60% / 30% / 10% to the top three
 * scores), exact in micro-USDC.
 *
 * Each rank's share is floor(pool × bps / 10,000). A rank with no entrant (fewer entrants than
 * shares) returns its share to the creator. The rounding remainder (pool − Σ shares, at most a
 * few micro) goes to rank 1, or to the creator when nobody entered. Invariant: the prizes plus
 * the creator's return equal the pool exactly, so the hold ends at zero.
 */
import { assert } from '../../../core/assert.ts';
import { basisPoints, type Micro } from '../../../core/money.ts';
import type { RankedEntrant, TournamentPrize } from './tournament-record.ts';

export interface PrizeSplit {
  readonly prizes: readonly TournamentPrize[];
  readonly creatorReturnMicro: Micro;
}

export function splitPrizes(
  poolMicro: Micro,
  sharesBps: readonly bigint[],
  ranked: readonly RankedEntrant[],
): PrizeSplit {
  assert(poolMicro >= 0n, 'a prize pool is not negative');
  const totalBps = sharesBps.reduce((sum, share) => sum + share, 0n);
  assert(totalBps <= 10_000n && sharesBps.every((share) => share >= 0n), 'prize shares are at most 100% in total');
  const amounts: Micro[] = [];
  let creatorReturnMicro = 0n;
  let sharedMicro = 0n;
  sharesBps.forEach((shareBps, index) => {
    const shareMicro = basisPoints(poolMicro, shareBps, 'down');
    sharedMicro += shareMicro;
    if (index < ranked.length) amounts.push(shareMicro);
    else creatorReturnMicro += shareMicro;
  });
  const remainderMicro = poolMicro - sharedMicro;
  if (amounts.length > 0) amounts[0] = (amounts[0] as Micro) + remainderMicro;
  else creatorReturnMicro += remainderMicro;
  const prizes = amounts.map((amountMicro, index) => {
    const entrant = ranked[index] as RankedEntrant;
    return { rank: entrant.rank, agentId: entrant.agentId, amountMicro };
  });
  assert(
    prizes.reduce((sum, prize) => sum + prize.amountMicro, 0n) + creatorReturnMicro === poolMicro,
    'prizes and return add up to the pool',
  );
  return { prizes, creatorReturnMicro };
}
