// One valid request for every row of the route table, in an order where each succeeds, through the
// in-process dispatcher of a fixed-seed platform at fixed instants: the same answers every run.
// The OpenAPI tests hold every documented success schema to these answers, and
// scripts/gen-openapi-examples.ts takes the documents' examples from them (byte-stable).
import type { JsonObject } from '../../src/core/errors.ts';
import { Dispatcher, type ApiResponse } from '../../src/http/dispatcher.ts';
import type { Mount } from '../../src/http/route.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import { casinoTour } from './casino-world.ts';

export const TOUR_START_MS = Date.UTC(2026, 0, 1);

/** What was sent (path parameters already in the path) and what came back. */
export interface TourExchange {
  readonly mount: Mount;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** The API key sent, if any. */
  readonly key: string | undefined;
  readonly atMs: number;
  readonly response: ApiResponse;
}

interface SendOptions {
  key?: string;
  body?: unknown;
  query?: Record<string, string>;
  /** How far the clock moves before the request (default 1 s: rate limits refill). */
  advanceMs?: number;
}

/** Every exchange of the tour, per row id, in the order sent (a few failures at the end, for the error examples), and the platform it left. */
export function openApiTour(): { readonly platform: Platform; readonly byRow: Map<string, TourExchange[]>; readonly all: TourExchange[] } {
  const platform = new Platform({ seed: 'openapi', startMs: TOUR_START_MS });
  const dispatcher = new Dispatcher(platform, ALL_ROUTES);
  const byRow = new Map<string, TourExchange[]>();
  const all: TourExchange[] = [];
  let nowMs = TOUR_START_MS;
  const exchange = (mount: Mount, method: string, path: string, options: SendOptions = {}): ApiResponse => {
    nowMs += options.advanceMs ?? 1000;
    const headers: Record<string, string> = options.key === undefined ? {} : { authorization: `Bearer ${options.key}` };
    const query = options.query ?? {};
    const response = dispatcher.handle({ mount, method, path, query, headers, body: options.body, ip: '127.0.0.1' }, nowMs);
    const entry: TourExchange = { mount, method, path, query, body: options.body, key: options.key, atMs: nowMs, response };
    all.push(entry);
    if (response.routeId !== null) byRow.set(response.routeId, [...(byRow.get(response.routeId) ?? []), entry]);
    return response;
  };
  const send = (mount: Mount, method: string, path: string, options: SendOptions = {}): JsonObject => exchange(mount, method, path, options).body;
  const alice = send('faucet', 'POST', '/api/v1/agents/register', { body: { agent_id: 'alice' } })['api_key'] as string;
  const bob = send('api', 'POST', '/register', { body: { agent_id: 'bob', referrer: 'alice', metadata: { framework: 'langchain' } } })['api_key'] as string;
  send('faucet', 'POST', '/api/v1/faucet/claim', { key: alice });
  send('faucet', 'GET', '/api/v1/faucet/status', { key: alice });
  send('faucet', 'GET', '/api/v1/agents/alice', { key: alice });
  send('api', 'POST', '/claim', { key: alice });
  send('api', 'GET', '/status', { key: bob });
  send('api', 'GET', '/agents', { key: bob, query: { limit: '10' } });
  send('api', 'GET', '/referrals', { key: bob });
  const createA = (): string => send('escrow', 'POST', '/api/v1/escrow/create', { key: alice, body: { buyer: 'alice', seller: 'bob', amount: 0.5, currency: 'USDC', memo: 'one report' } })['escrow_id'] as string;
  const first = createA();
  send('escrow', 'GET', `/api/v1/escrow/${first}`, { key: alice });
  send('escrow', 'GET', '/api/v1/escrow/list', { key: alice, query: { status: 'locked', limit: '10' } });
  send('escrow', 'POST', '/api/v1/escrow/release', { key: alice, body: { escrow_id: first } });
  send('escrow', 'POST', '/api/v1/escrow/dispute', { key: alice, body: { escrow_id: createA(), reason: 'not delivered', evidence: 'https://example.com/log' } });
  const createB = (): string => send('api', 'POST', '/escrow', { key: bob, body: { amount: '1.00', receiver: 'alice', description: 'a dataset', expires_in: 3600, conditions: { delivery: 'csv' } } })['escrow_id'] as string;
  const third = createB();
  send('api', 'GET', `/escrow/${third}`, { key: bob });
  send('api', 'GET', '/escrows', { key: bob, query: { role: 'sender', limit: '5' } });
  send('api', 'POST', `/escrow/${third}/release`, { key: bob });
  send('api', 'POST', `/escrow/${createB()}/refund`, { key: bob });
  send('api', 'POST', `/escrow/${createB()}/dispute`, { key: bob, body: { reason: 'not delivered' } });
  for (const agentId of ['alice', 'bob']) platform.ledger.transfer({ from: 'faucet-pool', to: `agent:${agentId}`, amountMicro: 100_000_000n, reason: 'test.fund', reference: agentId });
  casinoTour((mount, method, path, options = {}) => ({ status: 200, body: send(mount, method, path, options) }), { alice, bob }, () => nowMs);
  // Failures, one per common code and service, for the error examples.
  send('api', 'POST', '/escrow', { key: bob, body: { amount: '1.00', receiver: 'alice', colour: 'blue' } });
  send('api', 'GET', '/escrows');
  send('api', 'GET', '/escrow/esc_missing', { key: bob });
  send('api', 'POST', `/escrow/${third}/release`, { key: bob });
  send('api', 'POST', '/escrow', { key: bob, body: { amount: '100000.00', receiver: 'alice' } });
  const carol = send('faucet', 'POST', '/api/v1/agents/register', { body: { agent_id: 'carol' } })['api_key'] as string;
  send('api', 'GET', `/escrow/${third}`, { key: carol });
  send('faucet', 'POST', '/api/v1/agents/register', { body: { agent_id: 'carol', colour: 'blue' } });
  send('faucet', 'POST', '/api/v1/agents/register', { body: { agent_id: 'carol' } });
  send('faucet', 'GET', '/api/v1/faucet/status');
  send('faucet', 'GET', '/api/v1/agents/bob', { key: carol });
  send('faucet', 'POST', '/api/v1/faucet/claim', { key: alice });
  send('casino', 'POST', '/api/v1/games/dice', { key: carol, body: { direction: 'over', threshold: 50, amount: 0.1, colour: 'blue' } });
  send('casino', 'GET', '/api/v1/auth/balance');
  send('casino', 'GET', '/api/v1/tournaments/tnm_000000000000', { key: carol });
  send('casino', 'POST', '/api/v1/games/dice', { key: carol, body: { direction: 'over', threshold: 50, amount: 5000 } });
  // A burst at one instant until the limiter answers 429, once per service.
  for (const [mount, path] of [['api', '/agents'], ['escrow', '/api/v1/escrow/list'], ['casino', '/api/v1/auth/balance']] as const) {
    let limited = false;
    for (let count = 0; count < 1_000 && !limited; count++) limited = exchange(mount, 'GET', path, { key: carol, advanceMs: 0 }).status === 429;
  }
  return { platform, byRow, all };
}

/**
 * The examples file's text: per row, the first successful request's body, query and answer; per
 * error code, the first body met. Keys sorted, so the bytes depend on the answers only.
 */
export function renderOpenApiExamples(): string {
  const { byRow, all } = openApiTour();
  const requests: Record<string, unknown> = {};
  const queries: Record<string, unknown> = {};
  const responses: Record<string, unknown> = {};
  for (const rowId of [...byRow.keys()].sort()) {
    const success = (byRow.get(rowId) ?? []).find((entry) => entry.response.status < 300);
    if (success === undefined) continue;
    if (success.body !== undefined) requests[rowId] = success.body;
    if (Object.keys(success.query).length > 0) queries[rowId] = success.query;
    responses[rowId] = success.response.body;
  }
  // Keyed `<service> <CODE>` by the `_info.service` of the body (the examples of a row are its service's).
  const errors: Record<string, unknown> = {};
  for (const entry of all) {
    const { code, _info: info } = entry.response.body as { code?: unknown; _info?: { service?: unknown } };
    const key = `${String(info?.service)} ${String(code)}`;
    if (entry.response.status >= 400 && typeof code === 'string' && !(key in errors)) errors[key] = entry.response.body;
  }
  const sortedErrors = Object.fromEntries(Object.keys(errors).sort().map((key) => [key, errors[key]]));
  return `${JSON.stringify({ requests, queries, responses, errors: sortedErrors }, null, 2)}\n`;
}
