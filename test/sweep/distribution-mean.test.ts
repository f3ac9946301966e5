// distributions.csv's mean is rounded, not cut: escrows of 1, 1 and 0 over three seeds is 0.67 (it
// read 0.66), and a money mean is rounded to the micro, half away from zero both ways.
import { describe, expect, it } from 'vitest';
import { FIGURES } from '../../src/sweep/seed-figures.ts';
import { renderDistributionsCsv, type SweepReport } from '../../src/sweep/sweep-report.ts';

function report(rows: readonly { readonly escrows: bigint; readonly fee: bigint }[]): SweepReport {
  return {
    scenario: 'means',
    file: 'means.yaml',
    defects: [],
    shard: null,
    seedsTotal: rows.length,
    seedsGiven: `1..${rows.length}`,
    swarm: false,
    results: rows.map((row, index) => ({
      index,
      seed: String(index + 1),
      outcome: 'completed',
      reproduce: `afp run means.yaml --seed ${index + 1}`,
      failure: null,
      stopped: null,
      figures: {
        ...Object.fromEntries(FIGURES.map(({ name }) => [name, 0n])),
        escrows: row.escrows,
        fee_income: row.fee,
      },
      digest: '0'.repeat(64),
      probes: null,
    })),
  };
}

const meanOf = (csv: string, figure: string): string | undefined =>
  csv
    .split('\n')
    .find((line) => line.startsWith(`${figure},`))
    ?.split(',')
    .at(-1);

describe('distributions.csv mean', () => {
  it('rounds half away from zero: counts to hundredths, money to the micro', () => {
    const csv = renderDistributionsCsv(
      report([
        { escrows: 1n, fee: 1n },
        { escrows: 1n, fee: 1n },
        { escrows: 0n, fee: 0n },
      ]),
    );
    expect(meanOf(csv, 'escrows')).toBe('0.67');
    // 2 micro over 3 runs: 0.666… micro, the micro nearest is 1.
    expect(meanOf(csv, 'fee_income')).toBe('0.000001');
    const negative = renderDistributionsCsv(
      report([
        { escrows: 0n, fee: -1n },
        { escrows: 0n, fee: -1n },
        { escrows: 0n, fee: 0n },
      ]),
    );
    expect(meanOf(negative, 'fee_income')).toBe('-0.000001');
  });
});
