/**
 * The files of a house-edge audit: `edges.csv`, `edges.json` and `report.html` (plus any extra
 * file a live run adds, e.g. `sprt.csv`, `findings.csv`) in one directory.
 *
 * report.html is renderCasinoReport's (src/report/html/html-report.ts): one edge chart per
 * variant — the empirical edge and its 99% band at each checkpoint against the advertised and
 * theoretical lines. The renderer draws at most CASINO_REPORT_LIMITS.maxGames charts; with more
 * variants than that (the 17 games have 55) the charted ones are chosen round-robin over the games
 * — every game's default variant first, then every game's second, … — and kept in table order,
 * so every game has a chart; the subtitle names how many were left out.
 * Pure except `writeEdgeAuditFiles`; bytes depend only on the inputs (byte-stable for a seed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ratioToNumber } from '../core/ratio.ts';
import { CASINO_REPORT_LIMITS, type CasinoReportInput, type GameEdgeSeries } from '../report/html/casino-report-data.ts';
import { renderCasinoReport } from '../report/html/html-report.ts';
import type { EdgeRow } from './edge-simulation.ts';

function verdictText(row: EdgeRow): string {
  const against = row.judgement.reference === 'advertised' ? `advertised ${row.advertisedText}` : 'the theoretical edge (none advertised)';
  return `${row.judgement.verdict} with ${against}; model check ${row.judgement.model}`;
}

export function edgeSeriesOf(row: EdgeRow): GameEdgeSeries {
  return {
    game: row.game,
    variant: row.variant,
    advertisedEdge: row.advertised === null ? null : ratioToNumber(row.advertised),
    theoreticalEdge: ratioToNumber(row.theory.edge),
    verdict: verdictText(row),
    points: row.points.map((point) => ({ bets: point.bets, edge: point.edge, low: point.low, high: point.high })),
  };
}

/** At most `limit` rows, round-robin over the games, in the rows' own order. */
export function chartedRows(rows: readonly EdgeRow[], limit: number = CASINO_REPORT_LIMITS.maxGames): EdgeRow[] {
  const rankInGame = new Map<string, number>();
  const ranked = rows.map((row, index) => {
    const rank = rankInGame.get(row.game) ?? 0;
    rankInGame.set(row.game, rank + 1);
    return { row, index, rank };
  });
  const chosen = [...ranked].sort((a, b) => a.rank - b.rank || a.index - b.index).slice(0, limit);
  return chosen.sort((a, b) => a.index - b.index).map((entry) => entry.row);
}

export function edgeReportInput(rows: readonly EdgeRow[], title: string, subtitle: string): CasinoReportInput {
  const charted = chartedRows(rows);
  const left = rows.length - charted.length;
  const note = left === 0 ? '' : `\n${left} of ${rows.length} variants not charted (at most ${CASINO_REPORT_LIMITS.maxGames}; every game's first variants are); edges.csv has them all`;
  return { title, subtitle: subtitle + note, games: charted.map(edgeSeriesOf), bankrolls: [] };
}

export function renderEdgeReportHtml(rows: readonly EdgeRow[], title: string, subtitle: string): string {
  return renderCasinoReport(edgeReportInput(rows, title, subtitle));
}

/** Writes `files` (name → text) under `dir` (created); returns the paths written, in name order. */
export function writeEdgeAuditFiles(dir: string, files: Readonly<Record<string, string>>): string[] {
  mkdirSync(dir, { recursive: true });
  return Object.keys(files)
    .sort()
    .map((name) => {
      const path = join(dir, name);
      writeFileSync(path, files[name] as string);
      return path;
    });
}
