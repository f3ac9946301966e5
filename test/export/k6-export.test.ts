// `afp export k6`: the generator's pieces (the load profile as k6 options for every executor; the
// script: byte-stable, valid JavaScript, afp's agents bundled with no node module left, every
// endpoint a real route id, requests named by the route rows) and its refusals (exit 2, every
// reason at once). The runs on the real k6 against afp serve, with the counts of afp load, are
// test/export/k6-agents-*.test.ts.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { main as exportEnding } from '../../src/cli/export.ts';
import { jsLiteral, jsValueOf } from '../../src/export/k6/js-literal.ts';
import { GUARDED_METRICS, k6Options } from '../../src/export/k6/k6-options.ts';
import { exportK6Script } from '../../src/export/k6/k6-script.ts';
import { ALL_ROUTES as BUNDLED_ROUTES } from '../../src/export/k6/shims/route-rows.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { AGENTS } from '../../agents/index.ts';
import { scenarioFromTable } from '../../src/agent/load-scenario.ts';
import { coded } from '../cli/ending-code.ts';

const exportMain = coded(exportEnding);

const ROOT = join(import.meta.dirname, '..', '..');
const SMOKE = join(ROOT, 'scenarios', 'k6-smoke.yaml');
const scratch = mkdtempSync(join(tmpdir(), 'afp-k6-export-'));
const OPTIONS = {
  target: null,
  afpVersion: '0.0.0-test',
  command: 'afp export k6 smoke.yaml',
  seed: '7',
  agents: AGENTS,
} as const;

async function runExport(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await exportMain(['k6', ...args], { out: (text) => (stdout += text), err: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/**
 * Syntax errors of `text` read as an ES module: V8's own parser (`node --check` on a .mjs file), a
 * child process of a few hundredths of a CPU second where TypeScript's parser, loaded for it alone,
 * took about 4 s of the file's CPU over the ~660 KB bundle.
 */
let checkedFiles = 0;
function syntaxErrors(text: string): Promise<string[]> {
  const file = join(scratch, `syntax-${++checkedFiles}.mjs`);
  writeFileSync(file, text);
  return new Promise((resolve) => {
    execFile(process.execPath, ['--check', file], { timeout: 60_000 }, (error, _stdout, stderr) =>
      resolve(error === null ? [] : [stderr === '' ? error.message : stderr]),
    );
  });
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
        // afp load follows no redirect; k6 follows up to 10 unless told.
        maxRedirects: 0,
        scenarios: {
          p: {
            executor: 'constant-arrival-rate',
            rate: 50,
            timeUnit: '1s',
            // One ms short: k6 also starts an arrival at the end itself, afp only before it.
            duration: '3599999ms',
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
    // A 1-s run cannot go 1 ms short (k6 refuses a constant-arrival-rate under 1s): one ramping
    // stage at the rate, half a spacing past afp's count (5 at 0..800 ms; k6 starts 200..1000 ms).
    const oneSecond = (rate: number, time_unit: number) =>
      k6Options({ ...base, load: { rate, time_unit, duration: 1_000 } });
    const fivePerSecond = oneSecond(5, 1_000);
    expect(fivePerSecond.ok && fivePerSecond.options.scenarios['p']).toStrictEqual({
      executor: 'ramping-arrival-rate',
      startRate: 5,
      timeUnit: '1s',
      stages: [{ duration: '1100ms', target: 5 }],
      preAllocatedVUs: 5,
      maxVUs: 1_000,
      gracefulStop: '30s',
    });
    const stageOf = (rate: number, time_unit: number): unknown => {
      const result = oneSecond(rate, time_unit);
      const stages = result.ok ? (result.options.scenarios['p']?.['stages'] as { duration: string }[] | undefined) : [];
      return stages?.[0]?.duration ?? null;
    };
    expect([
      stageOf(10, 1_000),
      stageOf(3, 1_000),
      stageOf(7, 2_000),
      stageOf(200, 1_000),
      stageOf(1_000, 1_000),
    ]).toEqual(['1050ms', '1167ms', '1286ms', '1003ms', '1s']);
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

  test('dropped_iterations and afp_late_agent_steps are guarded at count==0 unless load.thresholds names the metric (any tags)', () => {
    const guarded = k6Options({ ...base, load: { rate: 1 }, guarded: GUARDED_METRICS });
    expect(guarded.ok && guarded.options.thresholds).toStrictEqual({
      dropped_iterations: ['count==0'],
      afp_late_agent_steps: ['count==0'],
      'http_reqs{endpoint:faucet.B.claim}': ['count>=0'],
    });
    const relaxed = k6Options({
      ...base,
      load: { rate: 1, thresholds: { 'dropped_iterations{scenario:x}': ['count<10'] } },
      guarded: GUARDED_METRICS,
    });
    expect(relaxed.ok && relaxed.options.thresholds).toStrictEqual({
      'dropped_iterations{scenario:x}': ['count<10'],
      afp_late_agent_steps: ['count==0'],
      'http_reqs{endpoint:faucet.B.claim}': ['count>=0'],
    });
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

describe('the script', () => {
  const smoke = scenarioFromTable(readFileSync(SMOKE, 'utf8'), { agents: AGENTS, fileName: SMOKE });

  test("byte-stable, valid JavaScript, header with scenario, seed and version, afp's agents bundled with no node module", async () => {
    const first = await exportK6Script(smoke, OPTIONS);
    const second = await exportK6Script(smoke, OPTIONS);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.text).toBe(first.text);
    expect(await syntaxErrors(first.text)).toStrictEqual([]);
    expect(await syntaxErrors(`${first.text}\nexport const broken = ;\n`)).toStrictEqual([
      expect.stringContaining('SyntaxError'),
    ]);
    expect(first.text.split('\n').slice(0, 2)).toStrictEqual([
      '// k6 script exported by afp 0.0.0-test from scenario "k6-smoke", seed "7".',
      '// Written by `afp export k6 smoke.yaml`: do not edit, export again.',
    ]);
    expect(first.text).toMatch(/from"k6\/http"/);
    expect(first.text).not.toMatch(/from"node:/);
    expect(first.text).toContain('"http_req_duration{endpoint:escrow.B.create}"');
    const ids = new Set(ALL_ROUTES.map((route) => route.id));
    for (const endpoint of first.endpoints) expect(ids.has(endpoint), endpoint).toBe(true);
    const targeted = await exportK6Script(smoke, { ...OPTIONS, target: 'http://127.0.0.1:8700' });
    expect(targeted.ok && targeted.text).toContain('"http://127.0.0.1:8700"');
    expect(await exportK6Script(smoke, { ...OPTIONS, target: 'ftp://x' })).toMatchObject({
      ok: false,
      errors: [expect.stringContaining('--target')],
    });
  });

  test('a file without load: exports its derived profile; refusals: more VUs than agents, --k8s without --out or --target; every reason at once', async () => {
    const path = join(scratch, 'casino.yaml');
    writeFileSync(path, 'name: casino-load\nduration: 1h\npopulations:\n  - { agent: fixed-bettor, count: 2 }\n');
    // No load: section: the profile derived from the scenario (src/load/scenario-profile.ts), 2 agents at most 2 a second.
    const noLoad = await runExport([path]);
    expect(noLoad.code, noLoad.stderr).toBe(0);
    expect(noLoad.stdout).toContain(
      'scenarios:{"casino-load":{executor:"constant-arrival-rate",rate:2,timeUnit:"1s",duration:"29999ms",preAllocatedVUs:2,maxVUs:2,gracefulStop:"10s"}',
    );
    writeFileSync(
      path,
      'name: vus\nduration: 1h\npopulations:\n  - { agent: faucet-farmer, count: 2 }\nload: { executor: constant-vus, vus: 3, duration: 10s }\n',
    );
    expect((await runExport([path])).stderr).toContain('constant-vus runs up to 3 VUs but the scenario has 2 agents');
    const k8s = await runExport([SMOKE, '--k8s', 'x']);
    expect(k8s.code).toBe(2);
    expect(k8s.stderr).toContain('--k8s must be a whole number');
    expect(k8s.stderr).toContain('give --out FILE');
    expect(k8s.stderr).toContain('--k8s needs --target URL');
    expect((await runExport([path, '--bogus'])).stderr).toContain('unknown flag --bogus');
    const lateUrl = await runExport([
      'http://127.0.0.1:1/x',
      '--rate',
      '1/s',
      '--threshold',
      'afp_late_agent_steps: count==0',
    ]);
    expect(lateUrl.code).toBe(2);
    expect(lateUrl.stderr).toContain('a URL run has no agents');
    expect((await runExport([join(scratch, 'missing.yaml')])).code).toBe(2);
  });

  test("names requests by the route rows: the rows the bundle's endpoint namer reads are theirs (id, mount, method, path, in order)", () => {
    const shape = ({ id, mount, method, path }: { id: string; mount: string; method: string; path: string }) => ({
      id,
      mount,
      method,
      path,
    });
    expect(BUNDLED_ROUTES.map(shape)).toStrictEqual(ALL_ROUTES.map(shape));
  });

  test('carries every shipped scenario as the parser read it: its literal reads back the same populations, money as bigint', () => {
    for (const name of readdirSync(join(ROOT, 'scenarios')).filter((file) => file.endsWith('.yaml'))) {
      const text = readFileSync(join(ROOT, 'scenarios', name), 'utf8');
      const { populations } = scenarioFromTable(text, { agents: AGENTS, fileName: name });
      const literal = jsLiteral(jsValueOf(populations));
      expect(runInNewContext(`(${literal})`), name).toEqual(populations);
    }
    expect(jsLiteral({ amount: 2_500_000n, list: [1n, 'a'] })).toBe('{\n  amount: 2500000n,\n  list: [1n, "a"],\n}');
    expect(() => jsValueOf({ when: new Date(0) })).toThrow('value.when is a plain value');
  });

  test('--duration D runs a constant profile for D, as afp load SCENARIO --duration does; a ramping one is refused (its stages say how long)', async () => {
    const path = join(scratch, 'durations.yaml');
    writeFileSync(
      path,
      'name: durations\nduration: 1h\npopulations:\n  - { agent: faucet-farmer, count: 2 }\nload: { rate: 2, duration: 10s }\n',
    );
    const constant = await runExport([path, '--duration', '4s']);
    expect(constant.code, constant.stderr).toBe(0);
    // afp starts its arrivals before the end, k6 also at it: the script runs 1 ms short (k6-options.ts).
    expect(constant.stdout).toContain('executor:"constant-arrival-rate",rate:2,timeUnit:"1s",duration:"3999ms"');
    expect((await runExport([path, '--duration', '0s'])).stderr).toContain('--duration must be from');
    writeFileSync(
      path,
      'name: durations\nduration: 1h\npopulations:\n  - { agent: faucet-farmer, count: 2 }\nload: { executor: ramping-arrival-rate, stages: [{ duration: 10s, target: 2 }] }\n',
    );
    const ramping = await runExport([path, '--duration', '4s']);
    expect(ramping.code).toBe(2);
    expect(ramping.stderr).toContain('load: section ramps (its stages say how long it runs)');
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
