/**
 * The few lines every findings report opens with (terminal, findings.json, findings.html, JUnit):
 * the verdict first ("FAILED — 2 critical, 3 major at or above --fail-on major"), then the findings
 * a person must act on, most severe first, one line each with its count; info findings are only
 * counted here ("4 info, folded") and listed after (infoLines, and in full in every report file).
 * A command that failed otherwise (ReportFailure: a check's mismatch, a target that stopped
 * answering) fails the verdict whatever its findings: `verdict: FAILED — <what failed>`, then its
 * reproduce command and request, then the findings — the one rule by which every report's verdict
 * says what the exit code says. Findings are listed strongest evidence first, the criticals of one
 * root cause as one line (verdict-order.ts).
 * Pure: the lines are a function of the findings (in compareFindings order), --fail-on and the failure.
 * Limits: at most VERDICT_LIST_MAX lines of findings are listed; the rest are counted.
 */
import { compareFindings, type Finding } from './finding.ts';
import { reachesFailOn, type FailOn } from './fail-on.ts';
import type { ReportFailure } from './findings-report.ts';
import { entryLine, verdictEntries } from './verdict-order.ts';

export const VERDICT_LIST_MAX = 10;

export interface FindingsVerdict {
  /** Whether the findings fail the command (exit 3). */
  readonly failed: boolean;
  /** One line: the verdict and the counts. */
  readonly headline: string;
  /** The findings to act on (everything but info), at most VERDICT_LIST_MAX, then "… and N more". */
  readonly listed: readonly string[];
}

const plural = (count: number, word: string): string => `${count} ${word}`;

function countsText(findings: readonly Finding[], severities: readonly Finding['severity'][]): string {
  return severities
    .map((severity) => plural(findings.filter((finding) => finding.severity === severity).length, severity))
    .join(', ');
}

export function findingsVerdict(input: readonly Finding[], failOn: FailOn, failure?: ReportFailure): FindingsVerdict {
  const findings = [...input].sort(compareFindings);
  const reaching = findings.filter((finding) => reachesFailOn(finding, failOn));
  const info = findings.filter((finding) => finding.severity === 'info').length;
  const acting = findings.filter((finding) => finding.severity !== 'info');
  const folded = info === 0 ? '' : `; ${info} info, folded`;
  const all = `${countsText(findings, ['critical', 'major', 'minor'])}${folded}`;
  const failed = failure !== undefined || reaching.length > 0;
  const headline =
    failure !== undefined
      ? `verdict: FAILED — ${failure.summary} (findings: ${all})`
      : failOn === 'none'
        ? `verdict: not judged (--fail-on none) — ${all}`
        : failed
          ? `verdict: FAILED — ${reaching.length} of ${findings.length} findings at or above --fail-on ${failOn}: ${all}`
          : `verdict: passed — nothing at or above --fail-on ${failOn}: ${all}`;
  const listed = [
    ...(failure?.reproduce === undefined ? [] : [`  reproduce: ${failure.reproduce}`]),
    ...(failure?.request === undefined ? [] : [`  request: ${failure.request}`]),
  ];
  const entries = verdictEntries(acting);
  listed.push(...entries.slice(0, VERDICT_LIST_MAX).map(entryLine));
  if (entries.length > VERDICT_LIST_MAX)
    listed.push(`  … and ${entries.length - VERDICT_LIST_MAX} more (findings.html, findings.json)`);
  return { failed, headline, listed };
}

/** The verdict as lines of text: the headline, then the findings to act on. */
export function verdictLines(findings: readonly Finding[], failOn: FailOn, failure?: ReportFailure): string[] {
  const verdict = findingsVerdict(findings, failOn, failure);
  return [verdict.headline, ...verdict.listed];
}

/** The info findings, listed after the tables (folded out of the verdict): at most VERDICT_LIST_MAX. */
export function infoLines(input: readonly Finding[]): string[] {
  const info = [...input].sort(compareFindings).filter((finding) => finding.severity === 'info');
  if (info.length === 0) return [];
  const lines = [
    `info (folded out of the verdict): ${info.length}`,
    ...info
      .slice(0, VERDICT_LIST_MAX)
      .map((finding) => `  info ${finding.id}: ${finding.title}${finding.count > 1 ? ` (×${finding.count})` : ''}`),
  ];
  if (info.length > VERDICT_LIST_MAX)
    lines.push(`  … and ${info.length - VERDICT_LIST_MAX} more (findings.html, findings.json)`);
  return lines;
}
