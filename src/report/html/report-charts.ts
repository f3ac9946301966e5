/**
 * report.html's charts as the report kit's SVG charts (src/report/kit/chart.ts, the engine load.html
 * draws with too), from the chart data (chart-data.ts): per game the empirical edge with its 99 %
 * band against the advertised and theoretical edges, on a logarithmic bets axis when every point
 * has bets > 0; and the bankroll lines by archetype over virtual time.
 * Why here and not in the kit: the palette, the axis titles and the tick choice are this report's.
 * Invariants: pure; every label through fixed formatting (report-format.ts, plainNumber), so the
 * SVG bytes are a function of the data. A reference line spans the chart's first to last bets.
 */
import {
  plainNumber,
  renderSvgChart,
  type AxisTick,
  type ChartPoint,
  type SvgChart,
  type SvgSeries,
} from '../kit/chart.ts';
import type { BankrollChartData, ChartValue, EdgeChartData, ReportChartData } from './chart-data.ts';
import { countText, usdcText } from './report-format.ts';

const BLUE = '#1f77b4';
const RED = '#d62728';
const GREEN = '#2ca02c';

const percent = (fraction: number): string => `${plainNumber(Number((fraction * 100).toPrecision(6)))}%`;

/** Decade ticks between the first and last bets: 1 and 3 × 10^k over more than two decades, else 1, 2 and 5. */
export function betTicks(lowBets: number, highBets: number): AxisTick[] {
  const shown = Math.log10(highBets / lowBets) > 2 ? [1, 3] : [1, 2, 5];
  const ticks: AxisTick[] = [];
  for (let power = 1; power <= highBets * 10 && ticks.length < 64; power *= 10) {
    for (const mantissa of shown) {
      const value = mantissa * power;
      if (value >= lowBets && value <= highBets) ticks.push({ value, label: countText(value) });
    }
  }
  return ticks;
}

function level(label: string, color: string, value: ChartValue, xs: readonly number[]): SvgSeries[] {
  if (value === null || xs.length === 0) return [];
  return [
    {
      label,
      color,
      dashed: true,
      points: [
        [xs[0] as number, value],
        [xs.at(-1) as number, value],
      ],
    },
  ];
}

function edgeSvgChart(game: EdgeChartData): SvgChart {
  const rows = game.points.filter((point): point is readonly [number, ...ChartValue[]] => point[0] !== null);
  const xs = rows.map((point) => point[0]);
  const log = game.xScale === 'logarithmic' && xs.length > 0;
  return {
    id: game.id,
    title: `House edge of ${game.title} as bets accumulate`,
    xLabel: 'bets',
    yLabel: 'house edge',
    xScale: log ? 'log' : 'linear',
    ...(log ? { xTicks: betTicks(Math.min(...xs), Math.max(...xs)) } : { xWholeTicks: true }),
    yFormat: percent,
    ...(game.yMin === null || game.yMax === null ? {} : { yRange: { min: game.yMin, max: game.yMax } }),
    series: [
      { label: 'empirical edge', color: BLUE, points: rows.map((point) => [point[0], point[1] ?? null] as const) },
      ...level('theoretical edge', GREEN, game.theoretical, xs),
      ...level('advertised edge', RED, game.advertised, xs),
    ],
    bands: [
      {
        label: '99% confidence band',
        color: BLUE,
        points: rows.map((point) => [point[0], point[2] ?? null, point[3] ?? null] as const),
      },
    ],
  };
}

function bankrollSvgChart(bankroll: BankrollChartData): SvgChart {
  return {
    id: bankroll.id,
    title: 'Balance by agent archetype over virtual time',
    xLabel: `virtual time since the first sample (${bankroll.unit})`,
    yLabel: 'balance (USDC)',
    xScale: 'linear',
    yFormat: usdcText,
    series: bankroll.lines.map((line) => ({
      label: line.label,
      color: line.color,
      points: line.points.flatMap((point): ChartPoint[] => {
        const [elapsed = null, balance = null] = point;
        return elapsed === null ? [] : [[elapsed, balance]];
      }),
    })),
  };
}

/** The SVG of every chart of the report, by chart id. */
export function reportSvgCharts(data: ReportChartData): ReadonlyMap<string, string> {
  const charts = [
    ...data.games.map(edgeSvgChart),
    ...(data.bankroll === null ? [] : [bankrollSvgChart(data.bankroll)]),
  ];
  return new Map(charts.map((chart) => [chart.id, renderSvgChart(chart)]));
}
