// The URL test of `afp load --requests FILE` exported (`afp export k6 --requests FILE`) and run on the
// real k6 (test/fixtures/k6-binary.ts: K6_BIN, PATH, ../shared/tools) against the same node:http
// server as afp load: the same requests in the same order, the same count per request, and every
// check's passes and fails the same, name for name (k6's --summary-export root_group.checks against
// afp's summary.json). --tag reaches k6's options.tags (k6's own JSON output carries it on every
// point), and --insecure-skip-tls-verify k6's insecureSkipTLSVerify against a self-signed https server.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main as exportEnding } from '../../src/cli/export.ts';
import { main as loadEnding } from '../../src/cli/load.ts';
import { systemLoadClock } from '../../src/load/options.ts';
import { k6ForTests } from '../fixtures/k6-binary.ts';
import { selfSignedCertificate } from '../fixtures/self-signed.ts';
import { coded } from '../cli/ending-code.ts';

const exportMain = coded(exportEnding);
const loadMain = coded(loadEnding);

const { path: K6, skip: K6_SKIP } = k6ForTests();
const scratch = mkdtempSync(join(tmpdir(), 'afp-k6-url-test-'));
const seen: string[] = [];
let server: Server | null = null;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push(`${request.method} ${request.url} ${request.headers['x-run'] ?? ''} ${body}`.trim());
      if (request.url === '/items')
        response.writeHead(201, { 'content-type': 'application/json' }).end('{"ok": true, "item": {"id": 7}}');
      else if (request.url === '/flaky') response.writeHead(503).end('down');
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('all ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (server !== null) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
  rmSync(scratch, { recursive: true, force: true });
});

async function runExport(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await exportMain(['k6', ...args], { out: (text) => (stdout += text), err: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

async function runLoad(args: readonly string[]): Promise<{ code: number; printed: string }> {
  let printed = '';
  const io = {
    out: (line: string) => void (printed += line),
    err: (line: string) => void (printed += line),
    errIsTty: false,
    clock: systemLoadClock(),
    onInterrupt: () => () => undefined,
  };
  return { code: await loadMain([...args], io), printed };
}

function k6(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      K6,
      [...args],
      { timeout: 40_000, env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    );
  });
}

interface K6Summary {
  readonly metrics: Readonly<Record<string, { count?: number; passes?: number; fails?: number }>>;
  readonly root_group: { readonly checks: Readonly<Record<string, { name: string; passes: number; fails: number }>> };
}

const REQUESTS = (origin: string): string =>
  [
    '- name: home',
    `  url: ${origin}/`,
    '  checks: { status: 200, body_contains: "all ok" }',
    '- method: POST',
    `  url: ${origin}/items`,
    '  headers: { x-run: r1 }',
    '  body: { sku: a-1 }',
    '  checks: { status_in: [200, 201], json: { path: $.item.id, equals: 7 } }',
    '- name: flaky',
    `  url: ${origin}/flaky`,
    '  checks: { status: 200, json: { path: $.ok, equals: true } }',
  ].join('\n');

describe('afp export k6 --requests FILE', () => {
  test('the script: REQUESTS in order, check() calls named as afp names them, --tag as options.tags', async () => {
    const file = join(scratch, 'shape.yaml');
    writeFileSync(file, REQUESTS('http://127.0.0.1:9'));
    const exported = await runExport(['--requests', file, '--rate', '10/s', '-d', '2s', '--tag', 'team=shop']);
    expect(exported.code, exported.stderr).toBe(0);
    const script = exported.stdout;
    expect(script).toContain("import { check } from 'k6';");
    expect(script).toContain('  tags: {\n    team: "shop",\n  },');
    expect(script).toContain('      tags: { endpoint: "home", name: "home" },');
    expect(script).toContain('  check(send(0), {\n    "home: status is 200": (r) => r.status === 200,');
    expect(script).toContain(
      '    "POST /items: $.item.id is 7": (r) => r.status !== 0 && jsonAt(r, ["item", "id"]) === 7,',
    );
    expect(script.indexOf('send(0)')).toBeLessThan(script.indexOf('send(1)'));
    expect(script.indexOf('send(1)')).toBeLessThan(script.indexOf('send(2)'));
    expect(script).not.toContain('AFP_URL');
    const mixed = await runExport(['--requests', file, `${base}/`, '--method', 'POST', '--rate', '10/s']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(`the URL '${base}/', --method describe a single URL's`);
  });

  test.skipIf(K6_SKIP !== undefined)(
    'k6 and afp load send the same requests, as many of each, and count every check alike, name for name',
    async () => {
      const file = join(scratch, 'same.yaml');
      writeFileSync(file, REQUESTS(base));
      const profile = ['--rate', '10/s', '-d', '2s', '--threshold', 'checks: rate>0.5'];
      const script = join(scratch, 'same.js');
      const exported = await runExport(['--requests', file, ...profile, '--tag', 'team=shop', '--out', script]);
      expect(exported.code, exported.stderr).toBe(0);
      seen.length = 0;
      const summaryFile = join(scratch, 'same-summary.json');
      const points = join(scratch, 'same-points.json');
      const ran = await k6(['run', '--quiet', '--summary-export', summaryFile, '--out', `json=${points}`, script]);
      expect(ran.code, ran.stdout + ran.stderr).toBe(0);
      const onK6 = [...seen];
      const k6Summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as K6Summary;
      seen.length = 0;
      const out = join(scratch, 'same-afp');
      const afp = await runLoad(['--requests', file, ...profile, '--out', out, '-q']);
      expect(afp.code, afp.printed).toBe(0);
      const onAfp = [...seen];
      // 10/s for 2 s: 20 iterations of 3 requests on both engines (k6 sends nothing past afp's arrivals).
      for (const wire of [onK6, onAfp]) {
        expect(wire.filter((line) => line === 'GET /')).toHaveLength(20);
        expect(wire.filter((line) => line === 'POST /items r1 {"sku":"a-1"}')).toHaveLength(20);
      }
      const afpSummary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
        endpoints: { endpoint: string; requests: number }[];
        checks: { name: string; passes: number; fails: number }[];
      };
      for (const row of afpSummary.endpoints)
        expect(k6Summary.metrics[`http_reqs{endpoint:${row.endpoint}}`]?.count, row.endpoint).toBe(row.requests);
      const k6Checks = Object.values(k6Summary.root_group.checks)
        .map((check) => ({ name: check.name, passes: check.passes, fails: check.fails }))
        .sort((a, b) => (a.name < b.name ? -1 : 1));
      expect(k6Checks).toEqual(afpSummary.checks.map(({ name, passes, fails }) => ({ name, passes, fails })));
      expect(k6Checks.find((check) => check.name === 'flaky: status is 200')).toEqual({
        name: 'flaky: status is 200',
        passes: 0,
        fails: 20,
      });
      // --tag reached k6: every point of its JSON output carries it.
      const httpPoints = readFileSync(points, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"type":"Point"') && line.includes('"metric":"http_reqs"'));
      expect(httpPoints).toHaveLength(60);
      for (const line of httpPoints) expect(line).toContain('"team":"shop"');
    },
  );

  const certificate = selfSignedCertificate();
  test.skipIf(K6_SKIP !== undefined || 'why' in certificate)(
    '--insecure-skip-tls-verify: k6 takes a self-signed https server only with insecureSkipTLSVerify, as afp load does',
    async () => {
      if ('why' in certificate) return;
      const secure = createHttpsServer({ cert: certificate.cert, key: certificate.key }, (request, response) => {
        request.resume();
        response.writeHead(200).end('all ok');
      });
      secure.listen(0, '127.0.0.1');
      await once(secure, 'listening');
      const url = `https://127.0.0.1:${(secure.address() as AddressInfo).port}/`;
      try {
        for (const insecure of [true, false]) {
          const script = join(scratch, `tls-${insecure}.js`);
          const flags = [url, '--rate', '5/s', '-d', '1s', '--check', 'status=200', '--threshold', 'checks: rate==1'];
          const exported = await runExport([
            ...flags,
            ...(insecure ? ['--insecure-skip-tls-verify'] : []),
            '--out',
            script,
          ]);
          expect(exported.code, exported.stderr).toBe(0);
          expect(readFileSync(script, 'utf8').includes('insecureSkipTLSVerify: true')).toBe(insecure);
          const ran = await k6(['run', '--quiet', script]);
          // Without it every request fails its TLS handshake, its check with it: the threshold fails (99).
          expect(ran.code, ran.stdout + ran.stderr).toBe(insecure ? 0 : 99);
        }
      } finally {
        secure.closeAllConnections();
        secure.close();
        await once(secure, 'close');
      }
    },
  );
});
