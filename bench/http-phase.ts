/**
 * The HTTP phase: a prefix of the mix sent to a real `afp serve` on 127.0.0.1 (a fresh child
 * process per round, same seed and start instant, manual clock) through keep-alive connections
 * (the lean node:http client by default, or the project's fetch transport), following the plan
 * of http-plan.ts: windows of virtual time,
 * one clock move each, lanes running concurrently (at most one request in flight per lane),
 * dependent requests waiting for their producers, identifiers rebound from live answers.
 *
 * Bounded: at most the planned prefix, and no new window after `maxSeconds` of wall time (the
 * round reports the requests it sent). Failures are counted, never thrown out of the loop:
 * statuses that differ from the original run (`statusMismatches`: the live server has no tier
 * upgrades, fault windows or scenario config, and concurrency shifts instants inside a window) and
 * transport errors. Only a server that cannot start, or a clock that cannot move, ends the round.
 * What is timed: the windows (clock moves, requests, answers); starting and stopping the server is
 * not. CPU of both sides is reported, so a reader can tell whether the client or the server bound.
 */
import { readFile } from 'node:fs/promises';
import { httpTransport } from '../src/client/http-transport.ts';
import type { MountUrls, Transport, TransportRequest } from '../src/client/transport.ts';
import { endpointName } from '../src/replay/endpoint-name.ts';
import { valueAtPointer } from '../src/replay/json-pointer.ts';
import { withSiteValue } from '../src/replay/request-sites.ts';
import { recordedView, type HttpPlan, type HttpWindow, type PlannedExchange } from './http-plan.ts';
import { leanHttpTransport } from './lean-http-transport.ts';
import { measureRound, type RoundResult } from './measure.ts';
import { startServeProcess } from './serve-process.ts';
import type { MixExchange, TrafficMix } from './traffic-mix.ts';
import { AdminClient } from '../src/client/admin-client.ts';

export const HTTP_REQUEST_TIMEOUT_MS = 30_000;

export interface HttpRound extends RoundResult {
  readonly statusMismatches: number;
  /** `<endpoint> <recorded status>→<live status>` → count, for the report's top differences. */
  readonly mismatchKinds: ReadonlyMap<string, number>;
  readonly transportErrors: number;
  readonly clockMoves: number;
  /** CPU this process spent during the round (the client side). */
  readonly clientCpuMs: number;
  /** CPU the server process spent during the round; null where /proc cannot say. */
  readonly serverCpuMs: number | null;
}

export type HttpClient = 'lean' | 'fetch';

export interface HttpRoundOptions {
  readonly maxSeconds: number;
  readonly client: HttpClient;
  readonly concurrency: number;
}

interface RoundState {
  readonly mix: TrafficMix;
  readonly plan: HttpPlan;
  readonly transport: Transport;
  readonly live: Map<number, unknown>;
  readonly answered: Map<number, PromiseWithResolvers<void>>;
  sent: number;
  statusMismatches: number;
  readonly mismatchKinds: Map<string, number>;
  transportErrors: number;
}

export async function httpRound(mix: TrafficMix, plan: HttpPlan, options: HttpRoundOptions): Promise<HttpRound> {
  const server = await startServeProcess({ seed: mix.seed, startMs: mix.startMs });
  const lean =
    options.client === 'lean'
      ? leanHttpTransport({ urls: server.urls, maxSockets: options.concurrency, timeoutMs: HTTP_REQUEST_TIMEOUT_MS })
      : null;
  try {
    const transport = lean?.transport ?? httpTransport({ urls: server.urls, timeoutMs: HTTP_REQUEST_TIMEOUT_MS });
    const state: RoundState = {
      mix,
      plan,
      transport,
      live: new Map(),
      answered: awaitedAnswers(plan),
      sent: 0,
      statusMismatches: 0,
      mismatchKinds: new Map(),
      transportErrors: 0,
    };
    let clockMoves = 0;
    let clockMs = mix.startMs;
    const serverCpuBefore = await processCpuMs(server.pid);
    const clientCpuBefore = process.cpuUsage();
    const round = await measureRound(async () => {
      const startMs = performance.now();
      for (const window of plan.windows) {
        if (performance.now() - startMs > options.maxSeconds * 1000) break;
        if (window.clockMs > clockMs) {
          await moveClock(server.urls, window.clockMs);
          clockMs = window.clockMs;
          clockMoves++;
        }
        await runWindow(state, window);
      }
      return { ops: state.sent, requests: state.sent };
    });
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const serverCpuAfter = await processCpuMs(server.pid);
    const serverCpuMs = serverCpuBefore === null || serverCpuAfter === null ? null : serverCpuAfter - serverCpuBefore;
    return {
      ...round,
      statusMismatches: state.statusMismatches,
      mismatchKinds: state.mismatchKinds,
      transportErrors: state.transportErrors,
      clockMoves,
      clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
      serverCpuMs,
    };
  } finally {
    lean?.close();
    await server.stop();
  }
}

/** User + system CPU of a process from /proc (Linux; clock ticks of 10 ms), else null. */
async function processCpuMs(pid: number): Promise<number | null> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ');
    const ticks = Number(fields?.[11]) + Number(fields?.[12]);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

/** A pending answer for every exchange some later request waits for. */
function awaitedAnswers(plan: HttpPlan): Map<number, PromiseWithResolvers<void>> {
  const answered = new Map<number, PromiseWithResolvers<void>>();
  for (const exchange of plan.exchanges)
    for (const index of exchange.waitsFor) if (!answered.has(index)) answered.set(index, Promise.withResolvers<void>());
  return answered;
}

async function runWindow(state: RoundState, window: HttpWindow): Promise<void> {
  await Promise.all(
    window.lanes.map(async (lane) => {
      for (const index of lane) await sendOne(state, index);
    }),
  );
}

async function sendOne(state: RoundState, index: number): Promise<void> {
  const planned = state.plan.exchanges[index] as PlannedExchange;
  const exchange = state.mix.exchanges[index] as MixExchange;
  for (const before of planned.waitsFor) await state.answered.get(before)?.promise;
  try {
    const response = await state.transport(rebound(exchange.request, planned, state.live));
    if (response.status !== exchange.status) {
      state.statusMismatches++;
      const kind = `${endpointName(recordedView(exchange.request))} ${exchange.status}→${response.status}`;
      state.mismatchKinds.set(kind, (state.mismatchKinds.get(kind) ?? 0) + 1);
    }
    if (state.plan.producers.has(index)) state.live.set(index, response.body);
  } catch {
    state.transportErrors++;
  } finally {
    state.sent++;
    state.answered.get(index)?.resolve();
  }
}

/** The request with every rebinding site set to the live value (the recorded one when missing). */
function rebound(
  request: TransportRequest,
  planned: PlannedExchange,
  live: ReadonlyMap<number, unknown>,
): TransportRequest {
  if (planned.rebindings.length === 0) return request;
  let view = recordedView(request);
  for (const rebinding of planned.rebindings) {
    const value = valueAtPointer(live.get(rebinding.from), rebinding.pointer);
    if (typeof value === 'string') view = withSiteValue(view, rebinding.at, rebinding.prefix + value) ?? view;
  }
  const rebuilt: TransportRequest = { ...request, path: view.path, query: view.query, headers: view.headers };
  return request.body === undefined ? rebuilt : { ...rebuilt, body: view.body };
}

async function moveClock(urls: MountUrls, toMs: number): Promise<void> {
  const answer = await AdminClient.ofUrl(urls.api ?? '', { timeoutMs: HTTP_REQUEST_TIMEOUT_MS }).moveClock({ toMs });
  if (!answer.ok)
    throw new Error(`afp serve refused to move its clock to ${new Date(toMs).toISOString()}: ${answer.message}`);
}
