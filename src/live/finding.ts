/**
 * Finding: one thing a live command noticed about a target, with the evidence to check it by hand.
 * Every live command (audit, check, replay, conformance, load) reports what differs from the
 * documents, from the target's own published rules, or from sound money handling as findings —
 * never as an exception and never as a false "refused" or "failed" (STYLE rule 14).
 *
 * A finding's `id` names the thing, not the occurrence: `shape:casino.bet:missing:ok`, so the same
 * deviation seen on 500 answers is one finding with `count` 500 and its first example kept.
 * Severity says what a user should do: `info` a documented or harmless deviation (a renamed field),
 * `minor` a deviation a client must code around, `major` wrong answers or rules (a payout that
 * differs from the target's own table), `critical` money or fairness broken (a balance that rises
 * on a refused withdrawal, an edge of 99% where 9.5% is advertised).
 * Invariants: at most FINDINGS_MAX distinct findings are kept (the rest are counted as dropped);
 * the order of `list()` is total and stable (severity, then kind, then id): reports are byte-stable.
 */
import type { JsonValue } from '../core/errors.ts';

export const SEVERITIES = ['info', 'minor', 'major', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const FINDING_KINDS = ['shape', 'rule', 'money', 'fairness', 'edge', 'limit'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export interface Finding {
  /** Stable name of the thing found, e.g. `shape:casino.rotate:renamed:revealed`. */
  readonly id: string;
  readonly severity: Severity;
  readonly kind: FindingKind;
  /** One line a person reads first. */
  readonly title: string;
  /** The operation or endpoint, e.g. `casino.rotate (POST /api/v1/fairness/rotate)`. */
  readonly endpoint?: string;
  /** The field, as a JSON path into the answer, where the finding is about one. */
  readonly field?: string;
  /** What the documents (or the target's own published rule) say. */
  readonly expected: JsonValue;
  /** What was seen on the wire. */
  readonly seen: JsonValue;
  /** A short example: the answer, the bet id, the numbers. */
  readonly evidence: string;
  /** A curl line that reproduces it, where one request does. */
  readonly reproduce?: string;
  /** How many times it was seen. */
  readonly count: number;
}

/** A finding as a command reports it; the collector counts repeats. */
export type FindingInput = Omit<Finding, 'count'>;

export const FINDINGS_MAX = 1_000;

export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** Whether `finding` reaches `threshold` (`--fail-on`). */
export function reaches(finding: Pick<Finding, 'severity'>, threshold: Severity): boolean {
  return severityRank(finding.severity) >= severityRank(threshold);
}

export class FindingsCollector {
  private readonly byId = new Map<string, Finding>();
  private droppedCount = 0;

  /** Records `finding`, or counts one more sighting of a finding with the same id (the first example stays). */
  add(finding: FindingInput): void {
    const known = this.byId.get(finding.id);
    if (known !== undefined) {
      this.byId.set(finding.id, { ...known, count: known.count + 1 });
      return;
    }
    if (this.byId.size >= FINDINGS_MAX) {
      this.droppedCount += 1;
      return;
    }
    this.byId.set(finding.id, { ...finding, count: 1 });
  }

  addAll(findings: Iterable<FindingInput>): void {
    for (const finding of findings) this.add(finding);
  }

  /** Findings dropped because FINDINGS_MAX distinct ones were kept already. */
  get dropped(): number {
    return this.droppedCount;
  }

  get size(): number {
    return this.byId.size;
  }

  /** Most severe first, then by kind and id: a total order, so reports are byte-stable. */
  list(): Finding[] {
    return [...this.byId.values()].sort(compareFindings);
  }

  /** The findings at or above `threshold`. */
  reaching(threshold: Severity): Finding[] {
    return this.list().filter((finding) => reaches(finding, threshold));
  }
}

export function compareFindings(a: Finding, b: Finding): number {
  const bySeverity = severityRank(b.severity) - severityRank(a.severity);
  if (bySeverity !== 0) return bySeverity;
  const byKind = FINDING_KINDS.indexOf(a.kind) - FINDING_KINDS.indexOf(b.kind);
  if (byKind !== 0) return byKind;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
