/**
 * Crash (id crash, POST /games/crash): cash out at 1.01x..100x (at most two decimals); win, paid
 * the cash-out multiplier, when the crash point reaches it (crash ≥ cash_out_at: a round that
 * crashes exactly at the cash-out point still pays, as a cash-out at that instant would).
 *
 * Draw mapping: crash cents from one fraction52 draw (crash-point.ts); P(win) =
 * P(crash ≥ cash_out_at) ≈ 0.995 / cash_out_at, edge ≈ 0.5% as advertised.
 * The short-style round-based crash (POST /games/crash/bet, /cashout) uses the same law through
 * `crashRoundCents` and the same win rule through `crashCashOutWins`; the service runs the clock.
 */
import { isFailure, succeed } from '../../../core/errors.ts';
import { ZERO, ratio, type Ratio } from '../../../core/ratio.ts';
import { centsText, centsToNumber, crashPointCents, probabilityCrashAtLeast, ratioToCents } from './crash-point.ts';
import { hitOrMiss } from './chances.ts';
import type { Chance, Draws, GameModule, GameResult } from './game.ts';
import { decimalParam } from './params.ts';
import { CORE_GAME_EDGE, WIDE_BET_RANGE } from './game-terms.ts';

export interface CrashParams {
  /** The cash-out point in cents: 101..10000. */
  readonly cashOutCents: number;
}

export const CRASH_CASH_OUT_MIN_CENTS = 101;
export const CRASH_CASH_OUT_MAX_CENTS = 10_000;

/** The crash point of one round (short style), in cents: the same law as a single crash bet. */
export function crashRoundCents(draws: Draws): number {
  return crashPointCents(draws);
}

/** A cash-out at `cashOutCents` pays when the round's crash point reaches it. */
export function crashCashOutWins(cashOutCents: number, crashCents: number): boolean {
  return crashCents >= cashOutCents;
}

const cashOutRatio = (params: CrashParams): Ratio => ratio(BigInt(params.cashOutCents), 100n);

export const crash: GameModule<CrashParams> = {
  id: 'crash',
  name: 'Crash',
  path: 'crash',
  ...CORE_GAME_EDGE,
  ...WIDE_BET_RANGE,
  paramFields: ['cash_out_at'],
  parse(params) {
    const cashOut = decimalParam(
      params,
      'cash_out_at',
      centsText(CRASH_CASH_OUT_MIN_CENTS),
      centsText(CRASH_CASH_OUT_MAX_CENTS),
      2,
    );
    if (isFailure(cashOut)) return cashOut;
    return succeed({ cashOutCents: ratioToCents(cashOut) });
  },
  play(params, draws): GameResult {
    const crashCents = crashRoundCents(draws);
    const win = crashCashOutWins(params.cashOutCents, crashCents);
    return {
      multiplier: win ? cashOutRatio(params) : ZERO,
      detail: { crash_point: centsToNumber(crashCents), cash_out_at: centsToNumber(params.cashOutCents), win },
    };
  },
  distribution(params): readonly Chance[] {
    const winChance = probabilityCrashAtLeast(params.cashOutCents);
    return hitOrMiss(winChance, cashOutRatio(params));
  },
  variants: () => [
    { name: 'crash:2', params: { cashOutCents: 200 } },
    { name: 'crash:1.5', params: { cashOutCents: 150 } },
    { name: 'crash:10', params: { cashOutCents: 1_000 } },
  ],
  variantName: (params) => `crash:${centsText(params.cashOutCents)}`,
};
