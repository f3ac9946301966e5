// The Rng: seeded, forkable without disturbing the parent, unbiased integers.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.ts';

describe('Rng', () => {
  it('repeats for the same seed and differs for another', () => {
    const draws = (seed: string): number[] => {
      const rng = new Rng(seed);
      return Array.from({ length: 8 }, () => rng.int(1000));
    };
    expect(draws('42')).toEqual(draws('42'));
    expect(draws('42')).not.toEqual(draws('43'));
  });

  it('forks by label without consuming the parent stream', () => {
    const a = new Rng('7');
    const b = new Rng('7');
    a.fork('agent-1');
    a.fork('agent-2');
    expect(a.uint32()).toBe(b.uint32());
    expect(new Rng('7').fork('x').hex(8)).toBe(new Rng('7').fork('x').hex(8));
    expect(new Rng('7').fork('x').hex(8)).not.toBe(new Rng('7').fork('y').hex(8));
  });

  it('draws integers in range, roughly uniformly', () => {
    const rng = new Rng('uniform');
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 60_000; i++) {
      const value = rng.int(6);
      counts[value] = (counts[value] ?? 0) + 1;
    }
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(500);
    expect(() => rng.int(0)).toThrow();
    for (let i = 0; i < 1000; i++) {
      const value = rng.between(-3, 3);
      expect(value).toBeGreaterThanOrEqual(-3);
      expect(value).toBeLessThanOrEqual(3);
    }
  });

  it('draws exact ratios and weights', () => {
    const rng = new Rng('ratio');
    expect(rng.chance(0, 10)).toBe(false);
    expect(rng.chance(10, 10)).toBe(true);
    let hits = 0;
    for (let i = 0; i < 10_000; i++) if (rng.chance(1, 4)) hits++;
    expect(Math.abs(hits - 2500)).toBeLessThan(200);
    const picks = [0, 0, 0];
    for (let i = 0; i < 10_000; i++) {
      const index = rng.weighted([1, 0, 3]);
      picks[index] = (picks[index] ?? 0) + 1;
    }
    expect(picks[1]).toBe(0);
    expect(Math.abs((picks[2] ?? 0) - 7500)).toBeLessThan(250);
    expect(rng.hex(5)).toMatch(/^[0-9a-f]{10}$/);
  });
});
