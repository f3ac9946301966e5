/**
 * Flags of `npm run bench` (bench/main.ts), strictly parsed with the CLI's parser: unknown
 * flags and bad values are all reported together (exit 2). Every default and bound lives here.
 */
import { parseArgs, stringFlag } from '../src/cli/args.ts';
import { checkCasinoOptions, type CasinoStyle } from './casino-phase.ts';
import type { HttpClient } from './http-phase.ts';

export type MixChoice = 'quickstart' | 'synthetic' | 'auto';
/** Which phases run: all (default), only the traffic mix's (in-process, bare, http), only the casino's (bets, raw HMAC), only the load part's (generator rate, coordinated omission), only the recovery part's (afp serve --data after a crash), or only the sweep part's (afp sweep on 2 workers over 1), or only the memory part's (bytes per agent at 10k, 100k and 1M agents), or only the travel part's (/health during snapshot, revert, digest, state and reset of a large platform; a century's clock move), or only the pauses part's (afp serve's own event-loop delay under sustained load). */
export type PhaseChoice = 'all' | 'mix' | 'casino' | 'load' | 'recovery' | 'sweep' | 'memory' | 'travel' | 'pauses';

export interface BenchFlags {
  readonly small: boolean;
  /** Timed rounds of the HTTP and casino phases. */
  readonly rounds: number;
  /**
   * Timed rounds of the in-process and bare phases. They take well under a second each and the
   * target compares their best rounds, which on a shared machine are the rounds least slowed by
   * other tenants: more of them bring each best round closer to its undisturbed time, for both
   * phases alike, and most for the in-process phase, whose rounds are about twice as long (a
   * whole round less often falls in a quiet stretch). Default 21 (about 7 s on a quiet machine);
   * `--rounds` sets it too unless `--mix-rounds` is given.
   */
  readonly mixRounds: number;
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
  readonly only: PhaseChoice;
  /** Casino phase: dice bettors in the population... */
  readonly casinoAgents: number;
  /** ...bets per round at most... */
  readonly casinoBets: number;
  /** ...and wall seconds per round at most (the raw HMAC rounds too). */
  readonly casinoSeconds: number;
  readonly casinoStyle: CasinoStyle;
  /** Raw HMAC phase: HMACs per round at most. */
  readonly hmacCount: number;
  /** Load part: the connections of afp load (--vus), autocannon, k6 and wrk (load-phase.ts)... */
  readonly loadConnections: number;
  /** ...and milliseconds per run of each tool (whole seconds). */
  readonly loadRoundMs: number;
  /** Write phase (serve --data over in memory): concurrent writers... */
  readonly writeConnections: number;
  /** ...and milliseconds per round (each of in memory and --data). */
  readonly writeRoundMs: number;
  /** Recovery part: commands in the logged history recovered (recovery-phase.ts). */
  readonly recoveryCommands: number;
  /** Memory part: virtual hours each size runs (memory-phase.ts)... */
  readonly memoryHours: number;
  /** ...and the largest size run (10k, 100k, 1M; smaller ones all run). */
  readonly memoryAgentsMax: number;
  /** Travel part: agents of the platform snapshotted, reverted and digested (travel-phase.ts). */
  readonly travelAgents: number;
  /** The pauses part's span per run (s). */
  readonly pauseSeconds: number;
  /** Node flags for the pauses part's afp serve processes (e.g. --max-semi-space-size=64), space-separated. */
  readonly serveNodeFlags: readonly string[];
}

export const USAGE =
  'usage: npm run bench -- [--small] [--rounds N] [--mix-rounds N] [--no-http] [--json] [--seed N] [--mix quickstart|synthetic]\n' +
  '                        [--concurrency N] [--http-requests N] [--http-seconds S] [--http-window-ms MS]\n' +
  '                        [--http-client lean|fetch] [--only mix|casino|load|recovery|sweep|memory|travel|pauses]\n' +
  '                        [--casino-agents N] [--casino-bets N] [--casino-seconds S] [--casino-style A|B|mixed] [--hmac-count N]\n' +
  '                        [--load-connections N] [--load-seconds S] [--write-connections N] [--write-seconds S] [--recovery-commands N]\n' +
  '                        [--memory-hours N] [--memory-agents-max N] [--travel-agents N] [--pause-seconds S]\n' +
  "                        [--serve-node-flags '--max-semi-space-size=64 ...']";

export const BENCH_LIMITS = {
  rounds: { min: 1, max: 100, default: 3 },
  mixRounds: { min: 1, max: 100, default: 21 },
  concurrency: { min: 1, max: 1_024, default: 32 },
  httpRequests: { min: 1, max: 1_000_000, default: 20_000, smallDefault: 5_000 },
  httpSeconds: { min: 1, max: 3_600, default: 30 },
  httpWindowMs: { min: 0, max: 86_400_000, default: 600_000 },
  // 100 bettors × 2,000 bets: each agent's seed rotates once (after 1,000 nonces), as in a long run.
  casinoAgents: { min: 1, max: 10_000, default: 100 },
  casinoBets: { min: 1, max: 10_000_000, default: 200_000, smallDefault: 20_000 },
  casinoSeconds: { min: 1, max: 3_600, default: 20 },
  hmacCount: { min: 1, max: 100_000_000, default: 1_000_000, smallDefault: 100_000 },
  loadConnections: { min: 1, max: 1_000, default: 50 },
  loadSeconds: { min: 1, max: 600, default: 10, smallDefault: 1 },
  // 64 writers keep a batch of up to 64 entries per commit: throughput, not one client's latency.
  writeConnections: { min: 1, max: 255, default: 64 },
  writeSeconds: { min: 1, max: 600, default: 30, smallDefault: 1 },
  recoveryCommands: { min: 1_000, max: 10_000_000, default: 1_000_000, smallDefault: 50_000 },
  // 2 virtual hours: every agent registers in the first 12 minutes and wakes again; 1M agents take minutes.
  memoryHours: { min: 1, max: 168, default: 2, smallDefault: 1 },
  memoryAgentsMax: { min: 1_000, max: 1_000_000, default: 1_000_000 },
  // Issue 43's figure: 67k agents made a one-shot snapshot 2–3 s of CPU.
  travelAgents: { min: 100, max: 1_000_000, default: 67_000, smallDefault: 2_000 },
  // Issue 71 part 1: 30 s of each load.
  pauseSeconds: { min: 1, max: 600, default: 30, smallDefault: 1 },
} as const;
/** Node flags the pauses part may pass its servers: the runtime's own, as a user would type them (bounded). */
const SERVE_NODE_FLAG = /^--[a-z][a-z0-9-]*(=[A-Za-z0-9._-]{1,32})?$/;
const SERVE_NODE_FLAGS_MAX = 8;

/** Requests a single window holds at most (bounds the barrier's wait and the lanes' queues). */
export const WINDOW_REQUESTS_MAX = 2_048;

export function parseBenchFlags(argv: readonly string[]): BenchFlags | { errors: string[] } | 'help' {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  const args = parseArgs(argv, {
    small: 'boolean',
    rounds: 'string',
    'mix-rounds': 'string',
    'no-http': 'boolean',
    json: 'boolean',
    seed: 'string',
    mix: 'string',
    concurrency: 'string',
    'http-requests': 'string',
    'http-seconds': 'string',
    'http-window-ms': 'string',
    'http-client': 'string',
    only: 'string',
    'casino-agents': 'string',
    'casino-bets': 'string',
    'casino-seconds': 'string',
    'casino-style': 'string',
    'hmac-count': 'string',
    'load-connections': 'string',
    'load-seconds': 'string',
    'write-connections': 'string',
    'write-seconds': 'string',
    'recovery-commands': 'string',
    'memory-hours': 'string',
    'memory-agents-max': 'string',
    'travel-agents': 'string',
    'pause-seconds': 'string',
    'serve-node-flags': 'string',
  });
  const errors = [...args.errors, ...args.positionals.map((positional) => `unexpected argument '${positional}'`)];
  const int = (
    name: string,
    bounds: { min: number; max: number; default: number },
    fallback = bounds.default,
  ): number => {
    const text = stringFlag(args, name);
    if (text === undefined) return fallback;
    const value = /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= bounds.min && value <= bounds.max))
      errors.push(`--${name} must be a whole number in ${bounds.min}..${bounds.max}, got '${text}'`);
    return value;
  };
  const small = args.flags['small'] === true;
  const seed = stringFlag(args, 'seed');
  if (seed !== undefined && !/^(?:0|[1-9]\d{0,15})$/.test(seed))
    errors.push(`--seed must be a non-negative whole number, got '${seed}'`);
  const mix = stringFlag(args, 'mix') ?? 'auto';
  if (mix !== 'quickstart' && mix !== 'synthetic' && mix !== 'auto')
    errors.push(`--mix must be quickstart or synthetic, got '${mix}'`);
  const httpClient = stringFlag(args, 'http-client') ?? 'lean';
  if (httpClient !== 'lean' && httpClient !== 'fetch')
    errors.push(`--http-client must be lean or fetch, got '${httpClient}'`);
  const only = stringFlag(args, 'only') ?? 'all';
  if (
    only !== 'all' &&
    only !== 'mix' &&
    only !== 'casino' &&
    only !== 'load' &&
    only !== 'recovery' &&
    only !== 'sweep' &&
    only !== 'memory' &&
    only !== 'travel' &&
    only !== 'pauses'
  )
    errors.push(`--only must be mix, casino, load, recovery, sweep, memory, travel or pauses, got '${only}'`);
  const serveNodeFlags = (stringFlag(args, 'serve-node-flags') ?? '').split(' ').filter((flag) => flag !== '');
  if (serveNodeFlags.length > SERVE_NODE_FLAGS_MAX || serveNodeFlags.some((flag) => !SERVE_NODE_FLAG.test(flag)))
    errors.push(
      `--serve-node-flags must be at most ${SERVE_NODE_FLAGS_MAX} node flags such as --max-semi-space-size=64, got '${serveNodeFlags.join(' ')}'`,
    );
  const casinoStyle = stringFlag(args, 'casino-style') ?? 'A';
  if (casinoStyle !== 'A' && casinoStyle !== 'B' && casinoStyle !== 'mixed')
    errors.push(`--casino-style must be A, B or mixed, got '${casinoStyle}'`);
  const rounds = int('rounds', BENCH_LIMITS.rounds);
  const flags: BenchFlags = {
    small,
    rounds,
    mixRounds: int(
      'mix-rounds',
      BENCH_LIMITS.mixRounds,
      stringFlag(args, 'rounds') === undefined ? BENCH_LIMITS.mixRounds.default : rounds,
    ),
    http: args.flags['no-http'] !== true,
    json: args.flags['json'] === true,
    seed,
    mix: mix as MixChoice,
    concurrency: int('concurrency', BENCH_LIMITS.concurrency),
    httpRequests: int(
      'http-requests',
      BENCH_LIMITS.httpRequests,
      small ? BENCH_LIMITS.httpRequests.smallDefault : BENCH_LIMITS.httpRequests.default,
    ),
    httpSeconds: int('http-seconds', BENCH_LIMITS.httpSeconds),
    httpWindowMs: int('http-window-ms', BENCH_LIMITS.httpWindowMs),
    httpClient: httpClient as HttpClient,
    only: only as PhaseChoice,
    casinoAgents: int('casino-agents', BENCH_LIMITS.casinoAgents),
    casinoBets: int(
      'casino-bets',
      BENCH_LIMITS.casinoBets,
      small ? BENCH_LIMITS.casinoBets.smallDefault : BENCH_LIMITS.casinoBets.default,
    ),
    casinoSeconds: int('casino-seconds', BENCH_LIMITS.casinoSeconds),
    casinoStyle: casinoStyle as CasinoStyle,
    hmacCount: int(
      'hmac-count',
      BENCH_LIMITS.hmacCount,
      small ? BENCH_LIMITS.hmacCount.smallDefault : BENCH_LIMITS.hmacCount.default,
    ),
    loadConnections: int('load-connections', BENCH_LIMITS.loadConnections),
    loadRoundMs:
      int(
        'load-seconds',
        BENCH_LIMITS.loadSeconds,
        small ? BENCH_LIMITS.loadSeconds.smallDefault : BENCH_LIMITS.loadSeconds.default,
      ) * 1000,
    writeConnections: int('write-connections', BENCH_LIMITS.writeConnections),
    writeRoundMs:
      int(
        'write-seconds',
        BENCH_LIMITS.writeSeconds,
        small ? BENCH_LIMITS.writeSeconds.smallDefault : BENCH_LIMITS.writeSeconds.default,
      ) * 1000,
    recoveryCommands: int(
      'recovery-commands',
      BENCH_LIMITS.recoveryCommands,
      small ? BENCH_LIMITS.recoveryCommands.smallDefault : BENCH_LIMITS.recoveryCommands.default,
    ),
    memoryHours: int(
      'memory-hours',
      BENCH_LIMITS.memoryHours,
      small ? BENCH_LIMITS.memoryHours.smallDefault : BENCH_LIMITS.memoryHours.default,
    ),
    memoryAgentsMax: int('memory-agents-max', BENCH_LIMITS.memoryAgentsMax),
    travelAgents: int(
      'travel-agents',
      BENCH_LIMITS.travelAgents,
      small ? BENCH_LIMITS.travelAgents.smallDefault : BENCH_LIMITS.travelAgents.default,
    ),
    pauseSeconds: int(
      'pause-seconds',
      BENCH_LIMITS.pauseSeconds,
      small ? BENCH_LIMITS.pauseSeconds.smallDefault : BENCH_LIMITS.pauseSeconds.default,
    ),
    serveNodeFlags,
  };
  if (errors.length === 0)
    errors.push(
      ...checkCasinoOptions({
        seed: '',
        agents: flags.casinoAgents,
        betsMax: flags.casinoBets,
        secondsMax: flags.casinoSeconds,
        style: flags.casinoStyle,
      }),
    );
  return errors.length > 0 ? { errors } : flags;
}
