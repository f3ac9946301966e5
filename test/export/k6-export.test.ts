// `afp export k6`: the generator's pieces (the load profile as k6 options for every executor, the
// population cycle, the script text: byte-stable, valid JavaScript, every request tagged with a
// real route id), its refusals (archetypes it cannot run faithfully are named, exit 2), and the
// acceptance run: the exported scripts run on the real k6 of ../shared/tools against a real
// `afp serve` child process on loopback, and k6's summary export (requests per endpoint tag,
// thresholds) and the server's state (agents, escrows) match what the scenario implies.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { ENDPOINTS } from '../../src/client/client.ts';
import { main as exportMain } from '../../src/cli/export.ts';
import { populationCycle, iterationsPerPopulation } from '../../src/export/k6/k6-mix.ts';
import { k6Options } from '../../src/export/k6/k6-options.ts';
import { exportK6Script } from '../../src/export/k6/k6-script.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { scenarioFromText } from '../../src/sim/load-scenario.ts';
import { runCliChild } from '../fixtures/cli-child.ts';
import { AGENTS } from '../../agents/index.ts';
import { TRUST_LOOPBACK_ARGS } from '../fixtures/serve-child.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const K6 = join(ROOT, '..', 'shared', 'tools', 'k6-v1.3.0', 'k6');
const SMOKE = join(ROOT, 'scenarios', 'k6-smoke.yaml');
const scratch = mkdtempSync(join(tmpdir(), 'afp-k6-export-'));
const OPTIONS = { target: null, afpVersion: '0.0.0-test', command: 'afp export k6 smoke.yaml' } as const;

async function runExport(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await exportMain(['k6', ...args], { out: (text) => (stdout += text), err: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/** Syntax errors of `text` read as an ES module (TypeScript's parser, through its public API). */
function syntaxErrors(text: string): string[] {
  const output = ts.transpileModule(text, {
    fileName: 'script.js',
    reportDiagnostics: true,
    compilerOptions: { allowJs: true, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return (output.diagnostics ?? []).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('the load profile as k6 options', () => {
  const base = { name: 'p', scenarioDurationMs: 3_600_000, endpoints: ['faucet.B.claim'] };

  test('each executor with its own fields, k6 durations, maxVUs from max_in_flight, thresholds as written plus per-endpoint counts', () => {
    const constant = k6Options({
      ...base,
      load: {
        rate: 50,
        time_unit: 1_000,
        max_in_flight: 40,
        thresholds: { checks: [{ threshold: 'rate>0.99', abortOnFail: true, delayAbortEval: 10_000 }] },
      },
    });
    expect(constant).toStrictEqual({
      ok: true,
      options: {
        scenarios: {
          p: {
            executor: 'constant-arrival-rate',
            rate: 50,
            timeUnit: '1s',
            duration: '3600s',
            preAllocatedVUs: 40,
            maxVUs: 40,
            gracefulStop: '30s',
          },
        },
        thresholds: {
          checks: [{ threshold: 'rate>0.99', abortOnFail: true, delayAbortEval: '10s' }],
          'http_reqs{endpoint:faucet.B.claim}': ['count>=0'],
        },
      },
    });
    const ramping = k6Options({
      ...base,
      load: {
        executor: 'ramping-arrival-rate',
        start_rate: 2,
        time_unit: 60_000,
        stages: [{ duration: 1_500, target: 120 }],
        graceful_stop: 0,
      },
    });
    expect(ramping.ok && ramping.options.scenarios['p']).toStrictEqual({
      executor: 'ramping-arrival-rate',
      startRate: 2,
      timeUnit: '60s',
      stages: [{ duration: '1500ms', target: 120 }],
      preAllocatedVUs: 2,
      maxVUs: 1_000,
      gracefulStop: '0s',
    });
    const vus = k6Options({ ...base, load: { executor: 'constant-vus', vus: 7, duration: 5_000 } });
    expect(vus.ok && vus.options.scenarios['p']).toStrictEqual({
      executor: 'constant-vus',
      vus: 7,
      duration: '5s',
      gracefulStop: '30s',
    });
    const rampingVus = k6Options({
      ...base,
      load: { executor: 'ramping-vus', start_vus: 1, stages: [{ duration: 2_000, target: 3 }] },
    });
    expect(rampingVus.ok && rampingVus.options.scenarios['p']).toStrictEqual({
      executor: 'ramping-vus',
      startVUs: 1,
      stages: [{ duration: '2s', target: 3 }],
      gracefulStop: '30s',
    });
    const own = k6Options({
      ...base,
      load: { rate: 1, thresholds: { 'http_reqs{endpoint:faucet.B.claim}': ['count>5'] } },
    });
    expect(own.ok && own.options.thresholds).toStrictEqual({ 'http_reqs{endpoint:faucet.B.claim}': ['count>5'] });
  });

  test('no section, a missing required field, a field the executor has no use for: every error at once', () => {
    expect(k6Options({ ...base, load: null })).toMatchObject({
      ok: false,
      errors: [expect.stringContaining('no load: section')],
    });
    const bad = k6Options({
      ...base,
      load: { executor: 'constant-vus', max_in_flight: 5, stages: [{ duration: 1_000, target: 1 }] },
    });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? [] : bad.errors).toStrictEqual([
      'load.vus is required by the constant-vus executor',
      'load.max_in_flight has no meaning for the constant-vus executor (it uses vus, duration, graceful_stop)',
      'load.stages has no meaning for the constant-vus executor (it uses vus, duration, graceful_stop)',
    ]);
  });
});

describe('the population cycle', () => {
  test('counts over their gcd, interleaved, exact over whole cycles', () => {
    expect(populationCycle([2, 2, 1])).toStrictEqual([0, 1, 2, 0, 1]);
    expect(populationCycle([500, 200, 300])).toStrictEqual([0, 2, 1, 0, 0, 2, 0, 1, 2, 0]);
    expect(iterationsPerPopulation(populationCycle([3, 1]) ?? [], 2, 10)).toStrictEqual([8, 2]);
    expect(populationCycle([10_001, 1])).toBe(null);
  });
});

describe('the script text', () => {
  const smoke = scenarioFromText(readFileSync(SMOKE, 'utf8'), { agents: AGENTS, fileName: SMOKE });

  test('byte-stable, valid JavaScript, header with scenario, seed and version, tags that are real route ids', () => {
    const first = exportK6Script(smoke, OPTIONS);
    const second = exportK6Script(smoke, OPTIONS);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.text).toBe(first.text);
    expect(syntaxErrors(first.text)).toStrictEqual([]);
    expect(first.text.split('\n').slice(0, 2)).toStrictEqual([
      '// k6 script exported by afp 0.0.0-test from scenario "k6-smoke", seed "7".',
      '// Written by `afp export k6 smoke.yaml`: do not edit, export again.',
    ]);
    expect(first.text).toContain("import http from 'k6/http';");
    expect(first.text).toContain('tags: { endpoint, name: ');
    expect(first.text).toContain('"http_req_duration{endpoint:escrow.B.create}": ["p(99)<1000"],');
    expect(first.cycle).toStrictEqual([0, 1, 2, 0, 1]);
    expect(first.endpoints).toStrictEqual([
      'escrow.B.create',
      'escrow.B.get',
      'escrow.B.list',
      'escrow.B.release',
      'faucet.B.claim',
      'faucet.B.register',
      'faucet.B.status',
    ]);
    for (const endpoint of first.endpoints) {
      const row = ENDPOINTS[endpoint as keyof typeof ENDPOINTS];
      const route = ALL_ROUTES.find((candidate) => candidate.id === endpoint);
      expect({ mount: route?.mount, method: route?.method, path: route?.path }, endpoint).toStrictEqual({
        mount: row.mount,
        method: row.method,
        path: row.path,
      });
    }
    const targeted = exportK6Script(smoke, { ...OPTIONS, target: 'http://127.0.0.1:8700' });
    expect(targeted.ok && targeted.text).toContain('const DEFAULT_TARGET = "http://127.0.0.1:8700";');
    expect(exportK6Script(smoke, { ...OPTIONS, target: 'ftp://x' })).toMatchObject({
      ok: false,
      errors: [expect.stringContaining('--target')],
    });
  });

  test('archetypes k6 cannot run faithfully are refused by name with the reason, and so are non-free tiers', async () => {
    const path = join(scratch, 'casino.yaml');
    writeFileSync(
      path,
      `name: casino-load
duration: 1h
populations:
  - { agent: fixed-bettor, count: 2 }
  - { agent: bad-input-sender, count: 1 }
  - { agent: faucet-farmer, count: 3, tier: pro }
load: { rate: 5, duration: 10s }
`,
    );
    const refused = await runExport([path]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      "archetype 'bad-input-sender' cannot be exported to k6 faithfully: its malformed requests come from afp's bad-input case tables",
    );
    expect(refused.stderr).toContain(
      "archetype 'fixed-bettor' cannot be exported to k6 faithfully: its bets need the casino funded",
    );
    expect(refused.stderr).toContain("populations[2] (faucet-farmer): tier 'pro' cannot be exported");
    expect((await runExport([path, '--bogus'])).stderr).toContain('unknown flag --bogus');
    expect((await runExport([join(scratch, 'missing.yaml')])).code).toBe(2);
  });

  test('--out writes the same bytes as stdout', async () => {
    const out = join(scratch, 'smoke.js');
    const printed = await runExport([SMOKE, '--target', 'http://127.0.0.1:8700']);
    const written = await runExport([SMOKE, '--target', 'http://127.0.0.1:8700', '--out', out]);
    expect(printed.code).toBe(0);
    expect(written.stdout).toContain(`wrote ${out}`);
    expect(readFileSync(out, 'utf8')).toBe(printed.stdout);
  });
});

interface K6Summary {
  readonly metrics: Readonly<
    Record<string, { count?: number; passes?: number; fails?: number; thresholds?: Record<string, boolean> }>
  >;
}

/** k6 run against `api` (loopback), its summary exported to JSON; bounded at 25 s. */
function runK6(
  script: string,
  api: string,
  runId: string | null,
): Promise<{ code: number | null; output: string; summary: K6Summary }> {
  const summaryPath = `${script}.summary.json`;
  return new Promise((resolve, reject) => {
    execFile(
      K6,
      [
        'run',
        '--no-usage-report',
        '--quiet',
        '--no-color',
        '-e',
        `AFP_TARGET=${api}`,
        ...(runId === null ? [] : ['-e', `AFP_RUN_ID=${runId}`]),
        '--summary-export',
        summaryPath,
        script,
      ],
      { timeout: 25_000, env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } },
      (error, stdout, stderr) => {
        if (!existsSync(summaryPath)) {
          reject(new Error(`k6 wrote no summary (${error?.message ?? 'no error'}):\n${stdout}\n${stderr}`));
          return;
        }
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : null,
          output: `${stdout}\n${stderr}`,
          summary: JSON.parse(readFileSync(summaryPath, 'utf8')) as K6Summary,
        });
      },
    );
  });
}

function endpointCounts(summary: K6Summary): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, metric] of Object.entries(summary.metrics)) {
    const match = /^http_reqs\{endpoint:(.+)\}$/.exec(name);
    if (match?.[1] !== undefined && (metric.count ?? 0) > 0) counts[match[1]] = metric.count ?? 0;
  }
  return counts;
}

async function serveState(api: string): Promise<{ agents: number; escrows: number; ledger: { balanced: boolean } }> {
  const response = await fetch(`${api}/_afp/state`);
  return (await response.json()) as { agents: number; escrows: number; ledger: { balanced: boolean } };
}

const STYLE_A = `name: k6-style-a
seed: 11
duration: 1h
populations:
  - { agent: faucet-farmer, count: 1, style: A, params: { check_status: 1, repeat_a_claim: 0, early_claim: 0 } }
  - { agent: escrow-buyer, count: 1, style: A, params: { release: 1, refund: 0, dispute: 0, let_expire: 0, referred: 0, retry_release: 1 } }
  - { agent: escrow-seller, count: 1, style: A, params: { view: 0, dispute: 0 } }
  - { agent: rate-limit-abuser, count: 1, style: A, params: { burst: 3, target: faucet.A.status } }
load: { rate: 5, duration: 1500ms, max_in_flight: 10, graceful_stop: 5s, thresholds: { http_req_failed: ['rate<0.01'], checks: ['rate==1'] } }
`;

describe.skipIf(!existsSync(K6))('acceptance: the exported scripts on the real k6 against afp serve', () => {
  test('request counts per endpoint tag, thresholds and the served state match the scenarios', async () => {
    const smokeScript = join(scratch, 'k6-smoke.js');
    expect((await runExport([SMOKE, '--out', smokeScript])).code).toBe(0);
    const styleAPath = join(scratch, 'k6-style-a.yaml');
    writeFileSync(styleAPath, STYLE_A);
    const styleAScript = join(scratch, 'k6-style-a.js');
    expect((await runExport([styleAPath, '--out', styleAScript])).code).toBe(0);
    let checked = false;
    const serve = await runCliChild(['serve', '--port', '0', ...TRUST_LOOPBACK_ARGS, '--seed', '5'], {
      timeoutMs: 60_000,
      onReady: async (stdout, stop) => {
        const api = /^api: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1];
        expect(api).toBeDefined();
        if (api === undefined) return stop();
        // k6-smoke: 5 arrivals/s for 1.9 s start at 0, 0.2 … 1.8 s: 10 iterations, two cycles of
        // [farmer, buyer, seller, farmer, buyer]: 4 farmers, 4 buyers, 2 seller looks. Setup
        // registers the 1 seller (style B: no claim, its next_claim is known).
        //   faucet.B.register 4 + 4 + 1; faucet.B.status 4 and faucet.B.claim 4 (farmers, 409);
        //   escrow.B.create 4 and escrow.B.release 4 (buyers); escrow.B.list 2 (looks).
        const smoke = await runK6(smokeScript, api, 'smoke');
        expect(smoke.code, smoke.output).toBe(0);
        expect(smoke.summary.metrics['iterations']?.count).toBe(10);
        expect(smoke.summary.metrics['dropped_iterations']).toBeUndefined();
        expect(endpointCounts(smoke.summary)).toStrictEqual({
          'faucet.B.register': 9,
          'faucet.B.status': 4,
          'faucet.B.claim': 4,
          'escrow.B.create': 4,
          'escrow.B.release': 4,
          'escrow.B.list': 2,
        });
        expect(smoke.summary.metrics['http_req_failed']?.thresholds).toStrictEqual({ 'rate<0.01': false });
        expect(smoke.summary.metrics['checks']?.thresholds).toStrictEqual({ 'rate>0.99': false });
        expect(smoke.summary.metrics['checks']?.fails).toBe(0);
        expect(smoke.summary.metrics['http_req_duration{endpoint:escrow.B.create}']?.thresholds).toStrictEqual({
          'p(99)<1000': false,
        });
        const afterSmoke = await serveState(api);
        expect({
          agents: afterSmoke.agents,
          escrows: afterSmoke.escrows,
          balanced: afterSmoke.ledger.balanced,
        }).toStrictEqual({ agents: 9, escrows: 4, balanced: true });
        // k6-style-a (no AFP_RUN_ID: the script draws its own): 5/s for 1.5 s start at 0, 0.2 …
        // 1.4 s: 8 iterations, two cycles of [farmer, buyer, seller, abuser]. Setup asks
        // /_afp/mounts once for the style-A faucet and escrow addresses and onboards the seller:
        // register A, claim A (paid), claim B (paid: it was told no next_claim).
        //   farmer: register A, claim A, status A, claim B (paid); buyer: register A, claim A,
        //   claim B, create A, release A, release A again (409); seller look: list A;
        //   abuser: register A, 3 × status A.
        const styleA = await runK6(styleAScript, api, null);
        expect(styleA.code, styleA.output).toBe(0);
        expect(styleA.summary.metrics['iterations']?.count).toBe(8);
        expect(endpointCounts(styleA.summary)).toStrictEqual({
          'afp.mounts': 1,
          'faucet.A.register': 7,
          'faucet.A.claim': 5,
          'faucet.A.status': 8,
          'faucet.B.claim': 5,
          'escrow.A.create': 2,
          'escrow.A.release': 4,
          'escrow.A.list': 2,
        });
        expect(styleA.summary.metrics['checks']?.thresholds).toStrictEqual({ 'rate==1': false });
        expect(styleA.summary.metrics['http_req_failed']?.thresholds).toStrictEqual({ 'rate<0.01': false });
        const afterStyleA = await serveState(api);
        expect({
          agents: afterStyleA.agents - afterSmoke.agents,
          escrows: afterStyleA.escrows - afterSmoke.escrows,
          balanced: afterStyleA.ledger.balanced,
        }).toStrictEqual({ agents: 7, escrows: 2, balanced: true });
        checked = true;
        stop();
      },
    });
    expect(serve.code, serve.stderr).toBe(0);
    expect(checked).toBe(true);
  });
});

// Registered only where k6 is missing, so the skip and its reason show in the test list.
if (!existsSync(K6)) {
  test.skip(`SKIPPED: no k6 at ${K6} (CI has ../shared/tools/k6-v1.3.0/k6): the exported scripts were not run on k6`, () =>
    undefined);
}
