// Every scenario in scenarios/, as shipped (the files themselves, no copy with a profile added),
// exports with `afp export k6` and runs a short `afp load` against an in-process `afp serve` on
// loopback: a file without a `load:` section gets the profile derived from it
// (src/load/scenario-profile.ts), printed in the plan, and k6's flags (-i, -d, --rate, -u, --stage:
// src/cli/profile-flags.ts) bound it. Each run is -i 10 (10 arrivals at the scenario's rate, at
// most 10 a second), ~1-5 s; million.yaml's run makes only the agents its arrivals reach (it built
// all 1,000,000 first: ~17 CPU s, ~1 GB).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { main as exportEnding } from '../../src/cli/export.ts';
import { main as loadEnding } from '../../src/cli/load.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { systemLoadClock } from '../../src/load/options.ts';
import type { LoadRunFile } from '../../src/load/load-run-file.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { coded } from './ending-code.ts';

const exportMain = coded(exportEnding);
const loadMain = coded(loadEnding);

const ROOT = join(import.meta.dirname, '..', '..');
const SCENARIOS = join(ROOT, 'scenarios');
const DIR = mkdtempSync(join(tmpdir(), 'afp-shipped-'));
const NAMES = readdirSync(SCENARIOS)
  .filter((name) => name.endsWith('.yaml'))
  .sort();
let serve: ServeHandle | null = null;

beforeAll(async () => {
  serve = await startServe({
    routes: ALL_ROUTES,
    seed: '3',
    port: 0,
    clockMode: 'wall',
    trustedProxies: LOOPBACK_PROXIES,
    log: () => undefined,
  });
});

afterAll(async () => {
  await serve?.close({ forceAfterMs: 0 });
  rmSync(DIR, { recursive: true, force: true });
});

interface Ran {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

async function load(argv: readonly string[]): Promise<Ran> {
  let out = '';
  let err = '';
  const code = await loadMain([...argv], {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    errIsTty: false,
    clock: systemLoadClock(),
    onInterrupt: () => () => undefined,
  });
  return { code, out, err };
}

async function exportK6(argv: readonly string[]): Promise<Ran> {
  let out = '';
  let err = '';
  const code = await exportMain(['k6', ...argv], { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}

function api(): string {
  const url = serve?.urls.api;
  if (url === undefined) throw new Error('afp serve announces its api URL');
  return url;
}

/** The k6 script's `scenarios:` option, as the bundle writes it (the script itself is too long to show). */
function optionsOf(script: string): string {
  return (
    /scenarios:(\{[^{}]*\{[^{}]*(?:\[[^\]]*\])?[^{}]*\})/.exec(readFileSync(script, 'utf8'))?.[1] ??
    'no scenarios: option'
  );
}

function hasLoad(name: string): boolean {
  return (parse(readFileSync(join(SCENARIOS, name), 'utf8')) as { load?: unknown }).load !== undefined;
}

describe('every shipped scenario, as shipped', () => {
  test.each(NAMES)(
    '%s: afp export k6 writes its script; afp load -i 10 runs it',
    async (name) => {
      const script = join(DIR, name.replace(/\.yaml$/, '.k6.js'));
      const exported = await exportK6([join(SCENARIOS, name), '--out', script]);
      expect(exported.err).toBe('');
      expect(exported.code).toBe(0);
      expect(statSync(script).size).toBeGreaterThan(10_000);
      expect(exported.out).toContain(`wrote ${script}`);
      if (!hasLoad(name)) expect(exported.out).toContain('note: the scenario has no load: section: a profile derived');
      const out = join(DIR, `${name}-load`);
      const ran = await load([join(SCENARIOS, name), '--target', api(), '-i', '10', '--quiet', '--out', out]);
      expect(ran.code, ran.out + ran.err).toBe(0);
      expect(ran.out).toContain("note: the profile is the flags'");
      const run = JSON.parse(readFileSync(join(out, 'load.json'), 'utf8')) as LoadRunFile;
      expect(run.snapshot.iterations.started + run.snapshot.iterations.dropped).toBe(10);
      expect(run.snapshot.endpoints.reduce((total, endpoint) => total + endpoint.requests, 0)).toBeGreaterThan(0);
    },
    120_000,
  );
});

describe('the derived profile and the k6 flags', () => {
  test('quickstart (no load:) with -d 1s: the derived plan is printed; its 1,000 agents run 10 arrivals a second', async () => {
    const out = join(DIR, 'derived');
    const ran = await load([
      join(SCENARIOS, 'quickstart.yaml'),
      '--target',
      api(),
      '-d',
      '1s',
      '--quiet',
      '--out',
      out,
    ]);
    expect(ran.code, ran.err).toBe(0);
    expect(ran.out).toContain('plan: constant-arrival-rate 10/1s for 1s, max_in_flight 20, graceful_stop 10s\n');
    expect(ran.out).toContain(
      "note: the scenario has no load: section: a profile derived from it, 10 of its agents' steps a second",
    );
    const run = JSON.parse(readFileSync(join(out, 'load.json'), 'utf8')) as LoadRunFile;
    expect(run.snapshot.iterations.started + run.snapshot.iterations.dropped).toBe(10);
  });

  test('--rate replaces a file profile, its thresholds judged; -u with --stage ramps VUs; the k6 script carries the same', async () => {
    const out = join(DIR, 'rate');
    const smoke = join(SCENARIOS, 'k6-smoke.yaml');
    const rated = await load([smoke, '--target', api(), '--rate', '4/s', '-d', '1s', '--quiet', '--out', out]);
    expect(rated.code, rated.err).toBe(0);
    expect(rated.out).toContain('plan: constant-arrival-rate 4/1s for 1s, max_in_flight 20, graceful_stop 5s\n');
    expect(rated.out).toContain('pass http_req_failed: rate<0.01');
    const staged = await load([smoke, '--target', api(), '-u', '1', '--stage', '1s:2', '--quiet', '--out', out]);
    // A closed loop of 1-2 VUs asks as fast as answers come: the agents' rate limits answer 429, and the file's threshold fails.
    expect(staged.code, staged.err).toBe(5);
    expect(staged.out).toContain('plan: ramping-vus from 1: 1s→2 (run 1s), graceful_stop 5s\n');
    expect(staged.out).toContain('FAIL http_req_failed: rate<0.01');
    const script = join(DIR, 'staged.k6.js');
    const exported = await exportK6([smoke, '-u', '1', '--stage', '1s:2', '--out', script]);
    expect(exported.code, exported.err).toBe(0);
    expect(optionsOf(script)).toBe(
      '{"k6-smoke":{executor:"ramping-vus",startVUs:1,stages:[{duration:"1s",target:2}],gracefulStop:"5s"}',
    );
    // -i alone keeps a file's own rate (k6-smoke: 5/s): 10 arrivals over 2 s.
    const own = await exportK6([smoke, '-i', '10', '--out', script]);
    expect(own.code, own.err).toBe(0);
    expect(optionsOf(script)).toBe(
      '{"k6-smoke":{executor:"constant-arrival-rate",rate:10,timeUnit:"2s",duration:"1999ms",preAllocatedVUs:5,maxVUs:5,gracefulStop:"5s"}',
    );
    const iterations = await exportK6([join(SCENARIOS, 'quickstart.yaml'), '-i', '25', '--out', script]);
    expect(iterations.code, iterations.err).toBe(0);
    // 25 arrivals at the derived 10/s: rate 25 per 2.5 s (the export ends its duration 1 ms early: k6 starts exactly those).
    expect(optionsOf(script)).toBe(
      '{quickstart:{executor:"constant-arrival-rate",rate:25,timeUnit:"2500ms",duration:"2499ms",preAllocatedVUs:20,maxVUs:20,gracefulStop:"30s"}',
    );
  });

  test('flags that contradict each other: exit 2, every reason at once, nothing sent', async () => {
    const ran = await load([
      join(SCENARIOS, 'quickstart.yaml'),
      '--target',
      api(),
      '-i',
      '5',
      '-u',
      '2',
      '--rate',
      'x',
    ]);
    expect(ran.code).toBe(2);
    expect(ran.err).toContain("--rate 'x' is not N/s");
    expect(ran.err).toContain('-i/--iterations counts arrivals of the open model');
    const staged = await exportK6([join(SCENARIOS, 'quickstart.yaml'), '--stage', '1s', '-d', '2s']);
    expect(staged.code).toBe(2);
    expect(staged.err).toContain("--stage '1s' is not DURATION:TARGET");
    expect(staged.err).toContain('give -d/--duration or --stage');
    expect(existsSync(join(DIR, 'never'))).toBe(false);
  });
});
