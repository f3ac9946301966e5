/**
 * `afp audit house-edge [--games LIST] [--bets N] [--seed N] [--json | --csv] [--out DIR]
 * [--workers N] [--defect NAME]` — and, with `--target URL [--key KEY] [--max-seconds S]
 * [--concurrency C]`, the live audit (audit-house-edge-live.ts).
 *
 * In-process: `--bets` per game, split evenly across its variants, at least
 * minimumBetsPerGame(games) (exit 2 below it); the simulator runs in `--workers` threads (default
 * min(2, cores); the rows do not depend on it). Output contract: `seed: N` first (on stderr with
 * --json/--csv, whose stdout is the document alone); the edge table (edge-table.ts), or the JSON,
 * or the CSV; then the verdict summary; `edges.csv`, `edges.json` and `report.html` go to --out
 * (default reports/audit-<seed>/). Exit codes: 0 the model check holds — at most
 * allowedMisses(K) of the K rows' 99% intervals exclude the theoretical edge, the number chance
 * alone gives; 3 it fails beyond that (the rows, the seed and the exact reproduce command are
 * printed); 2 invalid flags; 1 crash. Verdicts against the advertised edges (coin flip's 2%
 * against an advertised 0.5% is "inconsistent") are findings about the documents: printed, never
 * an exit code. Progress (bets simulated, rate, ETA) goes to stderr, none with --quiet or --json;
 * --json prints one JSON object (json-output.ts): the verdict and figures, the rows under `edges`.
 * `--defect` (tests and demos) applies a deliberate edge defect to the simulated
 * games (defective-games.ts); the non-edge defects are refused, naming the audit that catches them.
 */
import { availableParallelism } from 'node:os';
import { randomInt } from 'node:crypto';
import {
  defectGameSource,
  defectShortName,
  EDGE_DEFECTS,
  isEdgeDefect,
  NON_EDGE_DEFECTS,
  type EdgeDefect,
  MAX_WORKERS,
  REGISTRY_SOURCE,
  loadGameSource,
  selectGames,
  simulateHouseEdgeInWorkers,
  MAX_BETS_PER_GAME,
  minimumBetsPerGame,
  simulateHouseEdge,
  type EdgeRow,
  type EdgeSimulation,
  allowedMisses,
} from '../audit/maths.ts';
import {
  renderEdgeReportHtml,
  writeEdgeAuditFiles,
  renderEdgeCsv,
  renderEdgeJson,
  renderEdgeTable,
  LIVE_BETS_MAX,
} from '../audit.ts';
import type { Severity } from '../report/findings/finding.ts';
import { parseFailOn } from '../report/findings/fail-on.ts';
import { formatDecimal, parseDecimal, type Micro } from '../core/money.ts';
import { MAX_SECONDS_LIMIT } from '../core/deadline.ts';
import { ratioToNumber } from '../core/ratio.ts';
import { percentText } from '../report/html/report-format.ts';
import { GAME_IDS, type GameId } from '../services/casino/games/game.ts';
import { GAMES } from '../services/casino/games/index.ts';
import { DEFECT_NAMES } from '../services/shared/context.ts';
import { parseCommand, stringFlag, type ParsedArgs } from './args.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { commandLine } from '../core/shell-words.ts';
import { seedFlagError } from '../core/seed-text.ts';
import { wholeFlag, type AuditIo } from './audit-io.ts';
import type { RecordFields } from './json-output.ts';
import { Progress, WALL_PROGRESS_CLOCK } from './progress.ts';
import { CONCURRENCY_DEFAULT, CONCURRENCY_MAX, MAX_SECONDS_DEFAULT } from './audit-limits.ts';
import { targetSpecError } from './live-args.ts';
import { checkFailed, type Ending, PASSED } from '../core/command-failure.ts';

export { CONCURRENCY_DEFAULT, CONCURRENCY_MAX, MAX_SECONDS_DEFAULT } from './audit-limits.ts';
export { targetSpecError } from './live-args.ts';

export const HOUSE_EDGE_USAGE = usageLine(definitionOf('audit', 'house-edge'));

export const BETS_DEFAULT = 100_000;
export const LIVE_BETS_DEFAULT = 2_000;

export interface HouseEdgeFlags {
  readonly gameIds: readonly GameId[];
  /** --games as given (for the reproduce command), or null. */
  readonly gamesText: string | null;
  readonly bets: number;
  readonly seed: string;
  readonly format: 'table' | 'json' | 'csv';
  readonly out: string;
  readonly workers: number;
  readonly defect: EdgeDefect | null;
  readonly target: string | null;
  readonly key: string | null;
  readonly maxSeconds: number;
  readonly concurrency: number;
  /** Live only: the stakes budget (--usdc); null = the stakes of --bets over the plan. */
  readonly usdcMicro: Micro | null;
  /** Live only: the severity at which a finding fails the run (exit 3). */
  readonly failOn: Severity | 'none';
  /** --quiet or --json: no progress lines. */
  readonly quiet: boolean;
}

const DEFINITION = definitionOf('audit', 'house-edge');
const LIVE_ONLY = ['max-seconds', 'max-minutes', 'usdc', 'fail-on', 'concurrency'];

/** A directory name from a seed: path separators and the like become '_'. */
export const defaultOutDir = (seed: string): string => `reports/audit-${seed.replace(/[^A-Za-z0-9_.-]/g, '_')}`;

/**
 * The deployed parlay (DEPLOYED.md §2.5) is not sampled: its answer carries no proof (no seed hash,
 * client seed or result hash) and its legs' edge follows from theirs (docs/audit.md); `afp audit
 * fairness` verifies parlays an account placed, leg by leg.
 */
const NOT_SAMPLED = {
  game: 'parlay',
  why: "'parlay' is not sampled by the house-edge audit (a parlay's answer carries no proof, and its edge follows from its legs' games: coin_flip, dice, simple_dice, multiplier); afp audit fairness verifies the parlays an account placed, leg by leg",
} as const;

function parseGames(text: string | undefined, live: boolean, errors: string[]): GameId[] {
  const allowed: readonly string[] = GAME_IDS;
  if (text === undefined) return [...allowed] as GameId[];
  const ids = text.split(',').map((id) => id.trim());
  if (ids.includes('')) errors.push(`--games has an empty name: give comma-separated game ids, e.g. dice,keno`);
  const unknown = [...new Set(ids.filter((id) => id !== '' && !allowed.includes(id)))];
  for (const id of unknown)
    errors.push(
      id === NOT_SAMPLED.game
        ? `--games: ${NOT_SAMPLED.why}`
        : `--games: unknown game '${id}'; known: ${allowed.join(', ')}`,
    );
  if (new Set(ids).size !== ids.length && !ids.includes('')) errors.push('--games names a game twice');
  return ids.filter((id) => allowed.includes(id)) as GameId[];
}

function parseDefect(text: string | undefined, live: boolean, errors: string[]): EdgeDefect | null {
  if (text === undefined) return null;
  const name = defectShortName(text);
  if (live)
    errors.push(
      '--defect is for the in-process simulation only; start the target with `afp serve --defect NAME` instead',
    );
  else if (NON_EDGE_DEFECTS[name] !== undefined)
    errors.push(`--defect ${text} changes no house edge; it is caught by ${NON_EDGE_DEFECTS[name]}`);
  else if (!isEdgeDefect(name))
    errors.push(
      `unknown --defect '${text}'; house-edge defects: ${EDGE_DEFECTS.join(', ')} (all platform defects: ${DEFECT_NAMES.join(', ')})`,
    );
  return isEdgeDefect(name) && !live ? name : null;
}

function checkNumber(value: number | string, errors: string[]): number {
  if (typeof value === 'string') errors.push(value);
  return typeof value === 'number' ? value : 0;
}

/** The flags, or every error found (exit 2). */
export function parseHouseEdgeArgs(
  argv: readonly string[],
  drawSeed: () => string,
): HouseEdgeFlags | { errors: string[] } {
  const args = parseCommand(argv, DEFINITION);
  const errors = [...args.errors, ...args.positionals.map((positional) => `unexpected argument '${positional}'`)];
  const target = stringFlag(args, 'target') ?? null;
  const live = target !== null;
  const targetError = target === null ? null : targetSpecError(target);
  if (targetError !== null) errors.push(targetError);
  const key = stringFlag(args, 'key') ?? null;
  if (key !== null && !live) errors.push('--key goes with --target');
  if (args.flags['json'] === true && args.flags['csv'] === true) errors.push('--json and --csv exclude each other');
  for (const name of live ? ['workers'] : LIVE_ONLY)
    if (args.flags[name] !== undefined) errors.push(`--${name} is for ${live ? 'in-process' : '--target'} runs only`);
  if (args.flags['max-seconds'] !== undefined && args.flags['max-minutes'] !== undefined)
    errors.push('--max-seconds and --max-minutes exclude each other');
  const failOn = parseFailOn(stringFlag(args, 'fail-on'));
  if (!failOn.ok) errors.push(failOn.message);
  const usdcText = stringFlag(args, 'usdc');
  const usdcMicro = usdcText === undefined ? null : parseDecimal(usdcText);
  if (typeof usdcMicro === 'string' || (usdcMicro !== null && usdcMicro <= 0n))
    errors.push(`--usdc must be a positive amount of USDC (up to 6 decimals), got '${(usdcText ?? '').slice(0, 40)}'`);
  const gameIds = parseGames(stringFlag(args, 'games'), live, errors);
  const defect = parseDefect(stringFlag(args, 'defect'), live, errors);
  const { bets, workers, maxSeconds, concurrency } = parseRunSizes(args, live, gameIds, errors);
  const seedText = stringFlag(args, 'seed');
  const seedError = seedText === undefined ? null : seedFlagError(seedText);
  if (seedError !== null) errors.push(seedError);
  if (errors.length > 0) return { errors };
  const seed = seedText ?? drawSeed();
  const format = args.flags['json'] === true ? 'json' : args.flags['csv'] === true ? 'csv' : 'table';
  const out = stringFlag(args, 'out') ?? defaultOutDir(seed);
  return {
    gameIds,
    gamesText: stringFlag(args, 'games') ?? null,
    bets,
    seed,
    format,
    out,
    workers,
    defect,
    target,
    key,
    maxSeconds,
    concurrency,
    usdcMicro: typeof usdcMicro === 'bigint' ? usdcMicro : null,
    failOn: failOn.ok ? failOn.value : 'major',
    quiet: args.flags['quiet'] === true || args.flags['json'] === true,
  };
}

/** --bets (its floor set by the games), --workers, --max-seconds or --max-minutes and --concurrency; their errors are pushed. */
function parseRunSizes(
  args: ParsedArgs,
  live: boolean,
  gameIds: readonly GameId[],
  errors: string[],
): { bets: number; workers: number; maxSeconds: number; concurrency: number } {
  const games = GAMES.filter((game) => gameIds.includes(game.id));
  const minimum = live ? 2 * Math.max(1, gameIds.length) : minimumBetsPerGame(games);
  const bets = checkNumber(
    wholeFlag(
      stringFlag(args, 'bets'),
      'bets',
      live ? LIVE_BETS_DEFAULT : BETS_DEFAULT,
      minimum,
      live ? LIVE_BETS_MAX : MAX_BETS_PER_GAME,
    ),
    errors,
  );
  const workers = checkNumber(
    wholeFlag(stringFlag(args, 'workers'), 'workers', Math.min(2, availableParallelism()), 1, MAX_WORKERS),
    errors,
  );
  const maxMinutes = stringFlag(args, 'max-minutes');
  const maxSeconds =
    maxMinutes === undefined
      ? checkNumber(
          wholeFlag(stringFlag(args, 'max-seconds'), 'max-seconds', MAX_SECONDS_DEFAULT, 1, MAX_SECONDS_LIMIT),
          errors,
        )
      : 60 *
        checkNumber(wholeFlag(maxMinutes, 'max-minutes', MAX_SECONDS_DEFAULT / 60, 1, MAX_SECONDS_LIMIT / 60), errors);
  const concurrency = checkNumber(
    wholeFlag(stringFlag(args, 'concurrency'), 'concurrency', CONCURRENCY_DEFAULT, 1, CONCURRENCY_MAX),
    errors,
  );
  return { bets, workers, maxSeconds, concurrency };
}

export function houseEdgeReproduce(flags: HouseEdgeFlags): string {
  const words = ['npx', 'afp', 'audit', 'house-edge'];
  if (flags.target !== null) words.push('--target', flags.target, ...(flags.key === null ? [] : ['--key', '<KEY>']));
  if (flags.gamesText !== null) words.push('--games', flags.gamesText);
  words.push('--bets', String(flags.bets), '--seed', flags.seed);
  if (flags.usdcMicro !== null) words.push('--usdc', formatDecimal(flags.usdcMicro));
  if (flags.defect !== null) words.push('--defect', flags.defect);
  return commandLine(words);
}

export async function simulateForFlags(
  flags: HouseEdgeFlags,
  onBets?: (done: number, total: number) => void,
): Promise<EdgeSimulation> {
  const source = flags.defect === null ? REGISTRY_SOURCE : defectGameSource(flags.defect);
  const progress = onBets === undefined ? {} : { onBets };
  if (flags.workers > 1)
    return simulateHouseEdgeInWorkers({
      source,
      gameIds: flags.gameIds,
      betsPerGame: flags.bets,
      seed: flags.seed,
      workers: flags.workers,
      ...progress,
    });
  const games = selectGames(await loadGameSource(source), flags.gameIds);
  return simulateHouseEdge({ games, betsPerGame: flags.bets, seed: flags.seed, ...progress });
}

/** The verdict summary lines and whether the model check failed beyond chance. */
export function modelCheckLines(rows: readonly EdgeRow[]): { lines: string[]; failed: boolean } {
  const misses = rows.filter((row) => row.judgement.model === 'fail');
  const allowed = allowedMisses(rows.length);
  const count = (verdict: string): number => rows.filter((row) => row.judgement.verdict === verdict).length;
  const lines = [
    `verdicts: ${count('consistent')} consistent, ${count('inconsistent')} inconsistent, ${count('unresolved')} unresolved against the advertised edges (findings about the documents, not failures)`,
  ];
  const failed = misses.length > allowed;
  lines.push(
    `${failed ? 'FAILED: ' : ''}model check: ${misses.length} of ${rows.length} 99% intervals exclude the theoretical edge (at most ${allowed} by chance)${failed ? '' : ' — ok'}`,
  );
  if (failed)
    for (const row of misses)
      lines.push(
        `  ${row.variant}: theoretical ${percentText(ratioToNumber(row.theory.edge))}, empirical ${percentText(row.interval.edge)} [${percentText(row.interval.low)}, ${percentText(row.interval.high)}] over ${row.interval.bets} bets`,
      );
  return { lines, failed };
}

export async function runHouseEdgeInProcess(
  flags: HouseEdgeFlags,
  io: AuditIo,
  record: RecordFields = () => undefined,
): Promise<Ending> {
  let progress: Progress | null = null;
  const simulation = await simulateForFlags(flags, (done, total) => {
    progress ??= new Progress({
      label: 'audit house-edge',
      unit: 'bets',
      total,
      write: (text) => io.err(text),
      isTty: io.errIsTty ?? false,
      quiet: flags.quiet,
      clock: WALL_PROGRESS_CLOCK,
    });
    progress.update(done);
  });
  (progress as Progress | null)?.finish();
  const subtitle = `seed ${flags.seed} · ${flags.bets} bets per game${flags.defect === null ? '' : ` · deliberate defect ${flags.defect}`}`;
  const files = writeEdgeAuditFiles(flags.out, {
    'edges.csv': renderEdgeCsv(simulation),
    'edges.json': renderEdgeJson(simulation),
    'report.html': renderEdgeReportHtml(simulation.rows, 'afp audit house-edge', subtitle),
  });
  const check = modelCheckLines(simulation.rows);
  if (flags.format === 'json') record(edgeFigures(simulation, check.failed, files, flags));
  else io.out(flags.format === 'csv' ? renderEdgeCsv(simulation) : renderEdgeTable(simulation));
  const say = flags.format === 'table' ? io.out : io.err;
  const lines = [...check.lines, `files: ${files.join(', ')}`];
  if (check.failed) lines.push(`seed: ${flags.seed}`, `reproduce: ${houseEdgeReproduce(flags)}`);
  say(`${lines.join('\n')}\n`);
  return check.failed ? checkFailed() : PASSED;
}

/** The --json figures of an in-process audit: rows, misses against the allowance, verdict counts, files, the rows themselves. */
function edgeFigures(
  simulation: EdgeSimulation,
  failed: boolean,
  files: readonly string[],
  flags: HouseEdgeFlags,
): Record<string, unknown> {
  const rows = simulation.rows;
  const count = (verdict: string): number => rows.filter((row) => row.judgement.verdict === verdict).length;
  return {
    seed: flags.seed,
    bets_per_game: flags.bets,
    rows: rows.length,
    model_misses: rows.filter((row) => row.judgement.model === 'fail').length,
    misses_allowed: allowedMisses(rows.length),
    verdicts: { consistent: count('consistent'), inconsistent: count('inconsistent'), unresolved: count('unresolved') },
    files,
    ...(failed ? { reproduce: houseEdgeReproduce(flags) } : {}),
    edges: JSON.parse(renderEdgeJson(simulation)) as unknown,
  };
}

export const drawSeed = (): string => String(randomInt(0, 0x7fffffff));
