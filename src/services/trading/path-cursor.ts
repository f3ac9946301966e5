/**
 * PathCursor: `logPpmAt` (price-path.ts) of one market under one seed, remembering each octave's
 * two knot values. Why: stepping a path tick by tick (the check model looks at every one-minute
 * tick while a position is open) recomputed 26 seeded knot values per tick, though octave k's
 * knots change only every 2^k ticks; from one tick to the next about two change.
 * Invariant: `at(tick)` equals `logPpmAt(seedHash, market, tick)` for every tick, in any order
 * (a knot is recomputed whenever its index differs from the remembered one); memory is fixed
 * (two values per octave).
 */
import { assert } from '../../core/assert.ts';
import { nameHash, type Market } from './market-catalogue.ts';
import { LOG_PPM_MAX, OCTAVES, noise, octavePpm, sigmaTickPpmOf } from './price-path.ts';

/** No knot remembered: knots are at least 0, so neither it nor the knot after it is ever met. */
const NONE = -2;

export class PathCursor {
  private readonly seedHash: number;
  private readonly assetHash: number;
  private readonly sigmaTickPpm: number;
  /** Per octave: the index of the left knot remembered (NONE: none yet), and the knots' values. */
  private readonly knots: number[] = Array.from({ length: OCTAVES }, () => NONE);
  private readonly lefts: number[] = Array.from({ length: OCTAVES }, () => 0);
  private readonly rights: number[] = Array.from({ length: OCTAVES }, () => 0);

  constructor(seedHash: number, market: Market) {
    this.seedHash = seedHash;
    this.assetHash = nameHash(market.base);
    this.sigmaTickPpm = sigmaTickPpmOf(market);
  }

  /** Log of price over reference at `tick`, in parts per million: exactly `logPpmAt`'s. */
  at(tick: number): number {
    assert(Number.isSafeInteger(tick) && tick >= 0, 'ticks are whole and non-negative');
    let total = 0;
    for (let k = 0; k < OCTAVES; k++) {
      const span = 2 ** k;
      const knot = Math.floor(tick / span);
      const remembered = this.knots[k] as number;
      if (remembered !== knot) {
        // The next knot's left value is the remembered right one (stepping forward).
        this.lefts[k] =
          remembered + 1 === knot ? (this.rights[k] as number) : noise(this.seedHash, this.assetHash, k, knot);
        this.rights[k] = noise(this.seedHash, this.assetHash, k, knot + 1);
        this.knots[k] = knot;
      }
      const offset = tick - knot * span;
      const left = this.lefts[k] as number;
      const right = this.rights[k] as number;
      const value = Math.trunc((left * (span - offset) + right * offset) / span);
      total += octavePpm(this.sigmaTickPpm, k, value);
    }
    return Math.max(-LOG_PPM_MAX, Math.min(LOG_PPM_MAX, total));
  }
}
