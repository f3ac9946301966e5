/**
 * The serve part of the bench's load part: how much of a bare node:http server's throughput
 * `afp serve` keeps, on a read and on a write, driven by wrk (wrk-run.ts), a generator that is not
 * the bottleneck. Read: `GET {casino}/api/v1/gossip` (no key: routing, the per-IP limiter, the
 * service and the rendering) against the bare API's GET. Write: `POST {api}/register` with a fresh
 * agent id (a new agent in the platform's state) against the bare API's POST (parse the body, keep
 * the id, answer 201). Every request comes from a fresh X-Forwarded-For address, so no limit binds.
 * First the generator is shown to saturate the bare server: one wrk thread and two on its read
 * (when two threads send no more than one, the server, not wrk, sets the rate). Then rounds, each
 * on fresh servers in child processes (bare API: load-server-child.ts; afp serve: serve-process.ts),
 * the order of bare and serve alternated; the verdict is the median of the per-round ratios.
 * Without wrk on PATH the part is skipped and says why.
 */
import { serveInChild } from './load-server-child.ts';
import { startServeProcess } from './serve-process.ts';
import { wrkPath, wrkRun, type WrkOptions, type WrkRun } from './wrk-run.ts';

/** wrk threads in the rounds (the saturation check adds a run with two). */
export const SERVE_WRK_THREADS = 1;
const SERVE_START_MS = Date.UTC(2026, 0, 1);

export type ServeEndpoint = 'read' | 'write';

export interface ServeRound {
  readonly bare: WrkRun;
  readonly serve: WrkRun;
}

export interface ServePartResult {
  /** Why the part did not run (wrk missing); null when it ran. */
  readonly missing: string | null;
  readonly connections: number;
  readonly seconds: number;
  /** The bare server's read rate with one wrk thread and with two. */
  readonly saturation: { readonly oneThread: number; readonly twoThreads: number } | null;
  readonly read: readonly ServeRound[];
  readonly write: readonly ServeRound[];
  /** Runs that failed (a tool's exit, a server that did not start): their rounds are left out. */
  readonly troubles: readonly string[];
}

export interface ServePartOptions {
  readonly connections: number;
  readonly seconds: number;
  readonly rounds: number;
  readonly log: (line: string) => void;
}

const METHOD: Record<ServeEndpoint, WrkOptions['method']> = { read: 'GET', write: 'POST' };

async function bareRun(wrk: string, endpoint: ServeEndpoint, options: WrkOptions): Promise<WrkRun | string> {
  const server = await serveInChild({ kind: 'api' });
  try {
    return await wrkRun(wrk, { ...options, url: `${server.url}${endpoint === 'read' ? 'gossip' : 'register'}` });
  } finally {
    await server.stop();
  }
}

async function serveRun(wrk: string, endpoint: ServeEndpoint, options: WrkOptions): Promise<WrkRun | string> {
  const server = await startServeProcess({ seed: '1', startMs: SERVE_START_MS });
  try {
    const url = endpoint === 'read' ? `${server.urls['casino']}/api/v1/gossip` : `${server.urls['api']}/register`;
    return await wrkRun(wrk, { ...options, url });
  } finally {
    await server.stop();
  }
}

export async function servePart(options: ServePartOptions): Promise<ServePartResult> {
  const { connections, seconds, rounds, log } = options;
  const empty = { connections, seconds, saturation: null, read: [], write: [], troubles: [] };
  const wrk = wrkPath();
  if (wrk === null) {
    const missing =
      'wrk is not installed (Debian: apt-get install wrk); the serve part needs a generator that is not the bottleneck';
    log(`serve: skipped: ${missing}`);
    return { ...empty, missing };
  }
  const base = { url: '', threads: SERVE_WRK_THREADS, connections, seconds };
  const troubles: string[] = [];
  log(`serve: afp serve over a bare node:http server, wrk ${connections} connections, ${seconds} s runs`);
  const one = await bareRun(wrk, 'read', { ...base, method: 'GET', threads: 1 });
  const two = await bareRun(wrk, 'read', { ...base, method: 'GET', threads: 2 });
  for (const run of [one, two]) if (typeof run === 'string') troubles.push(run);
  const saturation =
    typeof one === 'string' || typeof two === 'string' ? null : { oneThread: one.perSecond, twoThreads: two.perSecond };
  const result: Record<ServeEndpoint, ServeRound[]> = { read: [], write: [] };
  for (let round = 1; round <= rounds; round++) {
    for (const endpoint of ['read', 'write'] as const) {
      const wrkOptions = { ...base, method: METHOD[endpoint] };
      const serveFirst = round % 2 === 0;
      const first = serveFirst ? await serveRun(wrk, endpoint, wrkOptions) : await bareRun(wrk, endpoint, wrkOptions);
      const second = serveFirst ? await bareRun(wrk, endpoint, wrkOptions) : await serveRun(wrk, endpoint, wrkOptions);
      const [bare, serve] = serveFirst ? [second, first] : [first, second];
      if (typeof bare === 'string' || typeof serve === 'string') {
        troubles.push(...[bare, serve].filter((run): run is string => typeof run === 'string'));
        continue;
      }
      result[endpoint].push({ bare, serve });
      log(
        `serve round ${round}/${rounds} ${endpoint}: bare ${bare.perSecond.toFixed(0)}/s, serve ${serve.perSecond.toFixed(0)}/s (${serve.failed} failed)`,
      );
    }
  }
  return { ...empty, missing: null, saturation, read: result.read, write: result.write, troubles };
}
