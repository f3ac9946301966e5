// What the k6 acceptance files share (test/export/k6-agents.test.ts, k6-segments.test.ts): the
// real k6 (test/fixtures/k6-binary.ts: K6_BIN, PATH, ../shared/tools), a fresh in-process `afp serve` per engine run (loopback,
// closed as the run ends), the scenario with the test's short load profile, its export, a k6 run's
// and an afp load run's per-endpoint request counts, and their comparison.
// Why a kit: the comparisons (k6-agents.test.ts) and the segments (k6-segments.test.ts) share the
// engines' runs and the count comparison.
// Tolerance: ±10% of afp load's count per endpoint, or ±TOLERANCE_FLOOR requests where 10% is less
// than that (an endpoint called a handful of times in a short window moves by one or two requests
// with which agent an arrival happens to find free: k6 hands arrivals to any idle VU).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { parse, stringify } from 'yaml';
import { AGENTS } from '../../agents/index.ts';
import { main as exportMain } from '../../src/cli/export.ts';
import { main as loadMain } from '../../src/cli/load.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { systemLoadClock } from '../../src/load/generator.ts';
import type { LoadRunFile } from '../../src/load/load-run-file.ts';
import { interleave } from '../../src/agent/agent-ring.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { k6ForTests } from '../fixtures/k6-binary.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
/** The real k6 (K6_BIN, PATH, ../shared/tools) and why the k6 tests are skipped here, if they are: test/fixtures/k6-binary.ts. */
export const { path: K6, skip: K6_SKIP } = k6ForTests();
export const TOLERANCE = 0.1;
const TOLERANCE_FLOOR = 2;
/**
 * 40 arrivals in 4 s: every population is reached (the ring interleaves them) and the smaller
 * scenarios' first agents step again. A rate both engines sustain on a shared 2-core machine,
 * unless the window's agents derive wallet keys (windowOf). Its max_in_flight (so k6's VU count)
 * is a window's largest: see maxInFlightOf.
 */
export const PROFILE = {
  executor: 'constant-arrival-rate',
  rate: 10,
  time_unit: '1s',
  duration: '4s',
  max_in_flight: 8,
  graceful_stop: '3s',
};
/** The in-flight bound (k6's VUs) of a window whose agents each step once and quickly (maxInFlightOf). */
const SHORT_STEPS_IN_FLIGHT = 4;
/** The arrivals of every compared window (PROFILE's). */
const ARRIVALS = 40;
/** The window's seconds per arrival whose agent derives wallet keys (see windowOf). */
const KEY_SECONDS = 0.4;

/**
 * The seconds over which a scenario's ARRIVALS arrive in the first measurement: PROFILE's 4, or
 * KEY_SECONDS per arrival whose agent sets up by deriving wallet keys (an archetype with a
 * warmUp: wallet-holder, wallet-swapper), whichever is longer. Why: a k6 VU (goja) derives a
 * wallet in about 0.13 s of CPU against Node's 0.02 s, and in wallet-swaps every arrival creates
 * one (~0.16 s of k6's CPU an arrival): at 10/s k6 needed ~1.6 cores of a 2-core machine that
 * three test workers share, dropped arrivals, and the scenario was measured twice and then "not
 * compared". The same 40 arrivals over 16 s ask ~0.4 cores of it. Counts depend on the arrivals,
 * not their pace: afp load runs the same profile.
 */
export function windowOf(name: string): number {
  return Math.max(4, Math.ceil(derivingArrivals(name) * KEY_SECONDS));
}

/** How many of the window's ARRIVALS reach an agent whose archetype warms up (derives wallet keys). */
function derivingArrivals(name: string): number {
  return ringOf(name)
    .slice(0, ARRIVALS)
    .filter((agent) => AGENTS[agent]?.warmUp !== undefined).length;
}

/** The scenario's agents (their archetype names) in afp load's ring order. */
function ringOf(name: string): string[] {
  const document = parse(readFileSync(join(ROOT, 'scenarios', name), 'utf8')) as {
    populations: { agent: string; count: number }[];
  };
  return interleave(document.populations.map(({ agent, count }) => Array<string>(count).fill(agent)));
}

/**
 * The window's max_in_flight, which is also k6's VU count (min(max_in_flight, agents)): PROFILE's
 * 8, or SHORT_STEPS_IN_FLIGHT where the ring holds at least ARRIVALS agents and none of the window's
 * derives wallet keys. Why: each k6 VU evaluates the ~700 KB script at init (~0.08 CPU-s), and those
 * windows use at most 2 VUs at once (iterations of ~6 ms at 10/s). Where fewer VUs would change
 * what is measured, 8 stay: a VU steps an agent only within its next V arrivals, so a VU that owns
 * more agents than it gets turns steps them late (k6-smoke's 5 agents on 4 VUs: 6 late steps in
 * every window, so never compared), as does one busy deriving keys (referral-tree: 7 late on 4
 * VUs, 0 on 8).
 */
export function maxInFlightOf(name: string): number {
  const short = ringOf(name).length >= ARRIVALS && derivingArrivals(name) === 0;
  return short ? SHORT_STEPS_IN_FLIGHT : PROFILE.max_in_flight;
}

/** ARRIVALS over `seconds` (PROFILE's executor; PROFILE's VUs or `maxInFlight`). */
export function profileOver(seconds: number, maxInFlight = PROFILE.max_in_flight): Record<string, unknown> {
  return {
    ...PROFILE,
    rate: ARRIVALS,
    time_unit: `${seconds}s`,
    duration: `${seconds}s`,
    max_in_flight: maxInFlight,
  };
}

/**
 * Scenarios whose k6 counts do not yet match afp load's, with what differs and why (issue 41 stays
 * open on them): their export still passes k6 inspect and runs, and the counts are printed; only
 * the comparison waits. Remove a row once the scenario matches.
 */
const KNOWN_GAPS: Readonly<Record<string, string>> = {};

/** Every shipped scenario but million.yaml (1,000,000 agents: its set-up alone outlasts a short window). */
export function scenarioNames(): string[] {
  return readdirSync(join(ROOT, 'scenarios'))
    .filter((name) => name.endsWith('.yaml') && name !== 'million.yaml')
    .sort();
}

/** A scratch directory (removed after the calling file) and fresh serves, each closed as its work ends. */
export function k6Kit(): {
  readonly dir: string;
  withServe<T>(work: (api: string) => Promise<T>): Promise<T>;
} {
  const dir = mkdtempSync(join(tmpdir(), 'afp-k6-agents-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    async withServe(work) {
      const handle = await startFreshServe();
      try {
        return await work(apiOf(handle));
      } finally {
        await handle.close({ forceAfterMs: 0 });
      }
    },
  };
}

function startFreshServe(): Promise<ServeHandle> {
  return startServe({
    routes: ALL_ROUTES,
    seed: '3',
    port: 0,
    clockMode: 'wall',
    trustedProxies: LOOPBACK_PROXIES,
    log: () => undefined,
  });
}

function apiOf(handle: ServeHandle): string {
  const api = handle.urls.api;
  if (api === undefined) throw new Error('afp serve announces its api URL');
  return api;
}

/**
 * The scenario with the test's load profile in place of its own (thresholds dropped: counts are the
 * point). The export's guards on dropped_iterations and afp_late_agent_steps are relaxed here, in the
 * file, as a user relaxes them: these comparisons count both themselves (k6Dropped) and say "not
 * compared" when the machine could not keep the schedule, where a k6 exit 99 would end the test.
 */
export function withProfile(dir: string, name: string, load: Record<string, unknown> = PROFILE): string {
  const document = parse(readFileSync(join(ROOT, 'scenarios', name), 'utf8')) as Record<string, unknown>;
  const file = join(dir, name);
  writeFileSync(file, stringify({ ...document, load: { ...load, thresholds: COUNTED_NOT_GUARDED } }));
  return file;
}

/** The guards withProfile relaxes: always true, so k6 exits 0 and the test reads the counts. */
const COUNTED_NOT_GUARDED = { dropped_iterations: ['count>=0'], afp_late_agent_steps: ['count>=0'] };

export async function exportScript(
  file: string,
  extra: readonly string[] = [],
  out = file.replace(/\.yaml$/, '.k6.js'),
): Promise<string> {
  let err = '';
  const code = await exportMain(['k6', file, '--out', out, ...extra], {
    out: () => undefined,
    err: (text) => (err += text),
  });
  expect(err).toBe('');
  expect(code).toBe(0);
  return out;
}

/**
 * k6 with its REST API off (no port shared between parallel runs) and no usage report. Without
 * the automatic extension resolution (k6 parsing the whole script once more for imports of
 * extensions it would fetch: the script imports only k6's own modules), and `run` without the
 * teardown step (the script has no teardown(), yet k6 evaluates the script once more for it).
 */
export function k6(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stderr: string }> {
  const [command = '', ...rest] = args;
  const flags = command === 'run' ? ['--address', '', '--no-teardown'] : [];
  return new Promise((resolve) => {
    execFile(
      K6,
      [command, ...flags, ...rest],
      {
        env: { ...process.env, K6_NO_USAGE_REPORT: 'true', K6_AUTO_EXTENSION_RESOLUTION: 'false', ...env },
        timeout: 240_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, _stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stderr }),
    );
  });
}

/** Requests per endpoint tag in a k6 JSON output, afp's own set-up calls left out. */
export function k6Counts(file: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"metric":"http_reqs"') || !line.includes('"type":"Point"')) continue;
    const point = JSON.parse(line) as { data: { tags: { endpoint?: string } } };
    const endpoint = point.data.tags.endpoint ?? '?';
    if (endpoint !== 'afp.setup') counts[endpoint] = (counts[endpoint] ?? 0) + 1;
  }
  return counts;
}

/**
 * What k6 could not run on schedule, from a JSON output file: its dropped_iterations (arrivals it
 * could not start) and the script's afp_late_agent_steps (agents stepped more than a VU count of
 * arrivals after afp load would have: a VU that got too few turns).
 */
export function k6Dropped(out: string): number {
  let dropped = 0;
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    if (!line.includes('"type":"Point"')) continue;
    if (!line.includes('"metric":"dropped_iterations"') && !line.includes('"metric":"afp_late_agent_steps"')) continue;
    dropped += (JSON.parse(line) as { data: { value: number } }).data.value;
  }
  return dropped;
}

/** The checks that failed in a k6 JSON output file, by name (`agent rules: <archetype>`), in order. */
export function k6FailedChecks(out: string): string[] {
  const failed: string[] = [];
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    if (!line.includes('"metric":"checks"') || !line.includes('"type":"Point"')) continue;
    const point = JSON.parse(line) as { data: { value: number; tags: { check?: string } } };
    if (point.data.value === 0) failed.push(point.data.tags.check ?? '?');
  }
  return failed;
}

/** Runs `script` on k6 against `api` and answers its per-endpoint counts. */
export async function k6Run(
  api: string,
  script: string,
  out: string,
  extra: readonly string[] = [],
  runId = 'k6run',
): Promise<Record<string, number>> {
  const ran = await k6(['run', '--quiet', '--out', `json=${out}`, ...extra, script], {
    AFP_TARGET: api,
    AFP_RUN_ID: runId,
  });
  expect(ran.stderr).not.toMatch(/level=error/);
  expect(ran.code, ran.stderr.slice(-2000)).toBe(0);
  return k6Counts(out);
}

/** `afp load` of the scenario file (with `extra` flags): its per-endpoint counts and the arrivals it dropped. */
export async function afpLoadRun(
  api: string,
  file: string,
  extra: readonly string[] = [],
  out = file.replace(/\.yaml$/, '-load'),
): Promise<{ counts: Record<string, number>; dropped: number }> {
  let err = '';
  const code = await loadMain([file, '--target', api, '--out', out, '--quiet', ...extra], {
    out: () => undefined,
    err: (text) => void (err += text),
    errIsTty: false,
    clock: systemLoadClock(),
    onInterrupt: () => () => undefined,
  });
  expect(code, err).toBe(0);
  const run = JSON.parse(readFileSync(join(out, 'load.json'), 'utf8')) as LoadRunFile;
  return {
    counts: Object.fromEntries(run.snapshot.endpoints.map((endpoint) => [endpoint.endpoint, endpoint.requests])),
    dropped: run.snapshot.iterations.dropped,
  };
}

/** Endpoints whose counts differ past the tolerance, as `endpoint: afp → k6` lines. */
export function mismatches(
  expected: Record<string, number>,
  seen: Record<string, number>,
  tolerance: number,
  floor: number = TOLERANCE_FLOOR,
): string[] {
  const names = [...new Set([...Object.keys(expected), ...Object.keys(seen)])].sort();
  return names
    .map((name) => ({ name, want: expected[name] ?? 0, got: seen[name] ?? 0 }))
    .filter(({ want, got }) => Math.abs(got - want) > Math.max(tolerance * want, floor))
    .map(({ name, want, got }) => `${name}: ${want} → ${got}`);
}

export function table(expected: Record<string, number>, seen: Record<string, number>): string {
  const names = [...new Set([...Object.keys(expected), ...Object.keys(seen)])].sort();
  return names.map((name) => `${name} ${expected[name] ?? 0}/${seen[name] ?? 0}`).join(', ');
}

export const sum = (counts: Record<string, number>): number =>
  Object.values(counts).reduce((total, count) => total + count, 0);

/** The scenario file's export, once `k6 inspect` has read it without an error. */
async function exportAndInspect(file: string): Promise<string> {
  const script = await exportScript(file);
  const inspected = await k6(['inspect', script]);
  expect(inspected.stderr).not.toMatch(/level=error/);
  expect(inspected.code, inspected.stderr).toBe(0);
  return script;
}

/**
 * Windows measured at most per scenario before a difference counts (see compareWithAfpLoad), each
 * at half the pace of the one before. Three since the comparisons share the machine with CPU-bound
 * test files: a busy machine slowed k6's VUs deriving wallet keys (referral-tree) in two windows
 * running, 4 B registrations short of 20 without a dropped or late arrival counted, in 1 of 4
 * full runs; the third window, a quarter of the pace, gives them that time.
 */
const MEASUREMENTS = 3;

interface Measurement {
  readonly afp: { counts: Record<string, number>; dropped: number };
  readonly seen: Record<string, number>;
  readonly k6Dropped: number;
}

/**
 * One window of the scenario over `seconds`, on both engines (fresh serves): its scenario file and
 * export in a directory of the attempt's own. The export (esbuild) and, in the first attempt,
 * `k6 inspect` are child processes: they run beside afp load's window. A later attempt's script
 * differs from the inspected one only in its pace.
 */
async function measure(
  kit: ReturnType<typeof k6Kit>,
  name: string,
  attempt: number,
  seconds: number,
): Promise<Measurement> {
  const dir = join(kit.dir, `attempt-${attempt}`);
  mkdirSync(dir, { recursive: true });
  const file = withProfile(dir, name, profileOver(seconds, maxInFlightOf(name)));
  const [script, afp] = await Promise.all([
    attempt === 1 ? exportAndInspect(file) : exportScript(file),
    kit.withServe((api) => afpLoadRun(api, file)),
  ]);
  const out = join(dir, `${name}.k6.json`);
  const seen = await kit.withServe((api) => k6Run(api, script, out));
  return { afp, seen, k6Dropped: k6Dropped(out) };
}

/**
 * The acceptance check of one scenario: its export passes `k6 inspect`, and its per-endpoint
 * counts on k6 match afp load's of the same window (each against a fresh serve) within the
 * tolerance. A busy machine makes either engine drop arrivals it cannot start on time: a window
 * that differs is measured again, the same arrivals at half the pace (fresh serves, both
 * engines), up to MEASUREMENTS windows, before it counts as a difference. Counts test the traffic model only while both
 * engines keep the schedule: when the last window still differs and an engine dropped arrivals in
 * it (k6's dropped_iterations or late agent steps, afp load's dropped iterations), the machine, not
 * the traffic, is what was measured, and the comparison is reported as not made (both engines must
 * still have sent traffic).
 */
export async function compareWithAfpLoad(kit: ReturnType<typeof k6Kit>, name: string): Promise<void> {
  let differences: string[] = [];
  let saturated = '';
  let lastSeen = 0;
  for (let attempt = 1, seconds = windowOf(name); attempt <= MEASUREMENTS; attempt++, seconds *= 2) {
    const { afp, seen, k6Dropped: k6DroppedCount } = await measure(kit, name, attempt, seconds);
    process.stdout.write(
      `${name}: ${ARRIVALS} arrivals in ${seconds} s: afp load ${sum(afp.counts)} / k6 ${sum(seen)} requests (dropped or late arrivals ${afp.dropped} / ${k6DroppedCount}); ${table(afp.counts, seen)}\n`,
    );
    expect(sum(afp.counts)).toBeGreaterThan(0);
    const gap = KNOWN_GAPS[name];
    if (gap !== undefined) {
      process.stdout.write(`${name}: known gap, not compared: ${gap}\n`);
      expect(sum(seen)).toBeGreaterThan(0);
      return;
    }
    differences = mismatches(afp.counts, seen, TOLERANCE);
    lastSeen = sum(seen);
    saturated = afp.dropped + k6DroppedCount > 0 ? `afp load dropped ${afp.dropped}, k6 ${k6DroppedCount}` : '';
    if (differences.length === 0) break;
  }
  if (differences.length > 0 && saturated !== '') {
    expect(lastSeen).toBeGreaterThan(0);
    process.stdout.write(
      `${name}: not compared: the machine could not keep the schedule (${saturated} arrivals); differences ${differences.join(', ')}\n`,
    );
    return;
  }
  expect(differences).toStrictEqual([]);
}
