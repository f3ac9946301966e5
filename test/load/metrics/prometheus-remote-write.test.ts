// `afp load URL --out prometheus=URL --out json=FILE --tag …` against Debian's real Prometheus
// (remote-write receiver on, a temporary TSDB, 127.0.0.1 on a port of this file's range): the run's
// request counts, read back through Prometheus's HTTP API by k6's series names and labels (method,
// name, status, scenario, testid, the --tag values), are summary.json's; the latency histogram's
// buckets give a quantile over `sum by (le)` in the bucket of the run's own p99; the pushes came live
// (more than one sample per series over a 6 s run: one every 5 s and the last at the end); the JSON
// stream is k6's point-per-sample output, one http_reqs point per request.
// Skipped with its reason when /usr/bin/prometheus is missing, except under CI, where it is
// required (prometheus-presence.ts).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main as loadEnding, type LoadIo } from '../../../src/cli/load.ts';
import { systemLoadClock } from '../../../src/load/options.ts';
import { PROMETHEUS_BINARY, prometheusSkipReason } from './prometheus-presence.ts';
import { LATENCY_BUCKETS_SECONDS } from '../../../src/load/metrics/metric-series.ts';
import { K6, K6_SKIP, ROOT } from '../../export/k6-agents-kit.ts';
import { coded } from '../../cli/ending-code.ts';

const main = coded(loadEnding);

const SKIP = prometheusSkipReason();
/** Ports this file may give Prometheus (the first free one). */
const PORTS = [4880, 4881, 4882, 4883, 4884, 4885];
const READY_WITHIN_MS = 30_000;

const DIR = mkdtempSync(join(tmpdir(), 'afp-prometheus-'));
let prometheus: ChildProcess | null = null;
let prometheusLog = '';
let base = '';
let target: Server | null = null;

async function freePort(): Promise<number> {
  for (const port of PORTS) {
    const probe = createNetServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      probe.close();
      await once(probe, 'close');
      return port;
    }
  }
  throw new Error(`none of ports ${PORTS.join(', ')} is free for Prometheus`);
}

async function startPrometheus(): Promise<void> {
  const port = await freePort();
  const config = join(DIR, 'prometheus.yml');
  writeFileSync(config, 'global:\n  scrape_interval: 1m\n');
  prometheus = spawn(
    PROMETHEUS_BINARY,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(DIR, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prometheus.stdout?.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString('utf8')));
  prometheus.stderr?.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString('utf8')));
  base = `http://127.0.0.1:${port}`;
  const untilMs = performance.now() + READY_WITHIN_MS;
  while (performance.now() < untilMs) {
    if (prometheus.exitCode !== null)
      throw new Error(`prometheus exited ${prometheus.exitCode}:\n${prometheusLog.slice(-2_000)}`);
    const ready = await fetch(`${base}/-/ready`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`prometheus was not ready within ${READY_WITHIN_MS} ms:\n${prometheusLog.slice(-2_000)}`);
}

async function query(expression: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const answer = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(expression)}`);
  const body = (await answer.json()) as {
    status: string;
    data: { result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  expect(body.status).toBe('success');
  return body.data.result;
}

beforeAll(async () => {
  if (SKIP !== undefined) return;
  await startPrometheus();
  target = createServer((request, response) => {
    request.resume();
    response.writeHead(request.url === '/teapot' ? 418 : 200).end('ok');
  });
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
}, READY_WITHIN_MS + 5_000);

afterAll(async () => {
  if (target !== null) {
    target.closeAllConnections();
    target.close();
  }
  if (prometheus !== null && prometheus.exitCode === null) {
    prometheus.kill('SIGTERM');
    await once(prometheus, 'exit');
  }
  rmSync(DIR, { recursive: true, force: true });
});

describe.skipIf(SKIP !== undefined)(
  `--out prometheus=URL against ${PROMETHEUS_BINARY}${SKIP === undefined ? '' : ` (skipped: ${SKIP})`}`,
  () => {
    test("the run's request counts, read back through Prometheus's API, are summary.json's; pushed live and at the end", async () => {
      const url = `http://127.0.0.1:${(target?.address() as AddressInfo | undefined)?.port}/`;
      const out = join(DIR, 'out');
      const jsonFile = join(DIR, 'metrics.jsonl');
      let stderr = '';
      let printed = '';
      const io: LoadIo = {
        out: (text) => void (printed += text),
        err: (text) => void (stderr += text),
        errIsTty: false,
        clock: systemLoadClock(),
        onInterrupt: () => () => undefined,
      };
      const code = await main(
        [
          url,
          '--rate',
          '40/s',
          '--duration',
          '6s',
          '--out',
          out,
          '--out',
          `prometheus=${base}/api/v1/write`,
          '--out',
          `json=${jsonFile}`,
          '--tag',
          'testid=prom-rt',
          '--tag',
          'team=payments',
          '-q',
        ],
        io,
      );
      expect(code, stderr).toBe(0);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
        totals: { requests: number };
        latencyMs: { p99: number };
        iterations: { completed: number; dropped: number };
      };
      expect(summary.totals.requests).toBeGreaterThan(200);

      const total = await query('sum(k6_http_reqs_total{job="afp",testid="prom-rt"})');
      expect(Number(total[0]?.value[1])).toBe(summary.totals.requests);
      const byEndpoint = await query('k6_http_reqs_total{testid="prom-rt"}');
      expect(
        byEndpoint.map((row) => [
          row.metric['method'],
          row.metric['name'],
          row.metric['status'],
          row.metric['scenario'],
          row.metric['team'],
          Number(row.value[1]),
        ]),
      ).toEqual([['GET', 'GET /', '200', 'default', 'payments', summary.totals.requests]]);
      const count = await query('k6_http_req_duration_seconds_count{name="GET /",testid="prom-rt"}');
      expect(Number(count[0]?.value[1])).toBe(summary.totals.requests);
      const p99 = await query('k6_http_req_duration_p99{name="GET /",testid="prom-rt"}');
      expect(Number(p99[0]?.value[1]) * 1000).toBeCloseTo(summary.latencyMs.p99, 2);
      // The fixed buckets add up across series (shards, workers): a quantile over sum by (le) is the query a
      // k6 user writes; it lies within the bucket that holds the run's own p99.
      const fromBuckets = await query(
        'histogram_quantile(0.99, sum by (le) (k6_http_req_duration_seconds_bucket{testid="prom-rt"}))',
      );
      const bucketP99Seconds = Number(fromBuckets[0]?.value[1]);
      const bounds = [0, ...LATENCY_BUCKETS_SECONDS];
      const holding = bounds.findIndex((bound) => summary.latencyMs.p99 / 1000 <= bound);
      expect(bucketP99Seconds).toBeGreaterThanOrEqual(bounds[Math.max(0, holding - 1)] ?? 0);
      expect(bucketP99Seconds).toBeLessThanOrEqual(bounds[holding] ?? Number.POSITIVE_INFINITY);
      const iterations = await query('k6_iterations_total{testid="prom-rt"}');
      expect(Number(iterations[0]?.value[1])).toBe(summary.iterations.completed);
      const failedRate = await query('k6_http_req_failed_rate{testid="prom-rt"}');
      expect(Number(failedRate[0]?.value[1])).toBe(0);
      // Live: a push every 5 s while the run went, and the last at its end.
      const samples = await query('count_over_time(k6_http_reqs_total{name="GET /",testid="prom-rt"}[5m])');
      expect(Number(samples[0]?.value[1])).toBeGreaterThanOrEqual(2);
      expect(stderr + printed).toContain('testid prom-rt');

      // --out json=FILE: k6's own JSON output, a point per request.
      const points = readFileSync(jsonFile, 'utf8')
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as {
              type: string;
              metric: string;
              data: { value?: number; tags?: Record<string, string> };
            },
        )
        .filter((line) => line.type === 'Point' && line.metric === 'http_reqs');
      expect(points).toHaveLength(summary.totals.requests);
      expect(points[0]?.data.tags).toMatchObject({ name: 'GET /', status: '200', testid: 'prom-rt', team: 'payments' });
    });

    // Without a k6 (outside CI), skipped with its reason, as every k6 test is (test/fixtures/k6-binary.ts).
    test.skipIf(K6_SKIP !== undefined)(
      `docs/grafana/afp-k6-load.json's queries read afp's run and a real k6 run's remote write alike${K6_SKIP === undefined ? '' : ` (skipped: ${K6_SKIP})`}`,
      async () => {
        const url = `http://127.0.0.1:${(target?.address() as AddressInfo | undefined)?.port}/`;
        const script = join(DIR, 'k6-url.js');
        writeFileSync(
          script,
          [
            "import http from 'k6/http';",
            "export const options = { scenarios: { default: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '4s', preAllocatedVUs: 4 } } };",
            `export default function () { http.get(${JSON.stringify(url)}); }`,
          ].join('\n'),
        );
        const ran = await new Promise<number>((resolve) =>
          execFile(
            K6,
            ['run', '--quiet', '--address', '', '--tag', 'testid=k6-rt', '--out', 'experimental-prometheus-rw', script],
            {
              env: {
                ...process.env,
                K6_NO_USAGE_REPORT: 'true',
                K6_PROMETHEUS_RW_SERVER_URL: `${base}/api/v1/write`,
                K6_PROMETHEUS_RW_PUSH_INTERVAL: '1s',
                K6_PROMETHEUS_RW_TREND_STATS: 'p(99),p(95),p(90),med',
              },
              timeout: 60_000,
            },
            (error) => resolve(error === null ? 0 : typeof error.code === 'number' ? error.code : 1),
          ),
        );
        expect(ran).toBe(0);
        const dashboard = JSON.parse(readFileSync(join(ROOT, 'docs', 'grafana', 'afp-k6-load.json'), 'utf8')) as {
          panels: { title: string; targets: { refId: string; expr: string }[] }[];
        };
        // What each run is expected to leave empty: a URL run has no checks; k6 writes no fixed buckets, and
        // its native histogram only when asked (the panel's description says so); afp writes no native one.
        const emptyFor: Record<string, string[]> = {
          'prom-rt': ['Checks/A', 'Latency p99 across shards (histogram)/B'],
          'k6-rt': ['Checks/A', 'Latency p99 across shards (histogram)/A', 'Latency p99 across shards (histogram)/B'],
        };
        for (const [testid, empty] of Object.entries(emptyFor)) {
          for (const panel of dashboard.panels) {
            for (const { refId, expr } of panel.targets) {
              const key = `${panel.title}/${refId}`;
              const result = await query(
                expr.replaceAll('$testid', testid).replaceAll('$__rate_interval', '1m').replaceAll('$__range', '5m'),
              );
              expect(result.length > 0, `${testid} ${key}: ${expr}`).toBe(!empty.includes(key));
            }
          }
        }
      },
    );
  },
);
