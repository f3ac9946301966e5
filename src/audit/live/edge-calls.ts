/**
 * How a live house-edge audit's bets become calls (edge-audit.ts plays them, edge-eta.ts prices
 * them): phases of PHASE_BETS, batches of BATCH_BETS, and where the target paces single bets and
 * batches apart, the share of the bets sent alone so both paces work at once. Pure.
 */

export const PHASE_BETS = 200;
export const BATCH_BETS = 20;
export const LIVE_BETS_MAX = 100_000;
export const VIDEO_POKER = 'video_poker';

/**
 * Bets `first` … `first + count − 1` as calls, in the order they open: each bet sent alone is its
 * own call; the others fill batches of up to BATCH_BETS in index order, bets sent alone between
 * them notwithstanding.
 */
export function groupBets(first: number, count: number, alone: (index: number) => boolean): number[][] {
  const groups: number[][] = [];
  let open: number[] | null = null;
  for (let offset = 0; offset < count; offset += 1) {
    const index = first + offset;
    if (alone(index)) groups.push([index]);
    else if (open !== null && open.length < BATCH_BETS) open.push(index);
    else {
      open = [index];
      groups.push(open);
    }
  }
  return groups;
}

/**
 * Where the target paces single bets and batches apart (the deployment: 60 single bets and 10
 * batches of 20 a minute), the share of the batchable bets sent alone, so that both paces work at
 * once: singles use SINGLE_PACE_USE of their limit, leaving room for video poker's deal and draw
 * (the deployment counts them in the same bucket). 0 when either is unpaced: batches alone then.
 */
export function singleBetShare(limits: Readonly<Record<string, { readonly perMinute: number }>>): number {
  const single = limits['casino.bet']?.perMinute;
  const batch = limits['casino.batch']?.perMinute;
  if (single === undefined || batch === undefined) return 0;
  const singles = single * SINGLE_PACE_USE;
  return singles / (singles + batch * BATCH_BETS);
}

const SINGLE_PACE_USE = 0.75;

/** Whether bet `index` is one of the `share` of bets sent alone (spread evenly over the indexes). */
export function sentAlone(index: number, share: number): boolean {
  return share > 0 && Math.floor((index + 1) * share) > Math.floor(index * share);
}
