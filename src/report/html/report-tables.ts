/**
 * The plain HTML tables of report.html, so the report reads without JavaScript (and in text
 * browsers, and in a diff): first the summary of every variant, then per game its verdict, advertised, theoretical and final empirical edge
 * with the 99 % interval, then up to maxTableRows checkpoints; per archetype its first, last,
 * lowest and highest balance (over every input point). Every text is escaped here; every number
 * goes through report-format.ts.
 */
import { CASINO_REPORT_LIMITS } from './casino-report-data.ts';
import { downsample } from './downsample.ts';
import { escapeHtml } from './html-text.ts';
import type { VariantSummary } from './casino-report-data.ts';
import type { PreparedBankroll, PreparedGame } from './prepare-report.ts';
import { countText, percentText, usdcText } from './report-format.ts';

function row(cells: readonly string[], tag: 'td' | 'th' = 'td'): string {
  return `<tr>${cells.map((cell) => `<${tag}>${cell}</${tag}>`).join('')}</tr>`;
}

function table(caption: string, head: readonly string[], rows: readonly string[], id?: string): string {
  return [
    `<table${id === undefined ? '' : ` id="${id}"`}><caption>${escapeHtml(caption)}</caption>`,
    `<thead>${row(head.map(escapeHtml), 'th')}</thead>`,
    `<tbody>${rows.join('\n')}</tbody></table>`,
  ].join('\n');
}

function interval(low: number, high: number): string {
  return `${percentText(low)} … ${percentText(high)}`;
}

const orMissing = (value: number | null): string => (value === null ? '—' : percentText(value));

/**
 * The summary that opens the report: one row per variant, charted or not; `chartOf` gives the
 * anchor of a variant's chart (null: none). Every column holds one kind of figure: counts with
 * grouping, edges as percentages with 3 decimals, "—" where a figure does not exist.
 */
export function variantSummaryTableHtml(
  variants: readonly VariantSummary[],
  chartOf: (row: VariantSummary) => string | null,
): string {
  const rows = variants.map((variant) => {
    const anchor = chartOf(variant);
    return row([
      escapeHtml(variant.game),
      escapeHtml(variant.variant),
      countText(variant.bets),
      orMissing(variant.advertisedEdge),
      orMissing(variant.theoreticalEdge),
      orMissing(variant.empiricalEdge),
      orMissing(variant.low),
      orMissing(variant.high),
      escapeHtml(variant.verdict),
      anchor === null ? '—' : `<a href="#${anchor}">chart</a>`,
    ]);
  });
  return table(
    'Every variant (edges: share of the amount wagered kept by the house; — : does not exist)',
    [
      'game',
      'variant',
      'bets',
      'advertised edge',
      'theoretical edge',
      'empirical edge',
      '99% low',
      '99% high',
      'verdict',
      'chart',
    ],
    rows,
    'summary-table',
  );
}

export function gameTablesHtml(game: PreparedGame): string {
  const last = game.points.at(-1);
  const summary = table(
    'Summary',
    ['verdict', 'advertised edge', 'theoretical edge', 'empirical edge', '99% interval', 'bets'],
    [
      row([
        escapeHtml(game.verdict),
        game.advertisedEdge === null ? 'not advertised' : percentText(game.advertisedEdge),
        percentText(game.theoreticalEdge),
        last === undefined ? '—' : percentText(last.edge),
        last === undefined ? '—' : interval(last.low, last.high),
        last === undefined ? '0' : countText(last.bets),
      ]),
    ],
  );
  if (game.points.length === 0) return `${summary}\n<p class="note">No bets were recorded for this game.</p>`;
  const checkpoints = downsample(game.points, CASINO_REPORT_LIMITS.maxTableRows).map((point) =>
    row([countText(point.bets), percentText(point.edge), interval(point.low, point.high)]),
  );
  return `${summary}\n${table('Checkpoints', ['bets', 'empirical edge', '99% interval'], checkpoints)}`;
}

export function bankrollTableHtml(bankrolls: readonly PreparedBankroll[]): string {
  const rows = bankrolls.map((series) => {
    const first = series.points[0];
    const last = series.points.at(-1);
    return row([
      escapeHtml(series.archetype),
      countText(series.agents),
      first === undefined ? '—' : usdcText(first.balance),
      last === undefined ? '—' : usdcText(last.balance),
      series.lowestBalance === null ? '—' : usdcText(series.lowestBalance),
      series.highestBalance === null ? '—' : usdcText(series.highestBalance),
    ]);
  });
  return table('Balance by archetype (USDC)', ['archetype', 'agents', 'first', 'last', 'lowest', 'highest'], rows);
}
