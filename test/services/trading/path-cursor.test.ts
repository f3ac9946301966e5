// PathCursor gives exactly logPpmAt's log at every tick, whatever order the ticks come in:
// stepping forward (its use), jumping back and forth, and across octave knots.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import { marketBySymbol, type Market } from '../../../src/services/trading/market-catalogue.ts';
import { PathCursor } from '../../../src/services/trading/path-cursor.ts';
import { logPpmAt, seedHashOf } from '../../../src/services/trading/price-path.ts';

function market(symbol: string): Market {
  const found = marketBySymbol(symbol);
  if (found === undefined) throw new Error(`${symbol} is listed`);
  return found;
}

describe('PathCursor', () => {
  it('steps forward through 20,000 ticks with the log of logPpmAt at each', () => {
    const seedHash = seedHashOf('7');
    for (const symbol of ['BTC-PERP', 'ETH-PERP']) {
      const cursor = new PathCursor(seedHash, market(symbol));
      for (let tick = 1_000_000; tick < 1_020_000; tick++)
        expect(cursor.at(tick), `${symbol} tick ${tick}`).toBe(logPpmAt(seedHash, market(symbol), tick));
    }
  });

  it('gives the same log in any order: repeats, jumps back and forth, far ticks', () => {
    const seedHash = seedHashOf('cursor');
    const btc = market('BTC-PERP');
    const cursor = new PathCursor(seedHash, btc);
    const rng = new Rng('order');
    const ticks = [0, 0, 1, 8191, 8192, 8193, 4095, 4096, 29_000_000, 28_998_560, 29_000_001];
    for (let index = 0; index < 2_000; index++) ticks.push(rng.int(40_000_000));
    for (const tick of ticks) expect(cursor.at(tick), `tick ${tick}`).toBe(logPpmAt(seedHash, btc, tick));
  });
});
