/**
 * `afp load merge`'s reading of several load.json files (src/load/load-run-file.ts, format
 * 'afp-load-run/1': the run's header and its LoadSnapshot), the `--shard i/n` runs of one load
 * test on several machines, into one: counts and histograms add exactly (`mergeSnapshots`), and
 * the merged file has the same format, so the reports and thresholds read it as any run's.
 *
 * Reading is strict, as a scenario is: the shape exactly (unknown keys refused), every count a
 * whole number within the recorder's bounds, rows that add up (statuses to requests, failures
 * within requests, histogram counts to requests, endpoints to seconds), histograms that decode;
 * and across the files: the same scenario, seed, target and plan, shards of one `n` (load.json's
 * `shard`, absent for an unsharded run), each of 1..n exactly once. Every problem of every file is
 * reported together, each with its file (the command exits 2).
 * Merged header: agents, interruptions, failed iterations and kept lists add up (lists cut to
 * MAX_KEPT); the run ended by the schedule only if every shard did; notes once each, in order.
 * Limits: LOAD_FILES_MAX files, LOAD_FILE_BYTES_MAX bytes each, ERRORS_PER_FILE_MAX errors each.
 * Non-goals: judging the thresholds and writing the reports (the load command's writers).
 */
import { readTextFile } from '../core/text-file.ts';
import * as z from 'zod';
import {
  decodeHistogram,
  MAX_CHECKS,
  MAX_ENDPOINTS,
  MAX_SECONDS,
  mergeSnapshots,
  type HistogramSnapshot,
} from './load-recorder.ts';
import type { LoadRunFile } from './load-run-file.ts';
import { MAX_KEPT } from './load-run-pool.ts';
import { SHARD_COUNT_MAX, shardLabel } from './shard.ts';

export const LOAD_FILE_FORMAT = 'afp-load-run/1';
export const LOAD_FILES_MAX = SHARD_COUNT_MAX;
export const LOAD_FILE_BYTES_MAX = 256 * 1024 * 1024;
export const ERRORS_PER_FILE_MAX = 20;

type LoadFile = LoadRunFile;

export type MergeResult =
  | { readonly ok: true; readonly file: LoadRunFile }
  | { readonly ok: false; readonly errors: readonly string[] };

const count = z.int().min(0).max(Number.MAX_SAFE_INTEGER);
const instant = z.number().min(0).max(Number.MAX_SAFE_INTEGER);
const text = (max: number): z.ZodString => z.string().min(1).max(max);
const statuses = z.record(z.string().regex(/^(0|[1-9]\d{2})$/, 'an HTTP status, or 0 for no answer'), count);
const histogram = z.strictObject({
  count,
  encoded: z
    .string()
    .max(LOAD_FILE_BYTES_MAX)
    .regex(/^[A-Za-z0-9+/=]*$/, 'base64'),
});
const row = { requests: count, failed: count, statuses, latency: histogram };
const kept = <T extends z.ZodType>(item: T) => z.strictObject({ count, first: z.array(item).max(MAX_KEPT) });
const stage = z.strictObject({ durationMs: instant, target: count });
const planSchema = z.strictObject({
  kind: z.enum(['arrivals', 'vus']),
  executor: z.enum(['constant-arrival-rate', 'ramping-arrival-rate', 'constant-vus', 'ramping-vus']),
  durationMs: instant,
  gracefulStopMs: instant,
  maxInFlight: count.optional(),
  timeUnitMs: instant.optional(),
  rate: count.optional(),
  startRate: count.optional(),
  vus: count.optional(),
  startVus: count.optional(),
  stages: z.array(stage).max(1_000).optional(),
  description: text(2_000),
});

const snapshotSchema = z.strictObject({
  format: z.literal('afp-load/1'),
  startMs: instant,
  endMs: instant,
  endpoints: z.array(z.strictObject({ endpoint: text(2_000), ...row })).max(MAX_ENDPOINTS + 1),
  seconds: z
    .array(
      z.strictObject({
        second: z
          .int()
          .min(0)
          .max(MAX_SECONDS - 1),
        ...row,
      }),
    )
    .max(MAX_SECONDS),
  iterations: z.strictObject({ started: count, completed: count, dropped: count }),
  checks: z.record(text(500), z.strictObject({ passes: count, fails: count })),
  wireMsTotal: z.number().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  firstError: z.string().max(1_000).optional(),
});

const fileSchema = z.strictObject({
  format: z.literal(LOAD_FILE_FORMAT),
  scenario: text(200),
  seed: text(128),
  target: z.strictObject({ name: text(2_000), source: text(2_000) }),
  shard: z
    .strictObject({ index: z.int().min(1).max(SHARD_COUNT_MAX), count: z.int().min(1).max(SHARD_COUNT_MAX) })
    .optional(),
  plan: planSchema,
  agents: count,
  ended: z.strictObject({
    by: z.enum(['schedule', 'stopped']),
    reason: text(2_000).nullable(),
    interrupted: count,
    failed_iterations: count,
  }),
  reports: kept(z.strictObject({ agentId: text(200), message: text(10_000) })),
  iteration_errors: kept(text(10_000)),
  setup_trouble: kept(text(10_000)),
  notes: z.array(text(10_000)).max(1_000),
  snapshot: snapshotSchema,
});

type Row = {
  readonly requests: number;
  readonly failed: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly latency: HistogramSnapshot;
};

function rowProblems(where: string, value: Row): string[] {
  const problems: string[] = [];
  if (value.failed > value.requests) problems.push(`${where}: failed ${value.failed} > requests ${value.requests}`);
  const byStatus = Object.values(value.statuses).reduce((sum, n) => sum + n, 0);
  if (byStatus !== value.requests)
    problems.push(`${where}: statuses add up to ${byStatus}, not requests ${value.requests}`);
  if (value.latency.count !== value.requests)
    problems.push(`${where}: latency.count ${value.latency.count} is not requests ${value.requests}`);
  let decoded: number | null = null;
  try {
    decoded = decodeHistogram(value.latency).totalCount;
  } catch {
    problems.push(`${where}: latency.encoded is not an HDR histogram`);
  }
  if (decoded !== null && decoded !== value.latency.count)
    problems.push(`${where}: latency.encoded holds ${decoded} values, not ${value.latency.count}`);
  return problems;
}

/** The values that appear more than once, each once, in order of their second appearance. */
function duplicates<T>(values: readonly T[]): T[] {
  const seen = new Set<T>();
  const repeated = new Set<T>();
  for (const value of values) {
    if (seen.has(value)) repeated.add(value);
    seen.add(value);
  }
  return [...repeated];
}

/** The file's own problems beyond its shape: rows that add up, names and seconds once each. */
function fileProblems(file: LoadFile): string[] {
  const problems: string[] = [];
  const { snapshot, shard } = file;
  if (snapshot.endMs < snapshot.startMs)
    problems.push(`snapshot.endMs ${snapshot.endMs} is before snapshot.startMs ${snapshot.startMs}`);
  if (shard !== undefined && shard.index > shard.count)
    problems.push(`shard ${shardLabel(shard)}: i must be 1..${shard.count}`);
  for (const name of duplicates(snapshot.endpoints.map((endpoint) => endpoint.endpoint)))
    problems.push(`endpoint '${name}' appears more than once`);
  for (const second of duplicates(snapshot.seconds.map((entry) => entry.second)))
    problems.push(`second ${second} appears more than once`);
  if (Object.keys(snapshot.checks).length > MAX_CHECKS) problems.push(`more than ${MAX_CHECKS} checks`);
  snapshot.endpoints.forEach((endpoint) => problems.push(...rowProblems(`endpoint '${endpoint.endpoint}'`, endpoint)));
  snapshot.seconds.forEach((entry) => problems.push(...rowProblems(`second ${entry.second}`, entry)));
  const sum = (rows: readonly Row[], pick: (value: Row) => number): number =>
    rows.reduce((total, value) => total + pick(value), 0);
  for (const [what, pick] of [
    ['requests', (value: Row) => value.requests],
    ['failed', (value: Row) => value.failed],
  ] as const) {
    if (sum(snapshot.endpoints, pick) !== sum(snapshot.seconds, pick))
      problems.push(
        `the endpoints' ${what} (${sum(snapshot.endpoints, pick)}) differ from the seconds' (${sum(snapshot.seconds, pick)})`,
      );
  }
  return problems;
}

/** One file's text as a load.json, or its problems (at most ERRORS_PER_FILE_MAX). */
export function parseLoadFile(text: string): LoadFile | { readonly errors: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { errors: [`not JSON: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    return {
      errors: parsed.error.issues
        .slice(0, ERRORS_PER_FILE_MAX)
        .map((issue) => `${issue.path.length === 0 ? '(file)' : issue.path.join('.')}: ${issue.message}`),
    };
  }
  const file = parsed.data as LoadFile;
  const problems = fileProblems(file);
  return problems.length > 0 ? { errors: problems.slice(0, ERRORS_PER_FILE_MAX) } : file;
}

/** Problems across the files: one run's shards, each exactly once. */
function acrossProblems(files: readonly (readonly [string, LoadFile])[]): string[] {
  const problems: string[] = [];
  const [firstPath, first] = files[0] as readonly [string, LoadFile];
  const same: readonly [string, (file: LoadFile) => string][] = [
    ['scenario', (file) => file.scenario],
    ['seed', (file) => file.seed],
    ['target', (file) => file.target.name],
    ['plan', (file) => file.plan.description],
    ['shard count', (file) => String(file.shard?.count ?? 'none')],
  ];
  for (const [path, file] of files.slice(1)) {
    for (const [what, pick] of same) {
      if (pick(file) !== pick(first))
        problems.push(`${path}: ${what} ${pick(file)} differs from ${firstPath}'s ${pick(first)}`);
    }
  }
  if (problems.length > 0) return problems;
  const shardCount = first.shard?.count;
  if (shardCount === undefined)
    return files.length > 1
      ? [
          `${files.map(([path]) => path).join(', ')}: not shards of one run (no --shard): merge the files of one run's --shard i/n machines`,
        ]
      : [];
  const byIndex = new Map<number, string[]>();
  for (const [path, file] of files) {
    const index = file.shard?.index ?? 0;
    byIndex.set(index, [...(byIndex.get(index) ?? []), path]);
  }
  for (const [index, paths] of [...byIndex].sort(([a], [b]) => a - b))
    if (paths.length > 1) problems.push(`shard ${index}/${shardCount} is given more than once: ${paths.join(', ')}`);
  const missing = Array.from({ length: shardCount }, (_, k) => k + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0)
    problems.push(
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((index) => `${index}/${shardCount}`).join(', ')} missing: the merge would not be the whole run`,
    );
  return problems;
}

async function readOne(path: string): Promise<LoadFile | { readonly errors: string[] }> {
  const read = await readTextFile(path, LOAD_FILE_BYTES_MAX);
  return read.ok ? parseLoadFile(read.text) : { errors: [`cannot read: ${read.reason}`] };
}

function mergeKept<T>(lists: readonly { readonly count: number; readonly first: readonly T[] }[]): {
  count: number;
  first: T[];
} {
  return {
    count: lists.reduce((sum, list) => sum + list.count, 0),
    first: lists.flatMap((list) => list.first).slice(0, MAX_KEPT),
  };
}

/** One load.json of the shards' (see the header for how the header's figures merge). */
function mergeFiles(files: readonly LoadFile[]): LoadRunFile {
  const first = files[0] as LoadFile;
  const stopped = files.find((file) => file.ended.by === 'stopped');
  const sum = (pick: (file: LoadFile) => number): number => files.reduce((total, file) => total + pick(file), 0);
  const { shard: _shard, ...header } = first;
  return {
    ...header,
    agents: sum((file) => file.agents),
    ended: {
      by: stopped === undefined ? 'schedule' : 'stopped',
      reason: stopped?.ended.reason ?? null,
      interrupted: sum((file) => file.ended.interrupted),
      failed_iterations: sum((file) => file.ended.failed_iterations),
    },
    reports: mergeKept(files.map((file) => file.reports)),
    iteration_errors: mergeKept(files.map((file) => file.iteration_errors)),
    setup_trouble: mergeKept(files.map((file) => file.setup_trouble)),
    notes: [...new Set(files.flatMap((file) => file.notes))],
    snapshot: mergeSnapshots(files.map((file) => file.snapshot)),
  };
}

/** Reads, checks and merges the load.json files of one sharded run (or one whole run); every problem at once. */
export async function mergeLoadFiles(paths: readonly string[]): Promise<MergeResult> {
  if (paths.length === 0) return { ok: false, errors: ['no load.json file given'] };
  if (paths.length > LOAD_FILES_MAX)
    return { ok: false, errors: [`at most ${LOAD_FILES_MAX} files, got ${paths.length}`] };
  const errors: string[] = [];
  const files: (readonly [string, LoadFile])[] = [];
  for (const path of paths) {
    const read = await readOne(path);
    if ('errors' in read) errors.push(...read.errors.map((error) => `${path}: ${error}`));
    else files.push([path, read]);
  }
  if (errors.length > 0) return { ok: false, errors };
  const across = acrossProblems(files);
  if (across.length > 0) return { ok: false, errors: across };
  return { ok: true, file: mergeFiles(files.map(([, file]) => file)) };
}
