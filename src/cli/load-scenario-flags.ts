/**
 * The flags of `afp load SCENARIO --target URL|FILE …` (the afp engine's scenario run), every
 * problem with them at once: the other forms' flags named with their form (a URL run's, --engine
 * autocannon's), --out's DIR and metrics outputs, --seed, the k6 profile flags (profile-flags.ts:
 * --rate, -u/--vus, -d/--duration, -i/--iterations, --stage, --max-vus), --shard and --workers.
 * Why apart from load-scenario.ts: load.ts checks them with light imports and loads the run
 * (the agents, the platform model, the target files) only once they are valid.
 */
import { type OutputSpec, parseOutFlags, parseShard, type Shard, WHOLE, WORKERS_MAX } from '../load/options.ts';
import { seedFlagError } from '../core/seed-text.ts';
import { otherFormFlags, parseCommand, stringFlag } from './args.ts';
import { AUTOCANNON_ONLY, definitionOf, URL_ONLY } from './commands.ts';
import { readProfileFlags, type ProfileFlags } from './profile-flags.ts';

const DEFINITION = definitionOf('load');

export interface LoadFlags {
  readonly file: string;
  readonly target: string;
  readonly seed: string | undefined;
  readonly out: string | undefined;
  readonly outputs: readonly OutputSpec[];
  /** --tag NAME=VALUE: labels on every metric the outputs send. */
  readonly tags: Readonly<Record<string, string>>;
  readonly durationMs: number | undefined;
  /** The k6 flags' profile (what was given of it). */
  readonly profile: ProfileFlags;
  readonly quiet: boolean;
  readonly shard: Shard;
  readonly workers: number;
}

export function parseLoadArgs(argv: readonly string[]): { flags: LoadFlags; errors: string[] } {
  // A URL run's or autocannon's flag is parsed, then named with its form: refused unparsed, its value was taken for a SCENARIO.
  const args = parseCommand(argv, DEFINITION, ['engine']);
  const outs = parseOutFlags(args.lists['out'] ?? [], args.lists['tag'] ?? []);
  const errors = [
    ...args.errors,
    ...otherFormFlags(args, URL_ONLY, "a URL run (afp load URL …): a scenario's agents send its requests"),
    ...otherFormFlags(args, AUTOCANNON_ONLY, 'a run of --engine autocannon'),
    ...outs.errors,
  ];
  if (args.positionals.length !== 1) errors.push(`expected one SCENARIO file, got ${args.positionals.length}`);
  const target = stringFlag(args, 'target');
  if (target === undefined) errors.push('--target URL|FILE is required (the live target to load)');
  const seed = stringFlag(args, 'seed');
  const seedError = seed === undefined ? null : seedFlagError(seed);
  if (seedError !== null) errors.push(seedError);
  const profile = readProfileFlags(args, errors);
  const shardText = stringFlag(args, 'shard');
  const shard = shardText === undefined ? WHOLE : parseShard(shardText);
  if (typeof shard === 'string') errors.push(shard);
  const workersText = stringFlag(args, 'workers') ?? '1';
  const workers = /^\d{1,3}$/.test(workersText) ? Number(workersText) : Number.NaN;
  if (!(workers >= 1 && workers <= WORKERS_MAX))
    errors.push(`--workers must be a whole number from 1 to ${WORKERS_MAX}, got '${workersText.slice(0, 20)}'`);
  return {
    flags: {
      file: args.positionals[0] ?? '',
      target: target ?? '',
      seed,
      out: outs.dir,
      outputs: outs.outputs,
      tags: outs.tags,
      durationMs: profile.durationMs,
      profile,
      quiet: args.flags['quiet'] === true || args.flags['json'] === true,
      shard: typeof shard === 'string' ? WHOLE : shard,
      workers: workers >= 1 ? workers : 1,
    },
    errors,
  };
}
