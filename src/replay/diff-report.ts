/**
 * The replay report, as pure functions of the run's data (STYLE rule 9: byte-stable, no wall
 * time): `diff.json` (every kept difference with seq, endpoint, kind, pointer, expected, actual),
 * `diff.txt` (exchanges sent, differences by kind and by endpoint, the first 20 differences)
 * and the summary lines printed at the end of `afp replay`. Set-up calls (GET /_afp/platform,
 * POST /_afp/tier) are counted apart from the exchanges; set-up notes are listed as `note:` lines.
 */
import type { Difference } from './difference.ts';
import { DIFFERENCE_KINDS } from './difference.ts';
import { recordedPlatformOf, recordedTiersOf, type RecordHeader } from './record-format.ts';
import type { ReplayTotals } from './replay-session.ts';
import type { ReplayStop } from './replay-run.ts';
import type { SkippedDoor } from './admin-doors.ts';

export const DIFF_FORMAT = 'afp-replay-diff/1';
export const FIRST_DIFFERENCES_SHOWN = 20;
const VALUE_TEXT_MAX = 120;

export interface ClockSyncState {
  /** The target's clock was moved to every exchange's instant. */
  readonly synced: boolean;
  /** Time-derived values and rate-limit headers were compared exactly (manual clock). */
  readonly exact: boolean;
  readonly note: string;
}

export interface ReplayReportInput {
  readonly recordPath: string;
  readonly header: RecordHeader;
  readonly target: string;
  readonly speed: string;
  readonly clock: ClockSyncState;
  readonly totals: ReplayTotals;
  readonly stop: ReplayStop;
  readonly reproduce: string;
  /** The record's admin-door exchanges not sent (admin-doors.ts), and the lines saying so; absent: none. */
  readonly adminDoors?: { readonly skipped: readonly SkippedDoor[]; readonly lines: readonly string[] };
}

export function diffJson(input: ReplayReportInput): Record<string, unknown> {
  const { header, totals } = input;
  return {
    format: DIFF_FORMAT,
    record: {
      path: input.recordPath,
      scenario: header.scenario,
      seed: header.seed,
      start_ms: header.start_ms,
      exchanges: header.exchanges,
      complete: header.complete,
      platform: recordedPlatformOf(header),
      tiers: Object.keys(recordedTiersOf(header)).length,
    },
    target: input.target,
    speed: input.speed,
    clock: input.clock,
    sent: totals.sent,
    setup_calls: totals.setupCalls,
    notes: totals.notes,
    stopped: input.stop,
    admin_skipped: input.adminDoors?.skipped ?? [],
    differences_total: totals.differencesTotal,
    by_kind: totals.byKind,
    by_endpoint: totals.byEndpoint,
    omitted: totals.omitted,
    reproduce: input.reproduce,
    differences: totals.differences,
  };
}

export function headerLines(recordPath: string, header: RecordHeader): string[] {
  // A prefix a limit stopped counts what it left out; one whose run was cut short (Ctrl-C, a signal,
  // a crash) left out nothing that happened: the run ended there.
  const completeness = header.complete
    ? 'complete'
    : header.dropped.exchanges > 0
      ? `INCOMPLETE (a prefix: ${header.dropped.exchanges} exchanges were not recorded)`
      : 'INCOMPLETE (a prefix: the run was cut short, by Ctrl-C, a signal or a crash)';
  return [
    `afp replay: seed ${header.seed} · scenario ${header.scenario} · record ${recordPath}`,
    `record: ${header.exchanges} exchanges from ${isoTime(header.start_ms)} to ${isoTime(header.end_ms)}, ${completeness}`,
  ];
}

export function summaryLines(input: ReplayReportInput): string[] {
  const { totals, header } = input;
  const kinds = DIFFERENCE_KINDS.map((kind) => `${kind} ${totals.byKind[kind]}`).join(', ');
  const lines = [
    `target ${input.target} · speed ${input.speed} · clock ${input.clock.synced ? 'synced' : 'not synced'}${input.clock.exact ? ' (exact)' : ''}: ${input.clock.note}`,
    `exchanges sent: ${totals.sent} of ${header.exchanges} · setup calls: ${totals.setupCalls}`,
  ];
  if (input.stop !== null) lines.push(`STOPPED at seq ${input.stop.seq}: ${input.stop.reason}`);
  lines.push(
    `differences: ${totals.differencesTotal} (${kinds})${totals.omitted > 0 ? `; ${totals.omitted} not listed in diff.json` : ''}`,
  );
  for (const note of totals.notes) lines.push(`note: ${note}`);
  lines.push(...(input.adminDoors?.lines ?? []));
  return lines;
}

export function diffText(input: ReplayReportInput): string {
  const { totals } = input;
  const lines = [...headerLines(input.recordPath, input.header), ...summaryLines(input), ''];
  lines.push('by endpoint: sent / differences (set-up endpoints _afp/*: set-up calls)');
  const differencesOf = new Map(totals.byEndpoint.map((row) => [row.endpoint, row.count]));
  const sentOf = new Map([...totals.sentByEndpoint, ...totals.setupByEndpoint].map((row) => [row.endpoint, row.count]));
  const endpoints = [...new Set([...sentOf.keys(), ...differencesOf.keys()])].sort();
  const width = Math.max(8, ...endpoints.map((name) => name.length));
  for (const endpoint of endpoints) {
    lines.push(
      `  ${endpoint.padEnd(width)}  ${String(sentOf.get(endpoint) ?? 0).padStart(8)}  ${String(differencesOf.get(endpoint) ?? 0).padStart(8)}`,
    );
  }
  const shown = totals.differences.slice(0, FIRST_DIFFERENCES_SHOWN);
  if (shown.length > 0) {
    lines.push('', `first ${shown.length} of ${totals.differencesTotal} differences:`);
    for (const difference of shown) lines.push(`  ${describeDifference(difference)}`);
    lines.push('', `reproduce: ${input.reproduce}`);
  }
  return `${lines.join('\n')}\n`;
}

/** One line per difference; set-up differences found before the first exchange (seq 0) start with `setup`. */
export function describeDifference(difference: Difference): string {
  const note = difference.note === undefined ? '' : ` — ${difference.note}`;
  const where = difference.seq === 0 ? 'setup' : `seq ${difference.seq}`;
  return `${where} ${difference.endpoint} ${difference.kind} at ${difference.pointer}: expected ${show(difference.expected)}, actual ${show(difference.actual)}${note}`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > VALUE_TEXT_MAX ? `${text.slice(0, VALUE_TEXT_MAX)}…` : text;
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
