/**
 * The load benchmarks' targets, node:http servers on 127.0.0.1:
 *   - trivial: answers every request with 200 '{}' at once (what a load generator's own ceiling is
 *     measured against: the target costs as little as a server can);
 *   - stalling: the same, but stalls STALL_MS of every PERIOD_MS (the last STALL_MS of each period
 *     of the wall clock since the epoch, so any run of PERIOD_MS + STALL_MS or more holds a whole
 *     stall, whatever its phase): a request that arrives during a stall is answered when it ends,
 *     as a process frozen by a long GC pause or a blocked event loop would answer it.
 * `stallEndMs` is the schedule as a pure function (tested by exact instants). The bench runs the
 * servers in a child process (load-server-child.ts), so the generators measured do not share
 * their event loop; tests start them in-process.
 * Bounds: a server holds at most STALLED_MAX answers during a stall (more are answered at once
 * with 503, so a runaway generator cannot grow its memory without limit).
 */
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StallSchedule {
  readonly periodMs: number;
  readonly stallMs: number;
}

/** The server: stalls 1 s every 5 s. */
export const STALL_EVERY_5S: StallSchedule = { periodMs: 5_000, stallMs: 1_000 };
export const STALLED_MAX = 100_000;

export type LoadServerKind =
  { readonly kind: 'trivial' } | { readonly kind: 'stalling'; readonly schedule: StallSchedule };

export interface LoadServer {
  readonly url: string;
  /** Answers held back by stalls so far (the stalling server; 0 for the trivial one). */
  stalledAnswers(): number;
  close(): Promise<void>;
}

/** When the stall that `nowMs` falls in ends; null when `nowMs` is outside every stall. */
export function stallEndMs(nowMs: number, schedule: StallSchedule): number | null {
  const phaseMs = nowMs % schedule.periodMs;
  return phaseMs >= schedule.periodMs - schedule.stallMs ? nowMs - phaseMs + schedule.periodMs : null;
}

const BODY = Buffer.from('{}');
const HEADERS = { 'content-type': 'application/json', 'content-length': String(BODY.length) };

function answer(response: ServerResponse, status = 200): void {
  response.writeHead(status, HEADERS).end(BODY);
}

export async function startLoadServer(kind: LoadServerKind, nowMs: () => number = Date.now): Promise<LoadServer> {
  let stalled = 0;
  const held = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request, response) => {
    request.resume();
    const untilMs = kind.kind === 'stalling' ? stallEndMs(nowMs(), kind.schedule) : null;
    if (untilMs === null) {
      answer(response);
      return;
    }
    if (held.size >= STALLED_MAX) {
      answer(response, 503);
      return;
    }
    stalled += 1;
    const timer = setTimeout(() => {
      held.delete(timer);
      answer(response);
    }, untilMs - nowMs());
    held.add(timer);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    stalledAnswers: () => stalled,
    close: async () => {
      for (const timer of held) clearTimeout(timer);
      held.clear();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
