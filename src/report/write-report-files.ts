/**
 * Writes one report as a set of files into one directory (created if needed) and returns their
 * paths in the order of `files`: the one writer behind the findings reports (write-findings.ts) and
 * the load reports (load/report/write-load-reports.ts). The file system is touched only here; each
 * file's text comes from its pure renderer. A report without `afpVersion` gets the one in afp's
 * package.json (afp-version.ts), when there is one. A file that cannot be written is an
 * OutputWriteError naming it (the commands end it as invalid input, exit 2).
 */
import { writeFileAtomic } from '../core/atomic-file.ts';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readAfpVersion } from './afp-version.ts';
import { writingToAsync } from '../core/output-write-error.ts';

/** A report that names the afp that wrote it (absent: filled in when written). */
export interface VersionedReport {
  readonly afpVersion?: string;
}

/** One file of a report: its name in the directory and the renderer of its text. */
interface ReportFile<R> {
  readonly file: string;
  readonly render: (report: R) => string;
}

function withVersion<R extends VersionedReport>(report: R): R {
  if (report.afpVersion !== undefined) return report;
  const version = readAfpVersion();
  return version === null ? report : { ...report, afpVersion: version };
}

export async function writeReportFiles<R extends VersionedReport>(
  dir: string,
  report: R,
  files: readonly ReportFile<R>[],
): Promise<string[]> {
  const full = withVersion(report);
  await writingToAsync(dir, () => mkdir(dir, { recursive: true }));
  const paths: string[] = [];
  for (const { file, render } of files) {
    const path = join(dir, file);
    const text = render(full);
    await writingToAsync(path, async () => writeFileAtomic(path, text));
    paths.push(path);
  }
  return paths;
}
