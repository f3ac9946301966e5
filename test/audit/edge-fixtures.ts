/**
 * Small GameModules for the house-edge audit's tests, independent of the 17 real games:
 * a coin paying 1.96x (two variants, edge 2%), a heavy-tailed game (10000x at p = 1e-5 over a
 * 1.9x body, edge 2.999%), and their defective twins (a biased draw; a payout cut).
 * Also a direct sampler of a distribution from the seeded Rng, for statistics tests that need
 * millions of bets without the HMAC of the provably fair path.
 * Loaded by worker threads too (simulateHouseEdgeInWorkers): plain Node, `.ts` imports, no vitest.
 */
import { succeed } from '../../src/core/errors.ts';
import { ONE, ZERO, mul, ratio, ratioFromDecimal, ratioToNumber, sub, type Ratio } from '../../src/core/ratio.ts';
import type { Rng } from '../../src/core/rng.ts';
import type { Chance, Draws, GameId, GameModule, GameResult } from '../../src/services/casino/games/game.ts';
import type { ReturnTally } from '../../src/audit/edge/edge-statistics.ts';

interface CoinParams {
  readonly side: 'heads' | 'tails';
}

const COIN_PAYOUT = ratioFromDecimal('1.96');
const HALF = ratio(1n, 2n);

/** A coin paying 1.96x; `winPercent` of the draw's 100 values win (50 faithful, 48 a biased draw). */
export function coinFixture(options: { advertised: Ratio | null; winPercent?: number; id?: GameId }): GameModule {
  const winPercent = options.winPercent ?? 50;
  const module: GameModule<CoinParams> = {
    id: options.id ?? 'coin_flip',
    name: 'Fixture coin',
    path: 'fixture-coin',
    advertisedEdgeText: options.advertised === null ? 'not stated' : 'fixture',
    advertisedEdge: () => options.advertised,
    minBetMicro: 10_000n,
    maxBetMicro: 1_000_000_000n,
    paramFields: ['side'],
    parse: (params) => succeed({ side: params['side'] === 'tails' ? 'tails' : 'heads' }),
    play(params: CoinParams, draws: Draws): GameResult {
      const win = draws.int(100) < winPercent;
      return { multiplier: win ? COIN_PAYOUT : ZERO, detail: { side: params.side, win } };
    },
    distribution: (): readonly Chance[] => [
      [HALF, COIN_PAYOUT],
      [sub(ONE, HALF), ZERO],
    ],
    variants: () => [
      { name: 'coin:heads', params: { side: 'heads' } },
      { name: 'coin:tails', params: { side: 'tails' } },
    ],
    variantName: (params) => `coin:${params.side}`,
  };
  return module as GameModule<never> as GameModule;
}

const HEAVY_DRAWS = 100_000;
const HEAVY_BODY_WINS = 45_790;
const JACKPOT = ratio(10_000n);
const BODY = ratioFromDecimal('1.9');

/** 10000x on 1 draw of 100000, 1.9x on the next 45790, else 0: E = 0.1 + 0.87001, edge 2.999%. */
export function heavyFixture(options: { jackpotPays?: boolean } = {}): GameModule {
  const module: GameModule<Record<string, never>> = {
    id: 'keno',
    name: 'Fixture jackpot',
    path: 'fixture-jackpot',
    advertisedEdgeText: 'about 3%',
    advertisedEdge: () => ratio(3n, 100n),
    minBetMicro: 10_000n,
    maxBetMicro: 1_000_000_000n,
    paramFields: [],
    parse: () => succeed({}),
    play(_params, draws: Draws): GameResult {
      const draw = draws.int(HEAVY_DRAWS);
      const paid =
        draw === 0 ? (options.jackpotPays === false ? ZERO : JACKPOT) : draw <= HEAVY_BODY_WINS ? BODY : ZERO;
      return { multiplier: paid, detail: { draw } };
    },
    distribution: (): readonly Chance[] => [
      [ratio(1n, BigInt(HEAVY_DRAWS)), JACKPOT],
      [ratio(BigInt(HEAVY_BODY_WINS), BigInt(HEAVY_DRAWS)), BODY],
      [ratio(BigInt(HEAVY_DRAWS - 1 - HEAVY_BODY_WINS), BigInt(HEAVY_DRAWS)), ZERO],
    ],
    variants: () => [{ name: 'jackpot', params: {} }],
    variantName: () => 'jackpot',
  };
  return module as GameModule<never> as GameModule;
}

/** The faithful fixture games (the coin advertises exactly its 2%). */
export const FIXTURE_GAMES: readonly GameModule[] = [coinFixture({ advertised: ratio(2n, 100n) }), heavyFixture()];

/** A GameSource factory for workers: 'faithful', 'biased-draw' (the coin wins 48%), 'payout-0.95'. */
export function fixtureGames(defect: string): readonly GameModule[] {
  if (defect === 'biased-draw') return [coinFixture({ advertised: ratio(2n, 100n), winPercent: 48 }), heavyFixture()];
  if (defect === 'payout-0.95') return FIXTURE_GAMES.map((game) => scalePayouts(game, ratioFromDecimal('0.95')));
  return FIXTURE_GAMES;
}

/** The same game with every payout multiplied by `factor` (distribution unchanged: the defect). */
export function scalePayouts(game: GameModule, factor: Ratio): GameModule {
  return {
    ...game,
    play: (params, draws) => {
      const result = game.play(params, draws);
      return { ...result, multiplier: mul(result.multiplier, factor) };
    },
  };
}

/**
 * Adds `bets` bets of `distribution` to `tally` in O(classes), straight from the Rng (no HMAC): the
 * class counts are a chain of binomials, each drawn exactly by inversion when its mean is below
 * 50 (rare classes: the jackpot, whose count is what heavy tails are about) and by the normal
 * approximation otherwise (body classes with thousands of hits, where it is excellent). A test
 * tool: millions of bets per run, thousands of runs per test.
 */
export function sampleInto(
  tally: ReturnTally,
  distribution: readonly Chance[],
  bets: number,
  rng: Rng,
  factor: Ratio = ONE,
): void {
  let remainingBets = bets;
  let remainingProbability = 1;
  distribution.forEach(([probability, multiplier], index) => {
    const share = ratioToNumber(probability);
    const last = index === distribution.length - 1;
    const count = last ? remainingBets : binomialDraw(remainingBets, Math.min(1, share / remainingProbability), rng);
    tally.add(mul(multiplier, factor), count);
    remainingBets -= count;
    remainingProbability -= share;
  });
}

const uniform = (rng: Rng): number => (rng.uint32() * 2 ** 21 + (rng.uint32() >>> 11) + 0.5) / 2 ** 53;

function binomialDraw(trials: number, probability: number, rng: Rng): number {
  const mean = trials * probability;
  if (probability <= 0 || trials === 0) return 0;
  if (probability >= 1) return trials;
  if (mean < 50) {
    const target = uniform(rng);
    let pmf = Math.exp(trials * Math.log1p(-probability));
    let cumulative = pmf;
    let count = 0;
    while (target > cumulative && count < trials) {
      pmf *= ((trials - count) / (count + 1)) * (probability / (1 - probability));
      count += 1;
      cumulative += pmf;
    }
    return count;
  }
  const normal = Math.sqrt(-2 * Math.log(uniform(rng))) * Math.cos(2 * Math.PI * uniform(rng));
  return Math.min(trials, Math.max(0, Math.round(mean + normal * Math.sqrt(mean * (1 - probability)))));
}
