// report.html renderer (src/report/html): byte-stability (same input, same bytes; a visible change,
// other bytes; a change below the fixed precision, same bytes), escaping of `</script>` and `<!--`
// in caller texts and in the data, the JSON data block read back, the SVG charts (the report kit's
// engine: band, reference lines, clipped y range, log bets axis), the caps (points, games,
// archetypes, text length) with the first and last points kept. The headless-Chromium check that
// every chart shows is html-report-chromium.test.ts.
import { describe, expect, test } from 'vitest';
import type { CasinoReportInput, GameEdgeSeries } from '../../src/report/html/casino-report-data.ts';
import { CASINO_REPORT_LIMITS } from '../../src/report/html/casino-report-data.ts';
import type { ReportChartData } from '../../src/report/html/chart-data.ts';
import { downsample } from '../../src/report/html/downsample.ts';
import { boundedText, escapeHtml } from '../../src/report/html/html-text.ts';
import { renderCasinoReport } from '../../src/report/html/html-report.ts';
import { countText, percentText, usdcText } from '../../src/report/html/report-format.ts';
import { betTicks } from '../../src/report/html/report-charts.ts';
import { jsonScriptText } from '../../src/report/html/script-embedding.ts';
import type { EdgePoint } from '../../src/audit/edge/edge-simulation.ts';

const HOUR_MS = 3_600_000;

function edgePoints(count: number, theoretical: number): EdgePoint[] {
  return Array.from({ length: count }, (_, i) => {
    const bets = (i + 1) * 100;
    const half = 2.576 / Math.sqrt(bets);
    const edge = theoretical + ((i % 7) - 3) * half * 0.1;
    return { bets, edge, low: edge - half, high: edge + half };
  });
}

function game(
  name: string,
  points: EdgePoint[],
  advertisedEdge: number | null = 0.01,
  theoreticalEdge = 0.01,
): GameEdgeSeries {
  return { game: name, variant: 'default', advertisedEdge, theoreticalEdge, verdict: 'matches', points };
}

/** `toContain` on a whole report would print ~230 kB on failure; this prints the needle only. */
function expectContains(html: string, needle: string): void {
  expect(html.includes(needle), `report contains ${JSON.stringify(needle)}`).toBe(true);
}

function expectLacks(html: string, needle: string): void {
  expect(html.includes(needle), `report lacks ${JSON.stringify(needle)}`).toBe(false);
}

function input(overrides: Partial<CasinoReportInput> = {}): CasinoReportInput {
  return {
    title: 'Casino house-edge audit',
    subtitle: 'seed 42 · afp audit house-edge --bets 100000',
    games: [game('dice', edgePoints(30, 0.01)), game('roulette', edgePoints(30, 1 / 37), null, 1 / 37)],
    bankrolls: [
      {
        archetype: 'martingale',
        agents: 20,
        points: Array.from({ length: 24 }, (_, i) => ({ atMs: i * HOUR_MS, balance: 100 - i * 1.5 })),
      },
      {
        archetype: 'flat-bettor',
        agents: 1,
        points: Array.from({ length: 24 }, (_, i) => ({ atMs: i * HOUR_MS, balance: 100 - i * 0.25 })),
      },
    ],
    ...overrides,
  };
}

const dataBlock = /<script type="application\/json" id="afp-report-data">([^<]*)<\/script>/;

function chartData(html: string): ReportChartData {
  const match = dataBlock.exec(html);
  expect(match, 'the report has its JSON data block').not.toBeNull();
  return JSON.parse(match?.[1] ?? 'null') as ReportChartData;
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

describe('renderCasinoReport: byte-stability', () => {
  test('the same input gives the same bytes, also from an equal copy of it', () => {
    const first = renderCasinoReport(input());
    expect(renderCasinoReport(input())).toBe(first);
    expect(renderCasinoReport(structuredClone(input()))).toBe(first);
    expect(/\d{4}-\d\d-\d\dT\d\d:/.test(first), 'no timestamp sneaks in').toBe(false);
  });

  test('a changed point, title or verdict gives other bytes', () => {
    const base = renderCasinoReport(input());
    const points = edgePoints(30, 0.01);
    points[10] = { ...(points[10] as EdgePoint), edge: 0.0123 };
    expect(
      renderCasinoReport(
        input({ games: [game('dice', points), game('roulette', edgePoints(30, 1 / 37), null, 1 / 37)] }),
      ),
    ).not.toBe(base);
    expect(renderCasinoReport(input({ title: 'Casino house-edge audit (2)' }))).not.toBe(base);
    const verdict = { ...game('dice', edgePoints(30, 0.01)), verdict: 'advertised edge not given' };
    expect(
      renderCasinoReport(input({ games: [verdict, game('roulette', edgePoints(30, 1 / 37), null, 1 / 37)] })),
    ).not.toBe(base);
  });

  test('a change below the fixed precision (8 decimals of an edge) gives the same bytes', () => {
    const points = edgePoints(30, 0.01).map((point) => ({ ...point, edge: point.edge + 1e-12 }));
    const nudged = input({ games: [game('dice', points), game('roulette', edgePoints(30, 1 / 37), null, 1 / 37)] });
    expect(renderCasinoReport(nudged)).toBe(renderCasinoReport(input()));
  });
});

describe('renderCasinoReport: document and data', () => {
  test('one SVG chart per game with points plus the bankroll chart; no script runs, nothing is fetched', () => {
    const html = renderCasinoReport(input());
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(count(html, /<svg class="chart" id="chart-edge-\d+"/g)).toBe(2);
    expect(count(html, /<svg class="chart" id="chart-bankroll"/g)).toBe(1);
    expectContains(html, `content="default-src 'none'; style-src 'unsafe-inline'"`); // no script-src
    expect(count(html, /<script/g), 'only the JSON data block').toBe(1);
    expectContains(html, '<script type="application/json" id="afp-report-data">');
    expect(/(?:src|href)="https?:/.test(html), 'no remote src or href').toBe(false);
  });

  test('an edge chart: band under the edge, dashed reference lines, clipped y range, log bets axis', () => {
    const html = renderCasinoReport(input());
    const dice = /<svg class="chart" id="chart-edge-0"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
    expect(count(dice, /<polygon class="band"/g)).toBe(1);
    expect(count(dice, /<polyline class="series"/g)).toBe(3); // empirical, theoretical, advertised
    expect(count(dice, /stroke-dasharray/g)).toBe(4); // two lines and their legend entries
    expect(dice.indexOf('<polygon class="band"')).toBeLessThan(dice.indexOf('<polyline class="series"'));
    expectContains(dice, '<clipPath id="chart-edge-0-plot">');
    for (const label of ['empirical edge', 'theoretical edge', 'advertised edge', '99% confidence band'])
      expectContains(dice, `>${label}</text>`);
    expectContains(dice, '>1,000</text>'); // a decade tick of the bets axis
    const roulette = /<svg class="chart" id="chart-edge-1"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
    expect(count(roulette, /<polyline class="series"/g)).toBe(2); // no advertised edge
    const bankroll = /<svg class="chart" id="chart-bankroll"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
    expect(count(bankroll, /<polyline class="series"/g)).toBe(2);
    expectContains(bankroll, '>virtual time since the first sample (h)</text>');
    expect(betTicks(100, 3_000).map((tick) => tick.label)).toEqual(['100', '200', '500', '1,000', '2,000']);
    expect(betTicks(20, 150_000).map((tick) => tick.value)).toEqual([
      30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000,
    ]);
  });

  test('the JSON block reads back: rounded numbers, reference lines, log x axis, bankroll in hours', () => {
    const data = chartData(renderCasinoReport(input()));
    expect(data.games.map((entry) => entry.id)).toEqual(['chart-edge-0', 'chart-edge-1']);
    const roulette = data.games[1];
    expect(roulette?.advertised).toBeNull();
    expect(roulette?.theoretical).toBe(0.02702703); // 1/37 to 8 decimals
    expect(roulette?.xScale).toBe('logarithmic');
    expect(roulette?.points).toHaveLength(30);
    expect(roulette?.points[0]?.[0]).toBe(100);
    for (const point of roulette?.points ?? []) {
      for (const value of point.slice(1)) expect(Number((value ?? 0).toFixed(8))).toBe(value);
    }
    expect(data.bankroll?.unit).toBe('h');
    expect(data.bankroll?.lines.map((line) => line.label)).toEqual(['martingale (20 agents)', 'flat-bettor (1 agent)']);
    expect(data.bankroll?.lines[0]?.points.at(-1)).toEqual([23, 65.5]);
  });

  test('the y axis spans the reference lines and the later band, not the first wide bands', () => {
    const data = chartData(renderCasinoReport(input()));
    const dice = data.games[0];
    const first = dice?.points[0];
    expect(dice?.yMin).toBeLessThanOrEqual(0.01);
    expect(dice?.yMax).toBeGreaterThanOrEqual(0.01);
    expect(dice?.yMax).toBeLessThan(first?.[3] ?? 0); // the first band (±25.8 %) runs off the chart
    for (const point of dice?.points.slice(15) ?? []) {
      expect(point[2]).toBeGreaterThanOrEqual(dice?.yMin ?? Infinity);
      expect(point[3]).toBeLessThanOrEqual(dice?.yMax ?? -Infinity);
    }
  });

  test('unsorted points are drawn sorted; non-finite values become gaps and dashes', () => {
    const points = edgePoints(5, 0.01).reverse();
    points[2] = { bets: 300, edge: Number.NaN, low: Number.NEGATIVE_INFINITY, high: Number.POSITIVE_INFINITY };
    const html = renderCasinoReport(input({ games: [game('dice', points)] }));
    const drawn = chartData(html).games[0]?.points ?? [];
    expect(drawn.map((point) => point[0])).toEqual([100, 200, 300, 400, 500]);
    expect(drawn[2]).toEqual([300, null, null, null]);
    expectContains(html, '<tr><td>300</td><td>—</td><td>— … —</td></tr>');
  });

  test('the per-game tables carry the verdict and the edges as text', () => {
    const html = renderCasinoReport(input());
    expectContains(html, '<p class="verdict">Verdict: matches</p>');
    expectContains(html, '<td>not advertised</td><td>2.703%</td>');
    expectContains(html, '<th>verdict</th><th>advertised edge</th><th>theoretical edge</th>');
    expectContains(html, '<tr><td>3,000</td>'); // the last checkpoint is always listed
    expectContains(
      html,
      '<tr><td>martingale</td><td>20</td><td>100.00</td><td>65.50</td><td>65.50</td><td>100.00</td></tr>',
    );
  });

  test('no games and no bankrolls: a valid report with no chart and no empty section', () => {
    const html = renderCasinoReport(input({ games: [], bankrolls: [] }));
    expect(count(html, /<svg/g)).toBe(0);
    expectContains(
      html,
      '<section id="summary">\n<h2>Summary</h2>\n<p class="note">No variant had bets.</p>\n</section>',
    );
    expectLacks(html, 'id="games"');
    expectLacks(html, 'id="bankrolls"');
    expect(html.endsWith('</html>\n')).toBe(true);
    expect(chartData(html)).toEqual({ games: [], bankroll: null });
  });

  test('the summary table comes first and lists every variant, charted or not, one format per column', () => {
    const variants = [
      {
        game: 'dice',
        variant: 'default',
        bets: 3_000,
        advertisedEdge: 0.01,
        theoreticalEdge: 0.01,
        empiricalEdge: 0.0123,
        low: -0.02,
        high: 0.04,
        verdict: 'matches',
      },
      {
        game: 'crash',
        variant: 'crash:2',
        bets: 1_234_567,
        advertisedEdge: null,
        theoreticalEdge: null,
        empiricalEdge: null,
        low: null,
        high: null,
        verdict: 'no law',
      },
      {
        game: 'roulette',
        variant: 'default',
        bets: 1,
        advertisedEdge: null,
        theoreticalEdge: 1 / 37,
        empiricalEdge: null,
        low: null,
        high: null,
        verdict: 'too few bets',
      },
    ];
    const html = renderCasinoReport(
      input({ games: [game('dice', edgePoints(30, 0.01))], variants, unchartedNote: 'no law or too few bets' }),
    );
    const summaryAt = html.indexOf('<section id="summary">');
    expect(summaryAt).toBeGreaterThan(html.indexOf('</header>'));
    expect(summaryAt).toBeLessThan(html.indexOf('<section id="games">'));
    expectContains(html, '<p class="note">3 variants; 1 charted below. 2 have none: no law or too few bets.</p>');
    const table = /<table id="summary-table">[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    const rows = [...table.matchAll(/<tr><td>(.*?)<\/td><\/tr>/g)].map((match) => (match[1] ?? '').split('</td><td>'));
    expect(rows).toEqual([
      [
        'dice',
        'default',
        '3,000',
        '1.000%',
        '1.000%',
        '1.230%',
        '-2.000%',
        '4.000%',
        'matches',
        '<a href="#game-0">chart</a>',
      ],
      ['crash', 'crash:2', '1,234,567', '—', '—', '—', '—', '—', 'no law', '—'],
      ['roulette', 'default', '1', '—', '2.703%', '—', '—', '—', 'too few bets', '—'],
    ]);
    // one format per column: every cell of an edge column is a 3-decimal percentage or the dash
    for (const column of [3, 4, 5, 6, 7]) for (const row of rows) expect(row[column]).toMatch(/^(-?\d+\.\d{3}%|—)$/);
  });

  test('without `variants` the summary lists the charted games from their last point', () => {
    const html = renderCasinoReport(input());
    const table = /<table id="summary-table">[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    expect(table.match(/<a href="#game-\d">chart<\/a>/g)).toEqual([
      '<a href="#game-0">chart</a>',
      '<a href="#game-1">chart</a>',
    ]);
    expectContains(html, '<p class="note">2 variants; 2 charted below.</p>');
  });

  test('a summary of more variants than the cap says how many are left out', () => {
    const variants = Array.from({ length: CASINO_REPORT_LIMITS.maxSummaryRows + 3 }, (_, i) => ({
      game: 'keno',
      variant: `keno:${i}`,
      bets: 10,
      advertisedEdge: null,
      theoreticalEdge: 0.1,
      empiricalEdge: 0.1,
      low: 0,
      high: 0.2,
      verdict: 'v',
    }));
    const html = renderCasinoReport(input({ games: [], bankrolls: [], variants }));
    expectContains(html, `3 more variants not shown (a report shows at most ${CASINO_REPORT_LIMITS.maxSummaryRows}).`);
    expect(html.match(/<tr><td>keno<\/td>/g)).toHaveLength(CASINO_REPORT_LIMITS.maxSummaryRows);
  });

  test('a game without points gets its table and no chart', () => {
    const html = renderCasinoReport(input({ games: [game('dice', [])] }));
    expectContains(html, 'No bets were recorded for this game.');
    expectLacks(html, 'id="chart-edge-0"');
    expect(count(html, /<svg class="chart"/g)).toBe(1); // the bankroll chart
  });
});

describe('renderCasinoReport: escaping', () => {
  const hostile = '</script><script>alert(1)</script><!-- & "quoted" \'single\' </SCRIPT >';

  test('caller texts cannot end a script element or inject markup', () => {
    const games = [{ ...game(hostile, edgePoints(3, 0.01)), variant: hostile, verdict: hostile }];
    const bankrolls = [{ archetype: hostile, agents: 1, points: [{ atMs: 0, balance: 1 }] }];
    const html = renderCasinoReport(input({ title: hostile, subtitle: hostile, games, bankrolls }));
    // Exactly the one script element of the page closes: the data block.
    expect(count(html, /<\/script/gi)).toBe(1);
    expect(count(html, /<script/gi)).toBe(1);
    expect(count(html, /<!--/g)).toBe(0);
    expectContains(html, `<title>${escapeHtml(hostile)}</title>`);
    expectContains(html, '&lt;/script&gt;&lt;script&gt;alert(1)');
    const data = chartData(html);
    expect(data.games[0]?.title).toBe(`${hostile} — ${hostile}`); // the JSON escapes read back
    expect(data.bankroll?.lines[0]?.label).toBe(`${hostile} (1 agent)`);
  });

  test('JSON for a script element has no <, > or & and parses to the same value', () => {
    const value = { text: '</script><!--&\u2028\u2029', numbers: [1, -0.5] };
    const text = jsonScriptText(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('renderCasinoReport: limits', () => {
  test('a long series is cut to maxPointsPerSeries, first and last points kept', () => {
    const points = edgePoints(5_000, 0.01);
    const bankrolls = [
      {
        archetype: 'whale',
        agents: 3,
        points: Array.from({ length: 10_000 }, (_, i) => ({ atMs: i * 60_000, balance: i })),
      },
    ];
    const html = renderCasinoReport(input({ games: [game('dice', points)], bankrolls }));
    const data = chartData(html);
    const drawn = data.games[0]?.points ?? [];
    expect(drawn).toHaveLength(CASINO_REPORT_LIMITS.maxPointsPerSeries);
    expect(drawn[0]?.[0]).toBe(100);
    expect(drawn.at(-1)?.[0]).toBe(500_000);
    expect(data.bankroll?.lines[0]?.points).toHaveLength(CASINO_REPORT_LIMITS.maxPointsPerSeries);
    expect(data.bankroll?.lines[0]?.points.at(-1)).toEqual([6.94375, 9_999]); // 9,999 min in days
    expectContains(html, 'The chart shows 200 of 5,000 points');
    expectContains(html, '<td>whale</td><td>3</td><td>0.00</td><td>9999.00</td><td>0.00</td><td>9999.00</td>');
    expect(count(html, /<tr><td>[\d,]+<\/td><td>[\d.-]+%<\/td>/g)).toBe(CASINO_REPORT_LIMITS.maxTableRows);
  });

  test('games and archetypes beyond their caps are left out and counted', () => {
    const games = Array.from({ length: 50 }, (_, i) => game(`game-${i}`, edgePoints(2, 0.01)));
    const bankrolls = Array.from({ length: 20 }, (_, i) => ({
      archetype: `a${i}`,
      agents: 1,
      points: [{ atMs: 0, balance: i }],
    }));
    const html = renderCasinoReport(input({ games, bankrolls }));
    expect(count(html, /<article class="game"/g)).toBe(CASINO_REPORT_LIMITS.maxGames);
    expectContains(html, '10 more games not shown (a report shows at most 40).');
    expectContains(html, '4 more archetypes not shown (a report shows at most 16).');
    expect(chartData(html).bankroll?.lines).toHaveLength(CASINO_REPORT_LIMITS.maxBankrollSeries);
    expect(count(html, /<svg class="chart"/g)).toBe(CASINO_REPORT_LIMITS.maxGames + 1);
  });

  test('texts are cut to maxTextChars code points, well-formed, without control characters', () => {
    const long = '🎲'.repeat(1_000);
    const html = renderCasinoReport(input({ title: long }));
    expectContains(html, `<title>${'🎲'.repeat(CASINO_REPORT_LIMITS.maxTextChars - 1)}…</title>`);
    expect(boundedText('a\u0000b\ud800c\nd', 10)).toBe('a\ufffdb\ufffdc\nd');
    expect(boundedText('abcdef', 4)).toBe('abc…');
  });

  test('downsample keeps evenly spaced indices, first and last', () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    expect(downsample(items, 4)).toEqual([0, 3, 6, 9]);
    expect(downsample(items, 10)).toEqual(items);
    expect(downsample(items, 2)).toEqual([0, 9]);
    expect(downsample([], 5)).toEqual([]);
  });

  test('a typical report stays small: a few tens of kB', () => {
    expect(Buffer.byteLength(renderCasinoReport(input()))).toBeLessThan(80_000);
  });
});

describe('number formatting', () => {
  test('percentages, counts and USDC have fixed forms, without -0', () => {
    expect(percentText(1 / 37)).toBe('2.703%');
    expect(percentText(-0.0000001)).toBe('0.000%');
    expect(percentText(null)).toBe('—');
    expect(countText(1_234_567)).toBe('1,234,567');
    expect(countText(-1_000)).toBe('-1,000');
    expect(usdcText(12.345_6)).toBe('12.35');
    expect(usdcText(-0.001)).toBe('0.00');
    expect(usdcText(Number.NaN)).toBe('—');
  });
});
