/**
 * afp serve's flags, read and checked: the port and dialect, the deployed dialect's flags, the
 * --data log's flags, the seed, the clock and its start, the defects and the overload bounds.
 * Its own file: serve.ts runs a stand-in from these flags; this file only decides what they say,
 * and reports every error at once, in the order the flags are listed here (serve-team-flags.ts
 * reads the team's flags the same way).
 */
import { randomInt } from 'node:crypto';
import { isIP } from 'node:net';
import { isLoopback } from '../http/client-ip.ts';
import { TrustedProxies } from '../http/trusted-proxies.ts';
import { ALL_ROUTES } from '../http/routes/index.ts';
import { DEFECT_DIALECTS, DEFECT_NAMES, type DefectName } from '../services/shared/context.ts';
import { CLOCK_MAX_MS } from '../server/admin.ts';
import { DEFAULT_PORT, DOCUMENTS_LAYOUT } from '../server/listeners.ts';
import { DEPLOYED_PORT_OFFSET_MAX } from '../server/deployed-ports.ts';
import { SHED_DEFAULTS, SHED_LIMITS, type LoadShedderOptions } from '../server/load-shedder.ts';
import type { ClockMode } from '../server/serve-clock.ts';
import type { PublicUrls } from '../server/announced-urls.ts';
import { parseCommand, stringFlag, type ParsedArgs } from './args.ts';
import { parseTeamFlags } from './serve-team-flags.ts';
import { definitionOf } from './commands.ts';

const DEFINITION = definitionOf('serve');

export const SERVE_DIALECTS = ['documents', 'deployed'] as const;
export type ServeDialect = (typeof SERVE_DIALECTS)[number];

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

/** The highest port offset a dialect listens on (--port's bound). */
function highestPortOffset(dialect: ServeDialect): number {
  if (dialect === 'deployed') return DEPLOYED_PORT_OFFSET_MAX;
  return Math.max(...DOCUMENTS_LAYOUT.mounts(ALL_ROUTES).map(([, offset]) => offset));
}

/** Parses the flags; every error is reported, not only the first. `drawSeed` runs only beyond loopback without --seed. */
export function parseServeArgs(
  argv: readonly string[],
  wallNowMs: number,
  drawSeed: () => string = drawServeSeed,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): ServeFlags | { errors: string[] } {
  const args = parseCommand(argv, DEFINITION);
  const errors = [...args.errors, ...args.positionals.map((positional) => `unexpected argument '${positional}'`)];
  const { dialect, port } = parseDialectAndPort(args, errors);
  const scenario = stringFlag(args, 'scenario');
  const data = stringFlag(args, 'data');
  const deployed = parseDeployedFlags(args, dialect, data, errors);
  const logFlags = parseDataFlags(args, data, errors);
  const edge = parseEdge(stringFlag(args, 'host'), args.lists['trust-proxy'] ?? [], errors);
  const team = parseTeamFlags(args, environment, errors);
  const seedGiven = stringFlag(args, 'seed');
  const seed = seedGiven ?? (scenario === undefined && data === undefined && !edge.beyondLoopback ? '1' : undefined);
  if (seed !== undefined && !/^(?:0|[1-9]\d{0,15})$/.test(seed))
    errors.push(`--seed must be a non-negative whole number, got '${seed}'`);
  const { clock, startMs } = parseClockFlags(args, wallNowMs, errors);
  const defects = parseDefects(args, dialect, errors);
  const shed = parseShed(args, errors);
  if (errors.length > 0) return { errors };
  const flags = {
    port,
    seed,
    clockMode: clock as ClockMode,
    startMs,
    defects: defects as DefectName[],
    shed,
    ...(scenario === undefined ? {} : { scenario }),
    ...(dialect === 'deployed' ? { dialect } : {}),
    ...(deployed.rules === undefined ? {} : { rules: deployed.rules }),
    ...(deployed.liftDeployedLimits ? { liftDeployedLimits: true as const } : {}),
    ...(deployed.floatMoney ? { floatMoney: deployed.floatMoney } : {}),
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
        ...(logFlags.checkpointEvery === undefined ? {} : { checkpointEvery: logFlags.checkpointEvery }),
        ...(logFlags.salvage ? { salvage: true as const } : {}),
        ...(logFlags.fsyncAnswers ? { fsyncAnswers: true as const } : {}),
      };
}

/** --dialect and --port (whose bound depends on the dialect); their errors are pushed. */
function parseDialectAndPort(args: ParsedArgs, errors: string[]): { dialect: ServeDialect | null; port: number } {
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
  return { dialect, port };
}

/** --float-money, --rules and --lift-deployed-limits, which need --dialect deployed (and --data, which it refuses). */
function parseDeployedFlags(
  args: ParsedArgs,
  dialect: ServeDialect | null,
  data: string | undefined,
  errors: string[],
): { floatMoney: boolean; rules: string | undefined; liftDeployedLimits: boolean } {
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
  return { floatMoney, rules, liftDeployedLimits };
}

/** --checkpoint-every, --salvage and --fsync-answers, which are about the --data log. */
function parseDataFlags(
  args: ParsedArgs,
  data: string | undefined,
  errors: string[],
): { checkpointEvery: number | undefined; salvage: boolean; fsyncAnswers: boolean } {
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
  return { checkpointEvery, salvage, fsyncAnswers };
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

/** --clock and --start (a start in the past needs a manual clock). */
function parseClockFlags(
  args: ParsedArgs,
  wallNowMs: number,
  errors: string[],
): { clock: string; startMs: number | undefined } {
  const clock = stringFlag(args, 'clock') ?? 'wall';
  if (clock !== 'wall' && clock !== 'manual') errors.push(`--clock must be wall or manual, got '${clock}'`);
  const startText = stringFlag(args, 'start');
  const startMs = startText === undefined ? undefined : parseIso(startText);
  if (Number.isNaN(startMs)) errors.push(`--start must be an ISO 8601 date or date-time, got '${startText}'`);
  else if (startMs !== undefined && startMs > CLOCK_MAX_MS)
    errors.push(`--start must be no later than ${new Date(CLOCK_MAX_MS).toISOString()}, got '${startText}'`);
  else if (startMs !== undefined && clock === 'wall' && startMs < wallNowMs)
    errors.push('--start in the past needs --clock manual (the wall clock only moves forward)');
  return { clock, startMs };
}

/** --defect: known names, each acting in the dialect served. */
function parseDefects(args: ParsedArgs, dialect: ServeDialect | null, errors: string[]): string[] {
  // A comma list or the flag again (`--defect a,b` as afp run and afp check take it, or `--defect a --defect b`).
  const defects = (args.lists['defect'] ?? []).flatMap((value) => value.split(','));
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
  return defects;
}

/** --max-in-flight, --max-receiving and --max-event-loop-delay-ms (the load shedder's bounds). */
function parseShed(args: ParsedArgs, errors: string[]): LoadShedderOptions {
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
  return { maxInFlight, maxEventLoopDelayMs, ...(maxReceiving === undefined ? {} : { maxReceiving }) };
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
