/**
 * The load benchmarks' targets, node:http servers on 127.0.0.1:
 *   - trivial: answers every request with 200 '{}' at once (what a load generator's own ceiling is
 *     measured against: the target costs as little as a server can);
 *   - stalling: the same, but stalls STALL_MS of every PERIOD_MS (the last STALL_MS of each period
 *     of the wall clock since the epoch, so any run of PERIOD_MS + STALL_MS or more holds a whole
 *     stall, whatever its phase): a request that arrives during a stall is answered when it ends,
 *     as a process frozen by a long GC pause or a blocked event loop would answer it;
 *   - api: a bare node:http API, what `afp serve` is compared with (serve-phase.ts): a GET answers a
 *     small JSON object; a POST reads its JSON body, keeps the `agent_id` it names (in a Set of at
 *     most API_KEPT_MAX, cleared when full) and answers 201 with it; a body that is not JSON gets 400;
 *   - fixed: a bare node:http server answering the very bytes afp serve answered on one endpoint
 *     (its status, its own headers and JSON body, taken from afp serve first: serve-phase.ts), after reading the
 *     request's body and parsing it when there is one, so a keyed read or a bet is compared with a
 *     server that sends the same number of bytes.
 * `stallEndMs` is the schedule as a pure function (tested by exact instants). The bench runs the
 * servers in a child process (load-server-child.ts), so the generators measured do not share
 * their event loop; tests start them in-process.
 * Bounds: a server holds at most STALLED_MAX answers during a stall (more are answered at once
 * with 503, so a runaway generator cannot grow its memory without limit).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StallSchedule {
  readonly periodMs: number;
  readonly stallMs: number;
}

/** The server: stalls 1 s every 5 s. */
export const STALL_EVERY_5S: StallSchedule = { periodMs: 5_000, stallMs: 1_000 };
/**
 * --small's server (CI): stalls 1 s every 2 s. The same whole stall in a run of 3 s instead of 6 s;
 * the closed loop, which runs flat out between stalls, then costs about a third of the CPU (its
 * p99 still hides the stall: ten waiting senders against thousands of answers a second).
 */
export const STALL_EVERY_2S: StallSchedule = { periodMs: 2_000, stallMs: 1_000 };
export const STALLED_MAX = 100_000;

export type LoadServerKind =
  | { readonly kind: 'trivial' }
  | { readonly kind: 'api' }
  | {
      readonly kind: 'fixed';
      readonly status: number;
      /** afp serve's own headers on the endpoint (content-type, the rate limit's); Node adds the same Date, Connection and Keep-Alive to both. */
      readonly headers?: Readonly<Record<string, string>>;
      readonly body: string;
    }
  | { readonly kind: 'stalling'; readonly schedule: StallSchedule };

export const API_KEPT_MAX = 1_000_000;

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

const API_READ_BODY = Buffer.from(JSON.stringify({ service: 'bare', agents: 0, status: 'ok' }));

/** The fixed server's handler (see the header): the body read (and parsed, when any), then the same answer. */
function fixedHandler(
  status: number,
  text: string,
  sent: Readonly<Record<string, string>> = {},
): (request: IncomingMessage, response: ServerResponse) => void {
  const body = Buffer.from(text);
  const headers = { 'content-type': 'application/json', ...sent, 'content-length': String(body.length) };
  return (request, response) => {
    let received = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      received += chunk;
    });
    request.on('end', () => {
      if (received !== '') {
        try {
          JSON.parse(received);
        } catch {
          response.writeHead(400, HEADERS).end(BODY);
          return;
        }
      }
      response.writeHead(status, headers).end(body);
    });
  };
}

/** The bare API's handler (see the header). */
function apiHandler(): (request: IncomingMessage, response: ServerResponse) => void {
  const kept = new Set<string>();
  return (request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(API_READ_BODY.length) });
      response.end(API_READ_BODY);
      request.resume();
      return;
    }
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => {
      let agentId: unknown;
      try {
        agentId = (JSON.parse(text) as { agent_id?: unknown }).agent_id;
      } catch {
        agentId = undefined;
      }
      if (typeof agentId !== 'string') {
        response.writeHead(400, HEADERS).end(BODY);
        return;
      }
      if (kept.size >= API_KEPT_MAX) kept.clear();
      kept.add(agentId);
      const body = JSON.stringify({ agent_id: agentId, created: true });
      response.writeHead(201, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      });
      response.end(body);
    });
  };
}

export async function startLoadServer(kind: LoadServerKind, nowMs: () => number = Date.now): Promise<LoadServer> {
  let stalled = 0;
  const held = new Set<NodeJS.Timeout>();
  const server: Server = createServer(
    kind.kind === 'api'
      ? apiHandler()
      : kind.kind === 'fixed'
        ? fixedHandler(kind.status, kind.body, kind.headers)
        : (request, response) => {
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
          },
  );
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
