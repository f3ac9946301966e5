/**
 * Writes a load run's reports into one directory (created if needed) and returns their paths in
 * LOAD_REPORT_FILES order: summary.json, latency.csv, timeseries.csv, load.junit.xml, load.html.
 * The file system is touched only here; each file's text comes from its pure renderer. A report
 * without `afpVersion` gets the one in afp's package.json (as the findings reports do).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readAfpVersion } from '../../live/report/afp-version.ts';
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

function withVersion(report: LoadReport): LoadReport {
  if (report.afpVersion !== undefined) return report;
  const version = readAfpVersion();
  return version === null ? report : { ...report, afpVersion: version };
}

export async function writeLoadReports(dir: string, report: LoadReport): Promise<string[]> {
  const full = withVersion(report);
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (const { file, render } of LOAD_REPORT_FILES) {
    const path = join(dir, file);
    await writeFile(path, render(full), 'utf8');
    paths.push(path);
  }
  return paths;
}
