/**
 * findings.json: a live command's findings report as data. Pure: the text is a function of the
 * report alone.
 *
 * Invariants: keys in a fixed order (objects built in that order; no key is integer-like, so
 * JavaScript keeps insertion order), 2-space indent, trailing newline. It opens with the verdict
 * (findings-verdict.ts: the lines a terminal opens with), `failure` (a failure beside the findings:
 * its summary, reproduce command and request as a curl; null when the findings alone decide), then the header: command, target, `seed` and `afpVersion` only when given, the --fail-on threshold, counts per
 * severity (most severe first), how many findings reach the threshold, and how many were dropped;
 * then `checks` in the order run and `findings` in their total order. A finding's or a check's
 * absent optional field is `null`, so every row has the same keys; `examples` lists up to three
 * (the first is `evidence`). `expected` and `seen` are the
 * JSON values as collected (their own key order is the wire's).
 */
import type { JsonValue } from '../../core/errors.ts';
import type { Finding } from './finding.ts';
import { verdictLines } from './findings-verdict.ts';
import {
  assertReportBounded,
  reachingCount,
  severityCounts,
  sortedFindings,
  type FindingsReport,
  type ReportCheck,
} from './findings-report.ts';
import { jsonDocument } from '../kit/summary.ts';

function checkJson(check: ReportCheck): JsonValue {
  return {
    name: check.name,
    group: check.group ?? null,
    status: check.status,
    findingIds: [...check.findingIds],
    detail: check.detail ?? null,
  };
}

function findingJson(finding: Finding): JsonValue {
  return {
    id: finding.id,
    severity: finding.severity,
    kind: finding.kind,
    title: finding.title,
    endpoint: finding.endpoint ?? null,
    field: finding.field ?? null,
    expected: finding.expected,
    seen: finding.seen,
    evidence: finding.evidence,
    reproduce: finding.reproduce ?? null,
    count: finding.count,
    examples: [...(finding.examples ?? [finding.evidence])],
  };
}

export function renderFindingsJson(report: FindingsReport): string {
  assertReportBounded(report);
  const findings = sortedFindings(report);
  const document: Record<string, JsonValue> = {
    verdict: verdictLines(findings, report.failOn, report.failure),
    failure:
      report.failure === undefined
        ? null
        : {
            summary: report.failure.summary,
            reproduce: report.failure.reproduce ?? null,
            request: report.failure.request ?? null,
          },
    command: report.command,
    target: { name: report.target.name, source: report.target.source },
  };
  if (report.seed !== undefined) document['seed'] = report.seed;
  if (report.afpVersion !== undefined) document['afpVersion'] = report.afpVersion;
  document['failOn'] = report.failOn;
  document['counts'] = severityCounts(findings);
  document['reachingFailOn'] = reachingCount(report);
  document['dropped'] = report.dropped;
  document['checks'] = report.checks.map(checkJson);
  document['findings'] = findings.map(findingJson);
  return jsonDocument(document);
}
