/**
 * The end of `afp replay` of the recorded requests as they are: the reports written (diff.json,
 * diff.txt), the summary and the first differences printed, and the exit code (4 a stopped replay,
 * 3 differences, 0 none); and the pacing line both replay paths print before they send. Its own
 * file: replay-record.ts sends, this concludes, and each stays one piece a reader can hold.
 */
import { join } from 'node:path';
import { writeTextFiles } from '../core/output-write-error.ts';
import { diffJson, diffText, summaryLines, type ReplayReportInput } from '../replay/diff-report.ts';
import type { Speed } from '../replay/pacing.ts';
import type { RecordFields } from './json-output.ts';
import { checkFailed, type Ending, PASSED, unsettled } from '../core/command-failure.ts';

/** The replay's reports written and summed up; its ending. */
export function concludeReplay(
  report: ReplayReportInput,
  out: string,
  io: { out(text: string): void },
  record: RecordFields,
): Ending {
  writeReports(out, report);
  record({
    sent: report.totals.sent,
    differences: report.totals.differencesTotal,
    stopped: report.stop === null ? null : report.stop.reason,
    admin_skipped: report.adminDoors?.skipped ?? [],
    files: [join(out, 'diff.json'), join(out, 'diff.txt')],
  });
  io.out(`${summaryLines(report).join('\n')}\nreports: ${join(out, 'diff.json')}, ${join(out, 'diff.txt')}\n`);
  if (report.stop !== null) return unsettled();
  if (report.totals.differencesTotal > 0) {
    const shown = diffText(report)
      .split('\n')
      .filter((line) => line.startsWith('  seq ') || line.startsWith('  setup '));
    io.out(`${shown.slice(0, 5).join('\n')}\nreproduce: ${report.reproduce}\n`);
    return checkFailed();
  }
  return PASSED;
}

function writeReports(out: string, report: ReplayReportInput): void {
  writeTextFiles(out, [
    { file: 'diff.json', text: `${JSON.stringify(diffJson(report), null, 2)}\n` },
    { file: 'diff.txt', text: diffText(report) },
  ]);
}

/** How long the record spans and how long the replay takes at its speed. */
export function pacingLine(spanMs: number, speed: Speed): string {
  if (speed === 'max') return `pacing: as fast as the target answers (the record spans ${formatSpan(spanMs)})`;
  return `pacing: the record spans ${formatSpan(spanMs)}; at speed ${speed} the replay takes about ${formatSpan(Math.floor(spanMs / speed))}`;
}

function formatSpan(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  const seconds = Math.floor(ms / 1_000);
  const parts = [
    [Math.floor(seconds / 86_400), 'd'],
    [Math.floor(seconds / 3_600) % 24, 'h'],
    [Math.floor(seconds / 60) % 60, 'm'],
    [seconds % 60, 's'],
  ] as const;
  return parts
    .filter(([value]) => value > 0)
    .map(([value, unit]) => `${value}${unit}`)
    .join(' ');
}
