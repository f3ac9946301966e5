// `afp load --requests FILE` and `afp load URL --check …` end to end against node:http servers on
// loopback: each iteration sends the file's requests in order (the server sees them in that order,
// iteration after iteration, on two origins), each answer's checks are counted per check as k6
// counts check() results (summary.json, the ✓/✗ summary lines, `checks` points in --out json),
// a `checks: rate>…` threshold judges them (exit 5 when it fails), and a bad file exits 2 naming
// the item and the field.
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { main as loadEnding, type LoadIo } from '../../src/cli/load.ts';
import { systemLoadClock } from '../../src/load/options.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(loadEnding);

const DIR = mkdtempSync(join(tmpdir(), 'afp-url-requests-'));
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
  readonly endpoints: readonly { readonly endpoint: string; readonly requests: number }[];
  readonly checks: readonly { readonly name: string; readonly passes: number; readonly fails: number }[];
  readonly iterations: { readonly completed: number };
}

const summaryOf = (out: string): Summary => JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;

/** A server that logs `METHOD path body` and answers /items with 201 {"ok":true,"id":7}, /health with 200 "ok", /slow-fail 503. */
async function shop(seen: string[]): Promise<string> {
  return listen((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push(`${request.method} ${request.url} ${body}`.trim());
      if (request.url === '/items')
        response.writeHead(201, { 'content-type': 'application/json' }).end('{"ok": true, "item": {"id": 7}}');
      else if (request.url === '/flaky') response.writeHead(503).end('down');
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('all ok');
    });
  });
}

describe('afp load --requests FILE', () => {
  test('each iteration sends the list in order, across two origins; per-request counts and per-check passes and fails, k6-style', async () => {
    const seen: string[] = [];
    const other: string[] = [];
    const base = await shop(seen);
    const second = await shop(other);
    const file = join(DIR, 'shop.yaml');
    writeFileSync(
      file,
      [
        '- name: home',
        `  url: ${base}/`,
        '  checks: { status: 200, body_contains: "all ok" }',
        '- method: post',
        `  url: ${base}/items`,
        '  headers: { x-run: r1 }',
        '  body: { sku: a-1 }',
        '  checks:',
        '    status_in: [200, 201]',
        '    json: { path: $.item.id, equals: 7 }',
        '- name: flaky',
        `  url: ${second}/flaky`,
        '  checks: { status: 200 }',
      ].join('\n'),
    );
    const out = join(DIR, 'shop');
    const json = join(DIR, 'shop.k6.json');
    const ran = await load([
      '--requests',
      file,
      '--vus',
      '1',
      '-d',
      '1s',
      '--threshold',
      'checks: rate>0.7',
      '--out',
      out,
      '--out',
      `json=${json}`,
      '-q',
    ]);
    expect(ran.code, ran.out + ran.err).toBe(0);
    const iterations = other.length;
    expect(iterations).toBeGreaterThan(5);
    // One VU: the list in order, iteration after iteration (the third request goes to the other origin).
    expect(seen).toEqual(Array.from({ length: iterations }, () => ['GET /', 'POST /items {"sku":"a-1"}']).flat());
    const summary = summaryOf(out);
    expect(summary.iterations.completed).toBe(iterations);
    expect(Object.fromEntries(summary.endpoints.map((row) => [row.endpoint, row.requests]))).toEqual({
      home: iterations,
      'POST /items': iterations,
      flaky: iterations,
    });
    expect(summary.checks).toEqual([
      { name: 'POST /items: $.item.id is 7', passes: iterations, fails: 0, rate: 1 },
      { name: 'POST /items: status in 200, 201', passes: iterations, fails: 0, rate: 1 },
      { name: 'flaky: status is 200', passes: 0, fails: iterations, rate: 0 },
      { name: 'home: body contains "all ok"', passes: iterations, fails: 0, rate: 1 },
      { name: 'home: status is 200', passes: iterations, fails: 0, rate: 1 },
    ]);
    expect(ran.out).toContain(`checks: 80.00% ✓ ${4 * iterations} ✗ ${iterations}\n`);
    expect(ran.out).toContain('  ✓ home: status is 200\n');
    expect(ran.out).toContain(`  ✗ flaky: status is 200\n    ↳ 0.00% — ✓ 0 / ✗ ${iterations}\n`);
    expect(ran.out).toContain('endpoints: home, POST /items, flaky\n');
    expect(ran.out).toMatch(/pass checks: rate>0\.7 \(observed 0\.8000\)/);
    // k6's JSON output: a `checks` point of 1 or 0 per check per answer.
    const points = readFileSync(json, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { type: string; metric: string; data: { value: number; tags?: Record<string, string> } },
      )
      .filter((line) => line.type === 'Point' && line.metric === 'checks');
    expect(points).toHaveLength(5 * iterations);
    expect(
      points.filter((point) => point.data.tags?.['check'] === 'flaky: status is 200').map((point) => point.data.value),
    ).toEqual(Array(iterations).fill(0));
  });

  test('a checks threshold the answers miss exits 5; --check on a single URL: status, status list, body and JSON', async () => {
    const seen: string[] = [];
    const base = await shop(seen);
    const out = join(DIR, 'single');
    const ran = await load([
      `${base}/items`,
      '--method',
      'POST',
      '--body',
      '{}',
      '--rate',
      '20/s',
      '-d',
      '1s',
      '--check',
      'status=201',
      '--check',
      'status=200,204',
      '--check',
      'body~"ok": true',
      '--check',
      'json:$.ok=true',
      '--check',
      'json:$.item.id="7"',
      '--threshold',
      'checks: rate>0.99',
      '--out',
      out,
      '-q',
    ]);
    expect(ran.code, ran.out + ran.err).toBe(5);
    const sent = seen.length;
    expect(sent).toBeGreaterThanOrEqual(18);
    expect(Object.fromEntries(summaryOf(out).checks.map((check) => [check.name, [check.passes, check.fails]]))).toEqual(
      {
        'POST /items: status is 201': [sent, 0],
        'POST /items: status in 200, 204': [0, sent],
        'POST /items: body contains "\\"ok\\": true"': [sent, 0],
        'POST /items: $.ok is true': [sent, 0],
        'POST /items: $.item.id is "7"': [0, sent],
      },
    );
    expect(ran.out).toContain('FAIL checks: rate>0.99 (observed 0.6000)');
  });

  test('a bad file or flags beside it: exit 2, every problem named by its item and field; nothing sent', async () => {
    const seen: string[] = [];
    const base = await shop(seen);
    const file = join(DIR, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify([
        { name: 'home', url: `${base}/`, checks: { status: 99, body_has: 'x' } },
        { method: 'FETCH', url: 'ftp://x/', colour: 'red' },
        { method: 'HEAD', url: `${base}/`, body: 'x', checks: { json: { path: 'ok', equals: [1] } } },
      ]),
    );
    const bad = await load(['--requests', file, '--rate', '5/s', '--header', 'X-A: 1']);
    expect(bad.code).toBe(2);
    for (const problem of [
      '--requests FILE gives every request its url, method, headers, body and checks: --header describes a single URL',
      'request 1 (home): checks.status: a status is a whole number 100..599',
      'request 1 (home): checks.body_has: not a check (known: status, status_in, body_contains, json)',
      'request 2: colour is not a field (name, method, url, headers, body, checks)',
      'request 2: url: an absolute http(s) URL is required',
      'request 2: method: one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      'request 3: body: a HEAD request carries no body',
      'request 3: checks.json.path: a path such as $.ok',
    ])
      expect(bad.err).toContain(problem);
    const list = Array.from({ length: 101 }, () => ({ url: `${base}/` }));
    writeFileSync(file, JSON.stringify(list));
    const long = await load(['--requests', file, '--rate', '5/s']);
    expect(long.code).toBe(2);
    expect(long.err).toContain('a list of 1 to 100 requests (each with a url), got 101 items');
    writeFileSync(file, '- url: [unclosed');
    const broken = await load(['--requests', file, '--rate', '5/s']);
    expect(broken.code).toBe(2);
    expect(broken.err).toContain('not YAML or JSON');
    const flag = await load([`${base}/`, '--rate', '5/s', '--check', 'status=2000', '--check', 'headers~x']);
    expect(flag.code).toBe(2);
    expect(flag.err).toContain("--check 'status=2000': a status is a whole number 100..599");
    expect(flag.err).toContain(
      "--check 'headers~x': not a check: status=200, status=200,201, body~TEXT or json:$.path=VALUE",
    );
    expect(seen).toEqual([]);
  });
});
