// The load reports from a snapshot a real LoadRecorder made: summary.json, latency.csv and
// timeseries.csv stated exactly for a small run; load.junit.xml read back by a strict XML reader;
// load.html's tables, charts and escaping; the same bytes from the snapshot, its JSON copy and the
// merge of its halves; hostile endpoint and check names in every format; the writer.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { readAfpVersion } from '../../src/report/afp-version.ts';
import { LoadRecorder, mergeSnapshots, type LoadSnapshot } from '../../src/load/load-recorder.ts';
import { distributionPoints, loadCharts, TIME_POINTS_MAX } from '../../src/load/report/load-charts.ts';
import { renderLatencyCsv, renderTimeseriesCsv } from '../../src/load/report/load-csv.ts';
import { renderLoadHtml } from '../../src/load/report/load-html.ts';
import { renderLoadJunit } from '../../src/load/report/load-junit.ts';
import { overallHistogramOf, type LoadReport } from '../../src/load/report/load-report.ts';
import { renderLoadSummaryJson } from '../../src/load/report/summary-json.ts';
import { renderSvgChart } from '../../src/report/kit/chart.ts';
import { LOAD_REPORT_FILES, writeLoadReports } from '../../src/load/report/write-load-reports.ts';
import { parseXml, type XmlElement } from '../report/findings/xml-tree.ts';
import {
  FORMULA,
  HOSTILE,
  hostileReport,
  readCsv,
  reportOf,
  small,
  SMALL_THRESHOLDS,
  smallSnapshot,
} from './report-fixture.ts';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

const RENDERERS = LOAD_REPORT_FILES.map(({ render }) => render);
// oxlint-disable-next-line no-control-regex -- the control characters in HOSTILE, which every format replaces
const CONTROL = /[\u0000\u0007\u001b]/g;

describe('summary.json', () => {
  test('header, totals, latency, iterations, checks, endpoints and thresholds with the values judged', () => {
    const summary = JSON.parse(renderLoadSummaryJson(small())) as Record<string, unknown>;
    expect(Object.keys(summary)).toEqual([
      'format',
      'scenario',
      'target',
      'seed',
      'engine',
      'afpVersion',
      'stopReason',
      'durationMs',
      'thresholdsFailed',
      'totals',
      'latencyMs',
      'littlesLaw',
      'iterations',
      'checks',
      'endpoints',
      'thresholds',
    ]);
    expect(summary).toMatchObject({
      format: 'afp-load-summary/1',
      scenario: 'escrow-smoke',
      target: { name: 'local', source: 'http://127.0.0.1:8080' },
      seed: '42',
      engine: 'afp',
      afpVersion: '0.1.0',
      stopReason: null,
      durationMs: 4_000,
      thresholdsFailed: 2,
      totals: {
        requests: 16,
        failed: 3,
        failedRate: 0.1875,
        requestsPerSecond: 4,
        statuses: { '0': 1, '200': 11, '201': 2, '500': 2 },
      },
      latencyMs: { count: 16, min: 1, mean: 1.315, p50: 1.007, p90: 2, p95: 2, p99: 2, p999: 2, max: 2 },
      iterations: { started: 5, completed: 4, dropped: 1 },
      checks: [{ name: 'status is 2xx', passes: 3, fails: 1, rate: 0.75 }],
    });
    expect(summary['endpoints']).toEqual([
      {
        endpoint: 'GET /api/v1/games',
        requests: 12,
        failed: 1,
        failedRate: 0.083333,
        statuses: { '0': 1, '200': 11 },
        latencyMs: { count: 12, min: 1, mean: 1.087, p50: 1.005, p90: 1.5, p95: 1.5, p99: 1.5, p999: 1.5, max: 1.5 },
      },
      {
        endpoint: 'escrow.B.create',
        requests: 4,
        failed: 2,
        failedRate: 0.5,
        statuses: { '201': 2, '500': 2 },
        latencyMs: { count: 4, min: 2, mean: 2, p50: 2, p90: 2, p95: 2, p99: 2, p999: 2, max: 2 },
      },
    ]);
    expect(summary['thresholds']).toEqual([
      {
        metric: 'http_req_duration',
        expression: 'p(99)<1',
        value: 2,
        ok: false,
        noData: false,
        abortOnFail: false,
        delayAbortEvalMs: null,
      },
      {
        metric: 'http_req_duration',
        expression: 'p(99)<1000',
        value: 2,
        ok: true,
        noData: false,
        abortOnFail: false,
        delayAbortEvalMs: null,
      },
      {
        metric: 'http_req_duration{endpoint:escrow.B.create}',
        expression: 'max<5',
        value: 2,
        ok: true,
        noData: false,
        abortOnFail: true,
        delayAbortEvalMs: 2_000,
      },
      {
        metric: 'http_req_failed',
        expression: 'rate<0.01',
        value: 0.1875,
        ok: false,
        noData: false,
        abortOnFail: false,
        delayAbortEvalMs: null,
      },
      {
        metric: 'http_reqs{endpoint:nowhere}',
        expression: 'count<1',
        value: 0,
        ok: true,
        noData: true,
        abortOnFail: false,
        delayAbortEvalMs: null,
      },
    ]);
  });

  test('an empty run: zeros, no endpoints, no thresholds', () => {
    const summary = JSON.parse(
      renderLoadSummaryJson(
        reportOf(new LoadRecorder(5).snapshot(), undefined, { seed: undefined, afpVersion: undefined }),
      ),
    ) as Record<string, unknown>;
    expect(summary).toMatchObject({
      seed: null,
      afpVersion: null,
      durationMs: 0,
      thresholdsFailed: 0,
      totals: { requests: 0, failed: 0, failedRate: 0, requestsPerSecond: 0, statuses: {} },
      endpoints: [],
      thresholds: [],
      checks: [],
    });
  });
});

describe('latency.csv and timeseries.csv', () => {
  test('one row per endpoint and an overall row; one row per second, the empty second included', () => {
    expect(renderLatencyCsv(small())).toBe(
      [
        'scope,endpoint,requests,failed,failed_rate,min_ms,mean_ms,p50_ms,p90_ms,p95_ms,p99_ms,p999_ms,max_ms,statuses',
        'endpoint,GET /api/v1/games,12,1,0.083333,1.000,1.087,1.005,1.500,1.500,1.500,1.500,1.500,0:1 200:11',
        'endpoint,escrow.B.create,4,2,0.500000,2.000,2.000,2.000,2.000,2.000,2.000,2.000,2.000,201:2 500:2',
        'overall,,16,3,0.187500,1.000,1.315,1.007,2.000,2.000,2.000,2.000,2.000,0:1 200:11 201:2 500:2',
        '',
      ].join('\n'),
    );
    expect(renderTimeseriesCsv(small())).toBe(
      [
        'second,requests,failed,failed_rate,p50_ms,p99_ms,max_ms,statuses',
        '0,10,0,0.000000,1.004,1.009,1.009,200:10',
        '1,4,2,0.500000,2.000,2.000,2.000,201:2 500:2',
        '2,0,0,0.000000,0.000,0.000,0.000,',
        '3,2,1,0.500000,1.500,1.500,1.500,0:1 200:1',
        '',
      ].join('\n'),
    );
  });

  test("a run's last part-second, after the schedule's end with no request started in it, has no row (no false drop to zero)", () => {
    // 2/s for 2 s: arrivals at 0, 0.5, 1, 1.5 s; the last answer ends the run at 2.005 s.
    const recorder = new LoadRecorder(0);
    for (let index = 0; index < 4; index++)
      recorder.record({
        endpoint: 'GET /ok',
        intendedStartMs: index * 500,
        endMs: index * 500 + 5,
        status: 200,
        failed: false,
      });
    recorder.finish(2_005);
    const seconds = readCsv(renderTimeseriesCsv(reportOf(recorder.snapshot(), {})))
      .slice(1)
      .map((row) => row[0]);
    expect(seconds).toStrictEqual(['0', '1']);
    // A whole second with nothing in it (a stall to the end) keeps its row of zeros.
    recorder.finish(3_000);
    expect(
      readCsv(renderTimeseriesCsv(reportOf(recorder.snapshot(), {})))
        .slice(1)
        .map((row) => row[1]),
    ).toStrictEqual(['2', '2', '0']);
  });

  test('hostile endpoint names read back as text: quoted, control characters replaced, formulas defused', () => {
    const rows = readCsv(renderLatencyCsv(hostileReport()));
    expect(rows.map((row) => row.length)).toEqual([14, 14, 14, 14]);
    expect(rows.slice(1).map((row) => [row[0], row[1]])).toEqual([
      ['endpoint', HOSTILE.toWellFormed().replace(CONTROL, '\ufffd')],
      ['endpoint', `'${FORMULA}`],
      ['overall', ''],
    ]);
    expect(rows[1]?.slice(2, 5)).toEqual(['20', '4', '0.200000']);
  });
});

function testcases(xml: string): XmlElement[] {
  const suite = parseXml(xml).children.find((child) => child.name === 'testsuite');
  return suite?.children.filter((child) => child.name === 'testcase') ?? [];
}

describe('load.junit.xml', () => {
  test('one test case per threshold; a failure says the value observed; no data is said', () => {
    const xml = renderLoadJunit(small());
    const root = parseXml(xml);
    expect(root.attributes).toMatchObject({ tests: '5', failures: '2' });
    const cases = testcases(xml);
    expect(
      cases.map((testcase) => [
        testcase.attributes['name'],
        testcase.attributes['classname'],
        testcase.children.map((child) => child.name).join(),
      ]),
    ).toEqual([
      ['http_req_duration: p(99)<1', 'afp load.http_req_duration', 'failure'],
      ['http_req_duration: p(99)<1000', 'afp load.http_req_duration', ''],
      ['http_req_duration{endpoint:escrow.B.create}: max<5', 'afp load.http_req_duration', ''],
      ['http_req_failed: rate<0.01', 'afp load.http_req_failed', 'failure'],
      ['http_reqs{endpoint:nowhere}: count<1', 'afp load.http_reqs', 'system-out'],
    ]);
    expect(cases[0]?.children[0]?.attributes).toEqual({ message: 'observed 2, threshold p(99)<1', type: 'threshold' });
    expect(cases[3]?.children[0]?.text).toBe('http_req_failed: rate<0.01, observed 0.1875');
    expect(cases[4]?.children[0]?.text).toContain(
      'no data: the metric recorded nothing; k6 judges an empty trend or counter as 0, and passes an empty rate',
    );
  });

  test('no thresholds: an empty suite that passes', () => {
    const xml = renderLoadJunit(reportOf(smallSnapshot(), undefined));
    expect(parseXml(xml).attributes).toMatchObject({ tests: '0', failures: '0' });
    expect(testcases(xml)).toEqual([]);
  });

  test('hostile names stay well-formed XML and read back as the text given (XML-illegal characters as U+FFFD)', () => {
    const xml = renderLoadJunit(hostileReport());
    const root = parseXml(xml);
    const suite = root.children[0];
    const legal = HOSTILE.toWellFormed()
      .replace(CONTROL, '\ufffd')
      .replace(/\uffff/g, '\ufffd');
    expect(suite?.attributes['name']).toBe(`afp load ${legal}`);
    const properties = suite?.children
      .find((child) => child.name === 'properties')
      ?.children.map((property) => [property.attributes['name'], property.attributes['value']]);
    expect(properties?.find(([name]) => name === 'stop-reason')?.[1]).toBe(legal);
    const failing = testcases(xml)[1];
    expect(failing?.attributes['name']).toBe(`http_req_duration{endpoint:${legal}}: p(99)<1`);
    expect(failing?.children[0]?.text).toBe(`http_req_duration{endpoint:${legal}}: p(99)<1, observed 3`);
  });
});

describe('load.html', () => {
  test('the summary table first, then the thresholds with the values observed, four charts, endpoints and checks', () => {
    const html = renderLoadHtml(small());
    const tables = [...html.matchAll(/<table id="([^"]+)">/g)].map((match) => match[1]);
    expect(tables).toEqual(['summary', 'thresholds', 'endpoints', 'checks']);
    const thresholdRows = [...html.matchAll(/<tr class="threshold">([\s\S]*?)<\/tr>/g)].map((match) =>
      [...(match[1] ?? '').matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]),
    );
    expect(thresholdRows).toEqual([
      ['http_req_duration', 'p(99)&lt;1', '2', 'fail', 'no'],
      ['http_req_duration', 'p(99)&lt;1000', '2', 'pass', 'no'],
      ['http_req_duration{endpoint:escrow.B.create}', 'max&lt;5', '2', 'pass', 'yes, after 2.000 s'],
      ['http_req_failed', 'rate&lt;0.01', '0.1875', 'fail', 'no'],
      ['http_reqs{endpoint:nowhere}', 'count&lt;1', '0', 'pass (no data)', 'no'],
    ]);
    expect(html).toContain('<td class="text">3 of 5 passed (exit 5)</td>');
    // one format per column: counts and shares of failures in columns of their own
    const endpointRows = [...html.matchAll(/<tr class="endpoint">([\s\S]*?)<\/tr>/g)].map((match) =>
      [...(match[1] ?? '').matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]),
    );
    expect(endpointRows.map((row) => row.slice(0, 4))).toEqual([
      ['GET /api/v1/games', '12', '1', '8.333%'],
      ['escrow.B.create', '4', '2', '50.000%'],
    ]);
    expect(html).toContain('<th>failed</th><th>failed share</th>');
    expect([...html.matchAll(/<svg class="chart" id="([^"]+)"/g)].map((match) => match[1])).toEqual([
      'chart-latency',
      'chart-throughput',
      'chart-errors',
      'chart-distribution',
    ]);
    expect(html.indexOf('<svg')).toBeGreaterThan(html.indexOf('<table id="thresholds">'));
  });

  test('no empty sections: an empty run without thresholds or checks shows the summary and the charts only', () => {
    const html = renderLoadHtml(reportOf(new LoadRecorder(5).snapshot(), undefined));
    expect([...html.matchAll(/<table id="([^"]+)">/g)].map((match) => match[1])).toEqual(['summary']);
    expect([...html.matchAll(/<section id="([^"]+)">/g)].map((match) => match[1])).toEqual(['charts']);
    expect(html).toContain('<tr><td class="text">thresholds</td><td class="text">none</td></tr>');
    expect(html).toContain('<tr><td class="text">checks</td><td class="text">none</td></tr>');
    expect(html.endsWith('</html>\n')).toBe(true);
  });

  test('no script and no external resource: a CSP that forbids both', () => {
    const html = renderLoadHtml(small());
    expect(/<script|\s(src|href)=/.test(html)).toBe(false);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    );
  });

  test('hostile names are escaped everywhere: no markup from them reaches the page', () => {
    const html = renderLoadHtml(hostileReport());
    expect(html.match(/<script/g)).toBeNull();
    expect(html.match(/<\/td>/g)?.length).toBe(html.match(/<td[ >]/g)?.length);
    expect(html).toContain('&lt;/td&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; ]]&gt; &amp; &#39;q&#39;');
    expect(
      ['\u0000', '\u0007', '\u001b'].some((character) => html.includes(character)),
      'control characters',
    ).toBe(false);
    expect(html.isWellFormed(), 'no lone surrogate').toBe(true);
  });
});

describe('charts', () => {
  test('the HDR distribution: x = 1/(1−p), five points a halving, ending at the last value; ticks 0%, 90%, 99%', () => {
    const points = distributionPoints(overallHistogramOf(small()));
    expect(points.length).toBe(21);
    expect(points.slice(0, 3)).toEqual([
      [1, 1],
      [2 ** 0.2, 1.002],
      [2 ** 0.4, 1.003],
    ]);
    expect(points.at(-1)).toEqual([16, 2]);
    const chart = loadCharts(small())[3];
    expect(chart?.xTicks).toEqual([
      { value: 1, label: '0%' },
      { value: 10, label: '90%' },
    ]);
    const big = new LoadRecorder(0);
    for (let index = 0; index < 2_000; index++)
      big.record({ endpoint: 'x', intendedStartMs: index, endMs: index + 1, status: 200, failed: false });
    expect(loadCharts(reportOf(big.snapshot(), undefined))[3]?.xTicks?.map((tick) => tick.label)).toEqual([
      '0%',
      '90%',
      '99%',
      '99.9%',
    ]);
  });

  test('a run longer than the chart holds is drawn in groups of whole seconds, counts added and percentiles exact', () => {
    const recorder = new LoadRecorder(0);
    const seconds = 3 * TIME_POINTS_MAX;
    for (let second = 0; second < seconds; second++)
      recorder.record({
        endpoint: 'x',
        intendedStartMs: second * 1_000,
        endMs: second * 1_000 + 0.5 * (1 + (second % 3)),
        status: 200,
        failed: second % 3 === 2,
      });
    const [latency, throughput, errors] = loadCharts(reportOf(recorder.snapshot(), undefined));
    expect(latency?.xLabel).toBe('seconds since the start, in groups of 3 s (by intended start)');
    expect(latency?.series.map((series) => series.points.length)).toEqual([
      TIME_POINTS_MAX,
      TIME_POINTS_MAX,
      TIME_POINTS_MAX,
    ]);
    expect(latency?.series.map((series) => series.points[5])).toEqual([
      [15, 1],
      [15, 1.5],
      [15, 1.5],
    ]);
    expect(throughput?.series.map((series) => series.points[5])).toEqual([
      [15, 1],
      [15, 1 / 3],
    ]);
    expect(errors?.series[0]?.points[5]).toEqual([15, 1 / 3]);
  });

  test('a gap (a second without requests) breaks the line; a lone point is a circle', () => {
    const svg = renderSvgChart({
      id: 'c',
      title: 't',
      xLabel: 'x',
      yLabel: 'y',
      xScale: 'linear',
      yFormat: String,
      series: [
        {
          label: 'a',
          color: '#000000',
          points: [
            [0, 1],
            [1, 2],
            [2, null],
            [3, 1],
            [4, null],
            [5, 2],
            [6, 2],
          ],
        },
      ],
    });
    expect(svg.match(/<polyline class="series"/g)?.length).toBe(2);
    expect(svg.match(/<circle class="series"/g)?.length).toBe(1);
  });
});

describe('byte stability and the writer', () => {
  function halves(snapshot: () => LoadSnapshot): LoadSnapshot {
    // The same run recorded by two workers: even and odd requests apart, then merged.
    const whole = snapshot();
    const replay = (keep: (index: number) => boolean): LoadSnapshot => {
      const recorder = new LoadRecorder(10_000);
      let index = 0;
      const record = (sample: Parameters<LoadRecorder['record']>[0]): void => {
        if (keep(index++)) recorder.record(sample);
      };
      for (let i = 0; i < 10; i++)
        record({
          endpoint: 'GET /api/v1/games',
          intendedStartMs: 10_000 + i * 90,
          endMs: 10_001 + i * 90 + i / 1000,
          status: 200,
          failed: false,
        });
      for (let i = 0; i < 4; i++)
        record({
          endpoint: 'escrow.B.create',
          intendedStartMs: 11_000 + i * 100,
          endMs: 11_002 + i * 100,
          status: i < 2 ? 500 : 201,
          failed: i < 2,
        });
      record({ endpoint: 'GET /api/v1/games', intendedStartMs: 13_000, endMs: 13_001.5, status: 200, failed: false });
      record({ endpoint: 'GET /api/v1/games', intendedStartMs: 13_100, endMs: 13_101.5, status: 0, failed: true });
      recorder.finish(14_000);
      return recorder.snapshot();
    };
    const merged = mergeSnapshots([replay((index) => index % 2 === 0), replay((index) => index % 2 === 1)]);
    return { ...merged, iterations: whole.iterations, checks: whole.checks };
  }

  test('the same bytes from the snapshot, its JSON copy (a shard file) and the merge of two workers', () => {
    const report = small();
    const copied: LoadReport = { ...report, snapshot: JSON.parse(JSON.stringify(report.snapshot)) as LoadSnapshot };
    const merged = reportOf(halves(smallSnapshot), SMALL_THRESHOLDS);
    for (const render of RENDERERS) {
      const bytes = render(report);
      expect(render(small())).toBe(bytes);
      expect(render(copied)).toBe(bytes);
      expect(render(merged)).toBe(bytes);
    }
  });

  test('writeLoadReports writes the five files, creating the directory, with the version from package.json', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'afp-load-report-'));
    directories.push(directory);
    const report = { ...small(), afpVersion: undefined };
    const paths = await writeLoadReports(join(directory, 'a', 'b'), report);
    expect(paths).toEqual(
      ['summary.json', 'latency.csv', 'timeseries.csv', 'load.junit.xml', 'load.html'].map((file) =>
        join(directory, 'a', 'b', file),
      ),
    );
    const version = readAfpVersion();
    expect(version).not.toBeNull();
    const withVersion = { ...report, afpVersion: version ?? '' };
    paths.forEach((path, index) => expect(readFileSync(path, 'utf8')).toBe(RENDERERS[index]?.(withVersion)));
  });
});
