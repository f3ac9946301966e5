/**
 * `--fail-on`: the severity at which a live command's findings fail it (exit 3, EXIT.checkFailed).
 * k6 style: the threshold decides the exit code, the findings are reported either way.
 *
 * Invariants: the default is `major` (wrong answers, broken money or fairness fail CI; shape
 * deviations a client codes around do not); `none` never fails on findings; a bad value is a
 * returned message naming every accepted value, never an exception.
 */
import { checkFailed, PASSED, type Ending } from '../../core/command-failure.ts';
import { reaches, SEVERITIES, type Finding, type Severity } from './finding.ts';

export type FailOn = Severity | 'none';

export const FAIL_ON_VALUES: readonly FailOn[] = [...SEVERITIES, 'none'];
export const DEFAULT_FAIL_ON: FailOn = 'major';

export function parseFailOn(text: string | undefined): { ok: true; value: FailOn } | { ok: false; message: string } {
  if (text === undefined) return { ok: true, value: DEFAULT_FAIL_ON };
  const value = FAIL_ON_VALUES.find((known) => known === text.trim());
  if (value !== undefined) return { ok: true, value };
  return { ok: false, message: `--fail-on must be one of ${FAIL_ON_VALUES.join(', ')} (got ${JSON.stringify(text)})` };
}

/** Whether `finding` reaches the threshold; nothing reaches `none`. */
export function reachesFailOn(finding: Pick<Finding, 'severity'>, failOn: FailOn): boolean {
  return failOn !== 'none' && reaches(finding, failOn);
}

/** A live command's findings as its verdict: a failed check (exit 3) once one reaches `--fail-on`, else passed. */
export function findingsEnding(findings: readonly Pick<Finding, 'severity'>[], failOn: FailOn): Ending {
  return findings.some((finding) => reachesFailOn(finding, failOn)) ? checkFailed() : PASSED;
}
