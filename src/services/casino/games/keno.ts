/**
 * Keno (id keno, POST /games/keno): the agent picks 1..10 distinct numbers of 1..80, the house
 * draws 20; the multiplier is the paytable's for (spots, hits) — keno-tables.ts.
 *
 * Draw mapping: drawn = sample(80, 20) + 1 (partial Fisher–Yates over int, in draw order);
 * hits = the picks among them. P(h hits of k spots) = C(20, h)·C(60, k − h) / C(80, k) exactly,
 * whatever the numbers picked, so variant "keno:k" stands for every pick set of size k.
 *
 * The real casino draws 8 numbers only (NOTES.md defect): `kenoDrawDefective` reproduces that
 * for a deliberately faulty target; afp's game never uses it.
 */
import { ratio } from '../../../core/ratio.ts';
import { binomial, chancesFromCounts } from './chances.ts';
import type { Chance, Draws, GameModule, GameResult, GameVariant } from './game.ts';
import { KENO_PAYTABLE, kenoPayout, type KenoPaytable } from './keno-tables.ts';
import { distinctIntsParam, oneParam, strictParams } from './params.ts';
import { TABLE_BET_RANGE } from './game-terms.ts';

export const KENO_NUMBERS = 80;
export const KENO_DRAWN = 20;
export const KENO_SPOTS_MAX = 10;
/** The real casino's faulty draw size (defect only). */
export const KENO_DRAWN_DEFECTIVE = 8;

export interface KenoParams {
  /** Distinct numbers 1..80, in the order sent. */
  readonly picks: readonly number[];
}

const FIELDS = ['picks'] as const;

/** The house's 20 numbers, 1..80, in draw order. */
export const kenoDraw = (draws: Draws): number[] => draws.sample(KENO_NUMBERS, KENO_DRAWN).map((index) => index + 1);

/** DEFECT (the real casino's): only 8 numbers drawn — every hit count is far rarer than paid for. */
export const kenoDrawDefective = (draws: Draws): number[] =>
  draws.sample(KENO_NUMBERS, KENO_DRAWN_DEFECTIVE).map((index) => index + 1);

/** Settles the picks against the drawn numbers. */
export function kenoSettle(paytable: KenoPaytable, picks: readonly number[], drawn: readonly number[]): GameResult {
  const drawnSet = new Set(drawn);
  const hits = picks.filter((pick) => drawnSet.has(pick));
  const detail = { picks: [...picks], drawn: [...drawn], hits, hit_count: hits.length };
  return { multiplier: kenoPayout(paytable, picks.length, hits.length), detail };
}

/** Exact distribution for `spots` picks when `drawnCount` of the 80 numbers are drawn. */
export function kenoDistribution(paytable: KenoPaytable, spots: number, drawnCount: number): Chance[] {
  const outcomes = Array.from(
    { length: spots + 1 },
    (_, hits) =>
      [
        binomial(drawnCount, hits) * binomial(KENO_NUMBERS - drawnCount, spots - hits),
        kenoPayout(paytable, spots, hits),
      ] as const,
  );
  return chancesFromCounts(outcomes, binomial(KENO_NUMBERS, spots));
}

/** Picks 1..k: the variant's representative pick set. */
export const kenoFirstPicks = (spots: number): number[] => Array.from({ length: spots }, (_, index) => index + 1);

/** Keno over a given paytable: `keno` uses KENO_PAYTABLE; KENO_PRINTED_PAYTABLE makes the defect. */
export function kenoWithPaytable(paytable: KenoPaytable): GameModule<KenoParams> {
  const variants: ReadonlyArray<GameVariant<KenoParams>> = Array.from({ length: KENO_SPOTS_MAX }, (_, index) => ({
    name: `keno:${index + 1}`,
    params: { picks: kenoFirstPicks(index + 1) },
  }));
  return {
    id: 'keno',
    name: 'Keno',
    path: 'keno',
    advertisedEdgeText: 'about 8%',
    advertisedEdge: () => ratio(8n, 100n),
    ...TABLE_BET_RANGE,
    ...strictParams(FIELDS, (params) => {
      return oneParam('picks', distinctIntsParam(params, 'picks', 1, KENO_NUMBERS, 1, KENO_SPOTS_MAX));
    }),
    play: (params, draws) => kenoSettle(paytable, params.picks, kenoDraw(draws)),
    distribution: (params) => kenoDistribution(paytable, params.picks.length, KENO_DRAWN),
    variants: () => variants,
    variantName: (params) => `keno:${params.picks.length}`,
  };
}

export const keno: GameModule<KenoParams> = kenoWithPaytable(KENO_PAYTABLE);

/** DEFECT (the real casino's): keno on afp's paytable with the 8-number draw. */
export const kenoPlayDefective = (params: KenoParams, draws: Draws): GameResult =>
  kenoSettle(KENO_PAYTABLE, params.picks, kenoDrawDefective(draws));

/**
 * DEFECT 'keno-short-draw' (afp serve, tests and demos only): the 20 numbers are drawn from 1..79,
 * so 80 is never drawn; a pick of 80 never hits and the fairness audit's recomputation differs.
 */
export const kenoPlayShortDraw = (params: KenoParams, draws: Draws): GameResult =>
  kenoSettle(
    KENO_PAYTABLE,
    params.picks,
    draws.sample(KENO_NUMBERS - 1, KENO_DRAWN).map((index) => index + 1),
  );

/** The exact law of `kenoPlayDefective`. */
export const kenoDefectiveDistribution = (params: KenoParams): Chance[] =>
  kenoDistribution(KENO_PAYTABLE, params.picks.length, KENO_DRAWN_DEFECTIVE);
