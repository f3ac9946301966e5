/**
 * The order and the grouping of the findings a verdict lists (findings-verdict.ts), so the strongest
 * evidence comes first: within a severity, money first (the target credited other than it showed),
 * then the target's answers contradicting themselves, then edges against the target's own word,
 * then the rest (issue 68, part 5). Severity still leads: a minor money finding never tops a critical.
 * Criticals of one root cause are one line with the count: findings whose ids differ only in their
 * middle part (`fairness:<game>:contradiction` over five games is `fairness:*:contradiction`) are
 * one cause seen on several subjects. Pure; the same for the terminal, findings.json, findings.html
 * and JUnit, which all list findingsVerdict's lines.
 */
import { compareFindings, severityRank, type Finding } from './finding.ts';

/** Evidence ranks, strongest first. */
const MONEY = 0;
const SELF_CONTRADICTION = 1;
const OWN_WORD_EDGE = 2;
const OTHER = 3;

function evidenceRank(finding: Finding): number {
  if (finding.kind === 'money') return MONEY;
  if (/(^|:)(contradiction|won-flag)($|:)/.test(finding.id)) return SELF_CONTRADICTION;
  if (finding.kind === 'edge') return OWN_WORD_EDGE;
  return OTHER;
}

/** Severity first (most severe first), then the strength of the evidence, then compareFindings. */
export function compareVerdictOrder(a: Finding, b: Finding): number {
  const bySeverity = severityRank(b.severity) - severityRank(a.severity);
  if (bySeverity !== 0) return bySeverity;
  const byEvidence = evidenceRank(a) - evidenceRank(b);
  return byEvidence !== 0 ? byEvidence : compareFindings(a, b);
}

/** An id's root cause: its middle parts as `*` (`fairness:hilo:contradiction` → `fairness:*:contradiction`); null for an id of fewer than three parts. */
export function rootCauseOf(id: string): string | null {
  const parts = id.split(':');
  if (parts.length < 3) return null;
  return [parts[0], ...parts.slice(1, -1).map(() => '*'), parts.at(-1)].join(':');
}

/** A verdict line: one finding, or the criticals of one root cause. */
export interface VerdictEntry {
  readonly first: Finding;
  /** The findings of the line (one, or the criticals sharing `first`'s root cause). */
  readonly findings: readonly Finding[];
}

/** The findings to act on as verdict lines, in verdict order; the criticals of one root cause folded into one. */
export function verdictEntries(acting: readonly Finding[]): VerdictEntry[] {
  const sorted = [...acting].sort(compareVerdictOrder);
  const groups = new Map<string, Finding[]>();
  for (const finding of sorted) {
    const cause = finding.severity === 'critical' ? rootCauseOf(finding.id) : null;
    if (cause !== null) groups.set(cause, [...(groups.get(cause) ?? []), finding]);
  }
  const entries: VerdictEntry[] = [];
  const done = new Set<string>();
  for (const finding of sorted) {
    const cause = finding.severity === 'critical' ? rootCauseOf(finding.id) : null;
    const group = cause === null ? undefined : groups.get(cause);
    if (cause === null || group === undefined || group.length < 2)
      entries.push({ first: finding, findings: [finding] });
    else if (!done.has(cause)) {
      done.add(cause);
      entries.push({ first: finding, findings: group });
    }
  }
  return entries;
}

/** The line of an entry: the finding as before, or the root cause with its subjects and the count of every answer. */
export function entryLine(entry: VerdictEntry): string {
  const { first, findings } = entry;
  if (findings.length === 1)
    return `  ${first.severity} ${first.id}: ${first.title}${first.count > 1 ? ` (×${first.count})` : ''}`;
  const subjects = findings.map((finding) => finding.id.split(':').slice(1, -1).join(':'));
  const total = findings.reduce((sum, finding) => sum + finding.count, 0);
  return `  ${first.severity} ${rootCauseOf(first.id) ?? first.id}: one cause on ${findings.length} (${subjects.join(', ')}): ${first.title} (×${total} in all)`;
}
