// The deployed scheme's exact laws: every documented variant's probabilities sum to exactly 1;
// the modulo arithmetic behind them is re-derived here; and the expected multiplier is compared
// with what spec/DEPLOYED.md states — computed independently in this file from §2.3/§2.5 where a
// game's law is small enough to write down (coin flip, dice, simple dice, slots, scratch card,
// wheel, plinko, keno, hilo, mines 24/1 and a brute-forced mines 23/2), within a stated tolerance
// of the declared RTP (§2.8 p × payout, or the edge a result states) elsewhere. Where the deployed
// rule does not give the declared RTP the test says by how much (the audit reports it).
import { describe, expect, test } from 'vitest';
import { add, expectation, ratio, ratioToNumber, ZERO, type Ratio } from '../../../src/core/ratio.ts';
import { DEPLOYED_SCHEME, deployedHasLaw } from '../../../src/audit/fairness/deployed-scheme.ts';
import type { JsonObject } from '../../../src/core/errors.ts';

const WORDS = 2n ** 32n;
/** Preimages of residue k of a 32-bit word mod 10000, re-derived. */
const weight = (k: number): bigint => (BigInt(k) < WORDS % 10_000n ? WORDS / 10_000n + 1n : WORDS / 10_000n);
/** Σ weight(k) over the residues k whose roll k/100 satisfies `when`. */
const weightOf = (when: (roll: number) => boolean): bigint => {
  let total = 0n;
  for (let k = 0; k < 10_000; k += 1) if (when(k / 100)) total += weight(k);
  return total;
};
const mean = (game: string, params: JsonObject): Ratio => {
  const law = DEPLOYED_SCHEME.law(game, params);
  if (law === null) throw new Error(`${game}: no law`);
  return expectation(law);
};
const decimal = (text: string): Ratio =>
  ratio(BigInt(text.replace('.', '')), 10n ** BigInt(text.split('.')[1]?.length ?? 0));

test('modulo arithmetic: 2^32 = 429496 · 10000 + 7296; 2^16 = 2621 · 25 + 11', () => {
  expect(WORDS / 10_000n).toBe(429_496n);
  expect(WORDS % 10_000n).toBe(7_296n);
  expect(7_296n * 429_497n + 2_704n * 429_496n).toBe(WORDS);
  expect([65_536 % 25, Math.floor(65_536 / 25)]).toEqual([11, 2621]);
});

describe('every documented variant', () => {
  const all = DEPLOYED_SCHEME.games().flatMap((entry) =>
    entry.variants.map((variant) => ({ game: entry.game, ...variant })),
  );
  const variants = all.filter((variant) => variant.game !== 'video_poker');

  test('17 games; every variant of the documents, each with an exact law but video poker (held by the auditor: no published strategy)', () => {
    expect(DEPLOYED_SCHEME.games().map((entry) => entry.game)).toHaveLength(17);
    expect(all.filter((variant) => variant.game === 'video_poker').map((variant) => variant.name)).toEqual([
      'video_poker:optimal',
    ]);
    expect(DEPLOYED_SCHEME.law('video_poker', { holds: 'optimal' })).toBeNull();
    expect(variants.length).toBeGreaterThan(40);
    expect(variants.every((variant) => deployedHasLaw(variant.game, variant.params))).toBe(true);
  });

  test.each(variants.map((variant) => [variant.name, variant] as const))(
    '%s: probabilities sum to exactly 1, multipliers ≥ 0',
    (_name, variant) => {
      const law = DEPLOYED_SCHEME.law(variant.game, variant.params);
      expect(law).not.toBeNull();
      const total = (law ?? []).reduce((sum, [probability]) => add(sum, probability), ZERO);
      expect(total).toEqual({ num: 1n, den: 1n });
      for (const [probability, multiplier] of law ?? [])
        expect(probability.num > 0n && multiplier.num >= 0n).toBe(true);
    },
  );
});

describe('expected multiplier against DEPLOYED.md', () => {
  test('coin flip: 1.99 × P(r < 50) = 1.99 · 5000·429497/2^32, a hair above the declared 0.995', () => {
    const exact = ratio(199n * 5_000n * 429_497n, 100n * WORDS);
    expect(weightOf((roll) => roll < 50)).toBe(5_000n * 429_497n);
    expect(mean('coin_flip', { side: 'heads' })).toEqual(exact);
    expect(ratioToNumber(exact) - 0.995).toBeCloseTo(0.000000626, 9);
  });

  test('dice over 50 pays the declared 0.995 up to the bias; dice under t loses a winning value: 0.995·(t−1)/t', () => {
    expect(mean('dice', { direction: 'over', threshold: 50 })).toEqual(
      ratio(199n * weightOf((roll) => Math.floor(roll) + 1 > 50), 100n * WORDS),
    );
    const under = mean('dice', { direction: 'under', threshold: 10 });
    expect(under).toEqual(ratio(995n * weightOf((roll) => Math.floor(roll) + 1 < 10), 100n * WORDS));
    expect(ratioToNumber(under)).toBeCloseTo(0.995 * 0.9, 5);
  });

  test('multiplier, crash, custom, roulette, mines: within the stated tolerance of the declared RTP', () => {
    const near = (game: string, params: JsonObject, declared: number, tolerance: number): void => {
      expect(Math.abs(ratioToNumber(mean(game, params)) - declared), `${game} ${JSON.stringify(params)}`).toBeLessThan(
        tolerance,
      );
    };
    // round2 of the crash point lifts some rolls over the target: within 0.4 points of 0.995/T × T.
    for (const target of [1.5, 2, 10]) near('multiplier', { target_multiplier: target }, 0.995, 0.004);
    near('crash', { cash_out_at: 2 }, 0.995, 0.004);
    for (const percent of [10, 50, 90]) near('custom', { win_probability: percent }, 0.995, 0.0001);
    near('roulette', { bet_type: 'red' }, (18 / 37) * 1.99, 0.0001);
    near('roulette', { bet_type: 'number', bet_value: 17 }, 34.825 / 37, 0.002);
    // Mines: P × 0.975/P = 0.975 for a uniform shuffle; the biased, byte-sharing one stays within 0.05 points.
    for (const [mines, reveals] of [
      [1, 1],
      [3, 5],
      [1, 24],
      [24, 1],
    ] as const)
      near('mines', { mines, reveals }, 0.975, 0.0005);
  });

  test('mines 24/1 exactly: the revealed cell is safe iff step 24 moves it to cell 24: j = v % 25 = 0 for 2622 of 65536 byte pairs', () => {
    const law = DEPLOYED_SCHEME.law('mines', { mines: 24, reveals: 1 });
    expect(law?.find(([, multiplier]) => multiplier.num > 0n)?.[0]).toEqual(ratio(2_622, 65_536));
  });

  test('mines 23/2, brute-forced over the three bytes its two steps read (shared middle byte)', () => {
    // Where the revealed values 0 and 1 sit: step 24 swaps cell 24 with j24, step 23 cell 23 with j23.
    let wins = 0;
    for (let first = 0; first < 256; first += 1)
      for (let middle = 0; middle < 256; middle += 1) {
        const j24 = (first * 256 + middle) % 25;
        for (let last = 0; last < 256; last += 1) {
          const j23 = (middle * 256 + last) % 24;
          let zero = j24 === 0 ? 24 : 0;
          let one = j24 === 1 ? 24 : 1;
          if (j23 === zero) zero = 23;
          else if (j23 === one) one = 23;
          if (zero >= 23 && one >= 23) wins += 1;
        }
      }
    const law = DEPLOYED_SCHEME.law('mines', { mines: 23, reveals: 2 });
    expect(law?.find(([, multiplier]) => multiplier.num > 0n)?.[0]).toEqual(ratio(wins, 256 ** 3));
  });

  test('simple dice: picks 1–4 come up 17 times in 100, so 5.5x returns 0.935, not the declared 91.67% (edge 8.33%)', () => {
    const hits = weightOf((roll) => (Math.floor(roll) % 6) + 1 === 1);
    expect(mean('simple_dice', { pick: 1 })).toEqual(ratio(55n * hits, 10n * WORDS));
    expect(ratioToNumber(mean('simple_dice', { pick: 1 }))).toBeCloseTo(0.935, 3);
    expect(ratioToNumber(mean('simple_dice', { pick: 6 }))).toBeCloseTo(0.88, 3);
  });

  test('wheel: only r < 1 reaches a sector (the 0–1 scale), so it returns 90.5 · 429497 / 2^32 ≈ 0.009, not 0.975', () => {
    expect(mean('wheel', {})).toEqual(ratio(905n * 429_497n, 10n * WORDS));
  });

  test('slots and scratch card from their symbol weights; the scratch card returns more than it takes', () => {
    const symbol = (roll: number): number => [2, 7, 15, 35, 57, 78].findIndex((below) => roll < below);
    const reels = [0, 1, 2, 3, 4, 5, -1].map((index) => weightOf((roll) => symbol(roll) === index));
    const [seven, bar, bell, cherry, lemon, orange, grape] = reels as [
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
    ];
    const others = WORDS - cherry;
    // Three alike, BAR BAR x, exactly two CHERRY, CHERRY first — first match wins.
    const three =
      250n * seven ** 3n +
      50n * bar ** 3n +
      25n * bell ** 3n +
      10n * cherry ** 3n +
      5n * (lemon ** 3n + orange ** 3n + grape ** 3n);
    const barBar = 5n * bar * bar * (WORDS - bar);
    const twoCherries = 2n * 3n * cherry * cherry * others;
    const firstCherry = 1n * cherry * others * others;
    expect(mean('slots', {})).toEqual(ratio(three + barBar + twoCherries + firstCherry, WORDS ** 3n));
    const symbols = [0, 1, 2, 3, 4, 5].map((index) => weightOf((roll) => Math.floor(roll * 100) % 6 === index));
    let scratch = 0n;
    for (const [a, wa] of symbols.entries())
      for (const [b, wb] of symbols.entries())
        for (const [c, wc] of symbols.entries()) {
          const pays =
            a === b && b === c ? ([50n, 20n, 15n, 12n, 8n, 5n][a] as bigint) : a === b || b === c || a === c ? 2n : 0n;
          scratch += pays * wa * wb * wc;
        }
    expect(mean('scratch_card', {})).toEqual(ratio(scratch, WORDS ** 3n));
    expect(ratioToNumber(mean('scratch_card', {}))).toBeGreaterThan(1.3); // declared 0.40 × 2.0 = 0.8
  });

  test('plinko 8 low: binomial rows with p = P(r < 50), the table mirrored from slot 0 to the centre', () => {
    const right = 5_000n * 429_497n;
    const table = [56n, 21n, 11n, 10n, 5n, 10n, 11n, 21n, 56n];
    const choose = [1n, 8n, 28n, 56n, 70n, 56n, 28n, 8n, 1n];
    const total = table.reduce(
      (sum, pays, slot) =>
        sum + pays * (choose[slot] as bigint) * right ** BigInt(slot) * (WORDS - right) ** BigInt(8 - slot),
      0n,
    );
    expect(mean('plinko', { rows: 8, risk: 'low' })).toEqual(ratio(total, 10n * WORDS ** 8n));
  });

  test('keno: only 8 numbers can be drawn; one pick among them is drawn in 200 attempts all but (1 − p)^200 of the time', () => {
    const number = (roll: number): number => (Math.floor(roll * 10_000) % 80) + 1;
    const drawable = new Set<number>();
    for (let k = 0; k < 10_000; k += 1) drawable.add(number(k / 100));
    expect([...drawable].sort((a, b) => a - b)).toEqual([1, 20, 21, 40, 41, 60, 61, 80]);
    const one = weightOf((roll) => number(roll) === 1);
    expect(mean('keno', { picks: [1] })).toEqual(
      ratio(35n * (WORDS ** 200n - (WORDS - one) ** 200n), 10n * WORDS ** 200n),
    );
    expect(mean('keno', { picks: [2, 3] })).toEqual(ZERO); // the batch default's neighbours are never drawn
    // Two drawable picks: both seen pays 16.
    const twenty = weightOf((roll) => number(roll) === 20);
    const both = WORDS ** 200n - (WORDS - one) ** 200n - (WORDS - twenty) ** 200n + (WORDS - one - twenty) ** 200n;
    expect(mean('keno', { picks: [1, 20] })).toEqual(ratio(16n * both, WORDS ** 200n));
  });

  test('hilo from two independent cards; about 10% edge, not the 4% a result states', () => {
    const card = (roll: number): number => (Math.floor(roll * 100_000) % 13) + 1;
    const cards = Array.from({ length: 13 }, (_, index) => weightOf((roll) => card(roll) === index + 1));
    let total = ZERO;
    for (const [first, w1] of cards.entries())
      for (const [second, w2] of cards.entries()) {
        const favourable = 12 - first; // higher: 13 − card1, card1 = first + 1
        // (1 / (favourable / 12)) × 0.96 = 11.52 / favourable, clamped to 1.05 from 11 favourable cards up.
        const pays =
          first === second
            ? ratio(1)
            : second > first
              ? favourable >= 11
                ? decimal('1.05')
                : ratio(96n * 12n, 100n * BigInt(favourable))
              : ZERO;
        total = add(total, ratio(w1 * w2 * pays.num, WORDS * WORDS * pays.den));
      }
    expect(mean('hilo', { guess: 'higher' })).toEqual(total);
    expect(1 - ratioToNumber(total)).toBeCloseTo(0.099, 3);
  });
});
