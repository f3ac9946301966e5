/**
 * The listener set of `afp serve`: one Platform, one Dispatcher over the route table, and one
 * node:http server per mount that has routes, all on one host: 127.0.0.1 unless `host` says
 * otherwise (afp serve --host; a wildcard host's URLs name 127.0.0.1, where this machine reaches it).
 * X-Forwarded-For is read only from `trustedProxies` (src/http/trusted-proxies.ts): afp serve's
 * default trusts none; afp's own tests and benches start it trusting loopback (LOOPBACK_PROXIES).
 * Binding and closing the mounts' servers is mount-servers.ts; this file builds what they serve.
 *
 * The faucet and escrow listeners also serve `/mcp` (src/server/mcp.ts, imported on the first such
 * request: mcp-lazy.ts) on the same dispatcher.
 *
 * Port layout (docs/decisions/serve.md): the style-B api_url on P, the style-A services on P + offset
 * (faucet 1, escrow 2, trading 3, domains 4, wallet 5, casino 6); port 0 makes every listener
 * ephemeral. Shutdown stops accepting, lets in-flight requests finish and closes idle keep-alive
 * connections; whatever is still open after `forceAfterMs` (default 5 s) is cut.
 *
 * A `layout` (src/server/deployed-layout.ts) replaces this for another dialect: its own listening
 * mounts and ports, the mount that serves `/_afp/*`, its own dispatcher, no MCP.
 *
 * With a `commandLog` (afp serve --data, src/server/recovery.ts) the platform is the log's: built
 * from its settings, its commands replayed, the clock resumed after them; what recovery needs of
 * every dispatched request and every state-changing admin action is then appended to it, and every
 * answer (admin and MCP ones too) waits until its batch is committed (src/server/group-commit.ts).
 * A failed commit closes the gate (503 from then on) and resolves `logFailure`: afp serve stops.
 * `close` commits what is still pending after the last request drained.
 *
 * Overload (src/server/load-shedder.ts): one LoadShedder for all listeners (they share one event
 * loop and one heap) sheds requests past its bounds with 503 + Retry-After; `/health` and
 * `/_afp/*` are exempt, and GET /_afp/state shows its counts under `load`.
 *
 * The platform lock (src/server/platform-lock.ts): a snapshot or a revert copies the platform in
 * slices holding it; meanwhile requests (lock-intercept.ts), MCP calls, clock moves and the timer
 * pump wait for their turn, GET /health answers, and no checkpoint is taken on the loop (the next
 * commit after the job takes it). GET /_afp/state shows its figures under `lock`.
 */
import type { JsonObject } from '../core/errors.ts';
import { Dispatcher } from '../http/dispatcher.ts';
import type { Mount, Route } from '../http/route.ts';
import type { BodyTimeouts } from '../http/body.ts';
import type { EdgeBody } from '../http/server.ts';
import type { TrustedProxies } from '../http/trusted-proxies.ts';
import { Platform, type FaultWindow } from '../platform/platform.ts';
import { TimeTravel } from './time-travel.ts';
import { Checkpointer } from './checkpoints.ts';
import type { GameClosure } from '../services/casino/closure-schedule.ts';
import type { PlatformConfig } from '../services/shared/config.ts';
import type { DefectName } from '../services/shared/context.ts';
import type { TradingSchedule } from '../services/trading/trading-record.ts';
import type { PublicUrls } from './announced-urls.ts';
import type { AdminCommand } from './admin-command.ts';
import { ClockMover } from './clock-move.ts';
import type { CommandLog } from './command-log.ts';
import { GroupCommit } from './group-commit.ts';
import { LoadShedder, SHED_DEFAULTS, type LoadShedderOptions } from './load-shedder.ts';
import { LoopDelay } from './loop-delay.ts';
import { PlatformLock } from './platform-lock.ts';
import type { McpDoorName } from './mcp-path.ts';
import { serveFromLog, type RecoveryStats } from './recovery.ts';
import { coveredDamageLines, scanCoveredEntries } from './covered-scan.ts';
import { ServeClock, type ClockMode } from './serve-clock.ts';
import { startLossView } from './start-loss.ts';
import { TimerPump } from './timer-pump.ts';
import type { AdminOptions } from './admin-options.ts';
import { closeAll, DEFAULT_HOST, listenOnMounts } from './mount-servers.ts';

export { DEFAULT_HOST } from './mount-servers.ts';

export const DEFAULT_PORT = 8700;
export const FORCE_CLOSE_AFTER_MS = 5_000;

/** Offset of each mount's port from the api port; the order is the listening order. */
export const MOUNT_PORT_OFFSETS: Readonly<Record<Mount, number>> = {
  api: 0,
  faucet: 1,
  escrow: 2,
  trading: 3,
  domains: 4,
  wallet: 5,
  casino: 6,
};

export interface ServeOptions {
  readonly routes: readonly Route[];
  readonly seed: string;
  /** The api port; 0 = ephemeral ports for every mount. */
  readonly port: number;
  /** The address every listener binds (an IP address; default DEFAULT_HOST). */
  readonly host?: string;
  /** The peers whose X-Forwarded-For names the client (NO_PROXIES: none; the socket's peer is the client). */
  readonly trustedProxies: TrustedProxies;
  readonly clockMode: ClockMode;
  readonly startMs?: number;
  readonly defects?: readonly DefectName[];
  readonly config?: PlatformConfig;
  /** Fault windows at absolute instants (afp serve --scenario); GET /_afp/platform lists them. */
  readonly faults?: readonly FaultWindow[];
  /** Casino game closures at absolute instants (afp serve --scenario); GET /_afp/platform lists them. */
  readonly closures?: readonly GameClosure[];
  /** Trading price shocks and market closures at absolute instants (afp serve --scenario); GET /_afp/platform lists them. */
  readonly trading?: TradingSchedule;
  readonly log?: (line: string) => void;
  /**
   * afp serve --data: the command log, opened and adopted (its settings checked against the
   * flags). Its settings replace seed, startMs, clockMode, defects, config, faults, closures and trading above.
   */
  readonly commandLog?: CommandLog;
  /**
   * The rate limiter's bound on held entries (default 1,000,000): tests of the full limiter use a
   * small one. Not with a commandLog (its platform is built from the log's settings).
   */
  readonly limiterEntriesMax?: number;
  /** With a commandLog: commands between two checkpoints (default CHECKPOINT_EVERY_COMMANDS; tests use small ones). */
  readonly checkpointEveryCommands?: number;
  /** With a commandLog: an answer waits for the log's fsync too (`--fsync-answers`; group-commit.ts `answerAfterSync`). */
  readonly fsyncAnswers?: boolean;
  /** The wire dialect's listeners and dispatcher; absent = the documents' styles (DOCUMENTS_LAYOUT). */
  readonly layout?: ServeLayout;
  /** Overload bounds shared by every listener (src/server/load-shedder.ts); absent = SHED_DEFAULTS. */
  readonly shed?: LoadShedderOptions;
  /** How long a request body may take on every listener (absent = BODY_TIMEOUTS_DEFAULT; tests use short ones). */
  readonly bodyTimeouts?: BodyTimeouts;
  /** Requests that may wait for the platform lock at once (default LOCK_QUEUE_MAX; tests use small ones). */
  readonly lockQueueMax?: number;
  /** Callers beyond loopback that send this token may use the admin doors (`--admin-token`; admin-access.ts). */
  readonly adminToken?: string;
  /** What `/_afp/mounts` announces and `urls` holds (`--public-url`; announced-urls.ts). */
  readonly publicUrls?: PublicUrls;
  /** Wall ms of work per slice of a lock's job (default JOB_SLICE_MS; 0: one step per slice, as tests use to see many slices on a small state). */
  readonly lockSliceMs?: number;
}

/** How a dialect is served: which mounts listen where, which one answers `/_afp/*`, its dispatcher. */
export interface ServeLayout {
  /** `documents` (styles A, B, short) or another dialect's name, announced by `/_afp/mounts`. */
  readonly dialect: string;
  /** The mounts to listen on with their port offsets from --port, in listening order. */
  mounts(routes: readonly Route[]): ReadonlyArray<readonly [Mount, number]>;
  /** The mount whose address serves `/_afp/*`. */
  readonly adminMount: Mount;
  /** Each service's base path on its address (announced in `/_afp/mounts` `base_urls`). */
  readonly basePaths: Readonly<Partial<Record<Mount, string>>>;
  /** The shape of `/mcp` faucet and escrow also serve (mcp-doors.ts); null: none. */
  readonly mcp: McpDoorName | null;
  /** The fairness scheme its casino plays, announced by `/_afp/mounts` (absent: afp's). */
  readonly fairness?: string;
  /**
   * The rate limits it keeps, announced by `/_afp/mounts` so a live command paces by what this serve
   * does: `deployed` (the deployment's fixed windows) or `lifted` (`--lift-deployed-limits`); absent: none announced.
   */
  readonly limits?: 'deployed' | 'lifted';
  dispatcher(platform: Platform, routes: readonly Route[]): Dispatcher;
  /** The edge's own answers (503 shed, 408 body timeout) in this dialect (absent: the documents' `{ error, code, _info }`). */
  readonly edgeBody?: EdgeBody;
}

export const DOCUMENTS_LAYOUT: ServeLayout = {
  dialect: 'documents',
  mounts: (routes) => servedMounts(routes).map((mount) => [mount, MOUNT_PORT_OFFSETS[mount]] as const),
  adminMount: 'api',
  basePaths: {},
  mcp: 'documents',
  dispatcher: (platform, routes) => new Dispatcher(platform, routes),
};

export interface ServeHandle {
  readonly platform: Platform;
  readonly dispatcher: Dispatcher;
  readonly clock: ServeClock;
  /** Base URL per served mount, in listening order (`api` first; the deployed dialect's casino first). */
  readonly urls: Readonly<Partial<Record<Mount, string>>>;
  /** With a commandLog: what its replay did and how long it took. */
  readonly recovery?: RecoveryStats & { readonly durationMs: number };
  /** With a commandLog: its group commit (batches and entries committed so far). */
  readonly groupCommit?: GroupCommit;
  /** With a commandLog: resolves with the error when a commit failed (the server must stop). */
  readonly logFailure?: Promise<string>;
  /** The overload guard every listener admits requests through. */
  readonly shedder: LoadShedder;
  close(options?: { forceAfterMs?: number }): Promise<void>;
}

/** The mounts to listen on: `api` always (admin endpoints), the others when they have routes. */
export function servedMounts(routes: readonly Route[]): Mount[] {
  const withRoutes = new Set<Mount>(routes.map((route) => route.mount));
  return (Object.keys(MOUNT_PORT_OFFSETS) as Mount[]).filter((mount) => mount === 'api' || withRoutes.has(mount));
}

export async function startServe(options: ServeOptions): Promise<ServeHandle> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const layout = options.layout ?? DOCUMENTS_LAYOUT;
  refuseDataWithDialect(options, layout);
  const commandLog = options.commandLog;
  const logFailure = Promise.withResolvers<string>();
  // A checkpoint is taken right after a batch commits at the end of a turn: then the state in
  // memory is exactly the log's (every applied command is in the committed batch).
  const commits = { after: (): void => undefined };
  const group = groupCommitOf(
    options,
    (error) => logFailure.resolve(error),
    () => commits.after(),
  );
  const { platform, dispatcher, clock, timeTravel, recovery } = servedPlatform(options, layout, group);
  const lock = lockOf(options);
  const pump = new TimerPump({ platform, clock, log, lock });
  const urls: Partial<Record<Mount, string>> = {};
  const checkpointer = checkpointerOf(options, platform, timeTravel, recovery, log);
  // Not while a job holds the lock: its command is on disk, its effect not yet in memory.
  commits.after = () => {
    if (lock.free) writeCheckpoint(checkpointer, log);
  };
  const record = recorderOf(commandLog, group, checkpointer);
  const shedder = new LoadShedder(options.shed ?? SHED_DEFAULTS);
  const loopDelay = new LoopDelay();
  const clockMover = new ClockMover({ platform, clock, record, onClockMoved: () => pump.arm(), lock });
  const parts = { platform, clock, clockMover, lock, urls, timeTravel, shedder, loopDelay, checkpointer, record, pump };
  const admin = adminOf(options, layout, parts);
  const servers = await listenOnMounts({
    mounts: layout.mounts(options.routes),
    host: options.host ?? DEFAULT_HOST,
    port: options.port,
    trustedProxies: options.trustedProxies,
    layout,
    bodyTimeouts: options.bodyTimeouts,
    dispatcher,
    clock,
    lock,
    log,
    group,
    admin,
    shedder,
    urls,
    afterRequest: () => pump.arm(),
  });
  pump.arm();
  shedder.start();
  loopDelay.start();
  let closing = false;
  checkCoveredEntries(commandLog, recovery?.checkpointSeq, () => closing, log);
  return {
    platform,
    dispatcher,
    clock,
    urls,
    shedder,
    ...(recovery === undefined ? {} : { recovery }),
    ...(group === undefined ? {} : { groupCommit: group, logFailure: logFailure.promise }),
    close: async (closeOptions = {}) => {
      closing = true;
      pump.stop();
      shedder.stop();
      loopDelay.stop();
      await closeAll(servers, closeOptions.forceAfterMs ?? FORCE_CLOSE_AFTER_MS);
      if (group?.open === true) group.flush();
      await checkpointer?.close();
    },
  };
}

/** The platform lock every request and admin job takes (platform-lock.ts), with the bounds asked for. */
function lockOf(options: ServeOptions): PlatformLock {
  return new PlatformLock({
    ...(options.lockQueueMax === undefined ? {} : { queueMax: options.lockQueueMax }),
    ...(options.lockSliceMs === undefined ? {} : { sliceMs: options.lockSliceMs }),
  });
}

/** The admin doors' view of the served platform (admin.ts). */
function adminOf(
  options: ServeOptions,
  layout: ServeLayout,
  parts: Pick<AdminOptions, 'platform' | 'clock' | 'clockMover' | 'lock' | 'record' | 'timeTravel'> & {
    urls: Partial<Record<Mount, string>>;
    shedder: LoadShedder;
    loopDelay: LoopDelay;
    checkpointer: Checkpointer | undefined;
    pump: TimerPump;
  },
): AdminOptions {
  const { platform, clock, clockMover, lock, urls, record, timeTravel, shedder, loopDelay, checkpointer, pump } = parts;
  return {
    platform,
    clock,
    clockMover,
    lock,
    mounts: () => urls,
    onClockMoved: () => pump.arm(),
    routes: options.routes,
    record,
    timeTravel,
    adminMount: layout.adminMount,
    load: () => loadView(shedder),
    ...(checkpointer === undefined ? {} : { checkpoints: () => checkpointsView(checkpointer, options.commandLog) }),
    ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
    ...(options.publicUrls === undefined ? {} : { publicUrls: options.publicUrls }),
    loopDelay,
    ...dialectOption(layout),
  };
}

/** `--data` serves the documents' dispatcher only: its command log replays that one. */
function refuseDataWithDialect(options: ServeOptions, layout: ServeLayout): void {
  if (layout !== DOCUMENTS_LAYOUT && options.commandLog !== undefined)
    throw new Error(
      `--data is not supported with --dialect ${layout.dialect} (its command log replays the documents' dispatcher)`,
    );
}

/** With a command log: the group commit that makes each turn's commands durable before their answers. */
function groupCommitOf(
  options: ServeOptions,
  onFailure: (error: string) => void,
  onCommitted: () => void,
): GroupCommit | undefined {
  const commandLog = options.commandLog;
  return commandLog === undefined
    ? undefined
    : new GroupCommit({ log: commandLog, onFailure, onCommitted, answerAfterSync: options.fsyncAnswers === true });
}

/** With a command log: the checkpointer, from where recovery left it. */
function checkpointerOf(
  options: ServeOptions,
  platform: Platform,
  timeTravel: TimeTravel,
  recovery: ServeHandle['recovery'],
  log: (line: string) => void,
): Checkpointer | undefined {
  const commandLog = options.commandLog;
  return commandLog === undefined
    ? undefined
    : new Checkpointer({
        log: commandLog,
        platform,
        timeTravel,
        clockMovedMs: recovery?.clockMovedMs ?? 0,
        loadedSeq: recovery?.checkpointSeq,
        ...(recovery?.unusableImages === undefined ? {} : { unusableImages: recovery.unusableImages }),
        ...(recovery?.skippedCheckpoints === undefined ? {} : { replaceSkipped: true }),
        onError: (message) => log(`afp serve: checkpoint: ${message}`),
        ...(options.checkpointEveryCommands === undefined ? {} : { everyCommands: options.checkpointEveryCommands }),
      });
}

/** With a command log: how an admin action is logged (and counted towards the next checkpoint). */
function recorderOf(
  commandLog: CommandLog | undefined,
  group: GroupCommit | undefined,
  checkpointer: Checkpointer | undefined,
): ((command: AdminCommand) => void) | undefined {
  return commandLog === undefined || group === undefined
    ? undefined
    : (command: AdminCommand) => {
        commandLog.appendAdmin(command);
        checkpointer?.noteAdmin(command);
        group.appended();
      };
}

/** After a start from a checkpoint: the entries it covers are checked in the background, damage logged. */
function checkCoveredEntries(
  commandLog: CommandLog | undefined,
  coveredSeq: number | undefined,
  closing: () => boolean,
  log: (line: string) => void,
): void {
  if (commandLog !== undefined && coveredSeq !== undefined)
    void scanCoveredEntries(commandLog, coveredSeq, closing).then(
      (damage) => {
        if (damage !== null) for (const line of coveredDamageLines(commandLog.file, coveredSeq, damage)) log(line);
      },
      (error: unknown) =>
        log(`afp serve: warning: the check of the log entries before the checkpoint failed: ${String(error)}`),
    );
}

/**
 * A checkpoint when one is due. A failure (disk full) is logged, not answered: the command is on
 * disk and applied, and a missing checkpoint only makes the next recovery replay more.
 */
function writeCheckpoint(checkpointer: Checkpointer | undefined, log: (line: string) => void): void {
  try {
    checkpointer?.afterRequest();
  } catch (error) {
    log(
      `afp serve: could not write a checkpoint (recovery will replay more of the log): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** What the admin rows are told of a dialect other than the documents' (`/_afp/mounts` says it). */
function dialectOption(layout: ServeLayout): Pick<AdminOptions, 'dialect'> {
  if (layout === DOCUMENTS_LAYOUT) return {};
  return {
    dialect: {
      name: layout.dialect,
      basePaths: layout.basePaths,
      ...(layout.fairness === undefined ? {} : { fairness: layout.fairness }),
      ...(layout.limits === undefined ? {} : { limits: layout.limits }),
    },
  };
}

/** A fresh platform, or (with a command log) the log's platform after its replay. */
function servedPlatform(
  options: ServeOptions,
  layout: ServeLayout,
  group: GroupCommit | undefined,
): {
  platform: Platform;
  dispatcher: Dispatcher;
  clock: ServeClock;
  timeTravel: TimeTravel;
  recovery?: ServeHandle['recovery'];
} {
  if (options.commandLog !== undefined) {
    const startedMs = performance.now();
    const served = serveFromLog(
      options.commandLog,
      options.routes,
      Date.now(),
      group === undefined ? undefined : () => group.appended(),
    );
    if ('error' in served) throw new Error(served.error);
    return { ...served, recovery: { ...served.stats, durationMs: performance.now() - startedMs } };
  }
  const clock = new ServeClock(
    options.startMs === undefined ? { mode: options.clockMode } : { mode: options.clockMode, startMs: options.startMs },
  );
  const platformOptions = {
    seed: options.seed,
    startMs: clock.nowMs(),
    // A clock move crosses funding instants many at once (docs/decisions/trading.md "Funding over a span").
    fundingSpans: true,
    defects: options.defects ?? [],
    faults: options.faults ?? [],
    closures: options.closures ?? [],
    ...(options.trading === undefined ? {} : { trading: options.trading }),
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.limiterEntriesMax === undefined ? {} : { limiter: { maxEntries: options.limiterEntriesMax } }),
  };
  const platform = new Platform(platformOptions);
  return {
    platform,
    dispatcher: layout.dispatcher(platform, options.routes),
    clock,
    timeTravel: new TimeTravel(platform, platformOptions),
  };
}

/** GET /_afp/state's `load`: the bounds, what is in flight now, and the counts since start. */
/** GET /_afp/state's `checkpoints`: the checkpointer's view, and what the start found lost from FILE (start-loss.ts). */
function checkpointsView(checkpointer: Checkpointer, log: CommandLog | undefined): JsonObject {
  return { ...checkpointer.view(), lost_at_start: startLossView(log?.startLoss ?? null) };
}

function loadView(shedder: LoadShedder): JsonObject {
  return {
    max_in_flight: shedder.maxInFlight,
    max_event_loop_delay_ms: shedder.maxEventLoopDelayMs,
    max_receiving: shedder.maxReceiving,
    in_flight: shedder.inFlight,
    receiving: shedder.receiving,
    admitted: shedder.admittedCount,
    shed_in_flight: shedder.shedInFlightCount,
    shed_receiving: shedder.shedReceivingCount,
    shed_event_loop_delay: shedder.shedDelayCount,
    body_timeouts: shedder.bodyTimeoutCount,
  };
}
