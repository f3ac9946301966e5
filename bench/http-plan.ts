/**
 * The plan of the HTTP phase, computed before anything is sent (pure, untimed).
 *
 * Why a plan: over HTTP, requests run concurrently (agents partitioned into lanes, each agent's
 * own requests in order in its lane), so requests of different agents may reach the server in
 * another order than the mix's, and the platform draws every key and id from one seeded stream:
 * the live ids then differ from the recorded ones. So:
 * - identifiers are rebound: a request site (path segment, query value, body string, bearer key)
 *   whose recorded value a previous answer produced is sent with the value the live answer
 *   produced at the same JSON pointer (the rule of src/replay: `isIdentifierLike`, request sites);
 * - a request waits for the answer of every earlier exchange that first mentioned one of its
 *   identifiers (the producer of an escrow id, the registration that introduced an agent id), so
 *   nothing is used before it exists.
 * - time moves in windows: consecutive exchanges within `windowMs` of virtual time (at most
 *   `windowRequestsMax`) share one clock move (POST /_afp/clock to the window's last instant, so
 *   no request is served before its recorded instant), and a window ends when all its answers are in.
 * Invariants: dependencies point backwards; lanes keep exchange order; windows cover the prefix.
 */
import type { TransportRequest } from '../src/client/transport.ts';
import type { JsonValue } from '../src/core/errors.ts';
import { isIdentifierLike } from '../src/replay/identifier-rule.ts';
import { forEachStringLeaf } from '../src/replay/json-pointer.ts';
import type { RecordedRequest } from '../src/replay/record-format.ts';
import { requestSites } from '../src/replay/request-sites.ts';
import type { MixExchange } from './traffic-mix.ts';

export interface Rebinding {
  /** Request site, as src/replay/request-sites.ts names it (`path/2`, `headers/authorization`). */
  readonly at: string;
  readonly prefix: string;
  readonly from: number;
  readonly pointer: string;
}

export interface PlannedExchange {
  readonly index: number;
  /** Earlier exchanges whose answers must be in before this request is sent. */
  readonly waitsFor: readonly number[];
  readonly rebindings: readonly Rebinding[];
}

export interface HttpWindow {
  /** The clock is moved here before the window's requests are sent. */
  readonly clockMs: number;
  /** Exchange indexes per lane, in mix order; only non-empty lanes. */
  readonly lanes: readonly (readonly number[])[];
}

export interface HttpPlan {
  readonly exchanges: readonly PlannedExchange[];
  readonly windows: readonly HttpWindow[];
  /** Exchanges whose live answers later requests read. */
  readonly producers: ReadonlySet<number>;
}

export interface PlanOptions {
  readonly concurrency: number;
  readonly windowMs: number;
  readonly windowRequestsMax: number;
}

interface Mention {
  readonly index: number;
  /** The JSON pointer in that exchange's answer, or null when its request introduced the value. */
  readonly pointer: string | null;
}

export function planHttp(exchanges: readonly MixExchange[], options: PlanOptions): HttpPlan {
  const firstMention = new Map<string, Mention>();
  const planned: PlannedExchange[] = [];
  const producers = new Set<number>();
  exchanges.forEach((exchange, index) => {
    const waitsFor = new Set<number>();
    const rebindings: Rebinding[] = [];
    for (const site of requestSites(recordedView(exchange.request)).sites) {
      const mention = firstMention.get(site.value);
      if (mention === undefined) {
        if (isIdentifierLike(site.value)) firstMention.set(site.value, { index, pointer: null });
        continue;
      }
      if (mention.index === index) continue;
      waitsFor.add(mention.index);
      if (mention.pointer !== null) {
        rebindings.push({ at: site.at, prefix: site.prefix, from: mention.index, pointer: mention.pointer });
        producers.add(mention.index);
      }
    }
    forEachStringLeaf(exchange.body, (pointer, value) => {
      if (!firstMention.has(value) && isIdentifierLike(value)) firstMention.set(value, { index, pointer });
    });
    planned.push({ index, waitsFor: [...waitsFor].sort((a, b) => a - b), rebindings });
  });
  return { exchanges: planned, windows: windowsOf(exchanges, options), producers };
}

function windowsOf(exchanges: readonly MixExchange[], options: PlanOptions): HttpWindow[] {
  const windows: HttpWindow[] = [];
  let start = 0;
  while (start < exchanges.length) {
    const firstMs = (exchanges[start] as MixExchange).atMs;
    let end = start + 1;
    while (
      end < exchanges.length &&
      end - start < options.windowRequestsMax &&
      (exchanges[end] as MixExchange).atMs - firstMs <= options.windowMs
    )
      end++;
    const lanes = new Map<number, number[]>();
    for (let index = start; index < end; index++) {
      const lane = laneOf((exchanges[index] as MixExchange).agentId, options.concurrency);
      const list = lanes.get(lane) ?? [];
      list.push(index);
      lanes.set(lane, list);
    }
    windows.push({
      clockMs: (exchanges[end - 1] as MixExchange).atMs,
      lanes: [...lanes.entries()].sort((a, b) => a[0] - b[0]).map(([, list]) => list),
    });
    start = end;
  }
  return windows;
}

/** FNV-1a of the agent id, modulo the lane count: one agent, one lane. */
export function laneOf(agentId: string | null, lanes: number): number {
  let hash = 0x811c9dc5;
  for (const char of agentId ?? '') {
    hash ^= char.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % lanes;
}

/** A transport request in the record's shape (what the request-site helpers read and write). */
export function recordedView(request: TransportRequest): RecordedRequest {
  const base = {
    mount: request.mount,
    method: request.method,
    path: request.path,
    query: request.query ?? {},
    headers: request.headers ?? {},
  };
  if (request.rawBody !== undefined)
    return { ...base, raw_body: { text: request.rawBody.text, content_type: request.rawBody.contentType } };
  return request.body === undefined ? base : { ...base, body: request.body as JsonValue };
}
