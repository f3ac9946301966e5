// `afp load URL` end to end against tiny node:http servers on loopback (ephemeral ports): the
// open model paces its arrivals whatever the latency (about rate × duration requests, every one
// the server saw), a closed loop of N VUs keeps N in flight (Little's law: about N / latency
// requests a second), thresholds decide exit 5, bad flags exit 2 with every problem listed, and a
// URL where nothing listens exits 4 at once. Requests carry the --method, --header and --body given.
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { main as loadEnding, type LoadIo } from '../../src/cli/load.ts';
import { systemLoadClock } from '../../src/load/options.ts';
import { coded } from './ending-code.ts';

const main = coded(loadEnding);

const DIR = mkdtempSync(join(tmpdir(), 'afp-load-url-'));
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
});
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function load(argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: LoadIo = {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    errIsTty: false,
    clock: systemLoadClock(),
    onInterrupt: () => () => undefined,
  };
  const code = await main([...argv], io);
  return { code, out, err };
}

interface Summary {
  readonly totals: { readonly requests: number; readonly failed: number; readonly statuses: Record<string, number> };
  readonly latencyMs: { readonly p50: number; readonly mean: number };
  readonly iterations: { readonly started: number; readonly completed: number; readonly dropped: number };
  readonly endpoints: readonly { readonly endpoint: string; readonly requests: number }[];
  readonly littlesLaw: {
    readonly requestsPerSecond: number;
    readonly inFlight: number;
    readonly concurrency: number;
    readonly concurrencySource: string;
    readonly ok: boolean;
  } | null;
  readonly thresholds: readonly { readonly metric: string; readonly ok: boolean }[];
}

const summaryOf = (out: string): Summary => JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;

describe('afp load URL', () => {
  test('--rate 300/s for 5 s: about 1,500 requests, every one the server saw, no scenario, target file or key', async () => {
    let seen = 0;
    const url = await listen((request, response) => {
      seen += 1;
      request.resume();
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    const out = join(DIR, 'rate');
    const ran = await load([
      `${url}/`,
      '--rate',
      '300/s',
      '--duration',
      '5s',
      '--out',
      out,
      '--threshold',
      'http_req_failed: rate<0.01',
      '-q',
    ]);
    expect(ran.code, ran.err).toBe(0);
    const summary = summaryOf(out);
    expect(summary.totals.requests).toBeGreaterThanOrEqual(1_350);
    expect(summary.totals.requests).toBeLessThanOrEqual(1_650);
    expect(summary.totals.requests).toBe(seen);
    expect(summary.totals.statuses).toEqual({ '200': seen });
    expect(summary.iterations.started).toBe(summary.iterations.completed + 0);
    expect(summary.endpoints.map((endpoint) => endpoint.endpoint)).toEqual(['GET /']);
    expect(summary.littlesLaw?.concurrencySource).toBe('measured on the wire');
    expect(summary.thresholds).toEqual([expect.objectContaining({ metric: 'http_req_failed', ok: true })]);
    expect(ran.out).toMatch(
      /^target: http:\/\/127\.0\.0\.1:\d+\/\nendpoint: GET \/\nplan: constant-arrival-rate 300\/1s for 5s/,
    );
    expect(ran.out).toContain("Little's law:");
  });

  test('a threshold that fails exits 5, the reports still written', async () => {
    const url = await listen((_request, response) => void setTimeout(() => response.writeHead(200).end('ok'), 5));
    const out = join(DIR, 'failing');
    const ran = await load([
      url,
      '--rate',
      '50/s',
      '--duration',
      '1s',
      '--out',
      out,
      '--threshold',
      'http_req_duration: p(95)<1',
      '-q',
    ]);
    expect(ran.code).toBe(5);
    expect(ran.out).toContain('FAIL http_req_duration: p(95)<1');
    expect(summaryOf(out).thresholds).toEqual([expect.objectContaining({ ok: false })]);
  });

  test("--vus 10 against a server answering after 20 ms: a closed loop of 10, at most 500 requests/s, p50 20 ms or more, Little's law agrees", async () => {
    const url = await listen((_request, response) => void setTimeout(() => response.writeHead(200).end('ok'), 20));
    const out = join(DIR, 'vus');
    const ran = await load([url, '--vus', '10', '--duration', '2s', '--out', out, '-q']);
    expect(ran.code, ran.err).toBe(0);
    const summary = summaryOf(out);
    // Lower bounds on latency and upper bounds on rate only: a busy machine slows both, never the other way.
    expect(summary.latencyMs.p50).toBeGreaterThanOrEqual(19.5);
    expect(summary.littlesLaw).toMatchObject({ concurrency: 10, concurrencySource: 'configured VUs', ok: true });
    expect(summary.littlesLaw?.requestsPerSecond).toBeGreaterThan(0);
    expect(summary.littlesLaw?.requestsPerSecond).toBeLessThanOrEqual(10 / 0.0195);
  });

  test('--method, --header and --body reach the target; the endpoint is METHOD /path (the query left out)', async () => {
    const bodies: string[] = [];
    const url = await listen((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        bodies.push(
          `${request.method} ${request.url} ${request.headers['x-run'] ?? ''} ${request.headers['content-type'] ?? ''} ${body}`,
        );
        response.writeHead(201).end('{}');
      });
    });
    const out = join(DIR, 'post');
    const ran = await load([
      '--url',
      `${url}/api/v1/games/coin-flip?x=1`,
      '--method',
      'post',
      '--header',
      'X-Run: r1',
      '--body',
      '{"amount":"1.00"}',
      '--rate',
      '20/s',
      '--duration',
      '1s',
      '--out',
      out,
      '-q',
    ]);
    expect(ran.code, ran.err).toBe(0);
    expect(bodies.length).toBeGreaterThanOrEqual(18);
    expect(new Set(bodies)).toEqual(
      new Set(['POST /api/v1/games/coin-flip?x=1 r1 application/json {"amount":"1.00"}']),
    );
    expect(summaryOf(out).endpoints).toEqual([
      expect.objectContaining({ endpoint: 'POST /api/v1/games/coin-flip', requests: bodies.length }),
    ]);
  });

  test('--method HEAD, PATCH and OPTIONS reach the target; a HEAD answer is read without the body its content-length announces', async () => {
    const seen: string[] = [];
    const url = await listen((request, response) => {
      seen.push(request.method ?? '');
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-length': '13' }).end('{"ok":"body"}'));
    });
    for (const method of ['head', 'PATCH', 'options']) {
      const out = join(DIR, `method-${method}`);
      // A closed loop of 2: a HEAD answer read as if a body followed would stall both VUs after one request each.
      const ran = await load([`${url}/m`, '--method', method, '--vus', '2', '--duration', '1s', '--out', out, '-q']);
      expect(ran.code, ran.err).toBe(0);
      const endpoint = `${method.toUpperCase()} /m`;
      const [row] = summaryOf(out).endpoints;
      expect(row?.endpoint).toBe(endpoint);
      expect(row?.requests).toBeGreaterThan(20);
      expect(summaryOf(out).totals.statuses).toEqual({ '200': row?.requests });
    }
    expect(new Set(seen)).toEqual(new Set(['HEAD', 'PATCH', 'OPTIONS']));
  });

  test('bad flags: exit 2, every problem listed, nothing sent', async () => {
    let seen = 0;
    const url = await listen((_request, response) => void ((seen += 1), response.end()));
    const ran = await load([
      url,
      '--rate',
      '3x',
      '--vus',
      '2',
      '--header',
      'no colon',
      '--method',
      'BREW',
      '--threshold',
      'http_req_duration p95',
      '--threshold',
      'http_req_duration: p(95)<x',
      '--out',
      'influxdb=http://x',
      '--seed',
      '1',
    ]);
    expect(ran.code).toBe(2);
    for (const problem of [
      '--seed applies to a scenario run (afp load SCENARIO --target URL)',
      "--method must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, got 'BREW'",
      "--header 'no colon'",
      'give --rate N/s',
      "--rate '3x'",
      "--threshold 'http_req_duration p95'",
      "'p(95)<x' is not a k6 threshold",
      "unknown output 'influxdb'",
    ])
      expect(ran.err).toContain(problem);
    expect(seen).toBe(0);
  });

  test('a HEAD with a body, and a HEAD through autocannon (whose parser would wait for the announced body): exit 2, nothing sent', async () => {
    let seen = 0;
    const url = await listen((_request, response) => void ((seen += 1), response.end()));
    const withBody = await load([url, '--method', 'HEAD', '--body', '{}', '--rate', '5/s', '--duration', '1s']);
    expect(withBody.code).toBe(2);
    expect(withBody.err).toContain('--method HEAD takes no --body or --body-file');
    const autocannon = await load([url, '--method', 'head', '--engine', 'autocannon', '--duration', '1s']);
    expect(autocannon.code).toBe(2);
    expect(autocannon.err).toContain('--method HEAD with --engine autocannon: autocannon waits for the body');
    expect(seen).toBe(0);
  });

  test("a scenario run's flag given to a URL run names its form, and its value is not taken for a second URL", async () => {
    const ran = await load(['http://127.0.0.1:1/', '--rate', '50/s', '--duration', '2s', '--workers', '2']);
    expect(ran.code).toBe(2);
    expect(ran.err).toContain('--workers applies to a scenario run (afp load SCENARIO --target URL)');
    expect(ran.err).not.toContain('unknown flag');
    expect(ran.err).not.toContain('name one URL');
  });

  test('an answer larger than the 4 MiB kept is still an answer: read to its end, counted, exit 0', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024, 'x');
    const url = await listen((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-length': big.length }).end(big);
    });
    const out = join(DIR, 'big');
    const ran = await load([`${url}/big`, '--rate', '5/s', '--duration', '1s', '--out', out, '--quiet']);
    expect(ran.code, ran.err).toBe(0);
    expect(summaryOf(out).totals).toMatchObject({ requests: 5, failed: 0, statuses: { '200': 5 } });
  });

  test('nothing listens at the URL: exit 4 at once', async () => {
    const url = await listen(() => undefined);
    const server = servers.pop();
    server?.close();
    if (server !== undefined) await once(server, 'close');
    const startedAt = performance.now();
    const ran = await load([url, '--rate', '10/s', '--duration', '10s', '--out', join(DIR, 'down'), '-q']);
    expect(ran.code).toBe(4);
    expect(ran.err).toContain('is not reachable');
    expect(performance.now() - startedAt).toBeLessThan(3_000);
  });
});

describe('afp load URL --engine autocannon', () => {
  // Bounds that hold on a busy machine too: the server answers after 20 ms, so latency is at least
  // that and 10 connections make at most ~500 requests/s; how far below a busy machine falls is not asserted.
  test("a closed loop of 10 connections on a plain URL: at most 500 requests/s at 20 ms or more, Little's law agrees, a JSON-lines stream of the figures", async () => {
    const url = await listen((_request, response) => void setTimeout(() => response.writeHead(200).end('ok'), 20));
    const out = join(DIR, 'autocannon');
    const stream = join(DIR, 'autocannon.jsonl');
    const ran = await load([
      url,
      '--engine',
      'autocannon',
      '--connections',
      '10',
      '--duration',
      '2s',
      '--out',
      out,
      '--out',
      `json=${stream}`,
      '--threshold',
      'http_req_duration: p(50)>=19',
    ]);
    expect(ran.code, ran.err).toBe(0);
    const summary = summaryOf(out);
    expect(summary.latencyMs.p50).toBeGreaterThanOrEqual(19.5);
    expect(summary.littlesLaw).toMatchObject({
      concurrency: 10,
      concurrencySource: 'configured connections',
      ok: true,
    });
    expect(summary.littlesLaw?.requestsPerSecond).toBeGreaterThan(0);
    expect(summary.littlesLaw?.requestsPerSecond).toBeLessThanOrEqual(10 / 0.0195);
    const lines = readFileSync(stream, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { type: string; metric: string; data: { value?: number; tags?: Record<string, string> } },
      );
    // autocannon hands no samples over: its requests come as one k6 http_reqs point per endpoint and status.
    expect(lines.find((line) => line.type === 'Point' && line.metric === 'http_reqs')?.data).toMatchObject({
      tags: { name: 'GET /', method: 'GET', status: '200', scenario: 'default' },
      value: summary.totals.requests,
    });
    const refused = await load([url, '--engine', 'autocannon', '--rate', '3/s']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("--rate applies to afp's own engine only");
    // A flag of the other form is named as such, and its value is no stray positional.
    const targeted = await load([url, '--engine', 'autocannon', '--target', url]);
    expect(targeted.code).toBe(2);
    expect(targeted.err).toContain('--target applies to a run against a target');
    expect(targeted.err).not.toMatch(/unknown flag|name one URL/);
  });

  test('a target that takes connections and never answers: exit 4, saying so (autocannon stops its waiting requests unrecorded)', async () => {
    let taken = 0;
    const url = await listen(() => void (taken += 1));
    const ran = await load([
      url,
      '--engine',
      'autocannon',
      '--connections',
      '3',
      '--duration',
      '1s',
      '--out',
      join(DIR, 'silent'),
    ]);
    expect(ran.code, ran.err).toBe(4);
    expect(ran.err).toContain(
      // The URL as sent (normalised: the origin's path is '/').
      `${new URL(url).href} answered none of the run's requests (3 still waited for an answer when the run ended)`,
    );
    expect(taken).toBe(3);
  });
});
