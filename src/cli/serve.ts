/**
 * `afp serve`: the whole platform as a local stand-in, with time travel, for agent developers
 * and for `afp replay`/`afp check --target`. One Platform (seeded), one Dispatcher over every
 * route row, listeners on 127.0.0.1 (src/server/listeners.ts). Prints `seed: N` first, one line
 * per mount (`api: http://127.0.0.1:8700`), then `ready`; runs until SIGTERM or SIGINT, then
 * drains in-flight requests (at most 5 s) and exits 0; a second signal during the drain kills
 * at once (the handlers are removed after the first).
 * Exit 2: bad flags, an unknown --defect (the valid names are listed), a port that cannot be used.
 */
import type { DefectName } from '../services/shared/context.ts';
import { ALL_ROUTES } from '../http/routes/index.ts';
import { MOUNT_PORT_OFFSETS, DEFAULT_PORT, servedMounts, startServe, type ServeHandle } from '../server/listeners.ts';
import type { ClockMode } from '../server/serve-clock.ts';
import { parseArgs, stringFlag } from './args.ts';
import { EXIT } from './exit-codes.ts';

const USAGE = 'usage: afp serve [--port P] [--seed N] [--clock wall|manual] [--start ISO] [--defect NAME]...';

/** Every DefectName, checked against the type below so a new defect cannot be forgotten here. */
export const DEFECT_NAMES = ['mint-on-claim', 'escrow-fee-2pct', 'faucet-cooldown-23h', 'escrow-release-twice'] as const satisfies readonly DefectName[];
type MissingDefect = Exclude<DefectName, (typeof DEFECT_NAMES)[number]>;
/** Fails to compile when a DefectName is missing from DEFECT_NAMES. */
export const DEFECT_NAMES_COMPLETE: [MissingDefect] extends [never] ? true : MissingDefect = true;

export interface ServeFlags {
  readonly port: number;
  readonly seed: string;
  readonly clockMode: ClockMode;
  readonly startMs: number | undefined;
  readonly defects: readonly DefectName[];
}

/** Parses the flags; every error is reported, not only the first. */
export function parseServeArgs(argv: readonly string[], wallNowMs: number): ServeFlags | { errors: string[] } {
  const { values: defects, rest, errors: repeatErrors } = takeRepeated(argv, 'defect');
  const args = parseArgs(rest, { port: 'string', seed: 'string', clock: 'string', start: 'string' });
  const errors = [...repeatErrors, ...args.errors, ...args.positionals.map((positional) => `unexpected argument '${positional}'`)];
  const portText = stringFlag(args, 'port') ?? String(DEFAULT_PORT);
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
  const highestOffset = Math.max(...servedMounts(ALL_ROUTES).map((mount) => MOUNT_PORT_OFFSETS[mount]));
  if (!(port === 0 || (port >= 1 && port + highestOffset <= 65_535))) errors.push(`--port must be 0 or 1..${65_535 - highestOffset} (services use P+1..P+${highestOffset}), got '${portText}'`);
  const seed = stringFlag(args, 'seed') ?? '1';
  if (!/^(?:0|[1-9]\d{0,15})$/.test(seed)) errors.push(`--seed must be a non-negative whole number, got '${seed}'`);
  const clock = stringFlag(args, 'clock') ?? 'wall';
  if (clock !== 'wall' && clock !== 'manual') errors.push(`--clock must be wall or manual, got '${clock}'`);
  const startText = stringFlag(args, 'start');
  const startMs = startText === undefined ? undefined : parseIso(startText);
  if (Number.isNaN(startMs)) errors.push(`--start must be an ISO 8601 date or date-time, got '${startText}'`);
  else if (startMs !== undefined && clock === 'wall' && startMs < wallNowMs) errors.push('--start in the past needs --clock manual (the wall clock only moves forward)');
  for (const name of defects) {
    if (!(DEFECT_NAMES as readonly string[]).includes(name)) errors.push(`unknown --defect '${name}'; valid: ${DEFECT_NAMES.join(', ')}`);
  }
  if (errors.length > 0) return { errors };
  return { port, seed, clockMode: clock as ClockMode, startMs, defects: defects as DefectName[] };
}

/** Pulls every `--name V` / `--name=V` out of argv (parseArgs keeps only the last of a flag). */
function takeRepeated(argv: readonly string[], name: string): { values: string[]; rest: string[]; errors: string[] } {
  const values: string[] = [];
  const rest: string[] = [];
  const errors: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg.startsWith(`--${name}=`)) values.push(arg.slice(name.length + 3));
    else if (arg !== `--${name}`) rest.push(arg);
    else if (index + 1 < argv.length) values.push(argv[++index] as string);
    else errors.push(`--${name} needs a value`);
  }
  return { values, rest, errors };
}

function parseIso(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/.test(text)) return Number.NaN;
  const ms = Date.parse(text);
  return Number.isSafeInteger(ms) && ms >= 0 ? ms : Number.NaN;
}

export async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\ndefects: ${DEFECT_NAMES.join(', ')}\n`);
    return EXIT.ok;
  }
  const flags = parseServeArgs(argv, Date.now());
  if ('errors' in flags) {
    process.stderr.write(`${flags.errors.map((error) => `afp serve: ${error}`).join('\n')}\n${USAGE}\n`);
    return EXIT.invalidInput;
  }
  process.stdout.write(`seed: ${flags.seed}\n`);
  let handle: ServeHandle;
  try {
    handle = await startServe({ routes: ALL_ROUTES, seed: flags.seed, port: flags.port, clockMode: flags.clockMode, startMs: flags.startMs, defects: flags.defects });
  } catch (error) {
    process.stderr.write(`afp serve: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.invalidInput;
  }
  for (const [mount, url] of Object.entries(handle.urls)) process.stdout.write(`${mount}: ${url}\n`);
  process.stderr.write(`afp serve: clock ${handle.clock.mode} at ${new Date(handle.clock.nowMs()).toISOString()}; admin: GET/POST ${handle.urls.api ?? ''}/_afp/clock\n`);
  process.stdout.write('ready\n');
  const signal = await nextSignal();
  process.stderr.write(`afp serve: ${signal}, closing\n`);
  await handle.close();
  return EXIT.ok;
}

function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}
