/**
 * The check of a payout a dialect shows rounded (a display field: the deployment's `amount_won`, to
 * 2 dp, live/documented-rules.ts DISPLAY_ROUNDING). The credit is stake × multiplier, unrounded;
 * the shown figure only has to agree with it within half a unit of its last place, plus float
 * noise (core/live-amount.ts withinRounding). Why its own file: every scheme that verifies a
 * payout needs it the moment its target rounds what it shows, and the exact check (afp's floor to
 * the micro) would call every rounded figure a wrong payout.
 */
import { fromMicro, multiplyByRatio, roundAmount, toMicro, withinRounding, formatAmount } from '../../core/live-amount.ts';
import type { Ratio } from '../../core/ratio.ts';
import type { SchemeBet, SchemeVerdict } from './scheme.ts';

/** Decimals the exact credit is carried to before the comparison (far below any float noise). */
const CREDIT_PLACES = 18;

/** The payout verdict of a bet whose paid figure is a display field rounded to `places` decimals. */
export function shownPayoutCheck(bet: SchemeBet, multiplier: Ratio, places: number): SchemeVerdict['payout'] {
  const credit = multiplyByRatio(fromMicro(bet.amountMicro), multiplier, CREDIT_PLACES, 'nearest');
  const dueMicro = toMicro(roundAmount(credit, places)).micro;
  if (bet.paidMicro === null) return { status: 'not-checked', reason: 'the answer does not say the amount paid' };
  if (withinRounding(fromMicro(bet.paidMicro), credit, places)) return { status: 'ok', dueMicro };
  return { status: 'failed', detail: `shows ${formatAmount(fromMicro(bet.paidMicro))} paid, the credit is ${formatAmount(credit)} (amount × the multiplier; the answer rounds it to ${places} decimals)`, dueMicro };
}
