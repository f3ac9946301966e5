/**
 * latency.csv and timeseries.csv of a load run, for a spreadsheet or a script. Pure: the text is a
 * function of the report alone.
 *
 * latency.csv: one row per endpoint in the snapshot's order, then one `overall` row (a `scope`
 * column tells them apart, so no endpoint name can pass for the total): requests, failed, the
 * failed share, latency min, mean, p50, p90, p95, p99, p99.9 and max in ms, statuses.
 * timeseries.csv: one row per second of the run from 0, seconds without requests included:
 * requests, failed, the failed share, p50, p99 and max in ms, statuses.
 * Invariants: a header row always; `\n` line endings and a final newline; quoting by
 * csv-stringify wherever a field needs it; ms with 3 decimals, shares with 6 (toFixed: the same
 * characters everywhere); endpoint names pass through spreadsheetText (findings.csv's guard: no
 * control characters, no cell a spreadsheet would evaluate as a formula).
 */
import { stringify } from 'csv-stringify/sync';
import { spreadsheetText } from '../../report/findings/findings-csv.ts';
import {
  assertLoadReportBounded,
  endpointRows,
  failedRate,
  overallRow,
  secondRows,
  statusesText,
  type LatencyRow,
  type LoadReport,
} from './load-report.ts';

type Cell = string | number;

const LATENCY_COLUMNS = [
  'scope',
  'endpoint',
  'requests',
  'failed',
  'failed_rate',
  'min_ms',
  'mean_ms',
  'p50_ms',
  'p90_ms',
  'p95_ms',
  'p99_ms',
  'p999_ms',
  'max_ms',
  'statuses',
] as const;
const TIMESERIES_COLUMNS = [
  'second',
  'requests',
  'failed',
  'failed_rate',
  'p50_ms',
  'p99_ms',
  'max_ms',
  'statuses',
] as const;

const ms = (value: number): string => value.toFixed(3);
const share = (row: LatencyRow): string => failedRate(row).toFixed(6);

function csv(columns: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return stringify(rows as Cell[][], { header: true, columns: [...columns], record_delimiter: '\n' });
}

function latencyCells(row: LatencyRow): Cell[] {
  const { latency } = row;
  return [
    row.requests,
    row.failed,
    share(row),
    ms(latency.minMs),
    ms(latency.meanMs),
    ms(latency.p50Ms),
    ms(latency.p90Ms),
    ms(latency.p95Ms),
    ms(latency.p99Ms),
    ms(latency.p999Ms),
    ms(latency.maxMs),
    statusesText(row.statuses),
  ];
}

export function renderLatencyCsv(report: LoadReport): string {
  assertLoadReportBounded(report);
  const rows = endpointRows(report).map((row) => ['endpoint', spreadsheetText(row.endpoint), ...latencyCells(row)]);
  rows.push(['overall', '', ...latencyCells(overallRow(report))]);
  return csv(LATENCY_COLUMNS, rows);
}

export function renderTimeseriesCsv(report: LoadReport): string {
  assertLoadReportBounded(report);
  const rows = secondRows(report).map((row) => [
    row.second,
    row.requests,
    row.failed,
    share(row),
    ms(row.latency.p50Ms),
    ms(row.latency.p99Ms),
    ms(row.latency.maxMs),
    statusesText(row.statuses),
  ]);
  return csv(TIMESERIES_COLUMNS, rows);
}
