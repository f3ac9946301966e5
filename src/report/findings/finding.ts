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
import type { JsonValue } from '../../core/errors.ts';

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
  /** Up to MAX_FINDING_EXAMPLES distinct examples (the first is `evidence`); absent with one. */
  readonly examples?: readonly string[];
}

/** A finding as a command reports it; the collector counts repeats and keeps their examples. */
export type FindingInput = Omit<Finding, 'count'>;

export const MAX_FINDING_EXAMPLES = 3;

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

  /**
   * Records `finding` seen `times` times, or counts more sightings of a finding with the same id:
   * the first stays, and its evidence and `examples` gather up to MAX_FINDING_EXAMPLES distinct ones.
   */
  add(finding: FindingInput, times = 1): void {
    const known = this.byId.get(finding.id);
    if (known !== undefined) {
      const examples = mergeExamples(known.examples ?? [known.evidence], finding.examples ?? [finding.evidence]);
      this.byId.set(finding.id, { ...known, count: known.count + times, ...(examples.length > 1 ? { examples } : {}) });
      return;
    }
    if (this.byId.size >= FINDINGS_MAX) {
      this.droppedCount += 1;
      return;
    }
    const examples = mergeExamples([finding.evidence], finding.examples ?? []);
    const { examples: _given, ...rest } = finding;
    this.byId.set(finding.id, { ...rest, count: times, ...(examples.length > 1 ? { examples } : {}) });
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

function mergeExamples(kept: readonly string[], more: readonly string[]): string[] {
  const merged = [...kept];
  for (const example of more)
    if (merged.length < MAX_FINDING_EXAMPLES && !merged.includes(example)) merged.push(example);
  return merged;
}

export function compareFindings(a: Finding, b: Finding): number {
  const bySeverity = severityRank(b.severity) - severityRank(a.severity);
  if (bySeverity !== 0) return bySeverity;
  const byKind = FINDING_KINDS.indexOf(a.kind) - FINDING_KINDS.indexOf(b.kind);
  if (byKind !== 0) return byKind;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
