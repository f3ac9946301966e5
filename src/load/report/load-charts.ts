/**
 * The four charts of load.html, as SvgChart data from a LoadReport:
 * - latency over time: p50, p99 and max of each second (by intended start), in ms;
 * - throughput: requests and failed requests a second;
 * - error rate: the failed share of each second's requests (a gap where a second had none);
 * - the HDR percentile distribution: latency against percentile on HdrHistogram's plotter axis,
 *   x = 1/(1−p) on a log scale labelled 0 %, 90 %, 99 %, 99.9 % …, overall and for the endpoints
 *   with the most requests (at most DISTRIBUTION_ENDPOINTS_MAX, ties by name).
 * Runs longer than TIME_POINTS_MAX seconds are drawn in groups of whole seconds whose counts add
 * and whose histograms merge (percentiles stay exact for each group; a rate is per second of its
 * group), never by dropping seconds. Distribution points come 5 to each halving of 1−p (as
 * HdrHistogram's percentile output ticks), up to the percentile of the last recorded value or
 * 99.9999 %.
 * Invariants: pure; at most TIME_POINTS_MAX points a time series, DISTRIBUTION_POINTS_MAX a
 * distribution line.
 */
import { LINE_COLORS } from '../../report/html/chart-data.ts';
import { decodeHistogram, type Histogram, type Percentiles } from '../load-recorder.ts';
import { overallHistogramOf, secondCount, secondGroups, type LoadReport, type SecondRow } from './load-report.ts';
import { plainNumber, type AxisTick, type ChartPoint, type SvgChart, type SvgSeries } from '../../report/kit/chart.ts';

export const TIME_POINTS_MAX = 720;
export const DISTRIBUTION_ENDPOINTS_MAX = 6;
const DISTRIBUTION_X_MAX = 1_000_000;
const TICKS_PER_HALVING = 5;
export const DISTRIBUTION_POINTS_MAX = Math.ceil(TICKS_PER_HALVING * Math.log2(DISTRIBUTION_X_MAX)) + 2;

const GREY = '#7f7f7f';
const [BLUE = '#1f77b4', ORANGE = '#ff7f0e', , RED = '#d62728'] = LINE_COLORS;

export const CHART_IDS = ['chart-latency', 'chart-throughput', 'chart-errors', 'chart-distribution'] as const;

const msFormat = (value: number): string => `${plainNumber(value)} ms`;
const perSecondFormat = (value: number): string => plainNumber(value);
const percentFormat = (value: number): string => `${plainNumber(value * 100)}%`;

function timeAxis(report: LoadReport): { width: number; label: string } {
  const width = Math.max(1, Math.ceil(secondCount(report) / TIME_POINTS_MAX));
  return {
    width,
    label:
      width === 1
        ? 'seconds since the start (by intended start)'
        : `seconds since the start, in groups of ${width} s (by intended start)`,
  };
}

export function timeCharts(report: LoadReport): SvgChart[] {
  const { width, label } = timeAxis(report);
  const groups = secondGroups(report, width);
  const at = (pick: (group: SecondRow) => number | null): ChartPoint[] =>
    groups.map((group) => [group.second, pick(group)]);
  const ms = (group: SecondRow, pick: (latency: Percentiles) => number): number | null =>
    group.latency.count === 0 ? null : pick(group.latency);
  return [
    {
      id: 'chart-latency',
      title: 'Latency percentiles over time (from the intended start)',
      xLabel: label,
      yLabel: 'latency (ms)',
      xScale: 'linear',
      xWholeTicks: true,
      yFormat: msFormat,
      series: [
        { label: 'p50', color: BLUE, points: at((group) => ms(group, (latency) => latency.p50Ms)) },
        { label: 'p99', color: ORANGE, points: at((group) => ms(group, (latency) => latency.p99Ms)) },
        { label: 'max', color: GREY, points: at((group) => ms(group, (latency) => latency.maxMs)), dashed: true },
      ],
    },
    {
      id: 'chart-throughput',
      title: 'Throughput: requests a second',
      xLabel: label,
      yLabel: 'requests a second',
      xScale: 'linear',
      xWholeTicks: true,
      yFormat: perSecondFormat,
      series: [
        { label: 'requests', color: BLUE, points: at((group) => group.requests / width) },
        { label: 'failed', color: RED, points: at((group) => group.failed / width) },
      ],
    },
    {
      id: 'chart-errors',
      title: 'Error rate: failed share of the requests of each second',
      xLabel: label,
      yLabel: 'failed share',
      xScale: 'linear',
      xWholeTicks: true,
      yFormat: percentFormat,
      series: [
        {
          label: 'failed share',
          color: RED,
          points: at((group) => (group.requests === 0 ? null : group.failed / group.requests)),
        },
      ],
    },
  ];
}

/** 0%, 90%, 99%, 99.9% … at x = 1, 10, 100, 1000 … */
function percentileTicks(xEnd: number): AxisTick[] {
  const ticks: AxisTick[] = [];
  for (let power = 0; power <= 6 && 10 ** power <= Math.max(10, xEnd) * 1.000001; power++) {
    ticks.push({
      value: 10 ** power,
      label: power === 0 ? '0%' : `${(100 - 100 / 10 ** power).toFixed(Math.max(0, power - 2))}%`,
    });
  }
  return ticks;
}

/** [1/(1−p), latency ms] from p = 0 up to the last recorded value's percentile (or 99.9999 %). */
export function distributionPoints(histogram: Histogram): ChartPoint[] {
  if (histogram.totalCount === 0) return [];
  const xEnd = Math.min(DISTRIBUTION_X_MAX, Math.max(2, histogram.totalCount));
  const points: ChartPoint[] = [];
  for (let tick = 0; points.length < DISTRIBUTION_POINTS_MAX; tick++) {
    const x = 2 ** (tick / TICKS_PER_HALVING);
    if (x >= xEnd) break;
    points.push([x, histogram.getValueAtPercentile(100 - 100 / x) / 1000]);
  }
  points.push([xEnd, histogram.getValueAtPercentile(100 - 100 / xEnd) / 1000]);
  return points;
}

export function distributionChart(report: LoadReport): SvgChart {
  const overall = overallHistogramOf(report);
  const busiest = [...report.snapshot.endpoints]
    .sort((a, b) => b.requests - a.requests || (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0))
    .slice(0, DISTRIBUTION_ENDPOINTS_MAX);
  const series: SvgSeries[] = [{ label: 'all endpoints', color: BLUE, points: distributionPoints(overall) }];
  busiest.forEach((row, index) => {
    series.push({
      label: row.endpoint,
      color: LINE_COLORS[(index + 1) % LINE_COLORS.length] ?? GREY,
      points: distributionPoints(decodeHistogram(row.latency)),
      dashed: true,
    });
  });
  const xEnd = Math.min(DISTRIBUTION_X_MAX, Math.max(10, overall.totalCount));
  return {
    id: 'chart-distribution',
    title: 'Latency by percentile (HDR percentile distribution)',
    xLabel: 'percentile (log scale of 1/(1−p), as HdrHistogram plots it)',
    yLabel: 'latency (ms)',
    xScale: 'log',
    xTicks: percentileTicks(xEnd),
    yFormat: msFormat,
    series,
  };
}

export function loadCharts(report: LoadReport): SvgChart[] {
  return [...timeCharts(report), distributionChart(report)];
}
