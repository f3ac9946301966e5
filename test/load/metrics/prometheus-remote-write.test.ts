// `afp load URL --out prometheus=URL --out json=FILE` against Debian's real Prometheus (remote-write
// receiver on, a temporary TSDB, 127.0.0.1 on a port of this file's range): the run's request
// counts, read back through Prometheus's HTTP API, are summary.json's; the pushes came live (more
// than one sample per series over a 6 s run: one every 5 s and the last at the end), labelled with
// afp's endpoint names; the JSON-lines stream's last push holds the same figures.
// Skipped with its reason when /usr/bin/prometheus is missing, except under CI, where it is
// required (prometheus-presence.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main, type LoadIo } from '../../../src/cli/load.ts';
import { systemLoadClock } from '../../../src/load/generator.ts';
import { PROMETHEUS_BINARY, prometheusSkipReason } from './prometheus-presence.ts';

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
      const io: LoadIo = {
        out: () => undefined,
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

      const total = await query('sum(afp_http_reqs_total{job="afp"})');
      expect(Number(total[0]?.value[1])).toBe(summary.totals.requests);
      const byEndpoint = await query('afp_http_reqs_total');
      expect(byEndpoint.map((row) => [row.metric['endpoint'], row.metric['status'], Number(row.value[1])])).toEqual([
        ['GET /', '200', summary.totals.requests],
      ]);
      const count = await query('afp_http_req_duration_seconds_count{endpoint="GET /"}');
      expect(Number(count[0]?.value[1])).toBe(summary.totals.requests);
      const p99 = await query('afp_http_req_duration_seconds{endpoint="GET /",quantile="0.99"}');
      expect(Number(p99[0]?.value[1]) * 1000).toBeCloseTo(summary.latencyMs.p99, 2);
      const iterations = await query('afp_iterations_total');
      expect(Number(iterations[0]?.value[1])).toBe(summary.iterations.completed);
      // Live: a push every 5 s while the run went, and the last at its end.
      const samples = await query('count_over_time(afp_http_reqs_total{endpoint="GET /"}[5m])');
      expect(Number(samples[0]?.value[1])).toBeGreaterThanOrEqual(2);

      const lines = readFileSync(jsonFile, 'utf8')
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as { time_ms: number; metric: string; labels: Record<string, string>; value: number },
        );
      const lastTime = Math.max(...lines.map((line) => line.time_ms));
      expect(new Set(lines.map((line) => line.time_ms)).size).toBeGreaterThanOrEqual(2);
      expect(lines.find((line) => line.time_ms === lastTime && line.metric === 'afp_http_reqs_total')).toMatchObject({
        labels: { endpoint: 'GET /', status: '200', job: 'afp' },
        value: summary.totals.requests,
      });
    });
  },
);
