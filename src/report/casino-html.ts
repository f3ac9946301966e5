/**
 * report.html of `afp run`: the run's casino bets drawn by the existing renderer
 * (html/html-report.ts `renderCasinoReport`) — per game variant the empirical edge and its 99%
 * band at the checkpoints (100, 200, 500, … bets and the last bet) against the advertised and
 * theoretical lines, and the mean balance of each betting archetype over virtual time.
 * Written only when the run placed casino bets. Pure: a function of the record and the pinned
 * chart library, so byte-stable for a seed. Variants without a law of their own (crash rounds,
 * video-poker draws) or with a single bet get no chart, but the summary table that opens the
 * report lists every variant with bets (as casino.csv does); the renderer's limits (40 charts, 16 archetypes) bound the file.
 */
import { toNumber } from '../core/money.ts';
import { ratioToNumber } from '../core/ratio.ts';
import { gameById } from '../services/casino/games/index.ts';
import type { GameId } from '../services/casino/games/game.ts';
import { variantEdge, verdictText } from './casino-edges.ts';
import type { BankrollSeries, CasinoReportInput, GameEdgeSeries, VariantSummary } from './html/casino-report-data.ts';
import { renderCasinoReport } from './html/html-report.ts';
import { countText } from './html/report-format.ts';
import type { RunRecord } from './run-record.ts';

export function casinoReportInput(record: RunRecord): CasinoReportInput {
  const casino = record.casino;
  const games: GameEdgeSeries[] = [];
  const variants: VariantSummary[] = [];
  for (const row of casino?.variants ?? []) {
    const edge = variantEdge(row);
    variants.push({
      game: gameById(row.game as GameId).name,
      variant: row.variant,
      bets: row.bets,
      advertisedEdge:
        row.theory?.advertised === undefined || row.theory.advertised === null
          ? null
          : ratioToNumber(row.theory.advertised),
      theoreticalEdge: row.theory === null ? null : ratioToNumber(row.theory.edge),
      empiricalEdge: edge.interval?.edge ?? null,
      low: edge.interval?.low ?? null,
      high: edge.interval?.high ?? null,
      verdict: verdictText(edge),
    });
    if (row.theory === null || edge.interval === null) continue;
    games.push({
      game: gameById(row.game as GameId).name,
      variant: row.variant,
      advertisedEdge: row.theory.advertised === null ? null : ratioToNumber(row.theory.advertised),
      theoreticalEdge: ratioToNumber(row.theory.edge),
      verdict: verdictText(edge),
      points: edge.points,
    });
  }
  const bankrolls: BankrollSeries[] = (casino?.bankrolls ?? []).map((series) => ({
    archetype: series.archetype,
    agents: series.agents,
    points: series.points.map((point) => ({ atMs: point.atMs, balance: toNumber(point.meanBalanceMicro) })),
  }));
  const bets = countText(casino?.bets ?? 0);
  return {
    title: `Casino report: ${record.scenario}`,
    subtitle: `seed ${record.seed} · ${bets} casino bets · outcome ${record.outcome}\nreproduce: ${record.reproduce}`,
    games,
    bankrolls,
    variants,
    unchartedNote: 'a chart needs a law of its own (not a crash round or video-poker draw) and at least two bets',
  };
}

export function renderCasinoHtml(record: RunRecord): string {
  return renderCasinoReport(casinoReportInput(record));
}
