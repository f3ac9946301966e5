/**
 * `afp sweep merge`: the `sweep.json` files of a sweep's shards (`--shard i/n` on n machines)
 * read back and joined into one report, rows in the whole sweep's seed order. Why validated as
 * strictly as a scenario: the files come from other machines and other afp versions, and a
 * mismatch (another scenario, other defects, other --seeds, --swarm or not, a seed twice) must be
 * an exit-2 error naming the file, not a silently wrong distribution.
 * Invariants: money comes back exact (decimal text → bigint micro-USDC); the merged report lists
 * the seeds no file had (`missing`), so a lost shard is said, not hidden.
 */
import { readTextFile } from '../core/text-file.ts';
import { z } from 'zod';
import { parseDecimal } from '../core/money.ts';
import { PROBES, type ProbeCount } from '../sim.ts';
import { FIGURES, type SeedFigures } from './seed-figures.ts';
import { SWEEP_FORMAT, type SweepReport, type SweepRow } from './sweep-report.ts';

export const MERGE_FILES_MAX = 1_000;
/** Missing seeds a merge names (the count says how many there are). */
export const MISSING_LISTED_MAX = 20;
const SWEEP_FILE_BYTES_MAX = 512 * 1024 * 1024;

const moneyText = z.string().regex(/^-?\d{1,15}\.\d{6}$/);
const figures = z.strictObject(
  Object.fromEntries(FIGURES.map(({ name, money }) => [name, money ? moneyText : z.number().int().nonnegative()])),
);
const row = z.strictObject({
  index: z.number().int().nonnegative(),
  seed: z.string().min(1).max(128),
  outcome: z.enum(['completed', 'invariant-failed', 'limit-reached', 'crashed']),
  failure: z.strictObject({ invariant: z.string(), at: z.string(), message: z.string(), event: z.string() }).nullable(),
  stopped: z.string().nullable(),
  figures: figures.nullable(),
  digest: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  reproduce: z.string(),
  probes: z.record(z.string().max(64), z.number().int().nonnegative()).nullable().optional(),
});
const sweepFile = z.object({
  format: z.literal(SWEEP_FORMAT),
  scenario: z.string(),
  file: z.string(),
  defects: z.array(z.string()),
  shard: z.string().nullable(),
  seeds_total: z.number().int().nonnegative(),
  // Absent from files written before they were kept: such a file is not compared on them.
  seeds_given: z.string().max(10_000).nullable().optional(),
  swarm: z.boolean().nullable().optional(),
  seeds: z.array(row),
});

type SweepFile = z.infer<typeof sweepFile>;

function micro(text: string): bigint {
  const value = parseDecimal(text);
  if (typeof value !== 'bigint') throw new Error(`not an amount: ${text}`);
  return value;
}

/** A row's probe hits back in the table's order (probes this afp does not know are dropped, missing ones count 0). */
function probesOf(hits: Readonly<Record<string, number>> | null): ProbeCount[] | null {
  if (hits === null) return null;
  return PROBES.map((probe) => ({ name: probe.name, hits: hits[probe.name] ?? 0 }));
}

function rowOf(parsed: z.infer<typeof row>): SweepRow {
  const figuresIn = parsed.figures as Record<string, string | number> | null;
  const figuresOut: SeedFigures | null =
    figuresIn === null
      ? null
      : Object.fromEntries(
          FIGURES.map(({ name, money }) => [
            name,
            money ? micro(String(figuresIn[name])) : BigInt(figuresIn[name] ?? 0),
          ]),
        );
  const { probes, ...rest } = parsed;
  return { ...rest, figures: figuresOut, probes: probesOf(probes ?? null) };
}

type MergeResult =
  | {
      readonly ok: true;
      readonly report: SweepReport;
      readonly missing: number;
      /** The first MISSING_LISTED_MAX indexes (in the whole sweep's seed order) no file had. */
      readonly missingIndexes: readonly number[];
    }
  | { readonly ok: false; readonly message: string };

export function mergeSweepTexts(files: readonly { readonly name: string; readonly text: string }[]): MergeResult {
  if (files.length === 0) return { ok: false, message: 'afp sweep merge needs at least one sweep.json' };
  if (files.length > MERGE_FILES_MAX)
    return { ok: false, message: `afp sweep merge takes at most ${MERGE_FILES_MAX} files` };
  const parsedFiles: { name: string; value: SweepFile }[] = [];
  for (const file of files) {
    const parsed = parseSweepFile(file);
    if (typeof parsed === 'string') return { ok: false, message: parsed };
    parsedFiles.push({ name: file.name, value: parsed });
  }
  const first = (parsedFiles[0] as { name: string; value: SweepFile }).value;
  const rows = new Map<number, SweepRow>();
  for (const { name, value } of parsedFiles) {
    const differs = differsFromFirst(name, value, first, files[0]?.name ?? 'the first file');
    if (differs !== null) return { ok: false, message: differs };
    for (const parsedRow of value.seeds) {
      if (parsedRow.index >= value.seeds_total)
        return {
          ok: false,
          message: `${name}: seed ${parsedRow.seed} at index ${parsedRow.index}, past the sweep's ${value.seeds_total} seeds`,
        };
      const seen = rows.get(parsedRow.index);
      if (seen !== undefined)
        return {
          ok: false,
          message: `${name}: seed ${parsedRow.seed} (index ${parsedRow.index}) is in more than one file`,
        };
      rows.set(parsedRow.index, rowOf(parsedRow));
    }
  }
  const results = [...rows.values()].sort((a, b) => a.index - b.index);
  return {
    ok: true,
    report: {
      scenario: first.scenario,
      file: first.file,
      defects: first.defects,
      shard: null,
      seedsTotal: first.seeds_total,
      seedsGiven: parsedFiles.find((file) => file.value.seeds_given != null)?.value.seeds_given ?? null,
      swarm: parsedFiles.find((file) => file.value.swarm != null)?.value.swarm ?? null,
      results,
    },
    missing: first.seeds_total - results.length,
    missingIndexes: Array.from({ length: first.seeds_total }, (_, index) => index)
      .filter((index) => !rows.has(index))
      .slice(0, MISSING_LISTED_MAX),
  };
}

/** One file read as a sweep.json, or why it is not one. */
function parseSweepFile(file: { readonly name: string; readonly text: string }): SweepFile | string {
  let json: unknown;
  try {
    json = JSON.parse(file.text);
  } catch (error) {
    return `${file.name}: not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const parsed = sweepFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${file.name}: not an afp sweep.json (${issue === undefined ? 'invalid' : `${issue.path.join('.') || '(top)'}: ${issue.message}`})`;
  }
  return parsed.data;
}

/** Why a shard is not of the first file's sweep (scenario, defects, seeds, swarm), or null when it is. */
function differsFromFirst(name: string, value: SweepFile, first: SweepFile, firstName: string): string | null {
  if (value.scenario !== first.scenario || value.file !== first.file)
    return `${name}: scenario ${value.scenario} (${value.file}) differs from ${first.scenario} (${first.file})`;
  if (value.defects.join(',') !== first.defects.join(','))
    return `${name}: defects [${value.defects.join(',')}] differ from [${first.defects.join(',')}]`;
  if (value.seeds_total !== first.seeds_total)
    return `${name}: a sweep of ${value.seeds_total} seeds, not ${first.seeds_total}`;
  const seedsGiven = value.seeds_given ?? null;
  const firstSeeds = first.seeds_given ?? null;
  if (seedsGiven !== null && firstSeeds !== null && seedsGiven !== firstSeeds)
    return `${name}: a sweep of --seeds ${seedsGiven}, not --seeds ${firstSeeds}`;
  const swarm = value.swarm ?? null;
  const firstSwarm = first.swarm ?? null;
  if (swarm !== null && firstSwarm !== null && swarm !== firstSwarm)
    return `${name}: a sweep ${swarm ? 'with' : 'without'} --swarm, but ${firstName} is one ${firstSwarm ? 'with' : 'without'}`;
  return null;
}

export async function mergeSweepFiles(paths: readonly string[]): Promise<MergeResult> {
  const files: { name: string; text: string }[] = [];
  for (const path of paths) {
    const read = await readTextFile(path, SWEEP_FILE_BYTES_MAX);
    if (!read.ok) return { ok: false, message: `cannot read ${path}: ${read.reason}` };
    files.push({ name: path, text: read.text });
  }
  return mergeSweepTexts(files);
}
