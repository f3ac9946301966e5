/**
 * The check of a payout a dialect shows rounded (a display field: the deployment's `amount_won`, to
 * 2 dp, live/documented-rules.ts DISPLAY_ROUNDING). What the target credits is stake ×
 * `payout_multiplier` as it writes both, unrounded (DEPLOYED.md §2.4); that credit must be the
 * stake times the rule's multiplier — within the multiplier's own rounding on the wire (6 decimals),
 * a micro (afp rounds its credit down to the micro) and float noise — and the shown figure only has
 * to agree with the credit within half a unit of its last place (core/live-amount.ts
 * withinRounding). Why its own file: every scheme verifying a payout needs it the moment its target
 * rounds what it shows; the exact check would call every rounded figure a wrong payout, and
 * comparing the rounded figure with the rule alone would hide an overpayment smaller than a cent.
 */
import {
  addAmounts,
  compareAmounts,
  absoluteAmount,
  formatAmount,
  fromMicro,
  isLiveAmount,
  liveAmount,
  multiplyAmounts,
  multiplyByRatio,
  parseLiveAmount,
  roundAmount,
  subtractAmounts,
  toMicro,
  withinRounding,
  type LiveAmount,
} from '../../core/live-amount.ts';
import type { Ratio } from '../../core/ratio.ts';
import type { SchemeBet, SchemeVerdict } from './scheme.ts';

/** Decimals the exact due is carried to before the comparison (far below any float noise). */
const DUE_PLACES = 18;
/** Half a unit of the 6th decimal: how far a multiplier written to 6 decimals may be from the rule's ratio. */
const MULTIPLIER_HALF_UNIT = liveAmount(5n, 7);

/** The payout verdict of a bet whose paid figure is a display field rounded to `places` decimals. */
export function shownPayoutCheck(bet: SchemeBet, multiplier: Ratio, places: number): SchemeVerdict['payout'] {
  const stake = fromMicro(bet.amountMicro);
  const due = multiplyByRatio(stake, multiplier, DUE_PLACES, 'nearest');
  const dueMicro = toMicro(roundAmount(due, places)).micro;
  if (bet.paidMicro === null) return { status: 'not-checked', reason: 'the answer does not say the amount paid' };
  const shown = fromMicro(bet.paidMicro);
  const written = bet.multiplier === null ? null : parseLiveAmount(bet.multiplier);
  // The credit: nothing on a bet that shows nothing paid and that the rule calls lost; else stake ×
  // the multiplier written (the rule's due when none is). A won bet may show 0 paid: its credit
  // rounds to 0 at the target's places (0.2× on 0.01 at 2; a win of 0.0199 at 0).
  const credit =
    bet.paidMicro === 0n && multiplier.num === 0n
      ? fromMicro(0n)
      : written !== null && isLiveAmount(written)
        ? multiplyAmounts(stake, written)
        : due;
  if (!creditAgrees(credit, due, stake)) {
    return {
      status: 'failed',
      detail: `credited ${formatAmount(credit)} (amount × payout_multiplier ${String(bet.multiplier)}), due ${formatAmount(due)} (amount × the rule's multiplier)`,
      dueMicro,
    };
  }
  if (withinRounding(shown, credit, places)) return { status: 'ok', dueMicro };
  return {
    status: 'failed',
    detail: `shows ${formatAmount(shown)} paid, the credit is ${formatAmount(credit)} (the answer rounds it to ${places} decimals)`,
    dueMicro,
  };
}

/** The credit is the due within the multiplier's 6-decimal rounding times the stake, a micro, and float noise. */
function creditAgrees(credit: LiveAmount, due: LiveAmount, stake: LiveAmount): boolean {
  const tolerance = addAmounts(multiplyAmounts(absoluteAmount(stake), MULTIPLIER_HALF_UNIT), fromMicro(1n));
  if (compareAmounts(absoluteAmount(subtractAmounts(credit, due)), tolerance) <= 0) return true;
  return withinRounding(credit, due, null);
}
