// isoTime: the request path's fast ISO 8601 formatter must be byte-identical to toISOString.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/core/iso-time.ts';

const DAY_MS = 86_400_000;
const LIMIT_MS = 253_402_300_800_000; // 10000-01-01

describe('isoTime', () => {
  it('matches toISOString at the edges of days, years and the fast range', () => {
    const instants = [
      0,
      1,
      999,
      1_000,
      59_999,
      60_000,
      3_599_999,
      3_600_000,
      DAY_MS - 1,
      DAY_MS,
      951_782_400_000,
      1_767_225_599_999,
      1_767_225_600_000,
      LIMIT_MS - 1,
    ];
    for (const ms of instants) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('matches toISOString for random instants, fractions and negatives included', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 0, max: LIMIT_MS - 1 }),
          fc.integer({ min: 1_767_225_600_000, max: 1_767_225_600_000 + 400 * DAY_MS }),
          fc.integer({ min: -62_167_219_200_000, max: 8_640_000_000_000_000 }),
          fc.double({ min: -1e15, max: 1e15, noNaN: true }),
        ),
        (ms) => {
          expect(isoTime(ms)).toBe(new Date(ms).toISOString());
        },
      ),
      { numRuns: 50_000 },
    );
  });

  it('throws as toISOString does for instants that are not dates', () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8_640_000_000_000_001)).toThrow(RangeError);
  });

  it('stays exact when instants repeat, a few days and a few seconds apart', () => {
    // Instants that differ by whole days share a time of day; by multiples of 1,024 ms, a day prefix.
    const pool = fc
      .record({
        base: fc.integer({ min: 0, max: 4_000 * DAY_MS }),
        days: fc.integer({ min: 0, max: 3 }),
        blocks: fc.integer({ min: 0, max: 3 }),
      })
      .map(({ base, days, blocks }) => base + days * DAY_MS + blocks * 1_024);
    fc.assert(
      fc.property(
        fc.array(pool, { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 80 }),
        (instants, picks) => {
          for (const pick of picks) {
            const ms = instants[pick % instants.length] as number;
            expect(isoTime(ms)).toBe(new Date(ms).toISOString());
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('stays exact after the day memo has been filled past its bound', () => {
    for (let day = 0; day < 5_000; day++)
      expect(isoTime(day * DAY_MS + 45_296_789)).toBe(new Date(day * DAY_MS + 45_296_789).toISOString());
    expect(isoTime(12_345)).toBe('1970-01-01T00:00:12.345Z');
  });
});
