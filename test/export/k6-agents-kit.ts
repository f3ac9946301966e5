// What the k6 acceptance files share (test/export/k6-shipped.test.ts, k6-segments.test.ts,
// k6-million.test.ts): the real k6 (test/fixtures/k6-binary.ts: K6_BIN, PATH, ../shared/tools), a
// fresh in-process `afp serve` per engine run (loopback, closed as the run ends), a scenario with a
// test's short load profile, its export and `k6 inspect`, a k6 run's and an afp load run's
// per-endpoint request counts, and their comparison.
// Why a kit: the shipped scenarios' comparison (k6-shipped.test.ts) and the segments
// (k6-segments.test.ts) share the engines' runs and the count comparison.
// Tolerance floor: a file's tolerance (±5%) or ±TOLERANCE_FLOOR requests where that is less (an
// endpoint called a handful of times in a short window moves by one or two requests with which
// agent an arrival happens to find free: k6 hands arrivals to any idle VU).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { parse, stringify } from 'yaml';
import { main as exportEnding } from '../../src/cli/export.ts';
import { main as loadEnding } from '../../src/cli/load.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { systemLoadClock } from '../../src/load/options.ts';
import type { LoadRunFile } from '../../src/load/load-run-file.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { k6ForTests } from '../fixtures/k6-binary.ts';
import { coded } from '../cli/ending-code.ts';

const exportMain = coded(exportEnding);
const loadMain = coded(loadEnding);

export const ROOT = join(import.meta.dirname, '..', '..');
/** The real k6 (K6_BIN, PATH, ../shared/tools) and why the k6 tests are skipped here, if they are: test/fixtures/k6-binary.ts. */
export const { path: K6, skip: K6_SKIP } = k6ForTests();
const TOLERANCE_FLOOR = 2;
/**
 * 40 arrivals in 4 s: every population is reached (the ring interleaves them) and the smaller
 * scenarios' first agents step again. Its max_in_flight is k6's VU count.
 */
export const PROFILE = {
  executor: 'constant-arrival-rate',
  rate: 10,
  time_unit: '1s',
  duration: '4s',
  max_in_flight: 8,
  graceful_stop: '3s',
};
/** The arrivals of PROFILE (and of profileOver's windows). */
const ARRIVALS = 40;

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

/** `script`, once `k6 inspect` has read it without an error. */
export async function inspectScript(script: string): Promise<string> {
  const inspected = await k6(['inspect', script]);
  expect(inspected.stderr).not.toMatch(/level=error/);
  expect(inspected.code, inspected.stderr).toBe(0);
  return script;
}

/** The counts of one engine's run of a shipped scenario and what it dropped (or stepped late). */
export interface ShippedRun {
  readonly counts: Record<string, number>;
  readonly dropped: number;
}

/** The export of `file` with `flags`, once `k6 inspect` has read it, then its k6 run on a fresh serve. */
async function k6Shipped(
  kit: ReturnType<typeof k6Kit>,
  file: string,
  flags: readonly string[],
  base: string,
): Promise<ShippedRun> {
  const script = await inspectScript(await exportScript(file, flags, `${base}.k6.js`));
  const out = `${base}.k6.json`;
  const counts = await kit.withServe((api) => k6Run(api, script, out));
  return { counts, dropped: k6Dropped(out) };
}

/**
 * A shipped scenario (scenarios/NAME, the file itself) with `flags` on both engines, each against
 * a fresh serve: afp load, and the export, `k6 inspect` and k6's run; side by side, or afp load
 * first. Asserts no arrival dropped or step late on either, and the per-endpoint counts within
 * ±5% (±`floor` requests where that is less).
 */
export async function compareShipped(
  kit: ReturnType<typeof k6Kit>,
  name: string,
  flags: readonly string[],
  options: { readonly sideBySide: boolean; readonly floor?: number },
): Promise<void> {
  const file = join(ROOT, 'scenarios', name);
  const base = join(kit.dir, name.replace(/\.yaml$/, ''));
  const afpSide = (): Promise<ShippedRun> => kit.withServe((api) => afpLoadRun(api, file, flags, `${base}-load`));
  const [afp, k6] = options.sideBySide
    ? await Promise.all([afpSide(), k6Shipped(kit, file, flags, base)])
    : [await afpSide(), await k6Shipped(kit, file, flags, base)];
  const shown = `${name} afp/k6: ${table(afp.counts, k6.counts)}; dropped or late: afp ${afp.dropped}, k6 ${k6.dropped}`;
  expect(afp.dropped, shown).toBe(0);
  expect(k6.dropped, shown).toBe(0);
  expect(mismatches(afp.counts, k6.counts, 0.05, options.floor), shown).toStrictEqual([]);
}
