// `afp export k6 --url URL …` (or the URL as its argument, as `afp load URL` takes it): the URL run afp load makes, as a k6 script that the real k6 of
// K6_BIN, PATH or ../shared/tools gives (test/fixtures/k6-binary.ts) takes (`k6 inspect`: the executor, maxVUs and thresholds as given) and runs
// against a tiny node:http server on loopback: every request the server saw carries afp's method,
// headers and body, k6 counts them under the endpoint tag `METHOD /path`, and a failing threshold
// fails k6 (exit 99) as it exits 5 in afp. Bad flags exit 2 with every problem listed.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main as exportEnding } from '../../src/cli/export.ts';
import { main as loadEnding } from '../../src/cli/load.ts';
import { systemLoadClock } from '../../src/load/options.ts';
import { k6ForTests } from '../fixtures/k6-binary.ts';
import { coded } from '../cli/ending-code.ts';

const exportMain = coded(exportEnding);
const loadMain = coded(loadEnding);

const ROOT = join(import.meta.dirname, '..', '..');
const { path: K6, skip: K6_SKIP } = k6ForTests();
const scratch = mkdtempSync(join(tmpdir(), 'afp-k6-url-'));
const seen: string[] = [];
let server: Server | null = null;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push(
        `${request.method} ${request.url} ${request.headers['x-run'] ?? ''} ${request.headers['content-type'] ?? ''} ${body}`,
      );
      response.writeHead(201, { 'content-type': 'application/json' }).end('{}');
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

function k6(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      K6,
      [...args],
      { timeout: 25_000, env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
      },
    );
  });
}

interface Summary {
  readonly metrics: Readonly<Record<string, { count?: number; value?: number; thresholds?: Record<string, boolean> }>>;
}

describe('afp export k6 --url', () => {
  test("--rate carries afp load's arrival count: an iteration k6 starts past it (a race at its stop) sends nothing; --vus none", async () => {
    const open = await runExport(['http://127.0.0.1:9/ok', '--rate', '20/s', '--duration', '2s']);
    expect(open.code, open.stderr).toBe(0);
    expect(open.stdout).toContain("import exec from 'k6/execution';");
    expect(open.stdout).toContain('const ARRIVALS = 40;');
    expect(open.stdout).toContain('  if (exec.scenario.iterationInTest >= ARRIVALS) return;\n  send(0);');
    const closed = await runExport(['http://127.0.0.1:9/ok', '--vus', '2', '--duration', '2s']);
    expect(closed.code, closed.stderr).toBe(0);
    expect(closed.stdout).not.toContain('ARRIVALS');
  });

  test.skipIf(K6_SKIP !== undefined)(
    "a threshold on iterations is judged on afp_iterations, the iterations within afp load's arrivals: count==N holds in k6 as in afp load",
    async () => {
      // k6 1.3 now and then starts one iteration past the schedule (it sends nothing): `iterations:
      // count==600` failed in 1 of 4 k6 runs of a 200/s, 3 s export with count=601 (prober 67c).
      const exported = await runExport([
        `${base}/iterations`,
        '--rate',
        '20/s',
        '--duration',
        '2s',
        '--threshold',
        'iterations: count==40',
      ]);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toContain('    afp_iterations: ["count==40"],');
      expect(exported.stdout).not.toMatch(/^ {4}"?iterations/m);
      expect(exported.stdout).toContain("const ITERATIONS = new Counter('afp_iterations');");
      expect(exported.stdout).toContain(
        '  if (exec.scenario.iterationInTest >= ARRIVALS) return;\n  ITERATIONS.add(1);\n',
      );
      const script = join(scratch, 'iterations.js');
      writeFileSync(script, exported.stdout);
      const summaryFile = join(scratch, 'iterations-summary.json');
      const run = await k6(['run', '--quiet', '--summary-export', summaryFile, script]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
      expect(summary.metrics['afp_iterations']?.count).toBe(40);
      // Without a threshold on it, the script counts nothing of its own.
      const plain = await runExport([`${base}/iterations`, '--rate', '20/s', '--duration', '2s']);
      expect(plain.stdout).not.toContain('afp_iterations');
    },
  );

  test.skipIf(K6_SKIP !== undefined)(
    'k6 inspect reads the open-model profile; k6 run sends what afp load sends, tagged METHOD /path',
    async () => {
      const script = join(scratch, 'rate.js');
      const flags = [
        '--url',
        `${base}/api/v1/games/coin-flip?x=1`,
        '--method',
        'POST',
        '--header',
        'X-Run: r1',
        '--body',
        '{"amount":"1.00"}',
        '--rate',
        '40/s',
        '--max-vus',
        '20',
        '--duration',
        '2s',
        '--threshold',
        'http_req_duration: p(95)<2000',
        '--threshold',
        'http_req_failed: rate<0.01',
      ];
      const exported = await runExport([...flags, '--out', script]);
      expect(exported.code, exported.stderr).toBe(0);
      expect((await runExport(flags)).stdout).toBe(readFileSync(script, 'utf8'));
      const inspected = await k6(['inspect', script]);
      expect(inspected.code, inspected.stderr).toBe(0);
      const options = JSON.parse(inspected.stdout) as {
        scenarios: Record<string, Record<string, unknown>>;
        thresholds: Record<string, unknown>;
      };
      expect(options.scenarios['url']).toMatchObject({
        executor: 'constant-arrival-rate',
        rate: 40,
        timeUnit: '1s',
        duration: '1.999s', // k6 inspect's form of the script's 1999ms
        maxVUs: 20,
      });
      expect(Object.keys(options.thresholds).sort()).toEqual([
        'dropped_iterations',
        'http_req_duration',
        'http_req_failed',
        'http_reqs{endpoint:POST /api/v1/games/coin-flip}',
      ]);

      seen.length = 0;
      const summaryPath = join(scratch, 'rate.summary.json');
      const ran = await k6([
        'run',
        '--no-usage-report',
        '--quiet',
        '--no-color',
        '--summary-export',
        summaryPath,
        script,
      ]);
      expect(ran.code, ran.stderr).toBe(0);
      expect(existsSync(summaryPath)).toBe(true);
      const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as Summary;
      // afp load's 40/s for 2 s is 80 arrivals. k6 sent 81 with duration 2s (an arrival at the end
      // itself), 80 with 1999ms, now and then still 81 (its clock, not its schedule); fewer when busy.
      expect(seen.length).toBeGreaterThanOrEqual(76);
      expect(seen.length).toBeLessThanOrEqual(81);
      expect(new Set(seen)).toEqual(
        new Set(['POST /api/v1/games/coin-flip?x=1 r1 application/json {"amount":"1.00"}']),
      );
      expect(summary.metrics['http_reqs{endpoint:POST /api/v1/games/coin-flip}']?.count).toBe(seen.length);
      expect(summary.metrics['http_req_failed']?.value).toBe(0);
    },
  );

  test.skipIf(K6_SKIP !== undefined)(
    'the URL as the argument (afp load URL); --vus N is constant-vus; a failing threshold fails k6 (99), as afp exits 5',
    async () => {
      const script = join(scratch, 'vus.js');
      const exported = await runExport([
        `${base}/`,
        '--vus',
        '2',
        '--duration',
        '1s',
        '--threshold',
        'http_req_duration: p(95)<0.0001',
        '--out',
        script,
      ]);
      expect(exported.code, exported.stderr).toBe(0);
      const inspection = await k6(['inspect', script]);
      expect(inspection.code, inspection.stderr).toBe(0);
      const inspected = JSON.parse(inspection.stdout) as { scenarios: Record<string, Record<string, unknown>> };
      expect(inspected.scenarios['url']).toMatchObject({ executor: 'constant-vus', vus: 2, duration: '1s' });
      const ran = await k6(['run', '--no-usage-report', '--quiet', '--no-color', script]);
      expect(ran.code).toBe(99);
    },
  );

  test('--method HEAD, PATCH and OPTIONS: the script sends that method (k6 reads a HEAD answer without a body)', async () => {
    for (const method of ['head', 'PATCH', 'Options']) {
      const exported = await runExport([`${base}/m`, '--method', method, '--rate', '10/s', '--duration', '1s']);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toContain(`    method: "${method.toUpperCase()}",`);
      expect(exported.stdout).toContain(
        `tags: { endpoint: "${method.toUpperCase()} /m", name: "${method.toUpperCase()} /m" }`,
      );
    }
    const refused = await runExport([`${base}/m`, '--method', 'HEAD', '--body', '{}', '--rate', '10/s']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--method HEAD takes no --body or --body-file');
  });

  test('--out into a folder not made yet; --k8s N beside the script (no AFP_TARGET: the script holds its URL); the URL as sent, percent-encoded; --seed refused', async () => {
    const script = join(scratch, 'later', 'deeper', 'url.js');
    const exported = await runExport([
      `${base}/p?r=é`,
      '--rate',
      '5/s',
      '--duration',
      '1s',
      '--k8s',
      '2',
      '--out',
      script,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(script, 'utf8')).toContain(`    url: __ENV.AFP_URL || "${base}/p?r=%C3%A9",`);
    const testRun = readFileSync(join(scratch, 'later', 'deeper', 'url.testrun.yaml'), 'utf8');
    expect(testRun).toContain('parallelism: 2');
    expect(testRun).toContain('name: afp-url-127-0-0-1');
    expect(testRun).not.toContain('AFP_TARGET');
    expect(readFileSync(join(scratch, 'later', 'deeper', 'url.configmap.yaml'), 'utf8')).toContain('url.js');
    const scenario = join(scratch, 'other', 'smoke.js');
    const fromScenario = await runExport([join(ROOT, 'scenarios', 'k6-smoke.yaml'), '--out', scenario]);
    expect(fromScenario.code, fromScenario.stderr).toBe(0);
    expect(existsSync(scenario)).toBe(true);
    const seeded = await runExport([`${base}/`, '--rate', '5/s', '--seed', '7']);
    expect(seeded.code).toBe(2);
    expect(seeded.stderr).toContain("--seed is what a scenario's agents draw from");
  });

  test('bad flags: exit 2, every problem listed; URL flags without --url are refused for a scenario', async () => {
    const bad = await runExport([
      '--url',
      'ftp://x',
      '--rate',
      '0/s',
      '--header',
      'nope',
      '--threshold',
      'http_req_duration: p(95)<x',
    ]);
    expect(bad.code).toBe(2);
    for (const problem of [
      "'ftp://x' is not an absolute http(s) URL",
      '--rate must be from 1',
      "--header 'nope'",
      "'p(95)<x' is not a k6 threshold",
    ])
      expect(bad.stderr).toContain(problem);
    const mixed = await runExport([join(ROOT, 'scenarios', 'k6-smoke.yaml'), '--method', 'POST']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--method applies to a URL run: give the URL with them');
    const both = await runExport([join(ROOT, 'scenarios', 'k6-smoke.yaml'), '--url', `${base}/`, '--rate', '10/s']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('name one URL, got 2');
  });

  test.skipIf(K6_SKIP !== undefined)(
    'k6 and afp load send the same requests: 1 s at 5/s (k6 accepts it), a binary --body-file byte for byte, Basic auth from the URL, a 302 not followed',
    async () => {
      const wire: { path: string; auth: string; body: string }[] = [];
      const own = createServer((request, response) => {
        const parts: Buffer[] = [];
        request.on('data', (chunk: Buffer) => parts.push(chunk));
        request.on('end', () => {
          wire.push({
            path: request.url ?? '',
            auth: request.headers.authorization ?? '',
            body: Buffer.concat(parts).toString('hex'),
          });
          if (request.url === '/moved') response.writeHead(302, { location: '/' }).end();
          else response.writeHead(200).end('{}');
        });
      });
      own.listen(0, '127.0.0.1');
      await once(own, 'listening');
      const origin = `127.0.0.1:${(own.address() as AddressInfo).port}`;
      try {
        const binary = Buffer.from([0x00, 0x7f, 0x80, 0xc3, 0x28, 0xff, 0xfe, 0x0a]);
        const bodyFile = join(scratch, 'body.bin');
        writeFileSync(bodyFile, binary);
        const send = ['--method', 'POST', '--body-file', bodyFile, '--rate', '5/s', '--duration', '1s'];
        const runs: Record<string, { path: string; auth: string; body: string }[]> = {};
        for (const [name, url] of [
          ['body', `http://us%40er:p%3Aw@${origin}/post`],
          ['moved', `http://${origin}/moved`],
        ] as const) {
          const script = join(scratch, `same-${name}.js`);
          const exported = await runExport([url, ...send, '--out', script]);
          expect(exported.code, exported.stderr).toBe(0);
          const text = readFileSync(script, 'utf8');
          expect(text).toContain('maxRedirects: 0');
          expect(text).toContain('encoding.b64decode(');
          expect(text).not.toContain('p%3Aw@');
          wire.length = 0;
          const ran = await k6(['run', '--quiet', script]);
          expect(ran.code, ran.stderr).toBe(0);
          runs[`k6 ${name}`] = [...wire];
          wire.length = 0;
          let printed = '';
          const io = {
            out: (line: string) => void (printed += line),
            err: (line: string) => void (printed += line),
            errIsTty: false,
            clock: systemLoadClock(),
            onInterrupt: () => () => undefined,
          };
          const out = join(scratch, `afp-${name}`);
          expect(await loadMain([url, ...send, '--out', out, '--quiet'], io)).toBe(0);
          runs[`afp ${name}`] = [...wire];
          expect(printed).not.toContain('p%3Aw');
          for (const file of ['summary.json', 'load.junit.xml', 'load.html'])
            expect(readFileSync(join(out, file), 'utf8')).not.toContain('p%3Aw');
        }
        const basic = `Basic ${Buffer.from('us@er:p:w').toString('base64')}`;
        for (const engine of ['k6', 'afp']) {
          // 5 each: k6's 1-s run is a ramping stage (it refuses a constant-arrival-rate under 1s).
          expect(runs[`${engine} body`]).toEqual(
            Array.from({ length: 5 }, () => ({ path: '/post', auth: basic, body: binary.toString('hex') })),
          );
          expect(runs[`${engine} moved`]?.map((request) => request.path)).toEqual(Array(5).fill('/moved'));
        }
      } finally {
        own.closeAllConnections();
        own.close();
        await once(own, 'close');
      }
    },
  );
});
