// Φ⁻¹ for the live audit's family-wide levels: the known quantiles to 1e-8, symmetry, and the
// refusal of a probability outside (0, 1).
import { describe, expect, it } from 'vitest';
import { normalQuantile } from '../../src/audit/edge/normal-quantile.ts';
import { Z_99 } from '../../src/audit/edge/edge-statistics.ts';

describe('normalQuantile', () => {
  it('gives the textbook quantiles, the 99% z the audit states and the 99.9% z it decides at', () => {
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 8);
    expect(normalQuantile(0.995)).toBeCloseTo(Z_99, 8);
    expect(normalQuantile(0.9995)).toBeCloseTo(3.2905267314919255, 8);
    expect(normalQuantile(1 - 1e-9)).toBeCloseTo(5.997807015007687, 7);
  });

  it('is odd about one half, across both tails and the centre', () => {
    for (const p of [1e-5, 0.01, 0.02425, 0.1, 0.3, 0.49])
      expect(normalQuantile(p)).toBeCloseTo(-normalQuantile(1 - p), 6);
  });

  it('refuses 0, 1 and anything outside', () => {
    for (const p of [0, 1, -0.1, 1.5, Number.NaN]) expect(() => normalQuantile(p)).toThrow(/strictly between 0 and 1/);
  });
});
