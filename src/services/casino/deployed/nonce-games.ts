/**
 * The deployed casino's games of consecutive nonces (spec/DEPLOYED.md §2.5): the bet's nonce n is
 * its first draw (its `proof.nonce` and `result_hash`), the next draws roll n+1, n+2, … under the
 * same seed and client seed. Hilo: two cards, `(floor(roll × 100000) % 13) + 1`. Keno: attempt k
 * rolls n+k, `(floor(roll × 10000) % 80) + 1`, until 20 unique numbers or 200 attempts. Scratch
 * card: three symbols `floor(roll × 100) % 6`. The doubles are the deployment's (r × 10000 is a
 * multiple of 100 or one less, so keno draws only 8 numbers: DEPLOYED.md says so; the rules' `uniform`
 * draw is (round(roll × 100) % 80) + 1). Payouts are DeployedCasinoRules'. Each play says how many
 * nonces it used (hilo 2, scratch card 3, keno min(attempts, 25)): the counter advances by that.
 *
 * Laws: each nonce is an independent word. Keno's is exact by inclusion–exclusion over the picks
 * that can be drawn: P(the seen picks are A) = Σ_{C ⊆ A} (−1)^|C| (1 − p(T∖A ∪ C))^200, T the
 * drawable picks, p(U) the chance one attempt draws a number of U (valid because fewer than 20
 * numbers can be drawn, so all 200 attempts always run; asserted by the law, else null).
 *
 * Labels and statements the answers carry (§2.5), never compared as outcomes (deployed-scheme.ts);
 * their forms are chosen here (docs/decisions/deployed-dialect.md): hilo's `card1_name`/`card2_name`
 * (A, 2 … 10, J, Q, K), `result` (win, lose, push), `payout_applied` (the multiplier applied: 0 on a
 * loss), `house_edge_pct` (1 − the edge factor, in percent: 4) and `note`; keno's `matches` (the
 * count caught), `spots_picked`, `spots_drawn` (20, as the deployment says whatever it drew),
 * `range` ("1-80"), `payout_table` (the row of the spots picked: catches → multiplier) and `note`;
 * the scratch card's `win_type` (triple, pair, none), `payout_table` and `note`.
 */
import { assert } from '../../../core/assert.ts';
import type { JsonObject } from '../../../core/errors.ts';
import { compare, div, ratio, ratioFromDecimal, ZERO, type Ratio } from '../../../core/ratio.ts';
import { chancesFromCounts, type CountedOutcome } from '../games/chances.ts';
import type { Chance } from '../games/game.ts';
import { round2, rollWeights, WORDS } from './deployed-roll.ts';
import type { DeployedGameRules, KenoDraw } from './deployed-casino-rules.ts';
import { choiceParam, decimalOf, isUnreadable, type DeployedRule, type Unreadable } from './deployed-rule.ts';

const hiloCard = (roll: number): number => (Math.floor(roll * 100_000) % 13) + 1;
const HILO_NAMES = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'] as const;
const hiloName = (card: number): string => HILO_NAMES[card - 1] as string;

const clamp = (value: Ratio, low: Ratio, high: Ratio): Ratio =>
  compare(value, low) < 0 ? low : compare(value, high) > 0 ? high : value;

type HiloPayouts = DeployedGameRules['hilo'];

/** A winning guess's payout: exact, and as the deployment's double. */
function hiloPayout(payouts: HiloPayouts, card1: number, guess: 'higher' | 'lower'): { exact: Ratio; number: number } {
  const favourable = guess === 'higher' ? 13 - card1 : card1 - 1;
  const chance = clamp(ratio(favourable, 12), ratio(1, 100), ratio(99, 100));
  const exact = clamp(
    div(ratioFromDecimal(String(payouts.edgeFactor)), chance),
    ratioFromDecimal(String(payouts.payoutMin)),
    ratioFromDecimal(String(payouts.payoutMax)),
  );
  const number = Math.min(
    payouts.payoutMax,
    Math.max(payouts.payoutMin, (1 / Math.max(0.01, Math.min(0.99, favourable / 12))) * payouts.edgeFactor),
  );
  return { exact, number };
}

function hiloMultiplier(
  payouts: HiloPayouts,
  card1: number,
  card2: number,
  guess: 'higher' | 'lower',
): { exact: Ratio; number: number } {
  if (card1 === card2) return { exact: ratio(1), number: 1 };
  const won = guess === 'higher' ? card2 > card1 : card2 < card1;
  return won ? hiloPayout(payouts, card1, guess) : { exact: ZERO, number: 0 };
}

const readGuess = (params: JsonObject): 'higher' | 'lower' | Unreadable =>
  choiceParam(params, 'guess', ['higher', 'lower'] as const, 'higher');

export const hiloRule = (payouts: HiloPayouts): DeployedRule => {
  const statedPct = payouts.statedEdgePct ?? round2((1 - payouts.edgeFactor) * 100);
  const note = `Guess whether the second card is higher or lower; equal cards push; ${String(statedPct)}% house edge`;
  return {
    game: 'hilo',
    play(params, source) {
      const guess = readGuess(params);
      if (isUnreadable(guess)) return guess;
      const card1 = hiloCard(source.roll(source.clientSeed, source.nonce));
      const card2 = hiloCard(source.roll(source.clientSeed, source.nonce + 1));
      const multiplier = hiloMultiplier(payouts, card1, card2, guess);
      const result = card1 === card2 ? 'push' : multiplier.number > 0 ? 'win' : 'lose';
      // The bet as placed: what a win on card1 pays (equal cards push at 1), shown on a loss too.
      const placed = card1 === card2 ? 1 : hiloPayout(payouts, card1, guess).number;
      return {
        multiplier: multiplier.exact,
        multiplierNumber: multiplier.number,
        placedNumber: placed,
        result: {
          card1,
          card1_name: hiloName(card1),
          card2,
          card2_name: hiloName(card2),
          guess,
          result,
          payout_applied: multiplier.number,
          house_edge_pct: statedPct,
          note,
        },
        noncesUsed: 2,
      };
    },
    law(params) {
      const guess = readGuess(params);
      if (isUnreadable(guess)) return null;
      const cards = [...rollWeights(hiloCard).entries()];
      const outcomes: CountedOutcome[] = cards.flatMap(([card1, first]) =>
        cards.map(([card2, second]): CountedOutcome => [
          first * second,
          hiloMultiplier(payouts, card1, card2, guess).exact,
        ]),
      );
      return chancesFromCounts(outcomes, WORDS * WORDS);
    },
  };
};

export const KENO_ATTEMPTS = 200;
const KENO_UNIQUE = 20;
/** The counter advances by at most this many nonces per keno bet (DEPLOYED.md §2.5). */
export const KENO_NONCES_MAX = 25;
type KenoPaytable = DeployedGameRules['keno']['paytable'];
/** `deployed`: the deployment's (floor(roll × 10000) % n) + 1; `uniform`: (round(roll × 100) % n) + 1, every number alike (n = 80 published). */
const KENO_NUMBERS: Readonly<Record<KenoDraw, (roll: number, numbers: number) => number>> = {
  deployed: (roll, numbers) => (Math.floor(roll * 10_000) % numbers) + 1,
  uniform: (roll, numbers) => (Math.round(roll * 100) % numbers) + 1,
};
const kenoPayout = (paytable: KenoPaytable, spots: number, catches: number): number => paytable[spots]?.[catches] ?? 0;

function readPicks(params: JsonObject): number[] | Unreadable {
  const picks = params['picks'] ?? [1, 2, 3];
  const valid =
    Array.isArray(picks) &&
    picks.length >= 1 &&
    picks.length <= 10 &&
    picks.every((pick) => typeof pick === 'number' && Number.isInteger(pick) && pick >= 1 && pick <= 80) &&
    new Set(picks).size === picks.length;
  return valid ? (picks as number[]) : { why: 'picks must be 1 to 10 distinct integers from 1 to 80' };
}

export const kenoRule = ({ paytable, draw, numbers }: DeployedGameRules['keno']): DeployedRule => ({
  game: 'keno',
  play(params, source) {
    const picks = readPicks(params);
    if (isUnreadable(picks)) return picks;
    const drawn: number[] = [];
    let attempts = 0;
    for (; attempts < KENO_ATTEMPTS && drawn.length < KENO_UNIQUE; attempts += 1) {
      const number = KENO_NUMBERS[draw](source.roll(source.clientSeed, source.nonce + attempts), numbers);
      if (!drawn.includes(number)) drawn.push(number);
    }
    const matches = picks.filter((pick) => drawn.includes(pick)).length;
    const payout = kenoPayout(paytable, picks.length, matches);
    const result: JsonObject = {
      picks,
      drawn,
      matches,
      spots_picked: picks.length,
      spots_drawn: KENO_UNIQUE,
      range: `1-${String(numbers)}`,
      payout_multiplier: payout,
      payout_table: { ...paytable[picks.length] },
      note: `Pick 1-10 numbers of 1-${String(numbers)}; ${String(KENO_UNIQUE)} are drawn`,
    };
    return {
      multiplier: payout === 0 ? ZERO : decimalOf(payout),
      multiplierNumber: payout,
      result,
      unordered: ['drawn'],
      noncesUsed: Math.min(attempts, KENO_NONCES_MAX),
    };
  },
  // The uniform draw stops at 20 numbers, which the inclusion–exclusion law does not model.
  law: (params) => {
    const picks = readPicks(params);
    return isUnreadable(picks) || draw !== 'deployed' ? null : kenoLaw(picks, paytable, numbers);
  },
  hasLaw: (params) =>
    draw === 'deployed' &&
    !isUnreadable(readPicks(params)) &&
    rollWeights((roll) => KENO_NUMBERS.deployed(roll, numbers)).size < KENO_UNIQUE,
});

function kenoLaw(picks: readonly number[], paytable: KenoPaytable, numbers: number): Chance[] | null {
  const weights = rollWeights((roll) => KENO_NUMBERS.deployed(roll, numbers));
  if (weights.size >= KENO_UNIQUE) return null;
  const drawable = picks.filter((pick) => weights.has(pick)).map((pick) => weights.get(pick) as bigint);
  const subsets = 1 << drawable.length;
  const missed = new Map<number, bigint>();
  const neverDrawn = (mask: number): bigint => {
    let cached = missed.get(mask);
    if (cached === undefined) {
      const weight = drawable.reduce((sum, pickWeight, index) => ((mask >> index) & 1 ? sum + pickWeight : sum), 0n);
      cached = (WORDS - weight) ** BigInt(KENO_ATTEMPTS);
      missed.set(mask, cached);
    }
    return cached;
  };
  const outcomes: CountedOutcome[] = [];
  for (let seen = 0; seen < subsets; seen += 1) {
    const unseen = (subsets - 1) & ~seen;
    let count = 0n;
    for (let part = seen; ; part = (part - 1) & seen) {
      count += (popCount(part) % 2 === 0 ? 1n : -1n) * neverDrawn(unseen | part);
      if (part === 0) break;
    }
    assert(count >= 0n, 'inclusion–exclusion gives a count');
    const payout = kenoPayout(paytable, picks.length, popCount(seen));
    outcomes.push([count, payout === 0 ? ZERO : ratioFromDecimal(String(payout))]);
  }
  return chancesFromCounts(outcomes, WORDS ** BigInt(KENO_ATTEMPTS));
}

function popCount(mask: number): number {
  let count = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) count += 1;
  return count;
}

const SCRATCH_SYMBOLS = ['💎', '7️⃣', '⭐', '🍀', '🔔', '🍒'] as const;
const scratchSymbol = (roll: number): number => Math.floor(roll * 100) % 6;
type ScratchPayouts = DeployedGameRules['scratch_card'];

function scratchPayout(payouts: ScratchPayouts, symbols: readonly number[]): number {
  const [first, second, third] = symbols as [number, number, number];
  if (first === second && second === third) return payouts.triples[first] ?? 0;
  return first === second || second === third || first === third ? payouts.pair : 0;
}

const scratchRatio = (payout: number): Ratio => (payout === 0 ? ZERO : decimalOf(payout));

function scratchWinType(symbols: readonly number[]): string {
  const [first, second, third] = symbols;
  if (first === second && second === third) return 'triple';
  return first === second || second === third || first === third ? 'pair' : 'none';
}

/** Each triple by its symbols, then the pair line, as the answer's `payout_table` states them. */
function scratchTable(payouts: ScratchPayouts): JsonObject {
  const table: JsonObject = {};
  SCRATCH_SYMBOLS.forEach((symbol, index) => {
    table[symbol.repeat(3)] = payouts.triples[index] ?? 0;
  });
  table['any pair'] = payouts.pair;
  return table;
}

export const scratchCardRule = (payouts: ScratchPayouts): DeployedRule => {
  const table = scratchTable(payouts);
  return {
    game: 'scratch_card',
    play(_params, source) {
      const symbols = [0, 1, 2].map((offset) => scratchSymbol(source.roll(source.clientSeed, source.nonce + offset)));
      const payout = scratchPayout(payouts, symbols);
      return {
        multiplier: scratchRatio(payout),
        multiplierNumber: payout,
        result: {
          symbols: symbols.map((symbol) => SCRATCH_SYMBOLS[symbol] as string),
          win_type: scratchWinType(symbols),
          payout_multiplier: payout,
          payout_table: table,
          note: 'Three alike pay the table; any pair pays the pair line',
        },
        noncesUsed: 3,
      };
    },
    law() {
      const weights = [...rollWeights(scratchSymbol).entries()];
      const outcomes: CountedOutcome[] = [];
      for (const [a, wa] of weights)
        for (const [b, wb] of weights)
          for (const [c, wc] of weights) outcomes.push([wa * wb * wc, scratchRatio(scratchPayout(payouts, [a, b, c]))]);
      return chancesFromCounts(outcomes, WORDS ** 3n);
    },
  };
};
