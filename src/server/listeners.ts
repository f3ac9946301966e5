/**
 * The listener set of `afp serve`: one Platform, one Dispatcher over the route table, and one
 * node:http server per mount that has routes, all on 127.0.0.1.
 *
 * The faucet and escrow listeners also serve `/mcp` (src/server/mcp.ts) on the same dispatcher.
 *
 * Port layout (docs/decisions.md): the style-B api_url on P, the style-A services on P + offset
 * (faucet 1, escrow 2, trading 3, domains 4, wallet 5, casino 6); port 0 makes every listener
 * ephemeral. Shutdown stops accepting, lets in-flight requests finish and closes idle keep-alive
 * connections; whatever is still open after `forceAfterMs` (default 5 s) is cut.
 *
 * A `layout` (src/server/deployed-layout.ts) replaces this for another dialect: its own listening
 * mounts and ports, the mount that serves `/_afp/*`, its own dispatcher, no MCP.
 *
 * With a `commandLog` (afp serve --data, src/server/recovery.ts) the platform is the log's: built
 * from its settings, its commands replayed, the clock resumed after them; every dispatched request
 * and every state-changing admin action is then appended to it before it is answered.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Dispatcher } from '../http/dispatcher.ts';
import type { Mount, Route } from '../http/route.ts';
import { createApiServer } from '../http/server.ts';
import { Platform, type FaultWindow } from '../platform/platform.ts';
import { TimeTravel } from './time-travel.ts';
import { Checkpointer } from './checkpoints.ts';
import type { AdminCommand } from './admin.ts';
import type { GameClosure } from '../services/casino/closure-schedule.ts';
import type { PlatformConfig } from '../services/shared/config.ts';
import type { DefectName } from '../services/shared/context.ts';
import { adminIntercept } from './admin.ts';
import type { CommandLog } from './command-log.ts';
import { createMcpHandler, MCP_PATH } from './mcp.ts';
import { serveFromLog, type RecoveryStats } from './recovery.ts';
import { ServeClock, type ClockMode } from './serve-clock.ts';
import { TimerPump } from './timer-pump.ts';

export const DEFAULT_PORT = 8700;
export const DEFAULT_HOST = '127.0.0.1';
export const FORCE_CLOSE_AFTER_MS = 5_000;

/** Offset of each mount's port from the api port; the order is the listening order. */
export const MOUNT_PORT_OFFSETS: Readonly<Record<Mount, number>> = { api: 0, faucet: 1, escrow: 2, trading: 3, domains: 4, wallet: 5, casino: 6 };

export interface ServeOptions {
  readonly routes: readonly Route[];
  readonly seed: string;
  /** The api port; 0 = ephemeral ports for every mount. */
  readonly port: number;
  readonly clockMode: ClockMode;
  readonly startMs?: number;
  readonly defects?: readonly DefectName[];
  readonly config?: PlatformConfig;
  /** Fault windows at absolute instants (afp serve --scenario); GET /_afp/platform lists them. */
  readonly faults?: readonly FaultWindow[];
  /** Casino game closures at absolute instants (afp serve --scenario); GET /_afp/platform lists them. */
  readonly closures?: readonly GameClosure[];
  readonly log?: (line: string) => void;
  /**
   * afp serve --data: the command log, opened and adopted (its settings checked against the
   * flags). Its settings replace seed, startMs, clockMode, defects, config, faults and closures above.
   */
  readonly commandLog?: CommandLog;
  /** With a commandLog: commands between two checkpoints (default CHECKPOINT_EVERY_COMMANDS; tests use small ones). */
  readonly checkpointEveryCommands?: number;
  /** The wire dialect's listeners and dispatcher; absent = the documents' styles (DOCUMENTS_LAYOUT). */
  readonly layout?: ServeLayout;
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
  /** Whether faucet and escrow also serve `/mcp`. */
  readonly mcp: boolean;
  dispatcher(platform: Platform, routes: readonly Route[]): Dispatcher;
}

export const DOCUMENTS_LAYOUT: ServeLayout = {
  dialect: 'documents',
  mounts: (routes) => servedMounts(routes).map((mount) => [mount, MOUNT_PORT_OFFSETS[mount]] as const),
  adminMount: 'api',
  basePaths: {},
  mcp: true,
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
  if (layout !== DOCUMENTS_LAYOUT && options.commandLog !== undefined) throw new Error(`--data is not supported with --dialect ${layout.dialect} (its command log replays the documents' dispatcher)`);
  const { platform, dispatcher, clock, timeTravel, recovery } = servedPlatform(options, layout);
  const pump = new TimerPump({ platform, clock, log });
  const urls: Partial<Record<Mount, string>> = {};
  const commandLog = options.commandLog;
  const checkpointer = commandLog === undefined ? undefined : new Checkpointer({ log: commandLog, platform, timeTravel, clockMovedMs: recovery?.clockMovedMs ?? 0, ...(options.checkpointEveryCommands === undefined ? {} : { everyCommands: options.checkpointEveryCommands }) });
  const record = commandLog === undefined ? undefined : (command: AdminCommand): void => {
    commandLog.appendAdmin(command);
    checkpointer?.noteAdmin(command);
  };
  const afterRequest = (): void => {
    pump.arm();
    writeCheckpoint(checkpointer, log);
  };
  const dialect = layout === DOCUMENTS_LAYOUT ? {} : { dialect: { name: layout.dialect, basePaths: layout.basePaths } };
  const admin = { platform, clock, mounts: () => urls, onClockMoved: () => pump.arm(), routes: options.routes, record, timeTravel, adminMount: layout.adminMount, ...dialect };
  const servers: Server[] = [];
  try {
    for (const [mount, offset] of layout.mounts(options.routes)) {
      const rawPaths = layout.mcp && (mount === 'faucet' || mount === 'escrow') ? { [MCP_PATH]: createMcpHandler({ dispatcher, clock, service: mount, log }) } : undefined;
      const server = createApiServer({ dispatcher, clock, mount, trustProxy: true, intercept: adminIntercept(mount, admin), afterRequest, log, ...(rawPaths === undefined ? {} : { rawPaths }) });
      servers.push(server);
      const port = await listen(server, options.port === 0 ? 0 : options.port + offset);
      urls[mount] = `http://${DEFAULT_HOST}:${port}`;
    }
  } catch (error) {
    await closeAll(servers, 0);
    throw error;
  }
  pump.arm();
  return {
    platform,
    dispatcher,
    clock,
    urls,
    ...(recovery === undefined ? {} : { recovery }),
    close: async (closeOptions = {}) => {
      pump.stop();
      await closeAll(servers, closeOptions.forceAfterMs ?? FORCE_CLOSE_AFTER_MS);
    },
  };
}

/**
 * A checkpoint when one is due. A failure (disk full) is logged, not answered: the command is on
 * disk and applied, and a missing checkpoint only makes the next recovery replay more.
 */
function writeCheckpoint(checkpointer: Checkpointer | undefined, log: (line: string) => void): void {
  try {
    checkpointer?.afterRequest();
  } catch (error) {
    log(`afp serve: could not write a checkpoint (recovery will replay more of the log): ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A fresh platform, or (with a command log) the log's platform after its replay. */
function servedPlatform(options: ServeOptions, layout: ServeLayout): { platform: Platform; dispatcher: Dispatcher; clock: ServeClock; timeTravel: TimeTravel; recovery?: ServeHandle['recovery'] } {
  if (options.commandLog !== undefined) {
    const startedMs = performance.now();
    const served = serveFromLog(options.commandLog, options.routes, Date.now());
    if ('error' in served) throw new Error(served.error);
    return { ...served, recovery: { ...served.stats, durationMs: performance.now() - startedMs } };
  }
  const clock = new ServeClock(options.startMs === undefined ? { mode: options.clockMode } : { mode: options.clockMode, startMs: options.startMs });
  const platformOptions = {
    seed: options.seed,
    startMs: clock.nowMs(),
    defects: options.defects ?? [],
    faults: options.faults ?? [],
    closures: options.closures ?? [],
    ...(options.config === undefined ? {} : { config: options.config }),
  };
  const platform = new Platform(platformOptions);
  return { platform, dispatcher: layout.dispatcher(platform, options.routes), clock, timeTravel: new TimeTravel(platform, platformOptions) };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(new Error(`cannot listen on ${DEFAULT_HOST}:${port}: ${error.message}`, { cause: error }));
    server.once('error', onError);
    server.listen(port, DEFAULT_HOST, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops accepting, waits for in-flight requests, cuts what remains after `forceAfterMs`. */
async function closeAll(servers: readonly Server[], forceAfterMs: number): Promise<void> {
  const closed = servers.map(
    (server) =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  );
  const force = setTimeout(() => {
    for (const server of servers) server.closeAllConnections();
  }, forceAfterMs);
  try {
    await Promise.all(closed);
  } finally {
    clearTimeout(force);
  }
}
