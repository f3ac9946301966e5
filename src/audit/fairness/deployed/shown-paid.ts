/**
 * What a deployed bet's answer says it paid, for the self-contradiction checks
 * (answer-contradiction.ts, parlay-contradiction.ts). Payment is what the target credits: `won`,
 * `amount_won` (over the stake) and the balance, never a multiplier alone. A deployment shows a
 * lost bet's multiplier as placed (DEPLOYED.md §2.4: a lost roulette bet on red shows
 * `payout_multiplier: 1.99`), so a shown multiplier counts as paid only on a bet the answer calls
 * won. Its own file: both checks read it, and the parlay's is imported by the other.
 */

/** What the answer says of its payment: its win flag, `amount_won` with its stake, and the multiplier it shows. */
export interface ShownPayout {
  readonly won?: boolean | null;
  readonly multiplier: number | null;
  /** `amount_won` in micro (null: not shown), and the stake it is over. */
  readonly paidMicro?: bigint | null;
  readonly amountMicro?: bigint;
}

/** `amount_won` over the stake, when both are shown. */
function creditedRatio(shown: ShownPayout): number | null {
  const [paid, amount] = [shown.paidMicro ?? null, shown.amountMicro ?? null];
  return paid === null || amount === null || amount <= 0n ? null : Number(paid) / Number(amount);
}

/**
 * The total return the answer says it credited: the shown multiplier on a bet it calls won, nothing
 * on one it calls lost unless it credited an amount (a partial return), else `amount_won` over the
 * stake; the bare multiplier only where the answer states neither a win flag nor an amount.
 */
export function creditedMultiplier(shown: ShownPayout): number | null {
  const credited = creditedRatio(shown);
  if (shown.won === true) return shown.multiplier ?? credited;
  if (shown.won === false) return credited !== null && credited > 0 ? credited : 0;
  if (credited !== null) return credited === 0 ? 0 : (shown.multiplier ?? credited);
  return shown.multiplier;
}
