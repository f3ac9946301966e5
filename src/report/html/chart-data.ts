/**
 * The data of report.html's charts (drawn as SVG by report-charts.ts, and written as the page's JSON
 * data block for tools): one entry per chart, numbers rounded to a
 * fixed precision (edges 8 decimals, USDC 6, bets as integers, bankroll time 6 decimals of its
 * unit) and objects built in a fixed key order, so the same prepared report gives the same bytes.
 *
 * Points are arrays, not objects, to keep the file small: edge charts [bets, edge, low, high],
 * the bankroll chart [elapsed, balance]; a value that is not finite is null (a gap in the line).
 * Edge charts use a logarithmic x axis when every point has bets > 0 (convergence reads best on
 * it), a linear one otherwise. Bankroll x is virtual time since the earliest sample, counted in a
 * unit chosen from the span (d, h, min, s or ms; 6 decimals) so the axis gets round ticks in it.
 */
import type { PreparedBankroll, PreparedGame, PreparedReport } from './prepare-report.ts';
import { roundedOrNull } from './report-format.ts';

export type ChartValue = number | null;

export interface EdgeChartData {
  readonly id: string;
  readonly title: string;
  readonly xScale: 'logarithmic' | 'linear';
  readonly advertised: ChartValue;
  readonly theoretical: ChartValue;
  /** The y axis' bounds (null: the chart's default, 0 to the largest value), see yBounds. */
  readonly yMin: ChartValue;
  readonly yMax: ChartValue;
  readonly points: readonly (readonly ChartValue[])[];
}

export interface BankrollLineData {
  readonly label: string;
  readonly color: string;
  readonly points: readonly (readonly ChartValue[])[];
}

export interface BankrollChartData {
  readonly id: string;
  /** The unit of the x values: d, h, min, s or ms. */
  readonly unit: string;
  readonly lines: readonly BankrollLineData[];
}

export interface ReportChartData {
  readonly games: readonly EdgeChartData[];
  readonly bankroll: BankrollChartData | null;
}

const EDGE_DECIMALS = 8;
const USDC_DECIMALS = 6;
const TIME_DECIMALS = 6;

/** A fixed palette (Tableau 10): line i of the bankroll chart gets colour i mod 10. */
export const LINE_COLORS: readonly string[] = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
];

const TIME_UNITS: readonly (readonly [string, number])[] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1_000],
];

export function edgeChartId(index: number): string {
  return `chart-edge-${index}`;
}

export const BANKROLL_CHART_ID = 'chart-bankroll';

/** The smallest of 1, 2, 2.5, 5 × 10^k that is at least `rough` (the charts' round tick steps). */
export function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * power >= rough * (1 - 1e-9)) ?? 10;
  return step * power;
}

/**
 * The y range of an edge chart: the reference lines and the edge and band of the later half of
 * the points (by index), with a margin of a quarter of that span, widened to multiples of a round
 * step (about six ticks) so the axis reads 0 %, 0.5 %, 1 % and not −0.37 %. The first few bets
 * have bands of ±100 % that would flatten everything else; they run off the chart instead (the
 * tables keep their numbers).
 */
export function yBounds(game: PreparedGame): readonly [ChartValue, ChartValue] {
  const values: number[] = [];
  if (game.advertisedEdge !== null) values.push(game.advertisedEdge);
  values.push(game.theoreticalEdge);
  for (const point of game.points.slice(Math.floor(game.points.length / 2)))
    values.push(point.edge, point.low, point.high);
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [null, null];
  const low = Math.min(...finite);
  const high = Math.max(...finite);
  const margin = Math.max((high - low) / 4, 0.0005);
  const step = niceStep((high - low + 2 * margin) / 6);
  return [
    roundedOrNull(Math.floor((low - margin) / step) * step, EDGE_DECIMALS),
    roundedOrNull(Math.ceil((high + margin) / step) * step, EDGE_DECIMALS),
  ];
}

function edgeChart(game: PreparedGame, index: number): EdgeChartData {
  const edge = (value: number): ChartValue => roundedOrNull(value, EDGE_DECIMALS);
  const [yMin, yMax] = yBounds(game);
  return {
    id: edgeChartId(index),
    title: `${game.name} — ${game.variant}`,
    xScale: game.points.every((point) => point.bets > 0) ? 'logarithmic' : 'linear',
    advertised: game.advertisedEdge === null ? null : edge(game.advertisedEdge),
    theoretical: edge(game.theoreticalEdge),
    yMin,
    yMax,
    points: game.points.map((point) => [
      roundedOrNull(point.bets, 0),
      edge(point.edge),
      edge(point.low),
      edge(point.high),
    ]),
  };
}

/** The largest unit of which the span holds at least three; milliseconds for short spans. */
function timeUnit(spanMs: number): readonly [string, number] {
  return TIME_UNITS.find(([, unitMs]) => spanMs >= 3 * unitMs) ?? ['ms', 1];
}

function bankrollChart(bankrolls: readonly PreparedBankroll[]): BankrollChartData | null {
  const drawable = bankrolls.filter((series) => series.points.length > 0);
  if (drawable.length === 0) return null;
  const originMs = Math.min(...drawable.map((series) => series.points[0]?.atMs ?? 0));
  const endMs = Math.max(...drawable.map((series) => series.points.at(-1)?.atMs ?? 0));
  const [unit, unitMs] = timeUnit(endMs - originMs);
  return {
    id: BANKROLL_CHART_ID,
    unit,
    lines: drawable.map((series, index) => ({
      label: `${series.archetype} (${series.agents} ${series.agents === 1 ? 'agent' : 'agents'})`,
      color: LINE_COLORS[index % LINE_COLORS.length] ?? '#000000',
      points: series.points.map((point) => [
        roundedOrNull((point.atMs - originMs) / unitMs, TIME_DECIMALS),
        roundedOrNull(point.balance, USDC_DECIMALS),
      ]),
    })),
  };
}

/** Chart data of a prepared report; games without points get no chart (their table says so). */
export function buildChartData(report: PreparedReport): ReportChartData {
  const games: EdgeChartData[] = [];
  report.games.forEach((game, index) => {
    if (game.points.length > 0) games.push(edgeChart(game, index));
  });
  return { games, bankroll: bankrollChart(report.bankrolls) };
}
