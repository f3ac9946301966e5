// Money parsing and rendering at the HTTP edge: exact, no floats, named rounding.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  basisPoints,
  formatDecimal,
  formatDecimalPlain,
  mulDiv,
  parseDecimal,
  parseDecimalPlain,
  parseNumber,
  parseNumberPlain,
  toNumber,
  usdc,
} from '../../src/core/money.ts';

describe('money', () => {
  it('parses decimal strings exactly', () => {
    expect(parseDecimal('0.1')).toBe(100_000n);
    expect(parseDecimal('10')).toBe(10_000_000n);
    expect(parseDecimal('1.234567')).toBe(1_234_567n);
    expect(parseDecimal('1.2345670')).toBe(1_234_567n);
    expect(parseDecimal('-3.25')).toBe(-3_250_000n);
    expect(parseDecimal('1.2345678')).toBe('too-many-decimals');
    expect(parseDecimal('1e3')).toBe('not-a-number');
    expect(parseDecimal('+1')).toBe('not-a-number');
    expect(parseDecimal('')).toBe('not-a-number');
    expect(parseDecimal('NaN')).toBe('not-a-number');
    expect(parseDecimal('1000000000001')).toBe('too-large');
  });

  it('parses JSON numbers through their shortest decimal text', () => {
    expect(parseNumber(0.1)).toBe(100_000n);
    expect(parseNumber(0.3)).toBe(300_000n);
    expect(parseNumber(1.005)).toBe(1_005_000n);
    expect(parseNumber(1e-6)).toBe(1n);
    expect(parseNumber(1e-7)).toBe('too-many-decimals');
    expect(parseNumber(1e21)).toBe('too-large');
    expect(parseNumber(Number.NaN)).toBe('not-a-number');
    expect(parseNumber(Number.POSITIVE_INFINITY)).toBe('not-a-number');
    expect(parseNumber(-2)).toBe(-2_000_000n);
  });

  it('renders with 2 to 6 decimals and round-trips', () => {
    expect(formatDecimal(usdc(10))).toBe('10.00');
    expect(formatDecimal(995_000n)).toBe('0.995');
    expect(formatDecimal(1n)).toBe('0.000001');
    expect(formatDecimal(-1_500_000n)).toBe('-1.50');
    expect(toNumber(1_234_567n)).toBe(1.234567);
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), (micro) => {
        expect(parseDecimal(formatDecimal(micro))).toBe(micro);
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), (micro) => {
        expect(parseNumber(toNumber(micro))).toBe(micro);
      }),
    );
  });

  it('formatDecimal is byte-identical to its plain definition, fast path and beyond', () => {
    const edges = [
      0n,
      1n,
      -1n,
      10n,
      100n,
      1_000n,
      999_999n,
      1_000_000n,
      1_000_001n,
      1_230_000n,
      1_000_100n,
      5_000n,
      120_000n,
      9_999_999_999n,
      9_999_000_001n,
      10_000_000_000n,
      10_000_000_001n,
    ];
    const far = [
      2n ** 53n - 1n,
      2n ** 53n,
      2n ** 53n + 1n,
      10n ** 18n,
      9_007_199_254_740_991n - 1n,
      9_007_199_253_000_000n - 1n,
    ];
    for (const micro of [...edges, ...far]) {
      expect(formatDecimal(micro)).toBe(formatDecimalPlain(micro));
      expect(formatDecimal(-micro)).toBe(formatDecimalPlain(-micro));
    }
    // Every fraction (the tables), on a small and on a large whole part.
    for (let fraction = 0n; fraction < 1_000_000n; fraction += 1n) {
      for (const whole of [0n, 9_007_199_253n]) {
        const micro = whole * 1_000_000n + fraction;
        if (formatDecimal(micro) !== formatDecimalPlain(micro))
          expect(formatDecimal(micro)).toBe(formatDecimalPlain(micro));
      }
    }
    fc.assert(
      fc.property(
        fc.oneof(fc.bigInt({ min: -(2n ** 54n), max: 2n ** 54n }), fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n })),
        (micro) => {
          expect(formatDecimal(micro)).toBe(formatDecimalPlain(micro));
        },
      ),
    );
  });

  it('toNumber is the double that the decimal text reads as, for every amount', () => {
    const viaText = (micro: bigint): number => Number(formatDecimal(micro));
    const edges = [
      0n,
      1n,
      -1n,
      999_999n,
      1_000_001n,
      2n ** 53n - 1n,
      2n ** 53n,
      2n ** 53n + 1n,
      -(2n ** 53n) + 1n,
      -(2n ** 53n),
      10n ** 18n,
      -(10n ** 18n),
    ];
    for (const micro of edges) expect(Object.is(toNumber(micro), viaText(micro))).toBe(true);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
          fc.bigInt({ min: -(2n ** 53n) - 1_000n, max: 2n ** 53n + 1_000n }),
          fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }),
        ),
        (micro) => {
          expect(Object.is(toNumber(micro), viaText(micro))).toBe(true);
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('parseDecimal answers as its plain definition, on texts near and beyond the fast path', () => {
    const digits = (min: number, max: number) =>
      fc.array(fc.constantFrom('0', '1', '5', '9'), { minLength: min, maxLength: max }).map((list) => list.join(''));
    const numeric = fc
      .record({ sign: fc.constantFrom('', '-', '+'), whole: digits(0, 20), dot: fc.boolean(), fraction: digits(0, 20) })
      .map(({ sign, whole, dot, fraction }) => `${sign}${whole}${dot ? '.' : ''}${fraction}`);
    const texts = fc.oneof(
      numeric,
      fc.string({ maxLength: 24 }),
      fc.constantFrom(
        '',
        '-',
        '.',
        '-.5',
        '1.',
        '0',
        '-0',
        '-0.000000',
        '999999999.999999',
        '1000000000',
        '1e3',
        ' 1',
        '1 ',
        '１',
      ),
    );
    fc.assert(
      fc.property(texts, (text) => {
        expect(parseDecimal(text)).toBe(parseDecimalPlain(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('parseNumber answers as its plain definition (the shortest decimal text, parsed)', () => {
    const decimals = fc
      .record({ micro: fc.integer({ min: -(2 ** 53), max: 2 ** 53 }), places: fc.integer({ min: 0, max: 9 }) })
      .map(({ micro, places }) => micro / 10 ** places);
    const edges = fc.constantFrom(
      0,
      -0,
      1e-6,
      5e-7,
      1e-7,
      0.1,
      0.3,
      2 ** 32,
      2 ** 32 - 1e-6,
      -(2 ** 32),
      4294967295.999999,
      1e12,
      1e12 + 1,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      NaN,
      Infinity,
      -Infinity,
    );
    fc.assert(
      fc.property(fc.oneof(decimals, fc.double(), fc.double({ min: -1e10, max: 1e10 }), edges), (value) => {
        expect(parseNumber(value)).toBe(parseNumberPlain(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('names the rounding of every division', () => {
    expect(mulDiv(100_001n, 1n, 100n, 'down')).toBe(1_000n);
    expect(mulDiv(100_001n, 1n, 100n, 'up')).toBe(1_001n);
    expect(mulDiv(100_000n, 1n, 100n, 'up')).toBe(1_000n);
    expect(basisPoints(1_234_567n, 100n, 'up')).toBe(12_346n);
    expect(basisPoints(12_346n, 1500n, 'down')).toBe(1_851n);
  });
});
