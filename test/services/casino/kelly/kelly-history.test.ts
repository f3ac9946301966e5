/**
 * BankrollCurve: a bounded ring of bankroll points (oldest dropped first, order kept, time order
 * asserted) and the GET /kelly/history record shape.
 */
import { describe, expect, it } from 'vitest';
import {
  BankrollCurve,
  kellyHistoryView,
  type BankrollPoint,
} from '../../../../src/services/casino/kelly/kelly-history.ts';

const point = (index: number): BankrollPoint => ({
  atMs: Date.UTC(2026, 0, 1) + index * 1_000,
  bankrollMicro: BigInt(100_000_000 + index * 10_000),
  betId: `bet_${index.toString(16).padStart(16, '0')}`,
  game: 'coin_flip',
});

describe('BankrollCurve', () => {
  it('keeps every point up to its capacity, oldest first', () => {
    const curve = new BankrollCurve(3);
    expect(curve.points()).toEqual([]);
    expect(curve.last()).toBeUndefined();
    curve.add(point(0));
    curve.add(point(1));
    expect(curve.points()).toEqual([point(0), point(1)]);
    expect(curve.last()).toEqual(point(1));
  });

  it('drops the oldest beyond its capacity', () => {
    const curve = new BankrollCurve(3);
    for (let index = 0; index < 8; index++) curve.add(point(index));
    expect(curve.size).toBe(3);
    expect(curve.points()).toEqual([point(5), point(6), point(7)]);
    expect(curve.last()).toEqual(point(7));
  });

  it('takes points at the same instant, refuses one from the past (a bug)', () => {
    const curve = new BankrollCurve(5);
    curve.add(point(2));
    curve.add({ ...point(2), betId: 'bet_same_instant' });
    expect(() => curve.add(point(1))).toThrow(/time order/);
  });

  it('bounds its capacity', () => {
    expect(() => new BankrollCurve(0)).toThrow();
    expect(() => new BankrollCurve(100_001)).toThrow();
  });
});

describe('kellyHistoryView', () => {
  it('renders { history: [{ at, bankroll, bet_id, game }], count }', () => {
    expect(kellyHistoryView([point(0), point(1)])).toEqual({
      history: [
        { at: '2026-01-01T00:00:00.000Z', bankroll: 100, bet_id: 'bet_0000000000000000', game: 'coin_flip' },
        { at: '2026-01-01T00:00:01.000Z', bankroll: 100.01, bet_id: 'bet_0000000000000001', game: 'coin_flip' },
      ],
      count: 2,
    });
    expect(kellyHistoryView([])).toEqual({ history: [], count: 0 });
  });
});
