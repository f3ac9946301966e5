/**
 * PathKey: one market's seeded path (price-path.ts) as the service evaluates it, remembered per
 * (seed, market): a PathCursor for the log, the funding stream's word, and the price of every
 * 0.01% step of the log met so far. Why: a clock move of a century asks for the mark of every open
 * position at each of its 109,575 funding instants, and the tick planner asks for the mid at a
 * few steps of the log after each; rehashing the same stream prefixes and multiplying the same
 * bigints again was most of that work.
 * Invariants: a memo of pure functions, not state (a snapshot does not hold it; any order of
 * questions gets the answers of price-path.ts's definitions, which the tests compare). Limits:
 * keys for the latest SEEDS_MAX seeds (all dropped past that), STEPS_MAX step prices per key
 * (all dropped past that), STEP_SLOTS step numbers per key (a step replaces the one in its slot).
 */
import { nameHash, type Market } from './market-catalogue.ts';
import { PathCursor } from './path-cursor.ts';
import { FUNDING_STREAM, applyLog, fundingOfNoise, knotNoise, streamWord } from './price-path.ts';

const SEEDS_MAX = 16;
const STEPS_MAX = 4_096;
const KEYS = new Map<number, WeakMap<Market, PathKey>>();
/** Slots of the step-number memo (a power of two): 48 KB a key. */
const STEP_SLOTS = 4_096;
/** No step held (steps lie within ±LOG_PPM_MAX / 100). */
const NO_STEP = -(2 ** 31);

export class PathKey {
  readonly market: Market;
  readonly cursor: PathCursor;
  private readonly fundingWord: number;
  /** 0.01% step of the log → price. */
  private readonly steps = new Map<number, bigint>();
  /**
   * 0.01% step of the log → the price as a number (a window of funding marks reads thousands), in
   * STEP_SLOTS slots by the step's low bits: the step held in each (NO_STEP: none) and its price.
   */
  private readonly numberSteps = new Int32Array(STEP_SLOTS).fill(NO_STEP);
  private readonly numberPrices = new Float64Array(STEP_SLOTS);

  constructor(seedHash: number, market: Market) {
    this.market = market;
    this.cursor = new PathCursor(seedHash, market);
    this.fundingWord = streamWord(seedHash, nameHash(market.base), FUNDING_STREAM);
  }

  /** `applyLog(market.referencePrice, logPpm)`. */
  stepPrice(logPpm: number): bigint {
    const bps = Math.floor(logPpm / 100);
    let price = this.steps.get(bps);
    if (price === undefined) {
      price = applyLog(this.market.referencePrice, logPpm);
      if (this.steps.size >= STEPS_MAX) this.steps.clear();
      this.steps.set(bps, price);
    }
    return price;
  }

  /** `Number(stepPrice(logPpm))`: exact below 2^53 (a caller past FAST_MAX reads the bigint). */
  stepNumber(logPpm: number): number {
    const bps = Math.floor(logPpm / 100);
    const slot = bps & (STEP_SLOTS - 1);
    if (this.numberSteps[slot] === bps) return this.numberPrices[slot] as number;
    const price = Number(this.stepPrice(logPpm));
    this.numberSteps[slot] = bps;
    this.numberPrices[slot] = price;
    return price;
  }

  /** `pathPrice(seedHash, market, tick)`. */
  priceAt(tick: number): bigint {
    return this.stepPrice(this.cursor.at(tick));
  }

  /** `fundingRatePpm(seedHash, market, period)`. */
  fundingRatePpm(period: number): number {
    return fundingOfNoise(knotNoise(this.fundingWord, period));
  }
}

/** The PathKey of (seed, market). */
export function pathKeyOf(seedHash: number, market: Market): PathKey {
  let bySeed = KEYS.get(seedHash);
  if (bySeed === undefined) {
    if (KEYS.size >= SEEDS_MAX) KEYS.clear();
    bySeed = new WeakMap();
    KEYS.set(seedHash, bySeed);
  }
  let key = bySeed.get(market);
  if (key === undefined) {
    key = new PathKey(seedHash, market);
    bySeed.set(market, key);
  }
  return key;
}
