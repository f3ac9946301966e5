/**
 * The HTTP servers of `afp serve`: one per mount, each bound to its port (--port plus the mount's
 * offset, or an ephemeral one), faucet and escrow also answering the MCP door where the layout
 * has one; a failure to bind closes what was bound. Closing stops accepting, waits for requests in
 * flight and cuts what remains after a grace period. Why a file of its own: binding and closing
 * sockets is one concept, apart from what the platform behind them is (listeners.ts startServe).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BodyTimeouts } from '../http/body.ts';
import type { Dispatcher } from '../http/dispatcher.ts';
import type { Mount } from '../http/route.ts';
import { createApiServer, type EdgeBody } from '../http/server.ts';
import type { TrustedProxies } from '../http/trusted-proxies.ts';
import { adminIntercept } from './admin.ts';
import type { AdminOptions } from './admin-options.ts';
import type { GroupCommit } from './group-commit.ts';
import type { LoadShedder } from './load-shedder.ts';
import { lockIntercept } from './lock-intercept.ts';
import { createLazyMcpHandler } from './mcp-lazy.ts';
import { MCP_PATH, type McpDoorName } from './mcp-path.ts';
import type { PlatformLock } from './platform-lock.ts';
import type { ServeClock } from './serve-clock.ts';

export const DEFAULT_HOST = '127.0.0.1';

/** What the mounts' servers share: the platform's dispatcher and clock, the edge's settings, the admin doors. */
export interface MountServers {
  readonly mounts: ReadonlyArray<readonly [Mount, number]>;
  readonly host: string;
  /** The api port; 0 = ephemeral ports for every mount. */
  readonly port: number;
  readonly trustedProxies: TrustedProxies;
  /** The serve layout's MCP door and edge answers (listeners.ts ServeLayout). */
  readonly layout: { readonly mcp: McpDoorName | null; readonly edgeBody?: EdgeBody };
  readonly bodyTimeouts: BodyTimeouts | undefined;
  readonly dispatcher: Dispatcher;
  readonly clock: ServeClock;
  readonly lock: PlatformLock;
  readonly log: (line: string) => void;
  readonly group: GroupCommit | undefined;
  readonly admin: AdminOptions;
  readonly shedder: LoadShedder;
  readonly afterRequest: () => void;
  /** Filled with each mount's URL as it is bound. */
  readonly urls: Partial<Record<Mount, string>>;
}

/** Binds one server per mount, in the layout's order; a failure closes those bound and throws. */
export async function listenOnMounts(options: MountServers): Promise<Server[]> {
  const { dispatcher, clock, log, lock, layout } = options;
  const gate = options.group === undefined ? {} : { gate: options.group };
  const servers: Server[] = [];
  try {
    for (const [mount, offset] of options.mounts) {
      const rawPaths =
        layout.mcp !== null && (mount === 'faucet' || mount === 'escrow')
          ? {
              [MCP_PATH]: createLazyMcpHandler({
                dispatcher,
                clock,
                service: mount,
                door: layout.mcp,
                log,
                lock,
                ...gate,
              }),
            }
          : undefined;
      const server = createApiServer({
        dispatcher,
        clock,
        mount,
        trustedProxies: options.trustedProxies,
        intercept: lockIntercept(adminIntercept(mount, options.admin), {
          lock,
          dispatcher,
          clock,
          mount,
          ...(layout.edgeBody === undefined
            ? {}
            : { busyBody: (service, message) => layout.edgeBody?.(service, 503, message) ?? {} }),
        }),
        afterRequest: options.afterRequest,
        log,
        ...gate,
        admission: options.shedder,
        ...(options.bodyTimeouts === undefined ? {} : { bodyTimeouts: options.bodyTimeouts }),
        ...(layout.edgeBody === undefined ? {} : { edgeBody: layout.edgeBody }),
        ...(rawPaths === undefined ? {} : { rawPaths }),
      });
      servers.push(server);
      const port = await listen(server, options.host, options.port === 0 ? 0 : options.port + offset);
      options.urls[mount] = `http://${urlHost(options.host)}:${port}`;
    }
  } catch (error) {
    await closeAll(servers, 0);
    throw error;
  }
  return servers;
}

/** The host of a listener's URL: a wildcard bind is reached here through 127.0.0.1; IPv6 in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return DEFAULT_HOST;
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void =>
      reject(new Error(`cannot listen on ${urlHost(host)}:${port}: ${error.message}`, { cause: error }));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops accepting, waits for in-flight requests, cuts what remains after `forceAfterMs`. */
export async function closeAll(servers: readonly Server[], forceAfterMs: number): Promise<void> {
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
