/**
 * report.html of the casino: one self-contained HTML document (opens offline) that opens with a
 * summary table of every variant (charted or not, and how many are not), then, per game, the
 * empirical house edge and its 99 % band against the advertised and theoretical lines as bets
 * accumulate, and the bankroll curves by agent archetype — charts as inline SVG drawn by the
 * report kit (report-charts.ts over src/report/kit/chart.ts, load.html's engine too), with the same
 * figures as plain tables, and the charts' numbers as a JSON data block (`#afp-report-data`, for
 * tools; never executed).
 *
 * Invariants: pure — the bytes are a function of the input (no clock, no random ids, fixed number
 * formatting, fixed key order); bounded (casino-report-data.ts CASINO_REPORT_LIMITS); no script
 * runs and nothing is fetched (a Content-Security-Policy forbids both; fonts are the system's).
 * No empty sections: the games section is left out when nothing is charted, the bankroll
 * section when the input has no bankroll series (an audit has no agents).
 * Non-goals: interactivity (hover values: the tables carry every number); writing the file (the caller does).
 */
import { assert } from '../../core/assert.ts';
import type { CasinoReportInput, VariantSummary } from './casino-report-data.ts';
import { CASINO_REPORT_LIMITS } from './casino-report-data.ts';
import { BANKROLL_CHART_ID, buildChartData, edgeChartId } from './chart-data.ts';
import { escapeHtml } from './html-text.ts';
import { PAGE_CSS, renderPage, STATIC_PAGE_POLICY } from '../kit/page-shell.ts';
import type { PreparedGame, PreparedReport } from './prepare-report.ts';
import { prepareCasinoReport } from './prepare-report.ts';
import { countText } from './report-format.ts';
import { bankrollTableHtml, gameTablesHtml, variantSummaryTableHtml } from './report-tables.ts';
import { reportSvgCharts } from './report-charts.ts';
import { jsonScriptText } from './script-embedding.ts';

/** The id of the JSON block of the charts' numbers. */
export const DATA_ELEMENT_ID = 'afp-report-data';

const STYLE = `${PAGE_CSS.body(1100)}
${PAGE_CSS.h1('1.6em')} ${PAGE_CSS.subtitle}
${PAGE_CSS.h2('32px')} h3 { margin-bottom: 4px; }
.chart { display: block; margin: 8px 0; }
table { border-collapse: collapse; margin: 8px 0; font-size: 0.9em; font-variant-numeric: tabular-nums; }
${PAGE_CSS.caption}
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; } th:first-child, td:first-child { text-align: left; }
${PAGE_CSS.note} .verdict { font-weight: 600; } ${PAGE_CSS.footer}`;

const EDGE_AXIS_NOTE =
  'House edge = share of the amount wagered kept by the house. The y axis spans the advertised and theoretical ' +
  'edges and the later half of the checkpoints; the wide bands of the first bets run off the chart (the tables keep their numbers).';

/** The drawn SVG of chart `id` (every id asked for is one buildChartData made). */
function chartSvg(charts: ReadonlyMap<string, string>, id: string): string {
  const svg = charts.get(id);
  assert(svg !== undefined, `report.html: no chart '${id}' was drawn`);
  return svg;
}

function sampledNote(kept: number, inputPoints: number): string {
  if (kept === inputPoints) return '';
  return `\n<p class="note">The chart shows ${countText(kept)} of ${countText(inputPoints)} points, evenly spaced (first and last kept); the tables use the kept points.</p>`;
}

function omittedNote(omitted: number, what: string, cap: number): string {
  return omitted === 0
    ? ''
    : `\n<p class="note">${countText(omitted)} more ${what} not shown (a report shows at most ${cap}).</p>`;
}

function gameHtml(game: PreparedGame, index: number, charts: ReadonlyMap<string, string>): string {
  const title = `${game.name} — ${game.variant}`;
  const chart = game.points.length === 0 ? '' : `\n${chartSvg(charts, edgeChartId(index))}`;
  return [
    `<article class="game" id="game-${index}">`,
    `<h3>${escapeHtml(title)}</h3>`,
    `<p class="verdict">Verdict: ${escapeHtml(game.verdict)}</p>${chart}${sampledNote(game.points.length, game.inputPoints)}`,
    gameTablesHtml(game),
    '</article>',
  ].join('\n');
}

const variantKey = (game: string, variant: string): string => `${game}\u0000${variant}`;

/** The summary that opens the report: every variant, each linked to its chart when it has one. */
function summarySection(report: PreparedReport): string {
  const anchors = new Map<string, string>();
  report.games.forEach((game, index) => {
    if (game.points.length > 0 && !anchors.has(variantKey(game.name, game.variant)))
      anchors.set(variantKey(game.name, game.variant), `game-${index}`);
  });
  const chartOf = (row: VariantSummary): string | null => anchors.get(variantKey(row.game, row.variant)) ?? null;
  const charted = report.variants.filter((row) => chartOf(row) !== null).length;
  const total = report.variants.length + report.omittedVariants;
  const uncharted =
    charted === total
      ? ''
      : ` ${countText(total - charted)} have none${report.unchartedNote === '' ? '' : `: ${escapeHtml(report.unchartedNote)}`}.`;
  const counts =
    total === 0
      ? 'No variant had bets.'
      : `${countText(total)} ${total === 1 ? 'variant' : 'variants'}; ${countText(charted)} charted below.${uncharted}`;
  const omitted = omittedNote(report.omittedVariants, 'variants', CASINO_REPORT_LIMITS.maxSummaryRows);
  const table = report.variants.length === 0 ? '' : `\n${variantSummaryTableHtml(report.variants, chartOf)}`;
  return `<section id="summary">\n<h2>Summary</h2>\n<p class="note">${counts}</p>${omitted}${table}\n</section>`;
}

/** Omitted (empty string) when there is no game to show: no empty sections. */
function gamesSection(report: PreparedReport, charts: ReadonlyMap<string, string>): string {
  if (report.games.length === 0 && report.omittedGames === 0) return '';
  const games = report.games.map((game, index) => gameHtml(game, index, charts)).join('\n');
  const omitted = omittedNote(report.omittedGames, 'games', CASINO_REPORT_LIMITS.maxGames);
  const axis = report.games.length === 0 ? '' : `\n<p class="note">${EDGE_AXIS_NOTE}</p>`;
  return `<section id="games">\n<h2>House edge by game</h2>${omitted}${axis}\n${games}\n</section>`;
}

/** Omitted (empty string) when the report has no bankroll series (an audit has no agents). */
function bankrollSection(report: PreparedReport, charts: ReadonlyMap<string, string>): string {
  const omitted = omittedNote(report.omittedBankrolls, 'archetypes', CASINO_REPORT_LIMITS.maxBankrollSeries);
  if (report.bankrolls.length === 0) return '';
  const chart = charts.has(BANKROLL_CHART_ID) ? `\n${chartSvg(charts, BANKROLL_CHART_ID)}` : '';
  const sampled = report.bankrolls.some((series) => series.points.length < series.inputPoints)
    ? `\n<p class="note">Lines with more than ${CASINO_REPORT_LIMITS.maxPointsPerSeries} points show that many, evenly spaced (first and last kept).</p>`
    : '';
  return `<section id="bankrolls">\n<h2>Bankroll by agent archetype</h2>${omitted}${chart}${sampled}\n${bankrollTableHtml(report.bankrolls)}\n</section>`;
}

/** The whole report.html document. */
export function renderCasinoReport(input: CasinoReportInput): string {
  const report = prepareCasinoReport(input);
  const data = buildChartData(report);
  const charts = reportSvgCharts(data);
  return renderPage({
    policy: STATIC_PAGE_POLICY,
    generator: 'afp',
    title: report.title,
    style: STYLE,
    subtitle: escapeHtml(report.subtitle),
    parts: [
      summarySection(report),
      gamesSection(report, charts),
      bankrollSection(report, charts),
      `<script type="application/json" id="${DATA_ELEMENT_ID}">${jsonScriptText(data)}</script>`,
    ],
  });
}
