/**
 * The JSON files of the reports (summary.json of a run and of a load run, findings.json,
 * sweep.json, the audits' tables): one writer, so every one has the same layout.
 * Invariants: 2-space indent and a trailing newline; key order is the order the caller built
 * (no key is integer-like unless the caller says why, e.g. HTTP statuses, which JSON keeps in
 * ascending order); figures are rounded by the caller (report-format.ts roundedOrNull: never -0,
 * null when not finite, as JSON has no NaN or Infinity).
 */

export function jsonDocument(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
