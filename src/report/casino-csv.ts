/**
 * casino.csv: the run's casino bets per game variant — bets, wagered, returned, the money-weighted
 * edge (1 − returned / wagered), the per-bet empirical edge with its 99% interval, the advertised
 * and theoretical edges, and the verdict (casino-edges.ts). Written only when the run placed
 * casino bets. Pure and byte-stable: rows in the record's order (game table order, then variant
 * name), fractions with 8 decimals (toFixed), money as USDC with 6 decimals (column-format.ts); empty cells where a
 * figure does not exist (a crash-round row has no theoretical edge).
 */
import { stringify } from 'csv-stringify/sync';
import { usdcColumnText } from './column-format.ts';
import { ratioToNumber } from '../core/ratio.ts';
import { variantEdge } from './casino-edges.ts';
import type { RunRecord } from './run-record.ts';

const COLUMNS = [
  'game',
  'variant',
  'bets',
  'wagered',
  'returned',
  'money_edge',
  'empirical_edge',
  'low',
  'high',
  'advertised_text',
  'advertised_edge',
  'theoretical_edge',
  'verdict',
  'model',
  'bets_needed',
] as const;

/** A fraction with 8 decimals ("" when absent); never "-0.00000000". */
export function fractionText(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '';
  const text = value.toFixed(8);
  return /^-0\.0*$/.test(text) ? text.slice(1) : text;
}

export function renderCasinoCsv(record: RunRecord): string {
  const rows = (record.casino?.variants ?? []).map((row) => {
    const edge = variantEdge(row);
    const { interval, judgement } = edge;
    const theory = row.theory;
    return [
      row.game,
      row.variant,
      String(row.bets),
      usdcColumnText(row.wageredMicro),
      usdcColumnText(row.returnedMicro),
      fractionText(edge.moneyEdge),
      fractionText(interval?.edge ?? null),
      fractionText(interval?.low ?? null),
      fractionText(interval?.high ?? null),
      theory?.advertisedText ?? '',
      fractionText(
        theory?.advertised === undefined || theory.advertised === null ? null : ratioToNumber(theory.advertised),
      ),
      fractionText(theory === null ? null : ratioToNumber(theory.edge)),
      judgement?.verdict ?? '',
      judgement?.model ?? '',
      judgement?.betsNeeded === null || judgement?.betsNeeded === undefined ? '' : String(judgement.betsNeeded),
    ];
  });
  return stringify(rows, { header: true, columns: [...COLUMNS], record_delimiter: '\n' });
}
