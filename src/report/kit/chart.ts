/**
 * A line chart as inline SVG text, the one chart engine of afp's HTML reports (load.html and
 * report.html): drawn when the page is written, so the page needs no script and no library (its
 * Content-Security-Policy allows neither) and its bytes are a pure function of the chart. Round
 * tick steps come from chart-data.ts niceStep; numbers are written with fixed formatting.
 *
 * The x axis is linear, or logarithmic with the caller's ticks (the HDR percentile axis, where x
 * is 1/(1−p)); the y axis is linear from 0 to a round step above the largest value, or over the
 * caller's `yRange` (widened to round steps), where what runs outside it is clipped at the plot. A
 * null y is a gap: each unbroken run of points is one <polyline> (a lone point a small circle).
 * A band (a confidence interval) is a filled polygon between its low and high values, under the lines.
 * The legend runs above the plot, wrapping to new rows (at most LEGEND_ROWS_MAX; the chart grows
 * to fit them).
 * Invariants: every coordinate written with 1 decimal; every text escaped (escapeHtml) after
 * boundedText, legend labels at most LABEL_MAX_CHARS; x values finite (a caller's bug otherwise);
 * a series of no points draws nothing but keeps its legend entry.
 */
import { assert } from '../../core/assert.ts';
import { niceStep } from '../html/chart-data.ts';
import { boundedText, escapeHtml } from '../html/html-text.ts';

export type ChartPoint = readonly [number, number | null];

export interface SvgSeries {
  readonly label: string;
  readonly color: string;
  readonly points: readonly ChartPoint[];
  readonly dashed?: boolean;
}

/** An area between two values of each x: points [x, low, high]; a null bound is a gap. */
export interface SvgBand {
  readonly label: string;
  readonly color: string;
  readonly points: readonly (readonly [number, number | null, number | null])[];
}

export interface AxisTick {
  readonly value: number;
  readonly label: string;
}

export interface SvgChart {
  readonly id: string;
  /** Read by screen readers and shown as the chart's tooltip. */
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  /** `log`: the caller gives the ticks, and every x must be > 0. */
  readonly xScale: 'linear' | 'log';
  readonly xTicks?: readonly AxisTick[];
  /** Linear x ticks at whole numbers only (seconds). */
  readonly xWholeTicks?: boolean;
  readonly yFormat: (value: number) => string;
  /** The y axis' span (widened to round steps); points outside it are clipped. Default: 0 to the largest value. */
  readonly yRange?: { readonly min: number; readonly max: number };
  readonly series: readonly SvgSeries[];
  /** Drawn under the series, listed after them in the legend. */
  readonly bands?: readonly SvgBand[];
}

const WIDTH = 960;
const PLOT_HEIGHT = 236;
const LEGEND_ROW = 16;
const LEGEND_ROWS_MAX = 6;
const MARGIN = { left: 72, right: 16, bottom: 44 } as const;
const LABEL_MAX_CHARS = 48;
const TEXT_STYLE = 'font-family="system-ui, sans-serif" font-size="11" fill="#555"';

const coordinate = (value: number): string => {
  const text = value.toFixed(1);
  return text === '-0.0' ? '0.0' : text;
};
const text = (value: string, maxChars = LABEL_MAX_CHARS): string => escapeHtml(boundedText(value, maxChars));

/** `value` without floating noise: 0.30000000000000004 → 0.3. */
export function plainNumber(value: number): string {
  const rounded = Number(value.toPrecision(12));
  return String(rounded === 0 ? 0 : rounded);
}

interface Geometry {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly height: number;
}

/** What a legend entry shows: a line (dashed or not) or an area's swatch. */
interface LegendMark {
  readonly label: string;
  readonly color: string;
  readonly dashed?: boolean;
  readonly area?: boolean;
}

interface LegendEntry {
  readonly series: LegendMark;
  readonly label: string;
  readonly x: number;
  readonly row: number;
}

/** Legend entries left to right, wrapping to a new row at the right edge; at most LEGEND_ROWS_MAX rows (later entries are not listed). */
function layLegend(series: readonly LegendMark[]): LegendEntry[] {
  const entries: LegendEntry[] = [];
  let x = MARGIN.left;
  let row = 0;
  for (const entry of series) {
    const label = boundedText(entry.label, LABEL_MAX_CHARS);
    const width = 40 + Array.from(label).length * 6.5;
    if (x > MARGIN.left && x + width > WIDTH - MARGIN.right) {
      row += 1;
      x = MARGIN.left;
    }
    if (row >= LEGEND_ROWS_MAX) break;
    entries.push({ series: entry, label, x, row });
    x += width;
  }
  return entries;
}

function geometry(legendRows: number): Geometry {
  const top = 16 + legendRows * LEGEND_ROW;
  return {
    left: MARGIN.left,
    right: WIDTH - MARGIN.right,
    top,
    bottom: top + PLOT_HEIGHT,
    height: top + PLOT_HEIGHT + MARGIN.bottom,
  };
}

interface Scale {
  readonly at: (value: number) => number;
  readonly ticks: readonly AxisTick[];
}

function linearTicks(
  low: number,
  high: number,
  count: number,
  label: (value: number) => string,
  stepMin = 0,
): { ticks: AxisTick[]; low: number; high: number } {
  const step = Math.max(stepMin, niceStep(Math.max(high - low, Number.MIN_VALUE) / count));
  const first = Math.floor(low / step) * step;
  const last = Math.max(first + step, Math.ceil(high / step) * step);
  const ticks: AxisTick[] = [];
  for (let index = 0; first + index * step <= last + step / 2 && index <= 2 * count + 2; index++) {
    const value = first + index * step;
    ticks.push({ value, label: label(Number(value.toPrecision(12))) });
  }
  return { ticks, low: first, high: last };
}

function xScale(chart: SvgChart, xs: readonly number[], plot: Geometry): Scale {
  const span = plot.right - plot.left;
  if (chart.xScale === 'log') {
    const ticks = chart.xTicks ?? [];
    const values = [...xs, ...ticks.map((tick) => tick.value)];
    assert(
      values.every((value) => value > 0),
      `${chart.id}: a logarithmic x axis needs every x > 0`,
    );
    const low = Math.log10(values.length === 0 ? 1 : Math.min(...values));
    const high = Math.max(low + 1, Math.log10(Math.max(...values, 10)));
    return { at: (value) => plot.left + ((Math.log10(value) - low) / (high - low)) * span, ticks };
  }
  const low = xs.length === 0 ? 0 : Math.min(...xs);
  const high = xs.length === 0 ? 1 : Math.max(...xs, low + 1);
  const { ticks } =
    chart.xTicks === undefined
      ? linearTicks(low, high, 8, plainNumber, chart.xWholeTicks === true ? 1 : 0)
      : { ticks: chart.xTicks };
  return {
    at: (value) => plot.left + ((value - low) / (high - low)) * span,
    ticks: ticks.filter((tick) => tick.value >= low && tick.value <= high),
  };
}

function yScale(chart: SvgChart, ys: readonly number[], plot: Geometry): Scale {
  if (chart.yRange !== undefined) {
    const { ticks, low, high } = linearTicks(chart.yRange.min, chart.yRange.max, 6, chart.yFormat);
    return { at: (value) => plot.bottom - ((value - low) / (high - low)) * (plot.bottom - plot.top), ticks };
  }
  const high = Math.max(0, ...ys);
  const { ticks, high: top } = linearTicks(0, high > 0 ? high : 1, 5, chart.yFormat);
  return { at: (value) => plot.bottom - (value / top) * (plot.bottom - plot.top), ticks };
}

function axes(x: Scale, y: Scale, chart: SvgChart, plot: Geometry): string[] {
  const lines: string[] = [];
  for (const tick of y.ticks) {
    const at = coordinate(y.at(tick.value));
    lines.push(
      `<line x1="${plot.left}" y1="${at}" x2="${plot.right}" y2="${at}" stroke="#e5e5e5"/>`,
      `<text x="${plot.left - 6}" y="${at}" ${TEXT_STYLE} text-anchor="end" dominant-baseline="middle">${text(tick.label)}</text>`,
    );
  }
  for (const tick of x.ticks) {
    const at = coordinate(x.at(tick.value));
    lines.push(
      `<line x1="${at}" y1="${plot.top}" x2="${at}" y2="${plot.bottom}" stroke="#f0f0f0"/>`,
      `<text x="${at}" y="${plot.bottom + 16}" ${TEXT_STYLE} text-anchor="middle">${text(tick.label)}</text>`,
    );
  }
  lines.push(
    `<line x1="${plot.left}" y1="${plot.bottom}" x2="${plot.right}" y2="${plot.bottom}" stroke="#999"/>`,
    `<line x1="${plot.left}" y1="${plot.top}" x2="${plot.left}" y2="${plot.bottom}" stroke="#999"/>`,
    `<text x="${(plot.left + plot.right) / 2}" y="${plot.height - 8}" ${TEXT_STYLE} text-anchor="middle">${text(chart.xLabel, 120)}</text>`,
    `<text x="14" y="${(plot.top + plot.bottom) / 2}" ${TEXT_STYLE} text-anchor="middle" transform="rotate(-90 14 ${(plot.top + plot.bottom) / 2})">${text(chart.yLabel, 120)}</text>`,
  );
  return lines;
}

function seriesMarks(series: SvgSeries, x: Scale, y: Scale): string[] {
  const runs: string[][] = [[]];
  for (const [xValue, yValue] of series.points) {
    assert(Number.isFinite(xValue), `series ${series.label}: a point has a non-finite x`);
    if (yValue === null || !Number.isFinite(yValue)) {
      if ((runs.at(-1) ?? []).length > 0) runs.push([]);
      continue;
    }
    runs.at(-1)?.push(`${coordinate(x.at(xValue))},${coordinate(y.at(yValue))}`);
  }
  const dash = series.dashed === true ? ' stroke-dasharray="6 4"' : '';
  return runs
    .filter((run) => run.length > 0)
    .map((run) => {
      if (run.length > 1)
        return `<polyline class="series" points="${run.join(' ')}" fill="none" stroke="${series.color}" stroke-width="2"${dash}/>`;
      const [cx, cy] = (run[0] ?? '0,0').split(',');
      return `<circle class="series" cx="${cx}" cy="${cy}" r="2.5" fill="${series.color}"/>`;
    });
}

/** A band's polygons: each unbroken run of points (both bounds finite), its highs left to right, then its lows back. */
function bandMarks(band: SvgBand, x: Scale, y: Scale): string[] {
  const runs: (readonly [number, number, number])[][] = [[]];
  for (const [xValue, low, high] of band.points) {
    assert(Number.isFinite(xValue), `band ${band.label}: a point has a non-finite x`);
    if (low === null || high === null || !Number.isFinite(low) || !Number.isFinite(high)) {
      if ((runs.at(-1) ?? []).length > 0) runs.push([]);
      continue;
    }
    runs.at(-1)?.push([xValue, low, high]);
  }
  const at = (xValue: number, yValue: number): string => `${coordinate(x.at(xValue))},${coordinate(y.at(yValue))}`;
  return runs
    .filter((run) => run.length > 1)
    .map((run) => {
      const outline = [
        ...run.map(([xValue, , high]) => at(xValue, high)),
        ...run.toReversed().map(([xValue, low]) => at(xValue, low)),
      ];
      return `<polygon class="band" points="${outline.join(' ')}" fill="${band.color}" fill-opacity="0.18" stroke="${band.color}" stroke-opacity="0.45"/>`;
    });
}

function legend(entries: readonly LegendEntry[]): string[] {
  return entries.flatMap(({ series, label, x, row }) => {
    const y = 12 + row * LEGEND_ROW;
    if (series.area === true)
      return [
        `<rect x="${x}" y="${y - 5}" width="20" height="10" fill="${series.color}" fill-opacity="0.18" stroke="${series.color}" stroke-opacity="0.45"/>`,
        `<text x="${x + 26}" y="${y}" ${TEXT_STYLE} dominant-baseline="middle">${escapeHtml(label)}</text>`,
      ];
    const dash = series.dashed === true ? ' stroke-dasharray="6 4"' : '';
    return [
      `<line x1="${x}" y1="${y}" x2="${x + 20}" y2="${y}" stroke="${series.color}" stroke-width="3"${dash}/>`,
      `<text x="${x + 26}" y="${y}" ${TEXT_STYLE} dominant-baseline="middle">${escapeHtml(label)}</text>`,
    ];
  });
}

export function renderSvgChart(chart: SvgChart): string {
  const bands = chart.bands ?? [];
  const entries = layLegend([...chart.series, ...bands.map((band) => ({ ...band, area: true }))]);
  const plot = geometry(Math.max(1, ...entries.map((entry) => entry.row + 1)));
  const points = chart.series.flatMap((series) => series.points);
  const x = xScale(
    chart,
    [...points.map(([xValue]) => xValue), ...bands.flatMap((band) => band.points.map(([xValue]) => xValue))],
    plot,
  );
  const y = yScale(
    chart,
    [
      ...points.map(([, yValue]) => yValue),
      ...bands.flatMap((band) => band.points.flatMap(([, low, high]) => [low, high])),
    ].filter((yValue): yValue is number => yValue !== null && Number.isFinite(yValue)),
    plot,
  );
  const marks = [
    ...bands.flatMap((band) => bandMarks(band, x, y)),
    ...chart.series.flatMap((series) => seriesMarks(series, x, y)),
  ];
  return [
    `<svg class="chart" id="${escapeHtml(chart.id)}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${plot.height}" width="100%" role="img" aria-label="${text(chart.title, 200)}">`,
    `<title>${text(chart.title, 200)}</title>`,
    ...axes(x, y, chart, plot),
    ...(chart.yRange === undefined ? marks : clipped(marks, `${chart.id}-plot`, plot)),
    ...legend(entries),
    '</svg>',
  ].join('\n');
}

/** `marks` clipped to the plot area (a y range the values may leave). */
function clipped(marks: readonly string[], clipId: string, plot: Geometry): string[] {
  const id = escapeHtml(clipId);
  return [
    `<clipPath id="${id}"><rect x="${plot.left}" y="${plot.top}" width="${plot.right - plot.left}" height="${plot.bottom - plot.top}"/></clipPath>`,
    `<g clip-path="url(#${id})">`,
    ...marks,
    '</g>',
  ];
}
