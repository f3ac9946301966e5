/**
 * Writes a live command's findings report: findings.json, findings.csv, findings.junit.xml and
 * findings.html into one directory (created if needed), and returns their paths in that order
 * (write-report-files.ts writes them, with afp's version filled in).
 */
import { renderFindingsCsv } from './findings-csv.ts';
import { renderFindingsHtml } from './findings-html.ts';
import { renderFindingsJson } from './findings-json.ts';
import { renderFindingsJunit } from './findings-junit.ts';
import type { FindingsReport } from './findings-report.ts';
import { writeReportFiles } from '../write-report-files.ts';

export type { FindingsReport, ReportCheck } from './findings-report.ts';

export const FINDINGS_FILES = [
  { file: 'findings.json', render: renderFindingsJson },
  { file: 'findings.csv', render: renderFindingsCsv },
  { file: 'findings.junit.xml', render: renderFindingsJunit },
  { file: 'findings.html', render: renderFindingsHtml },
] as const;

export async function writeFindingsReports(dir: string, report: FindingsReport): Promise<string[]> {
  return writeReportFiles(dir, report, FINDINGS_FILES);
}
