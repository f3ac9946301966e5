/**
 * Writes a load run's reports into one directory (created if needed) and returns their paths in
 * LOAD_REPORT_FILES order: summary.json, latency.csv, timeseries.csv, load.junit.xml, load.html
 * (the report kit's writer, src/report/write-report-files.ts, shared with the findings reports, writes them, with afp's
 * version filled in).
 */
import { writeReportFiles } from '../../report/write-report-files.ts';
import { renderLatencyCsv, renderTimeseriesCsv } from './load-csv.ts';
import { renderLoadHtml } from './load-html.ts';
import { renderLoadJunit } from './load-junit.ts';
import type { LoadReport } from './load-report.ts';
import { renderLoadSummaryJson } from './summary-json.ts';

export type { LoadReport } from './load-report.ts';

export const LOAD_REPORT_FILES = [
  { file: 'summary.json', render: renderLoadSummaryJson },
  { file: 'latency.csv', render: renderLatencyCsv },
  { file: 'timeseries.csv', render: renderTimeseriesCsv },
  { file: 'load.junit.xml', render: renderLoadJunit },
  { file: 'load.html', render: renderLoadHtml },
] as const;

export async function writeLoadReports(dir: string, report: LoadReport): Promise<string[]> {
  return writeReportFiles(dir, report, LOAD_REPORT_FILES);
}
