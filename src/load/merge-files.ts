/**
 * load.json, the result file of one load run or one `--shard i/n` of it, and `afp load merge`'s
 * reading of several: a LoadSnapshot (format 'afp-load/1') with a `header` saying what ran (the
 * scenario, the target, the engine, the seed, the shard) and the scenario's thresholds, so the
 * merge judges them on the whole without the scenario file.
 *
 * Reading is strict, as a scenario is: the shape exactly (unknown keys refused), every count a
 * whole number within the recorder's bounds, rows that add up (statuses to requests, failures
 * within requests, histogram counts to requests, endpoints to seconds), histograms that decode;
 * and across the files: the same scenario, target, engine, seed and thresholds, shards of one
 * `n`, each of 1..n exactly once. Every problem of every file is reported together, each with its
 * file (the command exits 2). Merging is `mergeSnapshots`: counts and histograms add exactly.
 * Limits: LOAD_FILES_MAX files, LOAD_FILE_BYTES_MAX bytes each, ERRORS_PER_FILE_MAX errors each.
 * Non-goals: judging the thresholds and writing the report (the load command's writers).
 */
import { readFile, stat } from 'node:fs/promises';
import * as z from 'zod';
import { decodeHistogram, MAX_CHECKS, MAX_ENDPOINTS, MAX_SECONDS, mergeSnapshots, type HistogramSnapshot, type LoadSnapshot } from './load-recorder.ts';
import { LOAD_LIMITS, THRESHOLD_EXPRESSION, type LoadSection } from './load-schema.ts';
import { SHARD_COUNT_MAX, shardLabel, type Shard } from './shard.ts';

export const LOAD_FILE_FORMAT = 'afp-load/1';
export const LOAD_FILES_MAX = SHARD_COUNT_MAX;
export const LOAD_FILE_BYTES_MAX = 256 * 1024 * 1024;
export const ERRORS_PER_FILE_MAX = 20;
export const ENGINES = ['afp', 'autocannon'] as const;
export type EngineName = (typeof ENGINES)[number];

export interface LoadFileHeader {
  /** The scenario's name. */
  readonly scenario: string;
  readonly target: { readonly name: string; readonly source: string };
  readonly engine: EngineName;
  /** The run's seed; null for an engine without one (autocannon). */
  readonly seed: string | null;
  /** This file's part of a sharded run; null for the whole run (an unsharded run, or a merge). */
  readonly shard: Shard | null;
  /** The scenario's `load.thresholds` as parsed (durations in ms); null when it has none. */
  readonly thresholds: LoadSection['thresholds'] | null;
}

export type LoadFile = LoadSnapshot & { readonly header: LoadFileHeader };

export type MergeResult = { readonly ok: true; readonly header: LoadFileHeader; readonly snapshot: LoadSnapshot } | { readonly ok: false; readonly errors: readonly string[] };

/** The file's text: format first, then the header, then the snapshot; byte-stable for the same inputs. */
export function loadFileJson(header: LoadFileHeader, snapshot: LoadSnapshot): string {
  const { format, ...rest } = snapshot;
  return `${JSON.stringify({ format, header, ...rest }, null, 2)}\n`;
}

const count = z.int().min(0).max(Number.MAX_SAFE_INTEGER);
const instant = z.number().min(0).max(Number.MAX_SAFE_INTEGER);
const text = (max: number): z.ZodString => z.string().min(1).max(max);
const statuses = z.record(z.string().regex(/^(0|[1-9]\d{2})$/, 'an HTTP status, or 0 for no answer'), count);
const histogram = z.strictObject({ count, encoded: z.string().max(LOAD_FILE_BYTES_MAX).regex(/^[A-Za-z0-9+/=]*$/, 'base64') });
const row = { requests: count, failed: count, statuses, latency: histogram };
const threshold = z.string().regex(THRESHOLD_EXPRESSION, 'a k6 threshold expression');

const fileSchema = z.strictObject({
  format: z.literal(LOAD_FILE_FORMAT),
  header: z.strictObject({
    scenario: text(200),
    target: z.strictObject({ name: text(2_000), source: text(2_000) }),
    engine: z.enum(ENGINES),
    seed: z.string().regex(/^\d{1,20}$/).nullable(),
    shard: z.strictObject({ index: z.int().min(1).max(SHARD_COUNT_MAX), count: z.int().min(1).max(SHARD_COUNT_MAX) }).nullable(),
    thresholds: z
      .record(text(300), z.array(z.union([threshold, z.strictObject({ threshold, abortOnFail: z.boolean().optional(), delayAbortEval: instant.optional() })])).min(1).max(LOAD_LIMITS.thresholdsPerMetric))
      .nullable(),
  }),
  startMs: instant,
  endMs: instant,
  endpoints: z.array(z.strictObject({ endpoint: text(2_000), ...row })).max(MAX_ENDPOINTS + 1),
  seconds: z.array(z.strictObject({ second: z.int().min(0).max(MAX_SECONDS - 1), ...row })).max(MAX_SECONDS),
  iterations: z.strictObject({ started: count, completed: count, dropped: count }),
  checks: z.record(text(500), z.strictObject({ passes: count, fails: count })),
});

type Row = { readonly requests: number; readonly failed: number; readonly statuses: Readonly<Record<string, number>>; readonly latency: HistogramSnapshot };

function rowProblems(where: string, value: Row): string[] {
  const problems: string[] = [];
  if (value.failed > value.requests) problems.push(`${where}: failed ${value.failed} > requests ${value.requests}`);
  const byStatus = Object.values(value.statuses).reduce((sum, n) => sum + n, 0);
  if (byStatus !== value.requests) problems.push(`${where}: statuses add up to ${byStatus}, not requests ${value.requests}`);
  if (value.latency.count !== value.requests) problems.push(`${where}: latency.count ${value.latency.count} is not requests ${value.requests}`);
  let decoded: number | null = null;
  try {
    decoded = decodeHistogram(value.latency).totalCount;
  } catch {
    problems.push(`${where}: latency.encoded is not an HDR histogram`);
  }
  if (decoded !== null && decoded !== value.latency.count) problems.push(`${where}: latency.encoded holds ${decoded} values, not ${value.latency.count}`);
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
  if (file.endMs < file.startMs) problems.push(`endMs ${file.endMs} is before startMs ${file.startMs}`);
  const { shard } = file.header;
  if (shard !== null && shard.index > shard.count) problems.push(`header.shard ${shardLabel(shard)}: i must be 1..${shard.count}`);
  for (const name of duplicates(file.endpoints.map((endpoint) => endpoint.endpoint))) problems.push(`endpoint '${name}' appears more than once`);
  for (const second of duplicates(file.seconds.map((entry) => entry.second))) problems.push(`second ${second} appears more than once`);
  if (Object.keys(file.checks).length > MAX_CHECKS) problems.push(`more than ${MAX_CHECKS} checks`);
  file.endpoints.forEach((endpoint) => problems.push(...rowProblems(`endpoint '${endpoint.endpoint}'`, endpoint)));
  file.seconds.forEach((entry) => problems.push(...rowProblems(`second ${entry.second}`, entry)));
  const sum = (rows: readonly Row[], pick: (value: Row) => number): number => rows.reduce((total, value) => total + pick(value), 0);
  for (const [what, pick] of [['requests', (value: Row) => value.requests], ['failed', (value: Row) => value.failed]] as const) {
    if (sum(file.endpoints, pick) !== sum(file.seconds, pick)) problems.push(`the endpoints' ${what} (${sum(file.endpoints, pick)}) differ from the seconds' (${sum(file.seconds, pick)})`);
  }
  return problems;
}

/** One file's text as a LoadFile, or its problems (at most ERRORS_PER_FILE_MAX). */
export function parseLoadFile(text: string): LoadFile | { readonly errors: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { errors: [`not JSON: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    return { errors: parsed.error.issues.slice(0, ERRORS_PER_FILE_MAX).map((issue) => `${issue.path.length === 0 ? '(file)' : issue.path.join('.')}: ${issue.message}`) };
  }
  const file = parsed.data as LoadFile;
  const problems = fileProblems(file);
  return problems.length > 0 ? { errors: problems.slice(0, ERRORS_PER_FILE_MAX) } : file;
}

/** Problems across the files: one run's shards, each exactly once. */
function acrossProblems(files: readonly (readonly [string, LoadFile])[]): string[] {
  const problems: string[] = [];
  const [firstPath, first] = files[0] as readonly [string, LoadFile];
  const same: readonly [string, (header: LoadFileHeader) => string][] = [
    ['scenario', (header) => header.scenario],
    ['target', (header) => header.target.name],
    ['engine', (header) => header.engine],
    ['seed', (header) => String(header.seed)],
    ['thresholds', (header) => JSON.stringify(header.thresholds)],
    ['shard count', (header) => String(header.shard?.count ?? 'none')],
  ];
  for (const [path, file] of files.slice(1)) {
    for (const [what, pick] of same) {
      if (pick(file.header) !== pick(first.header)) problems.push(`${path}: ${what} ${pick(file.header)} differs from ${firstPath}'s ${pick(first.header)}`);
    }
  }
  if (problems.length > 0) return problems;
  const shardCount = first.header.shard?.count;
  if (shardCount === undefined) return files.length > 1 ? [`${files.map(([path]) => path).join(', ')}: not shards of one run (no --shard): merge the files of one run's --shard i/n machines`] : [];
  const byIndex = new Map<number, string[]>();
  for (const [path, file] of files) byIndex.set(file.header.shard?.index ?? 0, [...(byIndex.get(file.header.shard?.index ?? 0) ?? []), path]);
  for (const [index, paths] of [...byIndex].sort(([a], [b]) => a - b)) if (paths.length > 1) problems.push(`shard ${index}/${shardCount} is given more than once: ${paths.join(', ')}`);
  const missing = Array.from({ length: shardCount }, (_, k) => k + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) problems.push(`shard${missing.length > 1 ? 's' : ''} ${missing.map((index) => `${index}/${shardCount}`).join(', ')} missing: the merge would not be the whole run`);
  return problems;
}

async function readOne(path: string): Promise<LoadFile | { readonly errors: string[] }> {
  try {
    const size = (await stat(path)).size;
    if (size > LOAD_FILE_BYTES_MAX) return { errors: [`larger than ${LOAD_FILE_BYTES_MAX} bytes`] };
    return parseLoadFile(await readFile(path, 'utf8'));
  } catch (error) {
    return { errors: [`cannot read: ${error instanceof Error ? error.message : String(error)}`] };
  }
}

/** Reads, checks and merges the files of one sharded run (or one whole run); every problem at once. */
export async function mergeLoadFiles(paths: readonly string[]): Promise<MergeResult> {
  if (paths.length === 0) return { ok: false, errors: ['no load.json file given'] };
  if (paths.length > LOAD_FILES_MAX) return { ok: false, errors: [`at most ${LOAD_FILES_MAX} files, got ${paths.length}`] };
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
  const first = (files[0] as readonly [string, LoadFile])[1];
  const snapshot = mergeSnapshots(files.map(([, { header: _header, ...snapshot }]) => snapshot));
  return { ok: true, header: { ...first.header, shard: null }, snapshot };
}
