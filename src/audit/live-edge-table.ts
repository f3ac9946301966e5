/**
 * Renderings of the live house-edge audit: the simulator's edge table (edge-table.ts, same
 * columns) over the live rows, then the SPRT decision per variant, the proof summary and the
 * findings (fairness-table.ts); `sprt.csv`; and one JSON object — the edge JSON plus a `live`
 * section. Pure and byte-stable for a given result (fixed number formatting, plan order).
 */
import { stringify } from 'csv-stringify/sync';
import { countText, percentText } from '../report/html/report-format.ts';
import { textTable } from '../report/summary-table.ts';
import { edgeJson, renderEdgeTable } from './edge-table.ts';
import { findingLines, mismatchesJson, noncesJson } from './fairness-table.ts';
import type { LiveEdgeResult, SprtRow } from './live-house-edge.ts';

export interface LiveEdgeReport {
  readonly target: string;
  readonly agentId: string;
  /** How the account was opened and funded. */
  readonly account: string;
  readonly result: LiveEdgeResult;
}

const decisionText = (row: SprtRow): string =>
  row.decision === 'accept-h1' ? `edge ${row.direction === 'lower' ? 'below' : 'above'} advertised` : row.decision === 'accept-h0' ? 'advertised edge holds' : 'undecided';

export function renderSprtTable(rows: readonly SprtRow[]): string[] {
  const body = rows.map((row) => [row.variant, percentText(row.advertisedEdge), percentText(row.theoreticalEdge), row.decision, decisionText(row), countText(row.bets), countText(row.expectedBets)]);
  return textTable(['variant', 'advertised', 'theoretical', 'sprt', 'meaning', 'bets observed', 'expected bets (H0)'], body, ['left', 'right', 'right', 'left', 'left', 'right', 'right']);
}

export function renderLiveEdgeText(report: LiveEdgeReport): string {
  const { result } = report;
  const lines = [
    `target: ${report.target}`,
    `account: ${report.account}`,
    renderEdgeTable(result.simulation).trimEnd(),
    'sequential test against the advertised edge (Wald SPRT, δ = 1 point, α = β = 1%, two-sided):',
    ...renderSprtTable(result.sprt),
    `proofs: ${countText(result.placed)} of ${countText(result.planned)} bets placed, ${countText(result.checked)} recomputed after ${countText(result.rotations)} rotations, ${countText(result.mismatchCount)} mismatched`,
    ...findingLines(result.mismatches, result.mismatchCount, result.nonces),
  ];
  if (result.refused > 0) lines.push(`refused: ${countText(result.refused)} bets; first: ${result.firstRefusal ?? ''}`);
  if (result.stoppedBy === 'deadline') lines.push('stopped: --max-seconds reached before every bet was placed');
  return `${lines.join('\n')}\n`;
}

const SPRT_COLUMNS = ['game', 'variant', 'advertised_edge', 'theoretical_edge', 'decision', 'direction', 'bets', 'expected_bets'];

export function renderSprtCsv(rows: readonly SprtRow[]): string {
  const body = rows.map((row) => [row.game, row.variant, row.advertisedEdge.toFixed(8), row.theoreticalEdge.toFixed(8), row.decision, row.direction ?? '', String(row.bets), String(row.expectedBets)]);
  return stringify(body, { header: true, columns: SPRT_COLUMNS, record_delimiter: '\n' });
}

export function liveEdgeJson(report: LiveEdgeReport): object {
  const { result } = report;
  return {
    ...edgeJson(result.simulation),
    live: {
      target: report.target,
      agent_id: report.agentId,
      planned: result.planned,
      placed: result.placed,
      checked: result.checked,
      refused: result.refused,
      first_refusal: result.firstRefusal,
      rotations: result.rotations,
      stopped_by: result.stoppedBy,
      sprt: result.sprt.map((row) => ({ game: row.game, variant: row.variant, advertised_edge: Number(row.advertisedEdge.toFixed(10)), theoretical_edge: Number(row.theoreticalEdge.toFixed(10)), decision: row.decision, direction: row.direction, bets: row.bets, expected_bets: row.expectedBets })),
      mismatch_count: result.mismatchCount,
      mismatches: mismatchesJson(result.mismatches),
      nonces: noncesJson(result.nonces),
    },
  };
}

export function renderLiveEdgeJson(report: LiveEdgeReport): string {
  return `${JSON.stringify(liveEdgeJson(report), null, 2)}\n`;
}
