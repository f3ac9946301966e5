/**
 * The three load generators of the bench's rate rounds, each run as its user runs it, in a process
 * of its own, on the same URL with the same number of connections for the same duration:
 *   - afp: `afp load URL --vus N --duration Ss --json` (bin/afp.js on this Node, with the flags of
 *     its shebang), the rate from its JSON line (answered requests over its measured seconds);
 *   - autocannon: its CLI (`autocannon -c N -d S -j URL`), 2xx answers over its measured duration;
 *   - k6: the real binary (`k6 run --vus N --duration Ss --summary-export`), a script of one GET
 *     per iteration; answered requests (http_reqs less http_req_failed) over the run's duration
 *     (count / rate).
 * Each run pays its own start inside the process, outside the measured duration, as for a user.
 * A run that fails (exit code, unreadable output) is reported as a string, never thrown.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool, type ToolRun } from './tool-process.ts';
import { findK6 } from '../test/fixtures/k6-binary.ts';

const ROOT = join(import.meta.dirname, '..');
/** A run may take its duration plus this much for starting, draining and exiting. */
const RUN_SLACK_MS = 60_000;

export interface GeneratorRun {
  /** Requests answered (2xx for autocannon and k6; not failed for afp). */
  readonly answered: number;
  readonly failed: number;
  /** The tool's own measure of its run's length. */
  readonly seconds: number;
  readonly perSecond: number;
}

export interface RateRunOptions {
  readonly url: string;
  readonly connections: number;
  readonly seconds: number;
}

/** The k6 binary: AFP_BENCH_K6, else the tests' (test/fixtures/k6-binary.ts: K6_BIN, PATH, ../shared/tools). */
export function k6Path(): string | null {
  const configured = process.env['AFP_BENCH_K6'];
  if (configured !== undefined && configured !== '') return existsSync(configured) ? configured : null;
  return findK6().path;
}

function runOf(answered: number, failed: number, seconds: number): GeneratorRun | string {
  if (!(seconds > 0) || !Number.isFinite(answered)) return `no measured duration (${seconds} s)`;
  return { answered, failed, seconds, perSecond: answered / seconds };
}

function trouble(name: string, run: ToolRun): string {
  const why = run.error ?? (run.timedOut ? 'timed out' : `exit ${String(run.code)}`);
  return `${name}: ${why}: ${(run.stderr || run.stdout).trim().split('\n').slice(-3).join(' | ').slice(0, 400)}`;
}

/** `afp load URL` with extra flags, its --json line parsed; reports go to a temporary folder. */
export async function afpLoad(
  url: string,
  flags: readonly string[],
  timeoutMs: number,
): Promise<{ run: ToolRun; json: unknown }> {
  const out = await mkdtemp(join(tmpdir(), 'afp-bench-load-'));
  try {
    const args = ['--max-semi-space-size=32', join(ROOT, 'bin', 'afp.js'), 'load', url, ...flags];
    const run = await runTool(process.execPath, [...args, '--json', '--quiet', '--out', out], timeoutMs);
    const line = run.stdout.trim().split('\n').at(-1) ?? '';
    try {
      return { run, json: JSON.parse(line) as unknown };
    } catch {
      return { run, json: null };
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

export interface AfpLoadJson {
  readonly seconds: number;
  readonly requests: number;
  readonly failed: number;
  readonly latency_ms?: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };
  readonly iterations?: { readonly dropped: number };
}

/** The fields of afp load's --json line the bench reads. */
export function isAfpLoadJson(json: unknown): json is AfpLoadJson {
  if (typeof json !== 'object' || json === null) return false;
  const fields = json as Record<string, unknown>;
  return (
    typeof fields['seconds'] === 'number' &&
    typeof fields['requests'] === 'number' &&
    typeof fields['failed'] === 'number'
  );
}

export async function afpRateRun(options: RateRunOptions): Promise<GeneratorRun | string> {
  const flags = ['--vus', String(options.connections), '--duration', `${options.seconds}s`];
  const { run, json } = await afpLoad(options.url, flags, options.seconds * 1000 + RUN_SLACK_MS);
  if (!isAfpLoadJson(json) || run.code !== 0) return trouble('afp load', run);
  return runOf(json.requests - json.failed, json.failed, json.seconds);
}

interface AutocannonJson {
  readonly '2xx': number;
  readonly non2xx: number;
  readonly errors: number;
  readonly duration: number;
}

export async function autocannonRateRun(options: RateRunOptions): Promise<GeneratorRun | string> {
  const cli = join(ROOT, 'node_modules', 'autocannon', 'autocannon.js');
  const args = [cli, '-c', String(options.connections), '-d', String(options.seconds), '-j', options.url];
  const run = await runTool(process.execPath, args, options.seconds * 1000 + RUN_SLACK_MS);
  try {
    const json = JSON.parse(run.stdout) as AutocannonJson;
    return runOf(json['2xx'], json.non2xx + json.errors, json.duration);
  } catch {
    return trouble('autocannon', run);
  }
}

const K6_SCRIPT = `import http from 'k6/http';
export default function () {
  http.get(__ENV.AFP_BENCH_URL);
}
`;

interface K6Summary {
  readonly metrics: {
    readonly http_reqs?: { readonly count: number; readonly rate: number };
    readonly http_req_failed?: { readonly passes: number };
  };
}

export async function k6RateRun(k6: string, options: RateRunOptions): Promise<GeneratorRun | string> {
  const dir = await mkdtemp(join(tmpdir(), 'afp-bench-k6-'));
  try {
    const script = join(dir, 'script.js');
    const summary = join(dir, 'summary.json');
    await writeFile(script, K6_SCRIPT);
    const args = ['run', '--quiet', '--no-color', '--vus', String(options.connections)];
    args.push('--duration', `${options.seconds}s`, '--summary-export', summary, '-e', `AFP_BENCH_URL=${options.url}`);
    const run = await runTool(k6, [...args, script], options.seconds * 1000 + RUN_SLACK_MS);
    if (run.code !== 0) return trouble('k6', run);
    const metrics = (JSON.parse(await readFile(summary, 'utf8')) as K6Summary).metrics;
    const requests = metrics.http_reqs;
    if (requests === undefined || requests.count === 0) return 'k6: no http_reqs in its summary';
    const failed = metrics.http_req_failed?.passes ?? 0;
    return runOf(requests.count - failed, failed, requests.count / requests.rate);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
