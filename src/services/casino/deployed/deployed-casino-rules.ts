/**
 * DeployedCasinoRules: the deployed casino's game rules as data (spec/DEPLOYED.md §2.5): payout
 * multipliers and tables, edge factors, a few named draw-mapping alternatives, display rounding and
 * the money representation, and the minimum bet. PUBLISHED_DEPLOYED_RULES is what DEPLOYED.md publishes; the deployed
 * fairness scheme of the live audit always verifies against it, while `afp serve --dialect deployed
 * --rules FILE` plays a copy with some values overridden (withRuleOverrides), so a perturbed
 * stand-in looks to the audit exactly like a deployment that changed its rules.
 *
 * Named alternatives: wheel `compare: percent` (the deployment: r in 0.00–99.99 against cumulative
 * probabilities on a 0–1 scale, so r ≥ 1 is always BUST) or `fraction` (r/100 compared: the wheel
 * as advertised); keno `draw: deployed` (§2.5's (floor(roll × 10000) % 80) + 1, 5–8 numbers) or
 * `uniform` ((round(roll × 100) % 80) + 1, 20 distinct numbers as a fair keno draws), both over
 * keno's `numbers` (1 … 80 published); coin flip `headsBelow` (heads iff r < headsBelow).
 * Invariants: every multiplier is a non-negative plain decimal (the file schema checks it); tables
 * have the shape the published ones have. Non-goals: validation of a file (deployed-rules-file.ts).
 */
import { assert } from '../../../core/assert.ts';
import { parseNumber, type Micro } from '../../../core/money.ts';
import { PUBLISHED_GAME_WORDS, type PublishedGameWords } from './published-game-words.ts';
import type { PlinkoRisk, PlinkoRows } from '../games/plinko-tables.ts';

export type WheelCompare = 'percent' | 'fraction';
export type KenoDraw = 'deployed' | 'uniform';

/** One entry per game id of the deployment (game ids are the wire's snake_case names). */
export interface DeployedGameRules {
  readonly coin_flip: { readonly payout: number; readonly headsBelow: number };
  readonly dice: { readonly edgeFactor: number };
  /** The crash point's factor (round2(edgeFactor / (1 − r/100))), for multiplier and crash alike. */
  readonly multiplier: { readonly edgeFactor: number };
  readonly crash: { readonly edgeFactor: number };
  readonly roulette: { readonly number: number; readonly evenMoney: number; readonly dozenColumn: number };
  readonly custom: { readonly edgeFactor: number };
  /**
   * `statedEdgePct` (simple dice, hilo, wheel): the `house_edge_pct` their answers state; absent,
   * the figure the deployment derives from the rule (DEPLOYED.md §2.5). Words only: no bet pays by it.
   */
  readonly simple_dice: { readonly payout: number; readonly statedEdgePct?: number };
  readonly blackjack: {
    readonly natural: number;
    readonly win: number;
    readonly doubleWin: number;
    readonly push: number;
  };
  /** Each table from slot 0 to the centre; the rest mirrors it. */
  readonly plinko: { readonly tables: Readonly<Record<PlinkoRisk, Readonly<Record<PlinkoRows, readonly number[]>>>> };
  readonly slots: {
    readonly triples: Readonly<Record<string, number>>;
    readonly barBar: number;
    readonly twoCherries: number;
    readonly cherryFirst: number;
  };
  readonly hilo: {
    readonly edgeFactor: number;
    readonly payoutMin: number;
    readonly payoutMax: number;
    readonly statedEdgePct?: number;
  };
  /** Spots picked → catches → total return; numbers are drawn from 1 … `numbers` (published 80). */
  readonly keno: {
    readonly paytable: Readonly<Record<number, Readonly<Record<number, number>>>>;
    readonly draw: KenoDraw;
    readonly numbers: number;
  };
  /** Triples in symbol order 💎 7️⃣ ⭐ 🍀 🔔 🍒, then any pair. */
  readonly scratch_card: { readonly triples: readonly number[]; readonly pair: number };
  /** Sectors in order: (multiplier, probability on a 0–1 scale). */
  readonly wheel: {
    readonly sectors: ReadonlyArray<readonly [multiplier: number, probability: number]>;
    readonly compare: WheelCompare;
    readonly statedEdgePct?: number;
  };
  readonly mines: { readonly edgeFactor: number };
  readonly baccarat: { readonly player: number; readonly banker: number; readonly tie: number };
  /** Royal flush, straight flush, four of a kind, full house, flush, straight, three of a kind, two pair, jacks or better. */
  readonly video_poker: { readonly paytable: readonly number[] };
}

export interface DeployedCasinoRules {
  readonly casino: DeployedGameRules;
  /** The smallest bet the casino takes, every game alike (§2.4: below 0.01, 400 minimum_bet). */
  readonly bets: { readonly minimum: number };
  /** Decimal places of the bet answer's `amount_won` and `new_balance` (the deployment: 2). */
  /**
   * What the bet answer shows: `amount_won` and `new_balance` rounded to these places, and
   * `multiplierOnLoss` (published true, DEPLOYED.md §2.4): a lost bet's `payout_multiplier` is the
   * multiplier of the bet as placed; false shows 0 on a loss (afp's own answers, an honest form too).
   */
  readonly display: {
    readonly amountWonPlaces: number;
    readonly newBalancePlaces: number;
    readonly multiplierOnLoss: boolean;
  };
  /**
   * Balances as JS doubles with their rounding noise (read by the deployed routes' money rendering);
   * `skim`: the share of each win's credit silently kept back while the answer shows the whole win
   * (a defect for tests; published 0).
   */
  readonly money: { readonly floatNoise: boolean; readonly skim?: number };
  /**
   * What `GET /api/v1/games` says of each game, in the deployment's own prose (DEPLOYED.md §2.1):
   * its `house_edge` and `payout` texts. Words only: no game plays by them (a stand-in whose words
   * differ from what it plays is a deployment whose advertisement is wrong).
   */
  readonly published: Readonly<Record<string, PublishedGameWords>>;
}

export const PUBLISHED_DEPLOYED_RULES: DeployedCasinoRules = {
  casino: {
    coin_flip: { payout: 1.99, headsBelow: 50 },
    dice: { edgeFactor: 0.995 },
    multiplier: { edgeFactor: 0.995 },
    crash: { edgeFactor: 0.995 },
    roulette: { number: 34.825, evenMoney: 1.99, dozenColumn: 2.985 },
    custom: { edgeFactor: 0.995 },
    simple_dice: { payout: 5.5 },
    blackjack: { natural: 1.5, win: 1, doubleWin: 2, push: 1 },
    plinko: {
      tables: {
        low: {
          8: [5.6, 2.1, 1.1, 1.0, 0.5],
          12: [10, 3, 1.6, 1.4, 1.1, 1.0, 0.5],
          16: [16, 9, 2, 1.4, 1.4, 1.2, 1.1, 1.0, 0.5],
        },
        medium: {
          8: [13, 3, 1.3, 0.7, 0.4],
          12: [33, 11, 4, 2, 0.6, 0.3, 0.2],
          16: [110, 41, 10, 5, 3, 1.5, 1.0, 0.5, 0.3],
        },
        high: {
          8: [29, 4, 1.5, 0.3, 0.2],
          12: [170, 24, 8.1, 2, 0.7, 0.2, 0.2],
          16: [1000, 130, 26, 9, 4, 2, 0.2, 0.2, 0.2],
        },
      },
    },
    slots: {
      triples: { '7': 250, BAR: 50, BELL: 25, CHERRY: 10, LEMON: 5, ORANGE: 5, GRAPE: 5 },
      barBar: 5,
      twoCherries: 2,
      cherryFirst: 1,
    },
    hilo: { edgeFactor: 0.96, payoutMin: 1.05, payoutMax: 12 },
    keno: {
      paytable: {
        1: { 1: 3.5 },
        2: { 2: 16 },
        3: { 2: 2, 3: 50 },
        4: { 2: 1, 3: 5, 4: 200 },
        5: { 3: 3, 4: 25, 5: 1000 },
        6: { 3: 2, 4: 10, 5: 200, 6: 5000 },
        7: { 4: 5, 5: 60, 6: 700, 7: 10_000 },
        8: { 4: 2, 5: 25, 6: 300, 7: 3000, 8: 50_000 },
        9: { 4: 1, 5: 15, 6: 100, 7: 1000, 8: 5000, 9: 100_000 },
        10: { 5: 10, 6: 50, 7: 500, 8: 2000, 9: 10_000, 10: 250_000 },
      },
      draw: 'deployed',
      numbers: 80,
    },
    scratch_card: { triples: [50, 20, 15, 12, 8, 5], pair: 2 },
    wheel: {
      sectors: [
        [0, 0.35],
        [0.5, 0.25],
        [1, 0.15],
        [1.5, 0.1],
        [2, 0.08],
        [3, 0.04],
        [5, 0.02],
        [10, 0.01],
      ],
      compare: 'percent',
    },
    mines: { edgeFactor: 0.975 },
    baccarat: { player: 1.98, banker: 1.9, tie: 8 },
    video_poker: { paytable: [800, 50, 25, 9, 6, 4, 3, 2, 1] },
  },
  bets: { minimum: 0.01 },
  display: { amountWonPlaces: 2, newBalancePlaces: 2, multiplierOnLoss: true },
  money: { floatNoise: false },
  published: PUBLISHED_GAME_WORDS,
};

/** Overrides as a partial tree of the same shape (objects merge key by key; arrays and scalars replace). */
export type RuleOverrides = { readonly [key: string]: unknown };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function merged(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override === undefined ? base : override;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) result[key] = merged(base[key], value);
  return result;
}

/** `base` with `overrides` applied (the overrides' shape is checked by the file schema, not here). */
export function withRuleOverrides(base: DeployedCasinoRules, overrides: RuleOverrides): DeployedCasinoRules {
  return merged(base, overrides) as DeployedCasinoRules;
}

/** The rules' minimum bet in micro-USDC (the file schema keeps it a positive amount of at most 6 decimals). */
export function deployedMinimumMicro(rules: DeployedCasinoRules): Micro {
  const parsed = parseNumber(rules.bets.minimum);
  assert(typeof parsed === 'bigint' && parsed > 0n, `the minimum bet ${String(rules.bets.minimum)} is an amount`);
  return parsed;
}
