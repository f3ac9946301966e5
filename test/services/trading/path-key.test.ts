// PathKey (path-key.ts) and the threshold bands (threshold-bands.ts) remember what they computed
// between questions; the answers must be the definitions' whatever came before: PathKey's price,
// step price (as a bigint and as a number) and funding rate are price-path.ts's at funding instants, minutes and random ticks,
// for two seeds asked in turn, and the step number's whatever step held its memo slot before; the bands found from the last liquidation step (a hint) are the
// bands a fresh price book finds, and the limits' band is kept while only liquidations move.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import { marketBySymbol, type Market } from '../../../src/services/trading/market-catalogue.ts';
import { pathKeyOf } from '../../../src/services/trading/path-key.ts';
import { PriceBook } from '../../../src/services/trading/price-book.ts';
import { applyLog, fundingRatePpm, pathPrice, seedHashOf } from '../../../src/services/trading/price-path.ts';
import { thresholdBands, type MarketThresholds } from '../../../src/services/trading/threshold-bands.ts';
import { DEFAULT_TRADING_CONFIG } from '../../../src/services/trading/trading-config.ts';

const TICK0 = Date.UTC(2026, 0, 1) / 60_000;

const market = (symbol: string): Market => {
  const found = marketBySymbol(symbol);
  expect(found, `${symbol} is listed`).toBeDefined();
  return found as Market;
};

describe('PathKey', () => {
  it("gives price-path's prices and funding rates at funding instants, minutes and random ticks, two seeds in turn", () => {
    const rng = new Rng('path-key');
    const ticks: number[] = [];
    for (let index = 0; index < 400; index++) ticks.push(TICK0 + index * 480);
    for (let index = 0; index < 400; index++) ticks.push(TICK0 + 7 + index);
    for (let index = 0; index < 400; index++) ticks.push(TICK0 + rng.int(50_000_000));
    for (const symbol of ['BTC-PERP', 'DOGE-PERP', 'ETH-USDC']) {
      for (const tick of ticks) {
        for (const seed of ['1', '43']) {
          const seedHash = seedHashOf(seed);
          const key = pathKeyOf(seedHash, market(symbol));
          expect(key.priceAt(tick), `${symbol} ${seed} tick ${tick}`).toBe(pathPrice(seedHash, market(symbol), tick));
          const period = Math.floor(tick / 480);
          expect(key.fundingRatePpm(period)).toBe(fundingRatePpm(seedHash, market(symbol), period));
          const logPpm = (tick % 60_001) - 30_000;
          expect(key.stepPrice(logPpm)).toBe(applyLog(market(symbol).referencePrice, logPpm));
          // The number a funding window reads: the step price, exactly (prices here are below 2^53).
          expect(key.stepNumber(logPpm)).toBe(Number(applyLog(market(symbol).referencePrice, logPpm)));
        }
      }
    }
  });

  it('gives the step number of any log, whichever steps shared its memo slot before (steps 4,096 apart, and the whole range)', () => {
    const rng = new Rng('step-slots');
    const btc = market('BTC-PERP');
    const key = pathKeyOf(seedHashOf('slots'), btc);
    const logs: number[] = [];
    for (let index = 0; index < 300; index++) {
      const step = rng.int(50_000) - 25_000;
      // The same slot three ways in turn (steps 4,096 apart), each asked twice, then a log anywhere in ±LOG_PPM_MAX.
      logs.push(step * 100, (step + 4_096) * 100 + 37, step * 100 + 99, (step - 4_096) * 100, step * 100);
      logs.push(rng.int(6_000_001) - 3_000_000);
    }
    for (const logPpm of logs)
      expect(key.stepNumber(logPpm), `log ${logPpm}`).toBe(Number(applyLog(btc.referencePrice, logPpm)));
  });
});

describe('PathCursor.atEvery', () => {
  it("gives `at`'s logs at evenly spaced ticks, for any start and stride, leaving the cursor's answers as they were", () => {
    const rng = new Rng('at-every');
    for (const symbol of ['BTC-PERP', 'DOGE-PERP', 'ETH-USDC']) {
      const key = pathKeyOf(seedHashOf('7'), market(symbol));
      for (let round = 0; round < 40; round++) {
        const first = TICK0 + rng.int(50_000_000);
        const stride = [1, 7, 480, 481, 4096, 5000][round % 6] as number;
        const logs = new Float64Array(1 + rng.int(600));
        key.cursor.atEvery(first, stride, logs);
        logs.forEach((log, index) =>
          expect(log, `${symbol} ${first}+${index}x${stride}`).toBe(key.cursor.at(first + index * stride)),
        );
      }
    }
  });
});

describe('threshold bands', () => {
  it('found from the last liquidation step are the bands a fresh price book finds', () => {
    const rng = new Rng('bands');
    const btc = market('BTC-PERP');
    const book = (): PriceBook => new PriceBook({ seed: '7', config: DEFAULT_TRADING_CONFIG });
    const remembering = book();
    const tick = TICK0 + 1_000;
    const mid = remembering.mid(btc, tick * 60_000);
    for (let round = 0; round < 300; round++) {
      // Liquidation prices that drift a little, with a jump now and then; the limits stay.
      const drift = BigInt(round % 50 === 0 ? rng.int(4_000) : rng.int(20)) - 10n;
      const thresholds: MarketThresholds = {
        market: btc,
        buyLimit: (mid * 90n) / 100n,
        sellLimit: null,
        fallTrigger: null,
        riseTrigger: (mid * 112n) / 100n,
        longLiquidation: (mid * (8_000n + BigInt(round) + drift)) / 10_000n,
        shortLiquidation: (mid * (12_000n - BigInt(round) + drift)) / 10_000n,
      };
      const remembered = thresholdBands(remembering, thresholds, tick);
      expect(remembered, `round ${round}`).toEqual(thresholdBands(book(), thresholds, tick));
    }
  });
});
