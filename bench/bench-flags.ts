/**
 * Flags of `npm run bench` (bench/main.ts), strictly parsed with the CLI's parser: unknown
 * flags and bad values are all reported together (exit 2). Every default and bound lives here.
 */
import { parseArgs, stringFlag } from '../src/cli/args.ts';
import type { HttpClient } from './http-phase.ts';

export type MixChoice = 'quickstart' | 'synthetic' | 'auto';

export interface BenchFlags {
  readonly small: boolean;
  readonly rounds: number;
  readonly http: boolean;
  readonly json: boolean;
  /** undefined: the scenario's own seed (quickstart) or '1' (synthetic). */
  readonly seed: string | undefined;
  readonly mix: MixChoice;
  /** In-flight HTTP requests at most (one per lane). */
  readonly concurrency: number;
  /** HTTP phase: at most this many requests of the mix (a prefix) per round... */
  readonly httpRequests: number;
  /** ...and no new window after this many seconds of wall time. */
  readonly httpSeconds: number;
  /**
   * HTTP phase: virtual time one clock move covers. 0 serves every request at its exact instant
   * (no status differences, but little concurrency: a window per instant); larger windows trade
   * a few differences (cooldowns and expiries seen up to a window late) for concurrency.
   */
  readonly httpWindowMs: number;
  /** HTTP phase: the lean node:http client (default) or the project's fetch transport. */
  readonly httpClient: HttpClient;
}

export const USAGE =
  'usage: npm run bench -- [--small] [--rounds N] [--no-http] [--json] [--seed N] [--mix quickstart|synthetic]\n' +
  '                        [--concurrency N] [--http-requests N] [--http-seconds S] [--http-window-ms MS]\n' +
  '                        [--http-client lean|fetch]';

export const BENCH_LIMITS = {
  rounds: { min: 1, max: 100, default: 3 },
  concurrency: { min: 1, max: 1_024, default: 32 },
  httpRequests: { min: 1, max: 1_000_000, default: 20_000, smallDefault: 5_000 },
  httpSeconds: { min: 1, max: 3_600, default: 30 },
  httpWindowMs: { min: 0, max: 86_400_000, default: 600_000 },
} as const;

/** Requests a single window holds at most (bounds the barrier's wait and the lanes' queues). */
export const WINDOW_REQUESTS_MAX = 2_048;

export function parseBenchFlags(argv: readonly string[]): BenchFlags | { errors: string[] } | 'help' {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  const args = parseArgs(argv, {
    small: 'boolean',
    rounds: 'string',
    'no-http': 'boolean',
    json: 'boolean',
    seed: 'string',
    mix: 'string',
    concurrency: 'string',
    'http-requests': 'string',
    'http-seconds': 'string',
    'http-window-ms': 'string',
    'http-client': 'string',
  });
  const errors = [...args.errors, ...args.positionals.map((positional) => `unexpected argument '${positional}'`)];
  const int = (name: string, bounds: { min: number; max: number; default: number }, fallback = bounds.default): number => {
    const text = stringFlag(args, name);
    if (text === undefined) return fallback;
    const value = /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= bounds.min && value <= bounds.max)) errors.push(`--${name} must be a whole number in ${bounds.min}..${bounds.max}, got '${text}'`);
    return value;
  };
  const small = args.flags['small'] === true;
  const seed = stringFlag(args, 'seed');
  if (seed !== undefined && !/^(?:0|[1-9]\d{0,15})$/.test(seed)) errors.push(`--seed must be a non-negative whole number, got '${seed}'`);
  const mix = stringFlag(args, 'mix') ?? 'auto';
  if (mix !== 'quickstart' && mix !== 'synthetic' && mix !== 'auto') errors.push(`--mix must be quickstart or synthetic, got '${mix}'`);
  const httpClient = stringFlag(args, 'http-client') ?? 'lean';
  if (httpClient !== 'lean' && httpClient !== 'fetch') errors.push(`--http-client must be lean or fetch, got '${httpClient}'`);
  const flags: BenchFlags = {
    small,
    rounds: int('rounds', BENCH_LIMITS.rounds),
    http: args.flags['no-http'] !== true,
    json: args.flags['json'] === true,
    seed,
    mix: mix as MixChoice,
    concurrency: int('concurrency', BENCH_LIMITS.concurrency),
    httpRequests: int('http-requests', BENCH_LIMITS.httpRequests, small ? BENCH_LIMITS.httpRequests.smallDefault : BENCH_LIMITS.httpRequests.default),
    httpSeconds: int('http-seconds', BENCH_LIMITS.httpSeconds),
    httpWindowMs: int('http-window-ms', BENCH_LIMITS.httpWindowMs),
    httpClient: httpClient as HttpClient,
  };
  return errors.length > 0 ? { errors } : flags;
}
