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
 * This file runs the stand-in: its flags are read in serve-flags.ts, its settings (flags, scenario
 * and stored log settings) decided in serve-settings.ts.
 */
import { watchLauncher } from './launcher-watch.ts';
import { NO_PROXIES, type TrustedProxies } from '../http/trusted-proxies.ts';
import { ALL_ROUTES } from '../http/routes/index.ts';
import { DEFECT_NAMES } from '../services/shared/context.ts';
import { openCommandLog, type CommandLog } from '../server/command-log.ts';
import { describeSurvey, salvageLog, surveyLog } from '../server/log-salvage.ts';
import { closeData, isDamage, openData } from '../server/data-preflight.ts';
import { DOCUMENTS_LAYOUT, startServe, type ServeHandle, type ServeLayout } from '../server/listeners.ts';
import type { Route } from '../http/route.ts';
import { adminDoorsLine } from './serve-team-flags.ts';
import { announcedUrls } from '../server/announced-urls.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { crashed, type Ending, invalidInput, isInvalidInput, PASSED } from '../core/command-failure.ts';
import { parseServeArgs, type ServeDialect, type ServeFlags } from './serve-flags.ts';
import { logSettingsOf, resolveSettings, withDeployedRules, type ServedSettings } from './serve-settings.ts';

export { DEFECT_NAMES };

/** After a failed commit: how long the 503s of the failed batch get to leave before connections are cut. */
const LOG_FAILURE_CLOSE_MS = 1_000;

const DEFINITION = definitionOf('serve');
const USAGE = `usage: ${usageLine(DEFINITION)}`;

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

export async function main(argv: string[]): Promise<Ending> {
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
  const described = describeSurvey(survey)
    .map((line) => `afp serve: ${line}\n`)
    .join('');
  if (survey.settings === null) {
    // A salvage keeps the intact prefix under the log's settings: without them nothing can be kept.
    return invalidInput(
      `${described}afp serve: refusing to start: without its settings no entry of ${file} can be replayed, and --salvage cannot help; restore ${file} from a copy, or use another --data file`,
    );
  }
  if (flags.salvage !== true) {
    return invalidInput(
      `${described}afp serve: refusing to start on a damaged log; run again with --salvage to go on from the intact prefix (FILE is kept as ${file}.damaged)`,
    );
  }
  process.stderr.write(described);
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

type ServeOutcome = Ending | { damage: string };

async function serveUntilSignal(flags: ServeFlags, commandLog: CommandLog | undefined): Promise<ServeOutcome> {
  const chosen = await chooseSettings(flags, commandLog);
  if ('exitCode' in chosen) return chosen;
  const { settings, floatNoise } = chosen;
  process.stdout.write(`seed: ${settings.options.seed}\n`);
  if (settings.options.seed === flags.drawnSeed)
    process.stderr.write(
      `afp serve: listening on ${flags.host ?? ''}, beyond loopback: seed ${flags.drawnSeed} drawn at random (keys and mnemonics follow from the seed; --seed N chooses one)\n`,
    );
  if (settings.note !== undefined) process.stderr.write(`afp serve: ${settings.note}\n`);
  const handle = await startServing(flags, settings.options, floatNoise, commandLog);
  if (!('close' in handle)) return handle;
  announceServing(flags, handle, commandLog);
  return runUntilStopped(handle);
}

/**
 * The settings to serve (serve-settings.ts) with the --rules file's rules (and whether it asks for
 * float money), checked against an
 * existing --data log's: an invalid rules file, unusable settings or settings that differ from the
 * log's end the start (exit 2).
 */
async function chooseSettings(
  flags: ServeFlags,
  commandLog: CommandLog | undefined,
): Promise<Ending | { settings: { note?: string; options: ServedSettings }; floatNoise: boolean }> {
  const resolved = await resolveSettings(flags, commandLog?.settings ?? null);
  // Imported only for --rules: the rules file's schema and YAML parser are not needed otherwise.
  const rules =
    flags.rules === undefined
      ? null
      : await (await import('./deployed-rules-file.ts')).loadDeployedRulesFile(flags.rules);
  if (rules !== null && !rules.ok) return invalidInput(`afp serve: invalid --rules file:\n${rules.message}`);
  if ('error' in resolved) return invalidInput(`afp serve: ${resolved.error}\n${USAGE}`);
  const settings = rules === null ? resolved : withDeployedRules(resolved, rules.value);
  const differences = commandLog?.adopt(logSettingsOf(settings.options, Date.now())) ?? [];
  if (differences.length > 0) {
    const file = commandLog?.file ?? '';
    return invalidInput(
      `afp serve: --data ${file} was written with other settings:\n${differences.map((line) => `  ${line}\n`).join('')}leave those flags out to serve the log's settings, or use another --data file`,
    );
  }
  return { settings, floatNoise: rules?.value.money.floatNoise === true };
}

/** The listeners, started over the dialect's rows; a damaged --data log is `damage`, any other failure exit 2. */
async function startServing(
  flags: ServeFlags,
  options: ServedSettings,
  floatNoise: boolean,
  commandLog: CommandLog | undefined,
): Promise<ServeHandle | ServeOutcome> {
  try {
    const serving = await dialectServing(flags.dialect ?? 'documents', {
      floatMoney: flags.floatMoney === true || floatNoise,
      limitsLifted: flags.liftDeployedLimits === true,
    });
    return await startServe({
      routes: serving.routes,
      layout: serving.layout,
      port: flags.port,
      ...(flags.host === undefined ? {} : { host: flags.host }),
      trustedProxies: flags.trustedProxies ?? NO_PROXIES,
      shed: flags.shed,
      ...options,
      ...(commandLog === undefined ? {} : { commandLog }),
      ...(flags.checkpointEvery === undefined ? {} : { checkpointEveryCommands: flags.checkpointEvery }),
      ...(flags.fsyncAnswers === true ? { fsyncAnswers: true } : {}),
      ...(flags.adminToken === undefined ? {} : { adminToken: flags.adminToken }),
      ...(flags.publicUrls === undefined ? {} : { publicUrls: flags.publicUrls }),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (commandLog !== undefined && isDamage(message)) return { damage: message };
    return invalidInput(`afp serve: ${message}`);
  }
}

/** What a started serve says: its recovery, its URLs (stdout), its clock, its edge, then `ready`. */
function announceServing(flags: ServeFlags, handle: ServeHandle, commandLog: CommandLog | undefined): void {
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
}

/** Serves until a signal, the end of the npx that started it, or a failed --data commit (exit 1); then closes. */
async function runUntilStopped(handle: ServeHandle): Promise<Ending> {
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
