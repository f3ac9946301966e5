/**
 * Renderings of proof findings, shared by both live audits: bets that did not recompute, (seed,
 * nonce) pairs drawn twice, seeds with nonce gaps — as a text table, CSV rows and JSON values;
 * and the fairness audit's whole report (text, CSV, JSON).
 * Pure and byte-stable: rows keep the order they were found in (the history's, or the plan's),
 * no time, no locale. Seed hashes are shortened to 16 characters in the text table only.
 */
import { stringify } from 'csv-stringify/sync';
import { countText } from '../report/html/report-format.ts';
import { textTable } from '../report/summary-table.ts';
import type { LiveFairnessReport } from './live-fairness.ts';
import type { NonceFindings } from './nonce-findings.ts';
import type { BetMismatch } from './verify-wire-bet.ts';

const shortHash = (hash: string): string => (hash.length > 16 ? `${hash.slice(0, 16)}…` : hash);
const nonceText = (nonce: number): string => (nonce < 0 ? '-' : String(nonce));

/** Mismatches, reused nonces and nonce gaps as text lines (empty when there is nothing). */
export function findingLines(mismatches: readonly BetMismatch[], mismatchCount: number, nonces: NonceFindings): string[] {
  const lines: string[] = [];
  if (mismatchCount > 0) {
    const rows = mismatches.map((row) => [row.betId, row.game, row.variant ?? '-', nonceText(row.nonce), shortHash(row.seedHash), row.problems.join('; ')]);
    lines.push(`mismatches (${countText(mismatchCount)}${mismatchCount > mismatches.length ? `, first ${mismatches.length} listed` : ''}):`);
    lines.push(...textTable(['bet', 'game', 'variant', 'nonce', 'seed hash', 'problems'], rows, ['left', 'left', 'left', 'right', 'left', 'left']));
  }
  if (nonces.duplicateCount > 0) {
    lines.push(`(seed, nonce) pairs drawn more than once (${countText(nonces.duplicateCount)}):`);
    const betsText = (row: NonceFindings['duplicates'][number]): string => (row.betCount > 3 ? `${row.betIds.slice(0, 3).join(' ')} … (${row.betCount} bets)` : row.betIds.join(' '));
    lines.push(...textTable(['seed hash', 'nonce', 'bets'], nonces.duplicates.map((row) => [shortHash(row.seedHash), String(row.nonce), betsText(row)]), ['left', 'right', 'left']));
  }
  if (nonces.gapCount > 0) {
    lines.push(`note: ${countText(nonces.gapCount)} seed(s) with nonces no listed bet drew (challenges, undrawn video-poker deals and evicted history take nonces too):`);
    lines.push(...textTable(['seed hash', 'missing', 'first missing', 'highest'], nonces.gaps.map((row) => [shortHash(row.seedHash), String(row.missing), String(row.firstMissing), String(row.highest)]), ['left', 'right', 'right', 'right']));
  }
  return lines;
}

const FINDING_COLUMNS = ['kind', 'bet_id', 'game', 'variant', 'seed_hash', 'nonce', 'detail'];

/** One CSV of every listed finding: kind mismatch | duplicate-nonce | nonce-gap. */
export function renderFindingsCsv(mismatches: readonly BetMismatch[], nonces: NonceFindings): string {
  const rows = [
    ...mismatches.map((row) => ['mismatch', row.betId, row.game, row.variant ?? '', row.seedHash, row.nonce < 0 ? '' : String(row.nonce), row.problems.join('; ')]),
    ...nonces.duplicates.map((row) => ['duplicate-nonce', row.betIds.join(' '), '', '', row.seedHash, String(row.nonce), `${row.betCount} bets`]),
    ...nonces.gaps.map((row) => ['nonce-gap', '', '', '', row.seedHash, String(row.firstMissing), `${row.missing} missing below ${row.highest}`]),
  ];
  return stringify(rows, { header: true, columns: FINDING_COLUMNS, record_delimiter: '\n' });
}

export function mismatchesJson(mismatches: readonly BetMismatch[]): object[] {
  return mismatches.map((row) => ({ bet_id: row.betId, game: row.game, variant: row.variant, seed_hash: row.seedHash, nonce: row.nonce < 0 ? null : row.nonce, problems: [...row.problems] }));
}

export function noncesJson(nonces: NonceFindings): object {
  return {
    duplicate_count: nonces.duplicateCount,
    duplicates: nonces.duplicates.map((row) => ({ seed_hash: row.seedHash, nonce: row.nonce, bet_count: row.betCount, bet_ids: [...row.betIds] })),
    gap_count: nonces.gapCount,
    gaps: nonces.gaps.map((row) => ({ seed_hash: row.seedHash, missing: row.missing, first_missing: row.firstMissing, highest: row.highest })),
  };
}

/** The fairness audit's text report. */
export function renderFairnessText(report: LiveFairnessReport): string {
  const { result } = report;
  const lines = [
    `target: ${report.target}`,
    `account: ${report.agentId}`,
    `rotated: ${result.rotatedSeedHash ?? '(rotation failed)'}`,
    `bets: ${countText(result.historyTotal)} in the history, ${countText(result.listed)} listed, ${countText(result.checked)} recomputed, ${countText(result.verified)} verified, ${countText(result.mismatchCount)} mismatched`,
    ...result.troubles.map((trouble) => `trouble: ${trouble}`),
    ...findingLines(result.mismatches, result.mismatchCount, result.nonces),
  ];
  if (result.stoppedBy === 'deadline') lines.push('stopped: --max-seconds reached before every bet was recomputed');
  if (result.stoppedBy === 'max-bets') lines.push(`stopped: only the newest ${countText(result.listed)} bets were read (--max-bets)`);
  return `${lines.join('\n')}\n`;
}

export function fairnessJson(report: LiveFairnessReport): object {
  const { result } = report;
  return {
    target: report.target,
    agent_id: report.agentId,
    rotated_seed_hash: result.rotatedSeedHash,
    history_total: result.historyTotal,
    listed: result.listed,
    checked: result.checked,
    verified: result.verified,
    mismatch_count: result.mismatchCount,
    mismatches: mismatchesJson(result.mismatches),
    nonces: noncesJson(result.nonces),
    stopped_by: result.stoppedBy,
    troubles: [...result.troubles],
  };
}

export function renderFairnessJson(report: LiveFairnessReport): string {
  return `${JSON.stringify(fairnessJson(report), null, 2)}\n`;
}
