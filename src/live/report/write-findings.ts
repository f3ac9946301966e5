/**
 * Writes a live command's findings report: findings.json, findings.csv, findings.junit.xml and
 * findings.html into one directory (created if needed), and returns their paths in that order.
 * The file system is touched only here; each file's text comes from its pure renderer. A report
 * without `afpVersion` gets the one in afp's package.json (afp-version.ts), when there is one.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readAfpVersion } from './afp-version.ts';
import { renderFindingsCsv } from './findings-csv.ts';
import { renderFindingsHtml } from './findings-html.ts';
import { renderFindingsJson } from './findings-json.ts';
import { renderFindingsJunit } from './findings-junit.ts';
import type { FindingsReport } from './findings-report.ts';

export type { FindingsReport, ReportCheck } from './findings-report.ts';

export const FINDINGS_FILES = [
  { file: 'findings.json', render: renderFindingsJson },
  { file: 'findings.csv', render: renderFindingsCsv },
  { file: 'findings.junit.xml', render: renderFindingsJunit },
  { file: 'findings.html', render: renderFindingsHtml },
] as const;

function withVersion(report: FindingsReport): FindingsReport {
  if (report.afpVersion !== undefined) return report;
  const version = readAfpVersion();
  return version === null ? report : { ...report, afpVersion: version };
}

export async function writeFindingsReports(dir: string, report: FindingsReport): Promise<string[]> {
  const full = withVersion(report);
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (const { file, render } of FINDINGS_FILES) {
    const path = join(dir, file);
    await writeFile(path, render(full), 'utf8');
    paths.push(path);
  }
  return paths;
}
