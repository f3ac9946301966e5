/**
 * How far a live casino balance may move from stakes and returns without money having gone
 * anywhere: only the rounding the target itself shows. Each credit afp books exactly (stake × the
 * multiplier the answer wrote, live/bet-credit.ts) adds nothing; a credit with digits below the
 * micro adds one micro (afp books the nearest, a target may floor); a credit known only as a
 * rounded display figure (no multiplier to tell it) adds half a unit of the places it shows. Each
 * balance read adds half a unit of the places the target rounds its balance to, measured from the
 * reads themselves (the more places of the two: a target rounds both alike, and an exact balance
 * such as a funded 50 shows none), plus half a micro for afp's nearest-micro reading.
 * Why: a cent plus half a cent per bet (the old allowance) let a target skim 0.004 USDC a bet, 40%
 * of every minimum stake, and still pass; float noise (2^-37 of a balance) stays far below a micro.
 * Non-goals: reading anything (the audit passes what it read).
 */
import { displayRoundingMicro, shownPlaces, type LiveAmount } from '../../core/live-amount.ts';
import type { Micro } from '../../core/money.ts';
import type { BetCredit } from '../../live.ts';

/** Places at and beyond which a balance is taken as unrounded (afp's micro). */
const MICRO_PLACES = 6;

/** What one bet's booked credit may be off by: 0 exact, 1 micro below-micro digits, half a unit of a display figure's places. */
export function creditSlackMicro(
  credit: BetCredit,
  shown: { readonly paidMicro: Micro | null; readonly paidPlaces?: number | null },
): Micro {
  if (credit.ok) return credit.exact ? 0n : 1n;
  if (shown.paidMicro === null) return 0n;
  return displayRoundingMicro(shown.paidMicro, shown.paidPlaces ?? null);
}

/**
 * The rounding two balance reads carry together: half a unit of the places the target rounds its
 * balance to (the more the two reads show; none at MICRO_PLACES or more) for each, plus a micro
 * for afp's reading of both to the nearest micro. A read afp holds only in micro counts as unrounded.
 */
export function balanceReadsRoundingMicro(before: LiveAmount | null, after: LiveAmount | null): Micro {
  const shown = [before, after].flatMap((read) => (read === null ? [] : [shownPlaces(read)]));
  const places = shown.length === 0 ? MICRO_PLACES : Math.max(...shown);
  const halfUnit = places >= MICRO_PLACES ? 0n : 5n * 10n ** BigInt(5 - places);
  return 2n * halfUnit + 1n;
}
