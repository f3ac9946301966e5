/**
 * The seeded price path of every market: a pure function of (seed, asset, tick), so a quote at any
 * instant is computed directly, in any order, by any process, and two runs of one seed agree.
 *
 * Model: the log of the price over its reference is a sum of value-noise octaves. Octave k has
 * knots every 2^k ticks holding seeded uniform values, linearly interpolated between knots, with
 * amplitude σ_tick × √(2^k): increments over a span of 2^k ticks then have roughly the variance a
 * random walk of σ_tick per tick would give, while the path stays within a bounded band around the
 * reference over the longest octave (about 2.8 days of one-minute ticks) instead of drifting off.
 * Everything is integer: noise from a 32-bit hash, the log in parts per million, exp from two
 * tables computed once with bigint Taylor series (1% steps × 0.01% steps; the log is quantized to
 * 0.01%). Prices change only at tick boundaries (`tickMs`), which is also when the service checks
 * limit orders and liquidations, so a crossing is never missed between two looks.
 * Non-goals: microstructure (order-book depth, impact of the agents' own orders).
 */
import { assert } from '../../core/assert.ts';
import type { Market } from './market-catalogue.ts';
import { nameHash } from './market-catalogue.ts';

export const OCTAVES = 13;
/** √(2^k) × 1000 for k = 0..OCTAVES-1. */
const SQRT_TWO_POW_MILLI: readonly number[] = Array.from({ length: OCTAVES }, (_, k) =>
  k % 2 === 0 ? 1000 * 2 ** (k / 2) : 1414 * 2 ** ((k - 1) / 2),
);
export const LOG_PPM_MAX = 3_000_000;
/** √(ticks per day) × 1000 for one-minute ticks: √1440 = 37.947. */
const SQRT_TICKS_PER_DAY_MILLI = 37_947;
export const NOISE_MAX = 1000;

/** exp tables at scale 10^12. */
const EXP_ONE = 1_000_000_000_000n;
const COARSE_STEPS = 300; // exp(k / 100), k in [-300, 300]
const COARSE: readonly bigint[] = Array.from({ length: 2 * COARSE_STEPS + 1 }, (_, index) =>
  expRatio(index - COARSE_STEPS, 100),
);
const FINE: readonly bigint[] = Array.from({ length: 100 }, (_, index) => expRatio(index, 10_000));

/** exp(p / q) × EXP_ONE, rounded down, by Taylor series with guard digits (|p/q| ≤ 3). */
function expRatio(p: number, q: number): bigint {
  if (p < 0) return (EXP_ONE * EXP_ONE) / expRatio(-p, q);
  const guard = EXP_ONE * 1_000_000n;
  let term = guard;
  let sum = guard;
  for (let n = 1n; n < 60n && term > 0n; n++) {
    term = (term * BigInt(p)) / (BigInt(q) * n);
    sum += term;
  }
  return sum / 1_000_000n;
}

/** murmur3's 32-bit finalizer: a well-mixed uint32 of a uint32. */
function mix(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A seeded uint32 of (seed, asset, stream, index); index below 2^53 (split into two words). */
export function noiseWord(seedHash: number, assetHash: number, stream: number, index: number): number {
  return wordAt(streamWord(seedHash, assetHash, stream), index);
}

/**
 * The first half of noiseWord: the hash of (seed, asset, stream), the same for every index of a
 * stream, so a PathCursor (path-cursor.ts) computes it once per octave rather than once per knot.
 */
export function streamWord(seedHash: number, assetHash: number, stream: number): number {
  const h = mix(seedHash ^ Math.imul(assetHash, 0x9e3779b1));
  return mix(h ^ Math.imul(stream + 1, 0x27d4eb2d));
}

/** The second half of noiseWord: index `index` of the stream whose word is `word`. */
function wordAt(word: number, index: number): number {
  // Every knot of a path before the year 10,000 is below 2^32 (high word 0): no float division.
  if (index < 0x1_0000_0000) return mix(mix(word ^ index) ^ 0x165667b1);
  const low = index % 0x1_0000_0000;
  const high = Math.floor(index / 0x1_0000_0000);
  return mix(mix(word ^ low) ^ Math.imul(high + 1, 0x165667b1));
}

/** Seeded integer in [-NOISE_MAX, NOISE_MAX]: the value of octave `stream`'s knot `index`. */
export function noise(seedHash: number, assetHash: number, stream: number, index: number): number {
  return knotNoise(streamWord(seedHash, assetHash, stream), index);
}

/** The number of knot values, -NOISE_MAX..NOISE_MAX. */
const KNOT_VALUES = 2 * NOISE_MAX + 1;

/** `noise` of the stream whose word (streamWord) is `word`. */
export function knotNoise(word: number, index: number): number {
  const hashed = wordAt(word, index);
  // hashed % KNOT_VALUES without a floating-point remainder (a uint32 above 2^31 is a double):
  // the quotient of two integers below 2^53 floors exactly, so this is the same remainder.
  return hashed - Math.floor(hashed / KNOT_VALUES) * KNOT_VALUES - NOISE_MAX;
}

/** The seed text as the 32-bit number every path of a run starts from. */
export function seedHashOf(seed: string): number {
  return nameHash(`trading/${seed}`);
}

/** The per-tick volatility of `market`'s path in parts per million of the log. */
export function sigmaTickPpmOf(market: Market): number {
  return Math.floor((market.dailyVolBps * 100 * 1000) / SQRT_TICKS_PER_DAY_MILLI);
}

/** What octave `k` adds to the log (ppm) when its interpolated knot value is `value`: monotone in `value`. */
export function octavePpm(sigmaTickPpm: number, k: number, value: number): number {
  return Math.trunc((value * sigmaTickPpm * (SQRT_TWO_POW_MILLI[k] as number)) / (NOISE_MAX * 1000));
}

/**
 * Octave `k`'s amplitude factor, σ_tick × √(2^k) × 1000, for octaveShare: computed once per octave
 * by a loop over many knots. Every product of it by a knot value is a whole number below 2^53
 * (asserted), so value × factor is exactly the value × σ × √ octavePpm multiplies out, and
 * octaveShare equals octavePpm (price-path.test.ts compares them at every value).
 */
export function octaveFactor(sigmaTickPpm: number, k: number): number {
  const factor = sigmaTickPpm * (SQRT_TWO_POW_MILLI[k] as number);
  assert(Number.isSafeInteger(factor * NOISE_MAX), 'an octave share is exact in doubles');
  return factor;
}

/** octavePpm at the octave whose factor (octaveFactor) is `factor`. */
export function octaveShare(factor: number, value: number): number {
  return Math.trunc((value * factor) / (NOISE_MAX * 1000));
}

/**
 * Log of price over reference at tick `tick`, in parts per million (clamped to ±3): the path's
 * definition. The service evaluates it through a PathCursor (path-cursor.ts), which remembers the
 * knots and gives exactly this log.
 */
export function logPpmAt(seedHash: number, market: Market, tick: number): number {
  assert(Number.isSafeInteger(tick) && tick >= 0, 'ticks are whole and non-negative');
  const assetHash = nameHash(market.base);
  const sigmaTickPpm = sigmaTickPpmOf(market);
  let total = 0;
  for (let k = 0; k < OCTAVES; k++) {
    const span = 2 ** k;
    const knot = Math.floor(tick / span);
    const offset = tick - knot * span;
    const left = noise(seedHash, assetHash, k, knot);
    const right = noise(seedHash, assetHash, k, knot + 1);
    total += octavePpm(sigmaTickPpm, k, interpolated(left, right, span, offset));
  }
  return clampLog(total);
}

/** The value of an octave `offset` ticks into a knot interval of `span` ticks between knot values `left` and `right`. */
export function interpolated(left: number, right: number, span: number, offset: number): number {
  return Math.trunc((left * (span - offset) + right * offset) / span);
}

/** The sum of the octaves, clamped to ±LOG_PPM_MAX. */
export function clampLog(total: number): number {
  return Math.max(-LOG_PPM_MAX, Math.min(LOG_PPM_MAX, total));
}

/** reference × exp(logPpm / 10^6), the log quantized to 0.01%, at least 1 price unit. */
export function applyLog(reference: bigint, logPpm: number): bigint {
  const bps = Math.floor(logPpm / 100);
  const coarse = Math.floor(bps / 100);
  const fine = bps - coarse * 100;
  const factor = (COARSE[coarse + COARSE_STEPS] as bigint) * (FINE[fine] as bigint);
  const price = (reference * factor) / (EXP_ONE * EXP_ONE);
  return price > 0n ? price : 1n;
}

/** The mid price of `market` at tick `tick`, before scenario shocks. */
export function pathPrice(seedHash: number, market: Market, tick: number): bigint {
  return applyLog(market.referencePrice, logPpmAt(seedHash, market, tick));
}

/** The noise stream of the funding rates (the octaves are streams 0 to OCTAVES − 1). */
export const FUNDING_STREAM = 40;

/** Funding rate quoted for the 8-hour period `period`, in parts per million (−300 to +500). */
export function fundingRatePpm(seedHash: number, market: Market, period: number): number {
  return fundingOfNoise(noise(seedHash, nameHash(market.base), FUNDING_STREAM, period));
}

/** The funding rate (ppm) of a period whose noise is `value`. */
export function fundingOfNoise(value: number): number {
  return 100 + Math.trunc((value * 400) / NOISE_MAX);
}

/** The 24-hour volume quoted during hour `hour`: 80% to 120% of the market's reference. */
export function volumeMicroAt(seedHash: number, market: Market, hour: number): bigint {
  const permille = 800 + (noiseWord(seedHash, nameHash(market.symbol), 41, hour) % 401);
  return (market.referenceVolumeMicro * BigInt(permille)) / 1000n;
}
