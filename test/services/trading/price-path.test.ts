// The market catalogue and the seeded price path: 275 perpetuals (229 crypto + 46 real-world
// assets) with venue names and spot pairs; prices a pure function of (seed, asset, tick) — the
// same whatever order they are asked in, different for another seed — positive, within the band
// the octaves allow, bid ≤ mid ≤ ask, shocks applied from their tick on; exp tables exact enough;
// an octave's share from its factor (the cursor's and the search's loops) is octavePpm's.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MARKETS, PERP_COUNT, marketByPair, marketBySymbol } from '../../../src/services/trading/market-catalogue.ts';
import { PriceBook } from '../../../src/services/trading/price-book.ts';
import {
  NOISE_MAX,
  OCTAVES,
  applyLog,
  fundingRatePpm,
  logPpmAt,
  octaveFactor,
  octavePpm,
  octaveShare,
  pathPrice,
  seedHashOf,
  sigmaTickPpmOf,
} from '../../../src/services/trading/price-path.ts';
import { PRICE_ONE, formatPrice } from '../../../src/services/trading/price-scale.ts';
import { DEFAULT_TRADING_CONFIG } from '../../../src/services/trading/trading-config.ts';

const START = Date.UTC(2026, 0, 1);
const TICK0 = START / 60_000;

describe('catalogue', () => {
  test('275 perpetuals named <asset>-PERP (229 crypto, 46 real-world) and spot pairs <base>-USDC', () => {
    expect(PERP_COUNT).toBe(275);
    const perps = MARKETS.filter((market) => market.kind === 'perp');
    expect(perps.filter((market) => market.category === 'crypto')).toHaveLength(229);
    expect(perps.every((market) => market.symbol === `${market.base}-PERP`)).toBe(true);
    for (const name of [
      'TSLA',
      'NVDA',
      'AAPL',
      'GOLD',
      'SILVER',
      'CL',
      'NATGAS',
      'SPX',
      'JP225',
      'EUR',
      'JPY',
      'kPEPE',
    ])
      expect(marketBySymbol(`${name}-PERP`)).toBeDefined();
    const spots = MARKETS.filter((market) => market.kind === 'spot');
    expect(spots.length).toBeGreaterThanOrEqual(20);
    expect(spots.every((market) => market.symbol === `${market.base}-USDC` && market.maxLeverage === 1)).toBe(true);
    expect(marketByPair('BTC-USDC', null)?.symbol).toBe('BTC-USDC');
    expect(marketByPair('BTC-USDC', 'perp')?.symbol).toBe('BTC-PERP');
    expect(marketByPair('TSLA-USDC', null)?.symbol).toBe('TSLA-PERP');
    expect(marketByPair('TSLA-USDC', 'spot')).toBeUndefined();
    expect(marketByPair('BTC-PERP', null)).toBeUndefined();
  });
});

describe('octave shares', () => {
  test("octaveShare of an octave's factor is octavePpm at every knot value, octave and volatility", () => {
    const sigmas = [...new Set(MARKETS.map(sigmaTickPpmOf))];
    const differing: string[] = [];
    for (const sigma of sigmas)
      for (let k = 0; k < OCTAVES; k++) {
        const factor = octaveFactor(sigma, k);
        for (let value = -NOISE_MAX; value <= NOISE_MAX; value++)
          if (!Object.is(octaveShare(factor, value), octavePpm(sigma, k, value)))
            differing.push(`${sigma} ${k} ${value}`);
      }
    expect(sigmas.length).toBeGreaterThan(5);
    expect(differing).toEqual([]);
  });
});

describe('price path', () => {
  test('exp tables: e^0 = 1, e^-ln2 ≈ 1/2, e^1 ≈ 2.71828', () => {
    expect(applyLog(PRICE_ONE, 0)).toBe(PRICE_ONE);
    expect(formatPrice(applyLog(PRICE_ONE, 1_000_000))).toBe('2.71828182');
    const half = applyLog(PRICE_ONE, -693_147);
    expect(half > 49_990_000n && half < 50_010_000n).toBe(true);
  });

  test('pure: the same (seed, market, tick) gives the same price in any order; another seed another path', () => {
    const market = marketBySymbol('ETH-PERP')!;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 2, maxLength: 20 }), (offsets) => {
        const seed = seedHashOf('a');
        const forward = offsets.map((offset) => pathPrice(seed, market, TICK0 + offset));
        const backward = [...offsets]
          .reverse()
          .map((offset) => pathPrice(seed, market, TICK0 + offset))
          .reverse();
        expect(backward).toEqual(forward);
      }),
    );
    const a = Array.from({ length: 50 }, (_, index) => pathPrice(seedHashOf('a'), market, TICK0 + index * 97));
    const b = Array.from({ length: 50 }, (_, index) => pathPrice(seedHashOf('b'), market, TICK0 + index * 97));
    expect(a).not.toEqual(b);
  });

  test('every market stays positive and within its band; bid ≤ mid ≤ ask; funding within -0.03%..0.05%', () => {
    const book = new PriceBook({ seed: 's', config: DEFAULT_TRADING_CONFIG });
    fc.assert(
      fc.property(fc.constantFrom(...MARKETS), fc.integer({ min: 0, max: 60 * 24 * 30 }), (market, minute) => {
        const log = logPpmAt(book.seedHash, market, TICK0 + minute);
        expect(Math.abs(log)).toBeLessThanOrEqual(3_000_000);
        const quote = book.quote(market, START + minute * 60_000);
        expect(quote.mid).toBeGreaterThan(0n);
        expect(quote.bid <= quote.mid && quote.mid <= quote.ask).toBe(true);
        expect((quote.fundingRatePpm === null) === (market.kind === 'spot')).toBe(true);
        const rate = fundingRatePpm(book.seedHash, market, minute);
        expect(rate >= -300 && rate <= 500).toBe(true);
      }),
    );
  });

  test('weekend schedule: with weekendClosure, stock and index perpetuals close Saturday 00:00 to Monday 00:00 UTC; crypto never', () => {
    const book = new PriceBook({ seed: 's', config: { ...DEFAULT_TRADING_CONFIG, weekendClosure: true } });
    const saturday = Date.UTC(2026, 0, 3);
    const monday = Date.UTC(2026, 0, 5);
    const tsla = marketBySymbol('TSLA-PERP')!;
    const spx = marketBySymbol('SPX-PERP')!;
    expect([saturday - 1, saturday, monday - 1, monday].map((atMs) => book.isOpen(tsla, atMs))).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(book.isOpen(spx, saturday + 3_600_000)).toBe(false);
    expect(book.isOpen(marketBySymbol('BTC-PERP')!, saturday)).toBe(true);
    expect(book.isOpen(marketBySymbol('GOLD-PERP')!, saturday)).toBe(true);
    expect(new PriceBook({ seed: 's', config: DEFAULT_TRADING_CONFIG }).isOpen(tsla, saturday)).toBe(true);
  });

  test('a shock moves the asset (perp and spot) from the tick it falls in on, permanently', () => {
    const atMs = START + 90 * 60_000 + 5_000;
    const plain = new PriceBook({ seed: 's', config: DEFAULT_TRADING_CONFIG });
    const shocked = new PriceBook({
      seed: 's',
      config: DEFAULT_TRADING_CONFIG,
      shocks: [{ base: 'SOL', atMs, moveBps: -2500 }],
    });
    for (const symbol of ['SOL-PERP', 'SOL-USDC']) {
      const market = marketBySymbol(symbol)!;
      expect(shocked.mid(market, atMs)).toBe(plain.mid(market, atMs));
      const next = atMs + 55_000;
      expect(shocked.mid(market, next)).toBe((plain.mid(market, next) * 7500n) / 10_000n);
      expect(shocked.mid(market, next + 86_400_000)).toBe((plain.mid(market, next + 86_400_000) * 7500n) / 10_000n);
    }
    expect(shocked.mid(marketBySymbol('BTC-PERP')!, atMs + 60_000)).toBe(
      plain.mid(marketBySymbol('BTC-PERP')!, atMs + 60_000),
    );
  });
});
