/**
 * The files of a house-edge audit: `edges.csv`, `edges.json` and `report.html` (plus any extra
 * file a live run adds, e.g. `sprt.csv`, `findings.csv`) in one directory.
 *
 * report.html is renderCasinoReport's (src/report/html/html-report.ts): one edge chart per
 * variant — the empirical edge and its 99% band at each checkpoint against the advertised and
 * theoretical lines. The renderer draws at most CASINO_REPORT_LIMITS.maxGames charts; with more
 * variants than that (the 17 games have 55) the charted ones are chosen round-robin over the games
 * — every game's default variant first, then every game's second, … — and kept in table order,
 * so every game has a chart. The summary table that opens the report lists every variant and
 * says how many have no chart; there is no bankroll section (an audit has no agents).
 * Pure except `writeEdgeAuditFiles`; bytes depend only on the inputs (byte-stable for a seed).
 */
import { writeTextFiles } from '../../core/output-write-error.ts';
import { ratioToNumber } from '../../core/ratio.ts';
import {
  CASINO_REPORT_LIMITS,
  type CasinoReportInput,
  type GameEdgeSeries,
  type VariantSummary,
} from '../../report/html/casino-report-data.ts';
import { renderCasinoReport } from '../../report/html/html-report.ts';
import type { EdgeRow } from '../edge/edge-simulation.ts';

function verdictText(row: EdgeRow): string {
  const against =
    row.judgement.reference === 'advertised'
      ? `advertised ${row.advertisedText}`
      : 'the theoretical edge (none advertised)';
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

/** The summary row of a variant: its final figures, whether or not it is charted. */
export function variantSummaryOf(row: EdgeRow): VariantSummary {
  return {
    game: row.game,
    variant: row.variant,
    bets: row.interval.bets,
    advertisedEdge: row.advertised === null ? null : ratioToNumber(row.advertised),
    theoreticalEdge: ratioToNumber(row.theory.edge),
    empiricalEdge: row.interval.edge,
    low: row.interval.low,
    high: row.interval.high,
    verdict: verdictText(row),
  };
}

/** No bankroll series: an audit bets per game, without agents, so it has no bankroll to show. */
export function edgeReportInput(rows: readonly EdgeRow[], title: string, subtitle: string): CasinoReportInput {
  const charted = chartedRows(rows);
  return {
    title,
    subtitle,
    games: charted.map(edgeSeriesOf),
    bankrolls: [],
    variants: rows.map(variantSummaryOf),
    unchartedNote: `a report draws at most ${CASINO_REPORT_LIMITS.maxGames} charts, every game's first variants first; the table and edges.csv have them all`,
  };
}

export function renderEdgeReportHtml(rows: readonly EdgeRow[], title: string, subtitle: string): string {
  return renderCasinoReport(edgeReportInput(rows, title, subtitle));
}

/** Writes `files` (name → text) under `dir` (created); returns the paths written, in name order. */
export function writeEdgeAuditFiles(dir: string, files: Readonly<Record<string, string>>): string[] {
  return writeTextFiles(
    dir,
    Object.keys(files)
      .sort()
      .map((name) => ({ file: name, text: files[name] as string })),
  );
}
