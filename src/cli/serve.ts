/**
 * `afp serve`: the whole platform as a local stand-in, with time travel, for agent developers
 * and for `afp replay`/`afp check --target`. One Platform (seeded), one Dispatcher over every
 * route row, listeners on 127.0.0.1 (src/server/listeners.ts). Prints `seed: N` first, one line
 * per mount (`api: http://127.0.0.1:8700`), then `ready`; runs until SIGTERM or SIGINT, then
 * drains in-flight requests (at most 5 s) and exits 0; a second signal during the drain kills
 * at once (the handlers are removed after the first).
 * `--scenario FILE` configures the stand-in like that scenario (src/scenario/scenario-platform.ts): its
 * seed, its start instant (with --clock manual; a wall clock starts now), its platform overrides
 * (dispute_outcome) and its fault windows, anchored at the served start instant. Explicit --seed
 * and --start win. GET /_afp/platform shows what was applied; afp replay compares it with a record.
 * `--data FILE` makes it durable (src/server/command-log.ts, recovery.ts, group-commit.ts): what
 * recovery needs of every command is committed to a SQLite write-ahead log, in batches, before it
 * is answered; a failed commit stops the server (exit 1, the batch answered 503); on start an existing FILE is
 * replayed (`recovered: N commands from FILE in T ms` on stderr, before `ready`). The log keeps the
 * settings it was created with: flags left out take the stored values, flags given must match.
 * `--dialect deployed` serves the deployment's wire instead (spec/DEPLOYED.md;
 * src/server/deployed-layout.ts): the casino on P under /api/v1 (and /_afp/*), the faucet on P+6,
 * escrow on P+7, the deployment's paths, bodies, errors and fixed-window limits over afp's own
 * services. Not with --data (its log replays the documents' dispatcher). Its casino plays the
 * deployment's engine by the published rules, or by `--rules FILE`'s overrides
 * (src/cli/deployed-rules-file.ts; an invalid file is exit 2 with every error);
 * `--lift-deployed-limits` (tests only) drops the deployment's fixed windows, which a tier cannot lift.
 * `--float-money`, or the rules file's `money: { float_noise: true }`, writes the casino's money as
 * the deployment does, doubles with their noise (src/http/deployed/float-balances.ts, read by the
 * deployed rows through RouteContext.floatBalances).
 * The edge: `--host ADDR` binds another address (0.0.0.0 or :: for a container or a team). Keys and
 * mnemonics follow from the seed, so beyond loopback a seed left unset (no --seed, no existing
 * --data log) is drawn at random (53 bits, the one nondeterminism, printed first), never the
 * well-known 1 or a scenario file's. `--trust-proxy CIDR…` names the proxies whose X-Forwarded-For
 * counts (src/http/trusted-proxies.ts); without it the socket's address is every request's client.
 * Overload: `--max-in-flight N` and `--max-event-loop-delay-ms MS` bound the requests in flight and
 * the event loop's lateness (src/server/load-shedder.ts); past either, 503 + Retry-After;
 * `--max-receiving N` bounds how many of those may still be receiving their bodies.
 * Exit 1: the --data log failed to commit (disk full, I/O error): the server stops rather than serve
 * state that is not on disk (its last group answered 503); a restart replays what is on disk.
 * Exit 2: bad flags, an unknown --dialect or --defect (the valid names are listed), a --defect that
 * acts in the other dialect only (DEFECT_DIALECTS: it would be inert), a port that cannot be used,
 * a scenario file that cannot be read or is invalid (every error, with its line), a --data FILE
 * that is not an afp command log (or a newer one, or in use), or whose settings differ from the flags.
 */
import { watchLauncher } from './launcher-watch.ts';
import { randomInt } from 'node:crypto';
import { readTextFile } from '../core/text-file.ts';
import { isIP } from 'node:net';
import { isLoopback } from '../http/client-ip.ts';
import { NO_PROXIES, TrustedProxies } from '../http/trusted-proxies.ts';
import type { DefectName } from '../services/shared/context.ts';
import { ALL_ROUTES } from '../http/routes/index.ts';
import type { FaultWindow } from '../platform/platform.ts';
import type { GameClosure } from '../services/casino/closure-schedule.ts';
import type { TradingSchedule } from '../services/trading/trading-record.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../services/shared/config.ts';
import type { Scenario } from '../scenario/scenario.ts';
import { MAX_SCENARIO_BYTES } from '../scenario/scenario-size.ts';
import {
  scenarioClosures,
  scenarioFaultWindows,
  scenarioPlatformConfig,
  scenarioTrading,
} from '../scenario/scenario-platform.ts';
import { CLOCK_MAX_MS } from '../server/admin.ts';
import { openCommandLog, type CommandLog, type LogSettings } from '../server/command-log.ts';
import { describeSurvey, salvageLog, surveyLog } from '../server/log-salvage.ts';
import { closeData, isDamage, openData } from '../server/data-preflight.ts';
import { DEFAULT_PORT, DOCUMENTS_LAYOUT, startServe, type ServeHandle, type ServeLayout } from '../server/listeners.ts';
import { DEPLOYED_PORT_OFFSET_MAX } from '../server/deployed-ports.ts';
import type { DeployedCasinoRules } from '../services/casino/deployed/deployed-casino-rules.ts';
import { SHED_DEFAULTS, SHED_LIMITS, type LoadShedderOptions } from '../server/load-shedder.ts';
import type { Route } from '../http/route.ts';
import type { ClockMode } from '../server/serve-clock.ts';
import { parseCommand, stringFlag } from './args.ts';
import { adminDoorsLine, parseTeamFlags } from './serve-team-flags.ts';
import { announcedUrls, type PublicUrls } from '../server/announced-urls.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';

/** After a failed commit: how long the 503s of the failed batch get to leave before connections are cut. */
const LOG_FAILURE_CLOSE_MS = 1_000;

const DEFINITION = definitionOf('serve');
const USAGE = `usage: ${usageLine(DEFINITION)}`;

export const SERVE_DIALECTS = ['documents', 'deployed'] as const;
export type ServeDialect = (typeof SERVE_DIALECTS)[number];

/**
 * The rows and the listener layout of each dialect. The deployed dialect's are loaded only when it
 * is served (about 30 modules, a tenth of a documents serve's start-up).
 */
async function dialectServing(
  dialect: ServeDialect,
  options: { floatMoney?: boolean; limitsLifted?: boolean } = {},
): Promise<{ routes: readonly Route[]; layout: ServeLayout }> {
  if (dialect !== 'deployed') return { routes: ALL_ROUTES, layout: DOCUMENTS_LAYOUT };
  const [{ DEPLOYED_ROUTES }, { DEPLOYED_LAYOUT, deployedLayout }] = await Promise.all([
    import('../http/routes/deployed/index.ts'),
    import('../server/deployed-layout.ts'),
  ]);
  const floatMoney = options.floatMoney === true;
  const limitsLifted = options.limitsLifted === true;
  return {
    routes: DEPLOYED_ROUTES,
    layout: floatMoney || limitsLifted ? deployedLayout({ floatMoney, limitsLifted }) : DEPLOYED_LAYOUT,
  };
}

/** The highest port offset a dialect listens on (--port's bound). */
function highestPortOffset(dialect: ServeDialect): number {
  if (dialect === 'deployed') return DEPLOYED_PORT_OFFSET_MAX;
  return Math.max(...DOCUMENTS_LAYOUT.mounts(ALL_ROUTES).map(([, offset]) => offset));
}

import { DEFECT_DIALECTS, DEFECT_NAMES } from '../services/shared/context.ts';
import { crashed, type Ending, invalidInput, isInvalidInput, PASSED } from '../core/command-failure.ts';
import { exitCodeOf } from './process-exit.ts';

export { DEFECT_NAMES };

export interface ServeFlags {
  readonly port: number;
  /** --host ADDR (present only when given: 127.0.0.1 otherwise). */
  readonly host?: string;
  /** --trust-proxy CIDR… (present only when given: no proxy is trusted otherwise). */
  readonly trustedProxies?: TrustedProxies;
  /** Beyond loopback without --seed: the seed drawn, served unless a --data log already holds one. */
  readonly drawnSeed?: string;
  /** The --seed given; '1' by default, undefined with --scenario or --data and no --seed (the scenario's or the log's seed). */
  readonly seed: string | undefined;
  readonly clockMode: ClockMode;
  readonly startMs: number | undefined;
  readonly defects: readonly DefectName[];
  readonly scenario?: string;
  /** --data FILE: the command log (present only when given, with `clockGiven`). */
  readonly data?: string;
  /** With --data: whether --clock was given (else an existing log's clock mode is served). */
  readonly clockGiven?: boolean;
  /** With --data: commands between two checkpoints (--checkpoint-every; default CHECKPOINT_EVERY_COMMANDS). */
  readonly checkpointEvery?: number;
  /** With --data: a damaged FILE goes on from its intact prefix (log-salvage.ts) instead of refusing to start. */
  readonly salvage?: true;
  /** With --data: answers wait for the log's fsync (--fsync-answers), not only for its commit. */
  readonly fsyncAnswers?: true;
  /** --dialect deployed (present only then; the documents' styles otherwise). */
  readonly dialect?: 'deployed';
  /** --rules FILE (only with --dialect deployed). */
  readonly rules?: string;
  /** --lift-deployed-limits (only with --dialect deployed). */
  readonly liftDeployedLimits?: true;
  /** --float-money (with --dialect deployed; present only then): the casino's money as the deployment's doubles. */
  readonly floatMoney?: boolean;
  /** --max-in-flight, --max-receiving and --max-event-loop-delay-ms (SHED_DEFAULTS when left out). */
  readonly shed: LoadShedderOptions;
  /** --admin-token (or AFP_ADMIN_TOKEN) and --public-url (present only when given; serve-team-flags.ts). */
  readonly adminToken?: string;
  readonly publicUrls?: PublicUrls;
  /** Whether --host binds beyond loopback (afp serve then says who may use the admin doors). */
  readonly beyondLoopback?: true;
}

/** A fresh seed for a stand-in beyond loopback: 53 random bits (the CLI's nondeterminism door). */
export function drawServeSeed(): string {
  return String(randomInt(0, 2 ** 21) * 2 ** 32 + randomInt(0, 2 ** 32));
}

/** Parses the flags; every error is reported, not only the first. `drawSeed` runs only beyond loopback without --seed. */
export function parseServeArgs(
  argv: readonly string[],
  wallNowMs: number,
  drawSeed: () => string = drawServeSeed,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): ServeFlags | { errors: string[] } {
  const args = parseCommand(argv, DEFINITION);
  // A comma list or the flag again (`--defect a,b` as afp run and afp check take it, or `--defect a --defect b`).
  const defects = (args.lists['defect'] ?? []).flatMap((value) => value.split(','));
  const errors = [...args.errors, ...args.positionals.map((positional) => `unexpected argument '${positional}'`)];
  const dialectText = stringFlag(args, 'dialect') ?? 'documents';
  const dialect = (SERVE_DIALECTS as readonly string[]).includes(dialectText) ? (dialectText as ServeDialect) : null;
  if (dialect === null) errors.push(`--dialect must be one of ${SERVE_DIALECTS.join(', ')}, got '${dialectText}'`);
  const portText = stringFlag(args, 'port') ?? String(DEFAULT_PORT);
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
  const highestOffset = highestPortOffset(dialect ?? 'documents');
  if (!(port === 0 || (port >= 1 && port + highestOffset <= 65_535)))
    errors.push(
      `--port must be 0 or 1..${65_535 - highestOffset} (services use P+1..P+${highestOffset}), got '${portText}'`,
    );
  const scenario = stringFlag(args, 'scenario');
  const data = stringFlag(args, 'data');
  const floatMoney = args.flags['float-money'] === true;
  if (floatMoney && dialect !== 'deployed')
    errors.push('--float-money needs --dialect deployed (it writes money as the deployment does)');
  if (dialect === 'deployed' && data !== undefined)
    errors.push("--data is not supported with --dialect deployed (its command log replays the documents' dispatcher)");
  const rules = stringFlag(args, 'rules');
  const liftDeployedLimits = args.flags['lift-deployed-limits'] === true;
  if (dialect !== 'deployed' && rules !== undefined)
    errors.push("--rules needs --dialect deployed (the rules are the deployed casino's)");
  if (dialect !== 'deployed' && liftDeployedLimits) errors.push('--lift-deployed-limits needs --dialect deployed');
  const checkpointText = stringFlag(args, 'checkpoint-every');
  const checkpointEvery =
    checkpointText === undefined
      ? undefined
      : /^[1-9]\d{0,8}$/.test(checkpointText)
        ? Number(checkpointText)
        : Number.NaN;
  if (Number.isNaN(checkpointEvery))
    errors.push(
      `--checkpoint-every must be a whole number of commands from 1 to 999999999, got '${checkpointText ?? ''}'`,
    );
  if (checkpointEvery !== undefined && data === undefined)
    errors.push('--checkpoint-every needs --data (checkpoints are written into the command log)');
  const salvage = args.flags['salvage'] === true;
  if (salvage && data === undefined) errors.push('--salvage needs --data (it salvages a damaged command log)');
  const fsyncAnswers = args.flags['fsync-answers'] === true;
  if (fsyncAnswers && data === undefined) errors.push('--fsync-answers needs --data (it is about the command log)');
  const edge = parseEdge(stringFlag(args, 'host'), args.lists['trust-proxy'] ?? [], errors);
  const team = parseTeamFlags(args, environment, errors);
  const seedGiven = stringFlag(args, 'seed');
  const seed = seedGiven ?? (scenario === undefined && data === undefined && !edge.beyondLoopback ? '1' : undefined);
  if (seed !== undefined && !/^(?:0|[1-9]\d{0,15})$/.test(seed))
    errors.push(`--seed must be a non-negative whole number, got '${seed}'`);
  const clock = stringFlag(args, 'clock') ?? 'wall';
  if (clock !== 'wall' && clock !== 'manual') errors.push(`--clock must be wall or manual, got '${clock}'`);
  const startText = stringFlag(args, 'start');
  const startMs = startText === undefined ? undefined : parseIso(startText);
  if (Number.isNaN(startMs)) errors.push(`--start must be an ISO 8601 date or date-time, got '${startText}'`);
  else if (startMs !== undefined && startMs > CLOCK_MAX_MS)
    errors.push(`--start must be no later than ${new Date(CLOCK_MAX_MS).toISOString()}, got '${startText}'`);
  else if (startMs !== undefined && clock === 'wall' && startMs < wallNowMs)
    errors.push('--start in the past needs --clock manual (the wall clock only moves forward)');
  for (const name of defects) {
    if (!(DEFECT_NAMES as readonly string[]).includes(name)) {
      errors.push(`unknown --defect '${name}'; valid: ${DEFECT_NAMES.join(', ')}`);
      continue;
    }
    // A defect whose code only the other dialect's routes reach would be silently inert (DEFECT_DIALECTS).
    const only = DEFECT_DIALECTS[name as DefectName];
    if (only !== undefined && dialect !== null && only.dialect !== dialect)
      errors.push(
        `--defect ${name} acts on ${only.where} only: it needs --dialect ${only.dialect} (this serve's dialect, ${dialect}, never reaches it)`,
      );
  }
  const maxInFlight = boundFlag(
    stringFlag(args, 'max-in-flight'),
    'max-in-flight',
    SHED_DEFAULTS.maxInFlight,
    SHED_LIMITS.maxInFlight,
    errors,
  );
  const maxReceivingText = stringFlag(args, 'max-receiving');
  const maxReceiving =
    maxReceivingText === undefined
      ? undefined
      : boundFlag(maxReceivingText, 'max-receiving', 0, SHED_LIMITS.maxReceiving, errors);
  const maxEventLoopDelayMs = boundFlag(
    stringFlag(args, 'max-event-loop-delay-ms'),
    'max-event-loop-delay-ms',
    SHED_DEFAULTS.maxEventLoopDelayMs,
    SHED_LIMITS.maxEventLoopDelayMs,
    errors,
  );
  if (errors.length > 0) return { errors };
  const flags = {
    port,
    seed,
    clockMode: clock as ClockMode,
    startMs,
    defects: defects as DefectName[],
    shed: { maxInFlight, maxEventLoopDelayMs, ...(maxReceiving === undefined ? {} : { maxReceiving }) },
    ...(scenario === undefined ? {} : { scenario }),
    ...(dialect === 'deployed' ? { dialect } : {}),
    ...(rules === undefined ? {} : { rules }),
    ...(liftDeployedLimits ? { liftDeployedLimits: true as const } : {}),
    ...(floatMoney ? { floatMoney } : {}),
    ...(edge.host === undefined ? {} : { host: edge.host }),
    ...(edge.trustedProxies === undefined ? {} : { trustedProxies: edge.trustedProxies }),
    ...(edge.beyondLoopback && seedGiven === undefined ? { drawnSeed: drawSeed() } : {}),
    ...(edge.beyondLoopback ? { beyondLoopback: true as const } : {}),
    ...team,
  };
  return data === undefined
    ? flags
    : {
        ...flags,
        data,
        clockGiven: stringFlag(args, 'clock') !== undefined,
        ...(checkpointEvery === undefined ? {} : { checkpointEvery }),
        ...(salvage ? { salvage: true as const } : {}),
        ...(fsyncAnswers ? { fsyncAnswers: true as const } : {}),
      };
}

/** --host and --trust-proxy, checked; their errors are pushed. */
function parseEdge(
  host: string | undefined,
  trustTexts: readonly string[],
  errors: string[],
): { host?: string; trustedProxies?: TrustedProxies; beyondLoopback: boolean } {
  if (host !== undefined && isIP(host) === 0)
    errors.push(`--host must be an IP address such as 127.0.0.1, 0.0.0.0 or ::, got '${host.slice(0, 64)}'`);
  const trusted = trustTexts.length === 0 ? undefined : TrustedProxies.parse(trustTexts);
  if (trusted !== undefined && !(trusted instanceof TrustedProxies)) errors.push(...trusted.errors);
  return {
    ...(host === undefined ? {} : { host }),
    ...(trusted instanceof TrustedProxies ? { trustedProxies: trusted } : {}),
    beyondLoopback: host !== undefined && isIP(host) !== 0 && !isLoopback(host),
  };
}

/** What a scenario sets on a served platform, after the explicit flags. */
export interface ScenarioServeSettings {
  readonly seed: string;
  readonly startMs: number;
  readonly config: PlatformConfig;
  readonly faults: readonly FaultWindow[];
  readonly closures: readonly GameClosure[];
  readonly trading: TradingSchedule;
}

/**
 * The serve settings of a scenario: explicit seed and start win; a manual clock starts at the
 * scenario's start, a wall clock now (`wallNowMs`); fault windows and casino game closures keep
 * their offsets from the served start, as do trading price shocks and market closures, so `afp serve --scenario F --clock manual` has exactly the
 * windows `afp run F` had.
 */
export function scenarioServeSettings(
  scenario: Scenario,
  options: { clockMode: ClockMode; wallNowMs: number; seed?: string | undefined; startMs?: number | undefined },
): ScenarioServeSettings {
  const startMs = options.startMs ?? (options.clockMode === 'manual' ? scenario.startMs : options.wallNowMs);
  return {
    seed: options.seed ?? scenario.seed,
    startMs,
    config: scenarioPlatformConfig(scenario),
    faults: scenarioFaultWindows(scenario, startMs),
    closures: scenarioClosures(scenario, startMs),
    trading: scenarioTrading(scenario, startMs),
  };
}

/** The scenario file, parsed against the agents table; every error formatted with its line. */
export async function loadServeScenario(file: string): Promise<Scenario | { error: string }> {
  const read = await readTextFile(file, MAX_SCENARIO_BYTES);
  if (!read.ok) return { error: `cannot read --scenario ${file}: ${read.reason}` };
  // Loaded only here, once the file is read: the archetypes (and faker), the scenario schema and the
  // YAML parser are not needed by a plain afp serve, nor to refuse a missing file.
  const [{ AGENTS, AGENT_NAMES }, { formatScenarioErrors, parseScenario }] = await Promise.all([
    import('../../agents/index.ts'),
    import('../scenario/scenario.ts'),
  ]);
  const text = read.text;
  const parsed = parseScenario(text, {
    fileName: file,
    agentParams: (name) => AGENTS[name]?.params,
    knownAgents: AGENT_NAMES,
  });
  return parsed.ok ? parsed.scenario : { error: `invalid --scenario:\n${formatScenarioErrors(file, parsed.errors)}` };
}

/** A whole-number flag in 0..max (its default when absent); an error is pushed otherwise. */
function boundFlag(text: string | undefined, name: string, fallback: number, max: number, errors: string[]): number {
  if (text === undefined) return fallback;
  const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value <= max)) errors.push(`--${name} must be a whole number 0..${max}, got '${text}'`);
  return value;
}

function parseIso(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/.test(text))
    return Number.NaN;
  const ms = Date.parse(text);
  return Number.isSafeInteger(ms) && ms >= 0 ? ms : Number.NaN;
}

export async function main(argv: string[]): Promise<number> {
  return exitCodeOf(await serveCommand(argv), (text) => process.stderr.write(text));
}

async function serveCommand(argv: string[]): Promise<Ending> {
  const flags = parseServeArgs(argv, Date.now());
  if ('errors' in flags) {
    return invalidInput(`${flags.errors.map((error) => `afp serve: ${error}`).join('\n')}\n${USAGE}`);
  }
  const commandLog = flags.data === undefined ? undefined : await openData(flags.data, DEFECT_NAMES);
  if (commandLog !== undefined && 'damage' in commandLog) return onDamage(flags, commandLog.damage);
  if (commandLog !== undefined && 'error' in commandLog) {
    if (flags.data !== undefined && isDamage(commandLog.error)) return onDamage(flags, commandLog.error);
    return invalidInput(`afp serve: ${commandLog.error}`);
  }
  let outcome: Ending | { damage: string } | undefined;
  try {
    outcome = await serveUntilSignal(flags, commandLog);
  } finally {
    closeData(commandLog, outcome !== undefined && ('damage' in outcome || isInvalidInput(outcome)));
  }
  return 'damage' in outcome ? onDamage(flags, outcome.damage) : outcome;
}

/**
 * A damaged --data FILE (log-salvage.ts): says exactly what is intact; refuses to start (exit 2)
 * unless --salvage, which writes the intact prefix into a fresh FILE, says what was dropped, and
 * serves it.
 */
async function onDamage(flags: ServeFlags, problem: string): Promise<Ending> {
  const file = flags.data as string;
  const survey = await surveyLog(file, problem.replace(`--data ${file}: `, ''));
  process.stderr.write(
    describeSurvey(survey)
      .map((line) => `afp serve: ${line}\n`)
      .join(''),
  );
  if (survey.settings === null) {
    // A salvage keeps the intact prefix under the log's settings: without them nothing can be kept.
    process.stderr.write(
      `afp serve: refusing to start: without its settings no entry of ${file} can be replayed, and --salvage cannot help; restore ${file} from a copy, or use another --data file\n`,
    );
    return invalidInput();
  }
  if (flags.salvage !== true) {
    process.stderr.write(
      `afp serve: refusing to start on a damaged log; run again with --salvage to go on from the intact prefix (FILE is kept as ${file}.damaged)\n`,
    );
    return invalidInput();
  }
  const salvaged = await salvageLog(survey);
  if ('error' in salvaged) {
    return invalidInput(`afp serve: ${salvaged.error}`);
  }
  process.stderr.write(salvaged.lines.map((line) => `afp serve: ${line}\n`).join(''));
  const { salvage: _salvage, ...again } = flags;
  void _salvage;
  const reopened = await openCommandLog(file, { knownDefects: DEFECT_NAMES });
  if ('error' in reopened) {
    return invalidInput(`afp serve: ${reopened.error}`);
  }
  try {
    const outcome = await serveUntilSignal(again, reopened);
    if (!('damage' in outcome)) return outcome;
    return crashed(`afp serve: the salvaged log is damaged too (${outcome.damage}); a bug`);
  } finally {
    reopened.close();
  }
}

async function serveUntilSignal(
  flags: ServeFlags,
  commandLog: CommandLog | undefined,
): Promise<Ending | { damage: string }> {
  const resolved = await resolveSettings(flags, commandLog?.settings ?? null);
  // Imported only for --rules: the rules file's schema and YAML parser are not needed otherwise.
  const rules =
    flags.rules === undefined
      ? null
      : await (await import('./deployed-rules-file.ts')).loadDeployedRulesFile(flags.rules);
  if (rules !== null && !rules.ok) {
    process.stderr.write(`afp serve: invalid --rules file:\n${rules.message}\n`);
    return invalidInput();
  }
  if ('error' in resolved) {
    process.stderr.write(`afp serve: ${resolved.error}\n${USAGE}\n`);
    return invalidInput();
  }
  const settings = rules === null ? resolved : withDeployedRules(resolved, rules.value);
  const differences = commandLog?.adopt(logSettingsOf(settings.options, Date.now())) ?? [];
  if (differences.length > 0) {
    const file = commandLog?.file ?? '';
    process.stderr.write(
      `afp serve: --data ${file} was written with other settings:\n${differences.map((line) => `  ${line}\n`).join('')}leave those flags out to serve the log's settings, or use another --data file\n`,
    );
    return invalidInput();
  }
  process.stdout.write(`seed: ${settings.options.seed}\n`);
  if (settings.options.seed === flags.drawnSeed)
    process.stderr.write(
      `afp serve: listening on ${flags.host ?? ''}, beyond loopback: seed ${flags.drawnSeed} drawn at random (keys and mnemonics follow from the seed; --seed N chooses one)\n`,
    );
  if (settings.note !== undefined) process.stderr.write(`afp serve: ${settings.note}\n`);
  let handle: ServeHandle;
  try {
    const serving = await dialectServing(flags.dialect ?? 'documents', {
      floatMoney: flags.floatMoney === true || rules?.value.money.floatNoise === true,
      limitsLifted: flags.liftDeployedLimits === true,
    });
    handle = await startServe({
      routes: serving.routes,
      layout: serving.layout,
      port: flags.port,
      ...(flags.host === undefined ? {} : { host: flags.host }),
      trustedProxies: flags.trustedProxies ?? NO_PROXIES,
      shed: flags.shed,
      ...settings.options,
      ...(commandLog === undefined ? {} : { commandLog }),
      ...(flags.checkpointEvery === undefined ? {} : { checkpointEveryCommands: flags.checkpointEvery }),
      ...(flags.fsyncAnswers === true ? { fsyncAnswers: true } : {}),
      ...(flags.adminToken === undefined ? {} : { adminToken: flags.adminToken }),
      ...(flags.publicUrls === undefined ? {} : { publicUrls: flags.publicUrls }),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (commandLog !== undefined && isDamage(message)) return { damage: message };
    process.stderr.write(`afp serve: ${message}\n`);
    return invalidInput();
  }
  if (commandLog?.existed === true && handle.recovery !== undefined) reportRecovery(commandLog.file, handle.recovery);
  if (commandLog?.wasEmptyFile === true)
    process.stderr.write(
      `afp serve: note: --data ${commandLog.file} was an empty file: a new command log was started in it (a copy of a served log taken without its ${commandLog.file}-wal file is empty too: copy both)\n`,
    );
  const shownUrls = announcedUrls(handle.urls, flags.publicUrls);
  for (const [mount, url] of Object.entries(shownUrls)) process.stdout.write(`${mount}: ${url}\n`);
  const adminUrl = flags.dialect === 'deployed' ? shownUrls['casino'] : shownUrls['api'];
  process.stderr.write(
    `afp serve: ${flags.dialect === 'deployed' ? `dialect deployed; ${flags.rules === undefined ? 'published rules' : `rules ${flags.rules}`}${flags.liftDeployedLimits === true ? '; limits lifted' : ''}; ` : ''}clock ${handle.clock.mode} at ${new Date(handle.clock.nowMs()).toISOString()}; admin: GET/POST ${adminUrl ?? ''}/_afp/clock\n`,
  );
  process.stderr.write(`afp serve: ${forwardingLine(flags.trustedProxies)}\n`);
  const doors = adminDoorsLine(flags, flags.beyondLoopback === true);
  if (doors !== null) process.stderr.write(`afp serve: ${doors}\n`);
  process.stdout.write('ready\n');
  const launcher = watchLauncher();
  const signals = nextSignal();
  const stop = await Promise.race([
    signals.first.then((signal) => ({ signal: `${signal}` })),
    launcher.ended.then((pid) => ({ signal: `the npx that started it (pid ${pid}) has ended` })),
    ...(handle.logFailure === undefined ? [] : [handle.logFailure.then((error) => ({ error }))]),
  ]);
  // Whatever ended it, a signal during the close is Node's own again: it kills at once.
  signals.dispose();
  launcher.stop();
  if ('error' in stop) {
    // The state in memory is ahead of the disk: stop serving it; the next start replays the disk.
    process.stderr.write(
      `afp serve: ${stop.error}\nafp serve: stopping (exit ${crashed().exitCode}): answers not yet durable were 503; restart to recover what is on disk\n`,
    );
    await handle.close({ forceAfterMs: LOG_FAILURE_CLOSE_MS });
    return crashed();
  }
  process.stderr.write(`afp serve: ${stop.signal}, closing\n`);
  await handle.close();
  return PASSED;
}

/** How the client of a request is decided, said once at the start. */
function forwardingLine(trusted: TrustedProxies | undefined): string {
  return trusted === undefined
    ? "X-Forwarded-For ignored: each request's client is its socket address (per-IP limits count one IP per peer; --trust-proxy CIDR reads the header from those proxies)"
    : `X-Forwarded-For read from ${trusted.ranges.join(', ')}: the client is its rightmost address not in those ranges`;
}

interface ServedSettings {
  readonly seed: string;
  readonly clockMode: ClockMode;
  readonly defects: readonly DefectName[];
  readonly startMs?: number;
  readonly config?: PlatformConfig;
  readonly faults?: readonly FaultWindow[];
  readonly closures?: readonly GameClosure[];
  readonly trading?: TradingSchedule;
}

type ResolvedSettings = { note?: string; options: ServedSettings } | { error: string };

/**
 * The settings to serve: the flags, completed by --scenario, then (with an existing --data log)
 * by the log's stored settings for every flag left out.
 */
async function resolveSettings(flags: ServeFlags, stored: LogSettings | null): Promise<ResolvedSettings> {
  const clockMode = stored !== null && flags.clockGiven !== true ? stored.clockMode : flags.clockMode;
  const defects = stored !== null && flags.defects.length === 0 ? stored.defects : flags.defects;
  const startMs = flags.startMs ?? stored?.startMs;
  if (flags.scenario === undefined) {
    const base = {
      seed: flags.seed ?? stored?.seed ?? flags.drawnSeed ?? '1',
      clockMode,
      defects,
      ...(startMs === undefined ? {} : { startMs }),
    };
    return {
      options:
        stored === null
          ? base
          : {
              ...base,
              config: stored.config,
              faults: stored.faults,
              closures: stored.closures,
              trading: stored.trading,
            },
    };
  }
  const scenario = await loadServeScenario(flags.scenario);
  if ('error' in scenario) return scenario;
  const seed = flags.seed ?? (stored === null ? flags.drawnSeed : undefined);
  const settings = scenarioServeSettings(scenario, { clockMode, wallNowMs: Date.now(), seed, startMs });
  const windows = settings.faults.map(
    (fault) =>
      `${fault.service} ${fault.status} ${new Date(fault.fromMs).toISOString()}..${new Date(fault.untilMs).toISOString()}`,
  );
  const wallStart =
    clockMode === 'wall' && startMs === undefined
      ? ` (a wall clock starts now, not at the scenario's ${new Date(scenario.startMs).toISOString()}: use --clock manual for that)`
      : '';
  const closures = settings.closures.map(
    (closure) =>
      `${closure.game} ${new Date(closure.fromMs).toISOString()}..${new Date(closure.untilMs).toISOString()}`,
  );
  const closureText = closures.length > 0 ? `; ${closures.length} casino game closure(s): ${closures.join(', ')}` : '';
  const { shocks, closures: marketClosures } = settings.trading;
  const tradingText =
    shocks.length + marketClosures.length > 0
      ? `; ${shocks.length} trading price shock(s), ${marketClosures.length} market closure(s)`
      : '';
  const { yearMs, graceMs } = settings.config.domains;
  const domainsText =
    yearMs === DEFAULT_CONFIG.domains.yearMs && graceMs === DEFAULT_CONFIG.domains.graceMs
      ? ''
      : `; domain year ${yearMs} ms, grace ${graceMs} ms`;
  const note = `scenario ${scenario.name}${wallStart}: dispute_outcome ${settings.config.escrow.disputeOutcome}; ${windows.length} fault window(s)${windows.length > 0 ? `: ${windows.join(', ')}` : ''}${closureText}${tradingText}${domainsText}`;
  return { note, options: { ...settings, clockMode, defects } };
}

/** The settings with the deployed casino's rules in the platform config (`config.casino.deployedRules`). */
function withDeployedRules(
  resolved: { note?: string; options: ServedSettings },
  rules: DeployedCasinoRules,
): { note?: string; options: ServedSettings } {
  const config = resolved.options.config ?? DEFAULT_CONFIG;
  return {
    ...resolved,
    options: { ...resolved.options, config: { ...config, casino: { ...config.casino, deployedRules: rules } } },
  };
}

/** The settings a --data log stores (a new log) or must already hold: no start given = now. */
function logSettingsOf(options: ServedSettings, wallNowMs: number): LogSettings {
  const startMs = options.startMs ?? wallNowMs;
  return {
    seed: options.seed,
    startMs,
    clockMode: options.clockMode,
    wallOffsetMs: options.clockMode === 'wall' ? Math.max(0, startMs - wallNowMs) : 0,
    config: options.config ?? DEFAULT_CONFIG,
    faults: options.faults ?? [],
    closures: options.closures ?? [],
    trading: options.trading ?? { shocks: [], closures: [] },
    defects: options.defects,
  };
}

function reportRecovery(file: string, recovery: NonNullable<ServeHandle['recovery']>): void {
  const from = recovery.checkpointSeq === undefined ? '' : ` after the checkpoint of entry ${recovery.checkpointSeq}`;
  process.stderr.write(
    `recovered: ${recovery.commands} commands${from} from ${file} in ${Math.round(recovery.durationMs)} ms\n`,
  );
  for (const skipped of recovery.skippedCheckpoints ?? []) process.stderr.write(`afp serve: skipped the ${skipped}\n`);
  if (recovery.internalErrors > 0) {
    process.stderr.write(
      `afp serve: ${recovery.internalErrors} logged command(s) raised an internal error again on replay, as they did when served (bugs; reproduce with this --data file)\n`,
    );
  }
}

/** The first SIGTERM or SIGINT; `dispose` removes the handlers (after the first, or when something else ended the serve). */
function nextSignal(): { readonly first: Promise<NodeJS.Signals>; dispose(): void } {
  let onSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const dispose = (): void => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
  const first = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = (signal) => {
      dispose();
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  return { first, dispose };
}
