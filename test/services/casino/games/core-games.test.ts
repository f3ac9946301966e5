/**
 * The seven core-ish games (coin flip, dice, simple dice, roulette, custom, multiplier, crash):
 * payout tables, boundary and invalid parameters, exact distributions and edges, and a sampling
 * law — `play` over provably fair streams (fixed seed, nonces 0..N−1) lands within a generous
 * band of `distribution`. Deterministic seeds: no flakiness; N is bounded to keep the file fast.
 */
import { describe, expect, it } from 'vitest';
import type { Failure } from '../../../../src/core/errors.ts';
import {
  ONE,
  add,
  compare,
  expectation,
  ratio,
  ratioFromDecimal,
  ratioText,
  ratioToNumber,
  sub,
  type Ratio,
} from '../../../../src/core/ratio.ts';
import { DrawStream } from '../../../../src/services/casino/fair/draw-stream.ts';
import { coinFlip } from '../../../../src/services/casino/games/coin-flip.ts';
import { crash } from '../../../../src/services/casino/games/crash.ts';
import { custom } from '../../../../src/services/casino/games/custom.ts';
import { dice } from '../../../../src/services/casino/games/dice.ts';
import type { Chance, GameModule } from '../../../../src/services/casino/games/game.ts';
import { probabilityCrashAtLeast } from '../../../../src/services/casino/games/crash-point.ts';
import { multiplier } from '../../../../src/services/casino/games/multiplier.ts';
import { roulette } from '../../../../src/services/casino/games/roulette.ts';
import { simpleDice } from '../../../../src/services/casino/games/simple-dice.ts';

const SEED_HEX = 'c0ffee'.padEnd(64, '0');
const SAMPLES = 20_000;

/** A module with its parameter type erased, so one table covers all seven. */
interface ErasedVariant {
  readonly name: string;
  readonly nameFromParams: string;
  readonly distribution: readonly Chance[];
  playMultiplier(stream: DrawStream): Ratio;
}
interface ErasedModule {
  readonly id: string;
  readonly module: Pick<GameModule, 'minBetMicro' | 'maxBetMicro' | 'advertisedEdgeText'>;
  readonly variants: readonly ErasedVariant[];
}
function erase<P>(module: GameModule<P>): ErasedModule {
  return {
    id: module.id,
    module,
    variants: module.variants().map((variant) => ({
      name: variant.name,
      nameFromParams: module.variantName(variant.params),
      distribution: module.distribution(variant.params),
      playMultiplier: (stream: DrawStream) => module.play(variant.params, stream).multiplier,
    })),
  };
}
const MODULES = [
  erase(coinFlip),
  erase(dice),
  erase(simpleDice),
  erase(roulette),
  erase(custom),
  erase(multiplier),
  erase(crash),
];

function parsed<P>(module: GameModule<P>, params: Record<string, unknown>): P {
  const outcome = module.parse(params);
  if (!outcome.ok) throw new Error(`expected ${JSON.stringify(params)} to parse: ${outcome.message}`);
  return outcome.value;
}
function rejected<P>(module: GameModule<P>, params: Record<string, unknown>): Failure {
  const outcome = module.parse(params);
  if (outcome.ok) throw new Error(`expected ${JSON.stringify(params)} to be refused`);
  return outcome;
}
const edgeOf = (chances: readonly Chance[]): Ratio => sub(ONE, expectation(chances));
const winMultiplier = (chances: readonly Chance[]): Ratio => chances[0]?.[1] ?? ratio(0n);
const winChance = (chances: readonly Chance[]): Ratio => chances[0]?.[0] ?? ratio(0n);

describe('every core game module', () => {
  for (const { id, module, variants } of MODULES) {
    it(`${id}: limits, texts and variant names`, () => {
      expect(module.minBetMicro).toBe(10_000n);
      expect(module.maxBetMicro).toBe(10_000_000_000n);
      expect(module.advertisedEdgeText).toBe(id === 'simple_dice' ? '8.3%' : '0.5%');
      expect(variants.length).toBeGreaterThan(0);
      expect(new Set(variants.map((variant) => variant.name)).size).toBe(variants.length);
      for (const variant of variants) expect(variant.nameFromParams).toBe(variant.name);
    });
    for (const variant of variants) {
      it(`${variant.name}: distribution sums to 1, multipliers distinct, edge positive`, () => {
        let total = ratio(0n);
        for (const [probability] of variant.distribution) total = add(total, probability);
        expect(total).toEqual(ONE);
        const multipliers = variant.distribution.map(([, value]) => ratioText(value));
        expect(new Set(multipliers).size).toBe(multipliers.length);
        expect(compare(edgeOf(variant.distribution), ratio(0n))).toBe(1);
      });
      it(`${variant.name}: ${SAMPLES} seeded plays follow the distribution`, () => {
        const counts = new Map<string, number>();
        for (let nonce = 0; nonce < SAMPLES; nonce++) {
          const key = ratioText(variant.playMultiplier(new DrawStream(SEED_HEX, 'client', nonce)));
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        const expected = new Map(
          variant.distribution.map(([probability, value]) => [ratioText(value), ratioToNumber(probability)]),
        );
        for (const key of counts.keys())
          expect(expected.has(key), `multiplier ${key} is in the distribution`).toBe(true);
        for (const [key, probability] of expected) {
          const mean = SAMPLES * probability;
          const band = 5 * Math.sqrt(mean * (1 - probability)) + 2;
          expect(
            Math.abs((counts.get(key) ?? 0) - mean),
            `${key}: ${counts.get(key) ?? 0} vs ${mean}`,
          ).toBeLessThanOrEqual(band);
        }
      });
    }
  }
});

describe('coin flip', () => {
  it('pays 1.96x at 1/2: edge exactly 1/50 (advertised 0.5%)', () => {
    const chances = coinFlip.distribution({ side: 'heads' });
    expect(chances).toEqual([
      [ratio(1n, 2n), ratioFromDecimal('1.96')],
      [ratio(1n, 2n), ratio(0n)],
    ]);
    expect(edgeOf(chances)).toEqual(ratio(1n, 50n));
    expect(coinFlip.advertisedEdge({ side: 'tails' })).toEqual(ratio(5n, 1000n));
  });
  it('maps int(2) to the side; the same stream gives opposite results for opposite sides', () => {
    const stream = (): DrawStream => new DrawStream(SEED_HEX, 'client', 7);
    const heads = coinFlip.play({ side: 'heads' }, stream());
    const tails = coinFlip.play({ side: 'tails' }, stream());
    expect(heads.detail['outcome']).toBe(tails.detail['outcome']);
    expect(new Set([ratioText(heads.multiplier), ratioText(tails.multiplier)])).toEqual(new Set(['0', '49/25']));
    expect(heads.detail['outcome']).toBe(stream().int(2) === 0 ? 'heads' : 'tails');
  });
  it('refuses anything but heads or tails', () => {
    for (const side of [undefined, 'HEADS', 'edge', 1, null])
      expect(rejected(coinFlip, { side }).message).toContain('side');
    expect(rejected(coinFlip, { side: 'x' }).status).toBe(400);
    expect(parsed(coinFlip, { side: 'tails' })).toEqual({ side: 'tails' });
  });
});

describe('dice', () => {
  it('pays 98 / winning rolls: over 50 1.96x, over 90 9.8x, under 10 98/9; edge 1/50 everywhere', () => {
    expect(winMultiplier(dice.distribution({ direction: 'over', threshold: 50 }))).toEqual(ratioFromDecimal('1.96'));
    expect(winMultiplier(dice.distribution({ direction: 'over', threshold: 90 }))).toEqual(ratioFromDecimal('9.8'));
    expect(winMultiplier(dice.distribution({ direction: 'under', threshold: 10 }))).toEqual(ratio(98n, 9n));
    for (let threshold = 1; threshold <= 99; threshold++) {
      for (const direction of ['over', 'under'] as const) {
        if (direction === 'under' && threshold === 1) continue;
        expect(edgeOf(dice.distribution({ direction, threshold }))).toEqual(ratio(1n, 50n));
      }
    }
  });
  it('boundary thresholds: over 99 wins only on 100 (98x), under 2 only on 1, over 1 on 99 rolls', () => {
    expect(dice.distribution(parsed(dice, { direction: 'over', threshold: 99 }))[0]).toEqual([
      ratio(1n, 100n),
      ratio(98n),
    ]);
    expect(dice.distribution(parsed(dice, { direction: 'under', threshold: 2 }))[0]).toEqual([
      ratio(1n, 100n),
      ratio(98n),
    ]);
    expect(dice.distribution(parsed(dice, { direction: 'over', threshold: 1 }))[0]).toEqual([
      ratio(99n, 100n),
      ratio(98n, 99n),
    ]);
    expect(dice.distribution(parsed(dice, { direction: 'under', threshold: 99 }))[0]).toEqual([ratio(98n, 100n), ONE]);
  });
  it('wins exactly on roll > T (over) or roll < T (under)', () => {
    for (let nonce = 0; nonce < 300; nonce++) {
      const result = dice.play({ direction: 'over', threshold: 50 }, new DrawStream(SEED_HEX, 'client', nonce));
      const roll = result.detail['roll'] as number;
      expect(roll).toBe(new DrawStream(SEED_HEX, 'client', nonce).int(100) + 1);
      expect(ratioText(result.multiplier)).toBe(roll > 50 ? '49/25' : '0');
      const under = dice.play({ direction: 'under', threshold: roll }, new DrawStream(SEED_HEX, 'client', nonce));
      expect(ratioText(under.multiplier)).toBe('0');
    }
  });
  it('refuses bad directions and thresholds, and under 1 (no winning roll)', () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ direction: 'sideways', threshold: 50 }, 'direction'],
      [{ threshold: 50 }, 'direction'],
      [{ direction: 'over' }, 'threshold'],
      [{ direction: 'over', threshold: 0 }, 'threshold'],
      [{ direction: 'over', threshold: 100 }, 'threshold'],
      [{ direction: 'over', threshold: 50.5 }, 'threshold'],
      [{ direction: 'over', threshold: '50' }, 'threshold'],
      [{ direction: 'under', threshold: 1 }, 'threshold'],
    ];
    for (const [params, field] of bad) {
      const failure = rejected(dice, params);
      expect(failure.code).toBe('BAD_REQUEST');
      expect(failure.message).toContain(field);
    }
  });
});

describe('simple dice', () => {
  it('pays 5.5x at 1/6: edge exactly 1/12, advertised 8.3%', () => {
    const chances = simpleDice.distribution(parsed(simpleDice, { pick: 6 }));
    expect(chances[0]).toEqual([ratio(1n, 6n), ratio(11n, 2n)]);
    expect(edgeOf(chances)).toEqual(ratio(1n, 12n));
    expect(simpleDice.advertisedEdge({ pick: 1 })).toEqual(ratio(83n, 1000n));
  });
  it('refuses picks outside 1..6', () => {
    for (const pick of [0, 7, 2.5, '3', undefined]) expect(rejected(simpleDice, { pick }).message).toContain('pick');
  });
});

describe('roulette', () => {
  const even = ratio(43n, 925n);
  it('pays 1.96x even-money, 2.94x dozens and columns, 34.3x a number; edges exact', () => {
    for (const betType of ['red', 'black', 'odd', 'even', 'high', 'low'] as const) {
      const chances = roulette.distribution({ betType, betValue: null });
      expect(chances[0]).toEqual([ratio(18n, 37n), ratioFromDecimal('1.96')]);
      expect(edgeOf(chances)).toEqual(even);
    }
    for (const betType of ['dozen_1', 'dozen_2', 'dozen_3', 'column_1', 'column_2', 'column_3'] as const) {
      const chances = roulette.distribution({ betType, betValue: null });
      expect(chances[0]).toEqual([ratio(12n, 37n), ratioFromDecimal('2.94')]);
      expect(edgeOf(chances)).toEqual(even);
    }
    for (const betValue of [0, 17, 36]) {
      const chances = roulette.distribution({ betType: 'number', betValue });
      expect(chances[0]).toEqual([ratio(1n, 37n), ratioFromDecimal('34.3')]);
      expect(edgeOf(chances)).toEqual(ratio(27n, 370n));
    }
  });
  it('places every pocket as a European table does: 0 green and losing every outside bet', () => {
    const stream = (nonce: number): DrawStream => new DrawStream(SEED_HEX, 'client', nonce);
    const seen = new Set<number>();
    for (let nonce = 0; seen.size < 37 && nonce < 5_000; nonce++) {
      const pocket = stream(nonce).int(37);
      seen.add(pocket);
      const red = roulette.play({ betType: 'red', betValue: null }, stream(nonce));
      const column3 = roulette.play({ betType: 'column_3', betValue: null }, stream(nonce));
      const straight = roulette.play({ betType: 'number', betValue: pocket }, stream(nonce));
      expect(red.detail['number']).toBe(pocket);
      expect(straight.multiplier).toEqual(ratioFromDecimal('34.3'));
      if (pocket === 0) {
        expect(red.detail['color']).toBe('green');
        expect(red.multiplier).toEqual(ratio(0n));
        expect(column3.multiplier).toEqual(ratio(0n));
      } else {
        expect(column3.multiplier).toEqual(pocket % 3 === 0 ? ratioFromDecimal('2.94') : ratio(0n));
      }
    }
    expect(seen.size).toBe(37);
    expect(
      roulette.play(
        { betType: 'red', betValue: null },
        { uint32: () => 0, int: () => 32, fraction52: () => 0n, sample: () => [] },
      ).detail['color'],
    ).toBe('red');
    expect(
      roulette.play(
        { betType: 'red', betValue: null },
        { uint32: () => 0, int: () => 33, fraction52: () => 0n, sample: () => [] },
      ).detail['color'],
    ).toBe('black');
  });
  it('requires bet_value only for number bets, and refuses it elsewhere', () => {
    expect(parsed(roulette, { bet_type: 'number', bet_value: 0 })).toEqual({ betType: 'number', betValue: 0 });
    expect(parsed(roulette, { bet_type: 'number', bet_value: 36 })).toEqual({ betType: 'number', betValue: 36 });
    expect(parsed(roulette, { bet_type: 'dozen_2' })).toEqual({ betType: 'dozen_2', betValue: null });
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ bet_type: 'number' }, 'bet_value'],
      [{ bet_type: 'number', bet_value: 37 }, 'bet_value'],
      [{ bet_type: 'number', bet_value: -1 }, 'bet_value'],
      [{ bet_type: 'number', bet_value: '7' }, 'bet_value'],
      [{ bet_type: 'red', bet_value: 7 }, 'bet_value'],
      [{ bet_type: 'green' }, 'bet_type'],
      [{}, 'bet_type'],
    ];
    for (const [params, field] of bad) {
      const failure = rejected(roulette, params);
      expect(failure.status).toBe(400);
      expect(failure.message).toContain(field);
    }
  });
});

describe('custom', () => {
  it('pays exactly 98/p at p%: edge 1/50 for every p, boundaries 1 and 99', () => {
    for (let p = 1; p <= 99; p++) {
      const chances = custom.distribution(parsed(custom, { win_probability: p }));
      expect(chances[0]).toEqual([ratio(BigInt(p), 100n), ratio(98n, BigInt(p))]);
      expect(edgeOf(chances)).toEqual(ratio(1n, 50n));
    }
  });
  it('wins when int(100) < p', () => {
    for (let nonce = 0; nonce < 200; nonce++) {
      const roll = new DrawStream(SEED_HEX, 'client', nonce).int(100);
      const result = custom.play({ winProbability: 50 }, new DrawStream(SEED_HEX, 'client', nonce));
      expect(result.detail['roll']).toBe(roll);
      expect(ratioText(result.multiplier)).toBe(roll < 50 ? '49/25' : '0');
    }
  });
  it('refuses probabilities outside 1..99 and non-integers', () => {
    for (const value of [0, 100, 50.5, '50', undefined, -3])
      expect(rejected(custom, { win_probability: value }).message).toContain('win_probability');
  });
});

describe('multiplier (win when the crash point exceeds the target)', () => {
  it('parses targets 1.01..1000 with two decimals into cents', () => {
    expect(parsed(multiplier, { target_multiplier: 1.01 })).toEqual({ targetCents: 101 });
    expect(parsed(multiplier, { target_multiplier: 1000 })).toEqual({ targetCents: 100_000 });
    expect(parsed(multiplier, { target_multiplier: 2.5 })).toEqual({ targetCents: 250 });
    for (const value of [1, 1.001, 1000.01, 2.345, '2', -2, null, Number.NaN]) {
      expect(rejected(multiplier, { target_multiplier: value }).message).toContain('target_multiplier');
    }
  });
  it('wins with probability P(crash ≥ target + 0.01), exactly; edges near 1 − 0.995·t/(t + 0.01)', () => {
    for (const cents of [101, 200, 1_000, 10_000, 100_000]) {
      const chances = multiplier.distribution({ targetCents: cents });
      expect(winChance(chances)).toEqual(probabilityCrashAtLeast(cents + 1));
      expect(winMultiplier(chances)).toEqual(ratio(BigInt(cents), 100n));
      const approximateEdge = 1 - (0.995 * cents) / (cents + 1);
      expect(ratioToNumber(edgeOf(chances))).toBeCloseTo(approximateEdge, 12);
    }
  });
  it('pays the target only when the crash point is strictly above it', () => {
    for (let nonce = 0; nonce < 300; nonce++) {
      const probe = multiplier.play({ targetCents: 200 }, new DrawStream(SEED_HEX, 'client', nonce));
      const crashCents = Math.round((probe.detail['crash_point'] as number) * 100);
      const atCrash = multiplier.play(
        { targetCents: Math.max(101, crashCents) },
        new DrawStream(SEED_HEX, 'client', nonce),
      );
      if (crashCents >= 101 && crashCents <= 100_000) expect(atCrash.multiplier).toEqual(ratio(0n));
      expect(ratioText(probe.multiplier)).toBe(crashCents > 200 ? '2' : '0');
    }
  });
});

describe('crash (win when the crash point reaches the cash-out)', () => {
  it('parses cash-outs 1.01..100 with two decimals into cents', () => {
    expect(parsed(crash, { cash_out_at: 1.01 })).toEqual({ cashOutCents: 101 });
    expect(parsed(crash, { cash_out_at: 100 })).toEqual({ cashOutCents: 10_000 });
    for (const value of [1, 100.01, 1.005, '1.5', undefined, Number.POSITIVE_INFINITY]) {
      expect(rejected(crash, { cash_out_at: value }).message).toContain('cash_out_at');
    }
  });
  it('wins with probability P(crash ≥ cash-out), exactly; edge ≈ 0.5% (within 2^-52·t)', () => {
    for (const cents of [101, 150, 200, 1_000, 10_000]) {
      const chances = crash.distribution({ cashOutCents: cents });
      expect(winChance(chances)).toEqual(probabilityCrashAtLeast(cents));
      expect(ratioToNumber(edgeOf(chances))).toBeCloseTo(0.005, 13);
      expect(compare(edgeOf(chances), ratio(5n, 1000n))).toBeGreaterThanOrEqual(0);
    }
    expect(edgeOf(crash.distribution({ cashOutCents: 200 }))).toEqual(
      sub(ONE, ratio(2n * ((995n << 52n) / 2000n), 1n << 52n)),
    );
  });
  it('pays when the crash point equals the cash-out', () => {
    for (let nonce = 0; nonce < 300; nonce++) {
      const probe = crash.play({ cashOutCents: 150 }, new DrawStream(SEED_HEX, 'client', nonce));
      const crashCents = Math.round((probe.detail['crash_point'] as number) * 100);
      if (crashCents < 101 || crashCents > 10_000) continue;
      const atCrash = crash.play({ cashOutCents: crashCents }, new DrawStream(SEED_HEX, 'client', nonce));
      expect(atCrash.multiplier).toEqual(ratio(BigInt(crashCents), 100n));
    }
  });
});
