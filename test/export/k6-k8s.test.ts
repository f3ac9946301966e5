// `afp export k6 --k8s` as a cluster takes it and as its pods run it. The rendered ConfigMap and
// TestRun are validated against the k6-operator's TestRun schema (a subset in
// test/fixtures/k6-operator-resources.schema.json, checked by ajv as the openapi tests are). Then
// real k6 runs the script the way a runner pod does: `k6 run --execution-segment … <arguments>`
// with the TestRun's runner env and nothing else (not this process's environment), against an
// `afp serve --admin-token` whose admin doors the pods cannot use: the URL the pods get for its
// api mount (announced by the serve's --public-url) goes through a forwarder that gives every
// `/_afp/*` request a caller beyond loopback (X-Forwarded-For 203.0.113.7, as a cluster's peer
// would be), so the serve answers them 401. With the TestRun's env the run has no failed request,
// check or threshold; without one AFP_TARGET_<SERVICE> it aborts in setup() (exit 108) before any
// iteration; a request to a mount without a URL aborts the run mid-way too (setup()'s check taken
// out of the script). Refusals at export: a target whose doors refuse the exporter, an unreachable
// one; a target file's URLs go into the TestRun without any request.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { main as exportEnding } from '../../src/cli/export.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { k6ForTests } from '../fixtures/k6-binary.ts';
import { coded } from '../cli/ending-code.ts';

const exportMain = coded(exportEnding);

const ROOT = join(import.meta.dirname, '..', '..');
const { path: K6, skip: K6_SKIP } = k6ForTests();
const ADMIN_TOKEN = 'k8s-test-admin-token-0123456789';
const POD_ADDRESS = '203.0.113.7';
/** The longest a k6 run here may take: k6-smoke runs 2 s, an abort well under that. */
const K6_TIMEOUT_MS = 60_000;

// oxlint-disable-next-line typescript/no-explicit-any -- parsed YAML resources, read field by field
type Resource = Record<string, any>;
type EnvVar = { readonly name: string; readonly value: string };

const schema = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'k6-operator-resources.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true });
ajv.addSchema(schema);

/** The problems of `value` as a `kind` (TestRun, ConfigMap), none when it fits. */
function problems(kind: 'TestRun' | 'ConfigMap', value: unknown): string[] {
  const validate = ajv.getSchema(`afp-test:k6-operator-resources#/$defs/${kind}`);
  if (validate === undefined) return [`no schema ${kind}`];
  if (validate(value) === true) return [];
  return (validate.errors ?? []).map(
    (error) => `${kind}${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
  );
}

/** A forwarder to the serve's api mount that makes every `/_afp/*` caller one beyond loopback. */
function podsView(): { server: Server; upstream: { url: string } } {
  const upstream = { url: '' };
  const server = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers };
    if ((incoming.url ?? '').startsWith('/_afp/')) headers['x-forwarded-for'] = POD_ADDRESS;
    const forwarded = httpRequest(
      `${upstream.url}${incoming.url ?? '/'}`,
      { method: incoming.method, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  return { server, upstream };
}

async function exportK8s(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await exportMain(['k6', ...args], { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}

/** k6 as a runner pod starts it: the TestRun's arguments and env only, one execution segment of `parallelism`. */
function podRun(
  script: string,
  testRun: Resource,
  options: { env: readonly EnvVar[]; segment: string; summary: string },
): Promise<{ code: number; stderr: string; ms: number }> {
  const args = String(testRun['spec']['arguments'] ?? '')
    .split(/\s+/)
    .filter((word) => word !== '');
  const env = Object.fromEntries(options.env.map(({ name, value }) => [name, value]));
  const startedMs = performance.now();
  return new Promise((resolve) => {
    execFile(
      K6,
      [
        'run',
        '--address',
        '',
        '--execution-segment',
        options.segment,
        '--summary-export',
        options.summary,
        ...args,
        script,
      ],
      { env, timeout: K6_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stderr, ms: performance.now() - startedMs });
      },
    );
  });
}

describe.skipIf(K6_SKIP !== undefined)('afp export k6 --k8s, as a cluster takes it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'afp-k8s-'));
  const view = podsView();
  let serve: ServeHandle;
  let podsApi = '';
  let serveApi = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => view.server.listen(0, '127.0.0.1', resolve));
    podsApi = `http://127.0.0.1:${(view.server.address() as AddressInfo).port}`;
    serve = await startServe({
      routes: ALL_ROUTES,
      seed: '3',
      port: 0,
      clockMode: 'wall',
      trustedProxies: LOOPBACK_PROXIES,
      adminToken: ADMIN_TOKEN,
      publicUrls: { perMount: { api: podsApi } },
      log: () => undefined,
    });
    serveApi = serve.urls.api ?? '';
    view.upstream.url = serveApi;
  });

  afterAll(async () => {
    await serve.close({ forceAfterMs: 0 });
    view.server.closeAllConnections();
    await new Promise<void>((resolve) => view.server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  test('the manifests fit the TestRun schema; the pods run with the TestRun env alone, 0 failures; a missing AFP_TARGET_<SERVICE> aborts at once (108)', async () => {
    const script = join(dir, 'smoke.k6.js');
    const exported = await exportK8s([
      join(ROOT, 'scenarios', 'k6-smoke.yaml'),
      '--k8s',
      '2',
      '--target',
      serveApi,
      '--out',
      script,
    ]);
    expect(exported.err).toBe('');
    expect(exported.code).toBe(0);
    expect(exported.out).toContain('runner env AFP_TARGET, AFP_TARGET_FAUCET, AFP_TARGET_ESCROW');
    expect(exported.out).toContain('dropped_iterations count==0, afp_late_agent_steps count==0 added');
    const configMap = parse(readFileSync(join(dir, 'smoke.k6.configmap.yaml'), 'utf8')) as Resource;
    const testRun = parse(readFileSync(join(dir, 'smoke.k6.testrun.yaml'), 'utf8')) as Resource;
    expect(problems('ConfigMap', configMap)).toEqual([]);
    expect(problems('TestRun', testRun)).toEqual([]);
    expect(problems('TestRun', { ...testRun, spec: { ...testRun['spec'], paralellism: 2 } })).not.toEqual([]);
    expect(configMap['data']['smoke.k6.js']).toBe(readFileSync(script, 'utf8'));
    const env = testRun['spec']['runner']['env'] as EnvVar[];
    expect(env).toStrictEqual([
      { name: 'AFP_TARGET', value: podsApi },
      { name: 'AFP_TARGET_FAUCET', value: serve.urls.faucet },
      { name: 'AFP_TARGET_ESCROW', value: serve.urls.escrow },
      { name: 'AFP_RUN_ID', value: 'k8s.1' },
    ]);
    // The pods' view of the doors: refused (the serve's own 401), so the URLs can come only from the env.
    expect((await fetch(`${podsApi}/_afp/mounts`)).status).toBe(401);

    const pods = await Promise.all(
      ['0:1/2', '1/2:1'].map((segment, index) =>
        podRun(script, testRun, { env, segment, summary: join(dir, `pod-${index}.json`) }),
      ),
    );
    let iterations = 0;
    for (const [index, pod] of pods.entries()) {
      expect(pod.stderr).not.toMatch(/level=error/);
      expect(pod.code, pod.stderr.slice(-2000)).toBe(0);
      const metrics = (JSON.parse(readFileSync(join(dir, `pod-${index}.json`), 'utf8')) as { metrics: Resource })
        .metrics;
      expect(metrics['http_req_failed']['passes']).toBe(0);
      expect(metrics['checks']['fails']).toBe(0);
      expect(metrics['afp_late_agent_steps']?.['count'] ?? 0).toBe(0);
      expect(metrics['dropped_iterations']?.['count'] ?? 0).toBe(0);
      iterations += metrics['iterations']['count'] as number;
    }
    expect(iterations).toBeGreaterThan(0);

    const withoutEscrow = env.filter(({ name }) => name !== 'AFP_TARGET_ESCROW');
    const aborted = await podRun(script, testRun, {
      env: withoutEscrow.map((entry) => (entry.name === 'AFP_RUN_ID' ? { ...entry, value: 'k8s.2' } : entry)),
      segment: '0:1',
      summary: join(dir, 'aborted.json'),
    });
    expect(aborted.code, aborted.stderr.slice(-2000)).toBe(108);
    expect(aborted.stderr).toContain("no URL for mount 'escrow'");
    expect(aborted.stderr).toContain('answered 401');
    expect(aborted.ms).toBeLessThan(15_000);
  });

  test('a request to a mount without a URL aborts the run mid-way (108), not once an iteration', async () => {
    const scenario = join(dir, 'style-a.yaml');
    const shipped = parse(readFileSync(join(ROOT, 'scenarios', 'k6-smoke.yaml'), 'utf8')) as Resource;
    const populations = [{ agent: 'faucet-farmer', count: 3, style: 'A' }];
    writeFileSync(scenario, JSON.stringify({ ...shipped, name: 'style-a', populations }));
    const script = join(dir, 'style-a.k6.js');
    const exported = await exportK8s([scenario, '--k8s', '1', '--target', serveApi, '--out', script]);
    expect(exported.err).toBe('');
    const text = readFileSync(script, 'utf8');
    // setup()'s check taken out: the transport's abort is what stops the run.
    const unchecked = text.replace(/needs:\s*\[[^\]]*\]/, 'needs:[]');
    expect(unchecked).not.toBe(text);
    writeFileSync(script, unchecked);
    const testRun = parse(readFileSync(join(dir, 'style-a.k6.testrun.yaml'), 'utf8')) as Resource;
    const env = (testRun['spec']['runner']['env'] as EnvVar[]).filter(({ name }) => name !== 'AFP_TARGET_FAUCET');
    const aborted = await podRun(script, testRun, { env, segment: '0:1', summary: join(dir, 'mid.json') });
    expect(aborted.code, aborted.stderr.slice(-2000)).toBe(108);
    expect(aborted.stderr).toContain("no URL for mount 'faucet'");
    expect(aborted.stderr.match(/no URL for mount/g)?.length ?? 0).toBeLessThanOrEqual(2);
  });

  test('refused at export: doors that refuse the exporter, a target that does not answer; a target file gives its URLs', async () => {
    const smoke = join(ROOT, 'scenarios', 'k6-smoke.yaml');
    const locked = await exportK8s([smoke, '--k8s', '1', '--target', podsApi, '--out', join(dir, 'locked.k6.js')]);
    expect(locked.code).toBe(2);
    expect(locked.err).toContain(`GET ${podsApi}/_afp/mounts answered 401`);
    expect(locked.err).toContain('--target FILE');
    const silent = await exportK8s([
      smoke,
      '--k8s',
      '1',
      '--target',
      'http://127.0.0.1:9',
      '--out',
      join(dir, 'x.k6.js'),
    ]);
    expect(silent.code).toBe(2);
    expect(silent.err).toContain('does not answer');
    const file = join(dir, 'pods.yaml');
    writeFileSync(
      file,
      [
        'name: pods',
        'services:',
        '  faucet: { url: http://faucet.pods.example:8081, dialect: A }',
        '  escrow: { url: http://escrow.pods.example:8082, dialect: A }',
        '  wallet: { url: http://api.pods.example:8080, dialect: B }',
        'register: { service: faucet }',
        'funding: { method: faucet }',
        'limits: {}',
        '',
      ].join('\n'),
    );
    const fromFile = await exportK8s([smoke, '--k8s', '1', '--target', file, '--out', join(dir, 'file.k6.js')]);
    expect(fromFile.err).toBe('');
    expect(fromFile.code).toBe(0);
    const testRun = parse(readFileSync(join(dir, 'file.k6.testrun.yaml'), 'utf8')) as Resource;
    expect(problems('TestRun', testRun)).toEqual([]);
    expect(testRun['spec']['runner']['env']).toStrictEqual([
      { name: 'AFP_TARGET', value: 'http://api.pods.example:8080' },
      { name: 'AFP_TARGET_FAUCET', value: 'http://faucet.pods.example:8081' },
      { name: 'AFP_TARGET_ESCROW', value: 'http://escrow.pods.example:8082' },
      { name: 'AFP_RUN_ID', value: 'k8s.1' },
    ]);
  });
});
