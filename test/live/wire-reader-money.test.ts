// The wire reader's money (src/live/wire-reader.ts): any JSON number or decimal string is an amount,
// read without loss — a deployment's double with float noise, an exponent form — and given to afp's
// model to the nearest micro; only what is no amount at all is a `type` deviation (never a throw).
import { describe, expect, test } from 'vitest';
import { WireReader } from '../../src/live/wire-reader.ts';

describe('WireReader money', () => {
  test('a double with float noise is an amount: exactly as written, and to the nearest micro', () => {
    const reader = new WireReader({ balance_usd: 101.49949999999998, tiny: 1e-7, text: '12.5000001' });
    expect(reader.amount('balance_usd')).toEqual({ units: 10149949999999998n, places: 14 });
    expect(reader.money('balance_usd')).toBe(101_499_500n);
    expect(reader.money('tiny')).toBe(0n);
    expect(reader.amount('text')).toEqual({ units: 125000001n, places: 7 });
    expect(reader.deviations()).toEqual([]);
  });

  test('what is no amount is a type deviation and null', () => {
    const reader = new WireReader({ balance_usd: 'lots', other: true });
    expect(reader.money('balance_usd')).toBeNull();
    expect(reader.money('other', { optional: true })).toBeNull();
    expect(reader.deviations().map((deviation) => [deviation.kind, deviation.field, deviation.required])).toEqual([
      ['type', 'balance_usd', true],
      ['type', 'other', false],
    ]);
  });
});
