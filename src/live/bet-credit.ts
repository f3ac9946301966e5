/**
 * What a placed bet credited, judged the way its target writes money. Where the answer shows the
 * payout exactly (the documents' styles), the credit is that figure. Where it shows it as a display
 * field rounded to `paidPlaces` decimals (the deployment's `amount_won`, 2 dp, DEPLOYED.md §2.4),
 * the credit is stake × `payout_multiplier` as the wire writes both (unrounded, as the deployment
 * credits it), and the shown figure only has to agree with it within its rounding
 * (core/live-amount.ts withinRounding). Why: a model that books the rounded figure drifts half a
 * cent a bet, and a comparison with it would call rounding a money error.
 */
import {
  fromMicro,
  multiplyAmounts,
  parseLiveAmount,
  isLiveAmount,
  toMicro,
  withinRounding,
  formatAmount,
  type LiveAmount,
} from '../core/live-amount.ts';
import type { Micro } from '../core/money.ts';
import type { LiveBet } from './operations.ts';

export type BetCredit =
  | {
      readonly ok: true;
      /** The credit in micro (nearest); `exact` false when the target's credit has digits below the micro. */
      readonly micro: Micro;
      readonly exact: boolean;
      /** The credit as the target holds it. */
      readonly amount: LiveAmount;
    }
  | {
      readonly ok: false;
      readonly problem: string;
      /**
       * True where the answer does not say enough to tell the credit (no payout, or a rounded one
       * and no multiplier): not a contradiction, so the credit is only known to its rounding; false
       * where the answer contradicts itself (the shown figure is not stake × multiplier).
       */
      readonly unstated: boolean;
    };

export function betCredit(
  bet: Pick<LiveBet, 'amountMicro' | 'paidMicro' | 'multiplier' | 'paidPlaces'> & { readonly won?: boolean | null },
): BetCredit {
  if (bet.paidMicro === null)
    return { ok: false, problem: 'the answer does not say what the bet returned', unstated: true };
  const places = bet.paidPlaces ?? null;
  if (places === null) return { ok: true, micro: bet.paidMicro, exact: true, amount: fromMicro(bet.paidMicro) };
  // A losing bet credits nothing, whatever multiplier it names (the deployment shows 0 on a loss). A
  // won bet whose credit rounds to 0.00 (a 0.2× plinko drop on 0.01) still credits stake × multiplier.
  if (bet.paidMicro === 0n && bet.won !== true) return { ok: true, micro: 0n, exact: true, amount: fromMicro(0n) };
  const multiplier = bet.multiplier === null ? null : parseLiveAmount(bet.multiplier);
  if (multiplier === null || !isLiveAmount(multiplier))
    return {
      ok: false,
      problem: `the answer rounds amount_won to ${places} decimals and names no multiplier to tell the credit`,
      unstated: true,
    };
  const credit = multiplyAmounts(fromMicro(bet.amountMicro), multiplier);
  if (!withinRounding(fromMicro(bet.paidMicro), credit, places)) {
    return {
      ok: false,
      problem: `amount_won ${formatAmount(fromMicro(bet.paidMicro))} is not stake × payout_multiplier = ${formatAmount(credit)} rounded to ${places} decimals`,
      unstated: false,
    };
  }
  const { micro, exact } = toMicro(credit);
  return { ok: true, micro, exact, amount: credit };
}
