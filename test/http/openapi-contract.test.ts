// The documented requests against the rows' own validation. The rows validate in hand-written
// code (src/http/validate.ts, kept for speed); the OpenAPI documents describe the same inputs with
// zod (src/http/openapi-requests.ts). Starting from the request that succeeded for each row in the
// fixed tour (test/http/openapi-tour.ts), every body field, query parameter and path parameter is
// replaced, one at a time, by each value of a fixed probe list (and removed); the definition
// (zod) and the row's `parse` must give the same verdict, accept or refuse. An unknown body field
// must be refused by both. The few disagreements a per-field schema cannot express (cross-field
// and domain rules) are listed with their reason and must still occur, so the list cannot go
// stale. Not compared: bodies of GET rows (a GET has no body) and unknown query parameters (an
// OpenAPI document cannot forbid them).
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import { isFailure } from '../../src/core/errors.ts';
import type { RequestContract } from '../../src/http/openapi-fields.ts';
import { GAME_PARAMS } from '../../src/http/openapi-game-params.ts';
import { DEPLOYED_REQUESTS, DEPLOYED_RESPONSES } from '../../src/http/openapi-deployed.ts';
import { REQUESTS } from '../../src/http/openapi-requests.ts';
import type { Route, RouteContext, RouteInput } from '../../src/http/route.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { GAMES } from '../../src/services/casino/games/index.ts';
import { deployedOpenApiTour, openApiTour, type TourExchange } from './openapi-tour.ts';

/** JSON values that probe types, signs, bounds, lengths and vocabularies. */
const BODY_PROBES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  0.5,
  1,
  1.5,
  2,
  3,
  7,
  16,
  50,
  99,
  100,
  101,
  1000,
  1e13,
  '',
  ' ',
  'x',
  'USDC',
  'heads',
  'over',
  'dice',
  'base',
  'alice',
  'bob',
  '1.00',
  'a'.repeat(65),
  'a'.repeat(300),
  'a'.repeat(1001),
  [],
  [1, 2, 3],
  [1, 1],
  ['AS'],
  {},
  { a: 1 },
];
const TEXT_PROBES: readonly string[] = [
  '',
  '0',
  '1',
  '5',
  '100',
  '101',
  '9999999',
  '-1',
  '1.5',
  'abc',
  'all',
  'sender',
  'locked',
  'dice',
  'coinflip',
  '2026-01-01',
  'a'.repeat(70),
];

/**
 * Disagreements that are expected, by `${rowId} ${where}.${field}`: each is a cross-field or
 * domain rule of the row's parse that a per-field schema does not say (its description does).
 */
const EXPECTED_DISAGREEMENTS: ReadonlyMap<string, string> = new Map([
  ['casino.A.game.roulette body.bet_value', 'bet_value only with bet_type number (the example bets on red)'],
  ['casino.A.kelly.simulate body.simulations', "num_bets × simulations within the caller's tier budget"],
  ['casino.A.batch body.bets', "a malformed element is answered in the batch's results, not with a 400 for the batch"],
  ['trading.A.order body.price', 'price only and always with type limit (the example is a market order)'],
  ['trading.B.order body.price', 'price only and always with type limit (the example is a market order)'],
  ['trading.B.order body.leverage', 'leverage above 1 only on perpetuals (the example is a spot order)'],
  ['trading.B.orders query.pair', 'market_type filters a pair: without pair it is refused'],
  ['wallet.primary.send body.token', 'a token contract of the chain (a domain table, per chain)'],
  ['wallet.primary.send body.private_key', 'private_key on every chain but monero, never on monero'],
  ['wallet.primary.send body.view_key', 'view_key and spend_key on monero only'],
  ['wallet.primary.send body.spend_key', 'view_key and spend_key on monero only'],
  ['wallet.A.send body.token', 'a token contract of the chain (a domain table, per chain)'],
  ['wallet.A.send body.chain', "the example's token is a contract of ethereum only"],
  ['wallet.A.send body.private_key', 'private_key on every chain but monero, never on monero'],
  ['wallet.A.send body.view_key', 'view_key and spend_key on monero only'],
  ['wallet.A.send body.spend_key', 'view_key and spend_key on monero only'],
  ['wallet.primary.swap-quote query.from_token', 'a token contract of from_chain (a domain table, per chain)'],
  ['wallet.primary.swap-quote query.to_token', 'a token contract of to_chain (a domain table, per chain)'],
  ['wallet.primary.swap body.from_token', 'a token contract of from_chain (a domain table, per chain)'],
  ['wallet.primary.swap body.to_token', 'a token contract of to_chain (a domain table, per chain)'],
  ['wallet.primary.swap body.to_chain', "the example's to_token is an asset of solana only"],
  ['wallet.A.swap body.from', '<chain>:<token contract> of a domain table'],
  ['wallet.A.swap body.to', '<chain>:<token contract> of a domain table'],
  ['wallet.B.send body.to', 'an agent id must name an agent with a wallet (404 otherwise)'],
]);

/** The deployed rows' expected disagreements: the cross-field rules they inherit from style A's rows. */
const EXPECTED_DEPLOYED_DISAGREEMENTS: ReadonlyMap<string, string> = new Map([
  ['casino.deployed.game.roulette body.bet_value', "style A's roulette row decides it"],
  ['casino.deployed.kelly.simulate body.simulations', "num_bets × simulations within the caller's tier budget"],
  [
    'casino.deployed.batch body.bets',
    "a malformed element is answered in the batch's results, not with a 400 for the batch",
  ],
  ['wallet.deployed.send body.token', 'a token contract of the chain (a domain table, per chain)'],
  ['wallet.deployed.send body.private_key', 'private_key on every chain but monero, never on monero'],
  ['wallet.deployed.send body.view_key', 'view_key and spend_key on monero only'],
  ['wallet.deployed.send body.spend_key', 'view_key and spend_key on monero only'],
  [
    'wallet.deployed.swap-quote query.from_token',
    'a symbol or token contract of from_chain (a domain table, per chain)',
  ],
  ['wallet.deployed.swap-quote query.to_token', 'a symbol or token contract of to_chain (a domain table, per chain)'],
  ['wallet.deployed.swap body.from_token', 'a symbol or token contract of from_chain (a domain table, per chain)'],
  ['wallet.deployed.swap body.to_token', 'a symbol or token contract of to_chain (a domain table, per chain)'],
]);

interface Probe {
  readonly key: string;
  readonly input: RouteInput;
  /** The same request as the definition sees it (query values typed). */
  readonly documented: { body: unknown; query: Record<string, unknown>; params: Record<string, string> };
}

/** `/escrow/esc_1/release` against `/escrow/:id/release` → `{ id: 'esc_1' }`. */
function paramsOf(route: Route, path: string): Record<string, string> {
  const pattern = route.path.split('/');
  const actual = path.split('/');
  const params: Record<string, string> = {};
  pattern.forEach((segment, index) => {
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(actual[index] ?? '');
  });
  return params;
}

/** A query value as a typed client sends it: numbers for number parameters, text otherwise. */
function typedQuery(contract: RequestContract, query: Readonly<Record<string, string>>): Record<string, unknown> {
  const shape = contract.query?.shape ?? {};
  const typed: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(query)) {
    const schema = shape[name] as z.ZodType | undefined;
    const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
    // Only canonical numbers become numbers (no probe has leading zeros: serialisers never write them).
    typed[name] = inner instanceof z.ZodNumber && /^(?:0|[1-9]\d{0,14})$/.test(text) ? Number(text) : text;
  }
  return typed;
}

function documentedAccepts(route: Route, contract: RequestContract, probe: Probe['documented']): boolean {
  const bodyOk =
    route.method === 'GET'
      ? true
      : contract.body === undefined
        ? probe.body === undefined ||
          (typeof probe.body === 'object' && probe.body !== null && Object.keys(probe.body).length === 0)
        : (probe.body === undefined && contract.bodyOptional === true) || contract.body.safeParse(probe.body).success;
  const queryOk = (contract.query ?? z.strictObject({})).safeParse(probe.query).success;
  const paramsOk = contract.params === undefined || contract.params.safeParse(probe.params).success;
  return bodyOk && queryOk && paramsOk;
}

/** The documented field names of the body the example sent (the matching union option's, for unions). */
function bodyFields(contract: RequestContract, body: unknown): string[] {
  const fields = new Set(typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : []);
  const schema = contract.body;
  if (schema instanceof z.ZodObject) for (const name of Object.keys(schema.shape)) fields.add(name);
  return [...fields];
}

function probesOf(route: Route, exchange: TourExchange, contract: RequestContract): Probe[] {
  const params = paramsOf(route, exchange.path);
  const base = { params, query: exchange.query, body: exchange.body };
  const probes: Probe[] = [];
  const add = (key: string, input: RouteInput): void => {
    probes.push({
      key,
      input,
      documented: { body: input.body, query: typedQuery(contract, input.query), params: { ...input.params } },
    });
  };
  add('as sent', base);
  const body = (typeof exchange.body === 'object' && exchange.body !== null ? exchange.body : {}) as Record<
    string,
    unknown
  >;
  if (route.method !== 'GET') add('body.zz_unknown=1', { ...base, body: { ...body, zz_unknown: 1 } });
  for (const field of route.method === 'GET' ? [] : bodyFields(contract, exchange.body)) {
    const { [field]: _removed, ...without } = body;
    add(`body.${field} removed`, { ...base, body: without });
    for (const value of BODY_PROBES)
      add(`body.${field}=${JSON.stringify(value).slice(0, 20)}`, { ...base, body: { ...body, [field]: value } });
  }
  for (const name of Object.keys(contract.query?.shape ?? {})) {
    const { [name]: _removed, ...without } = exchange.query;
    add(`query.${name} removed`, { ...base, query: without });
    for (const text of TEXT_PROBES)
      add(`query.${name}=${text.slice(0, 20)}`, { ...base, query: { ...exchange.query, [name]: text } });
  }
  for (const name of Object.keys(params)) {
    for (const text of [...TEXT_PROBES.filter((value) => value !== ''), 'bad id', 'f'.repeat(64)])
      add(`params.${name}=${text.slice(0, 20)}`, { ...base, params: { ...params, [name]: text } });
  }
  return probes;
}

/**
 * Every probe of every row in `rows` against its definition in `contracts` and the row's parse,
 * with the tour's own platform after the tour (rows whose parse reads state find it): the
 * disagreements, as lines, and how many probes were compared.
 */
function compareAll(
  rows: readonly Route[],
  contracts: Readonly<Record<string, RequestContract>>,
  platform: Platform,
  byRow: ReadonlyMap<string, TourExchange[]>,
): { disagreements: string[]; compared: number } {
  const contextOf = (exchange: TourExchange): RouteContext => {
    const identified = exchange.key === undefined ? null : platform.identify(`Bearer ${exchange.key}`);
    const caller = typeof identified === 'object' && identified !== null ? identified.agent : null;
    return { platform, nowMs: exchange.atMs, caller, ip: '127.0.0.1' };
  };
  const disagreements: string[] = [];
  let compared = 0;
  for (const route of rows) {
    const exchange = (byRow.get(route.id) ?? []).find((entry) => entry.response.status < 300);
    expect(exchange, route.id).toBeDefined();
    if (exchange === undefined) continue;
    const contract = contracts[route.id] ?? {};
    for (const probe of probesOf(route, exchange, contract)) {
      const parsed = route.parse(probe.input, contextOf(exchange));
      const rowAccepts = !isFailure(parsed);
      if (probe.key === 'as sent')
        expect(rowAccepts, `${route.id} as sent: ${isFailure(parsed) ? parsed.message : ''}`).toBe(true);
      const documented = documentedAccepts(route, contract, probe.documented);
      compared += 1;
      if (documented !== rowAccepts)
        disagreements.push(
          `${route.id} ${probe.key}: documented ${documented ? 'accepts' : 'refuses'}, row ${rowAccepts ? 'accepts' : `refuses (${isFailure(parsed) ? parsed.message : ''})`}`,
        );
    }
  }
  return { disagreements, compared };
}

describe("documented requests against the rows' parse", () => {
  const { platform, byRow } = openApiTour();

  test('every row: the definition and the row accept and refuse the same probes', () => {
    const { disagreements, compared } = compareAll(ALL_ROUTES, REQUESTS, platform, byRow);
    const where = (line: string): string => line.replace(/^(\S+ \S+?)(?:=| removed).*$/s, '$1');
    const unexpected = disagreements.filter((line) => !EXPECTED_DISAGREEMENTS.has(where(line)));
    expect(unexpected).toEqual([]);
    const seen = new Set(disagreements.map(where));
    expect([...EXPECTED_DISAGREEMENTS.keys()].filter((expected) => !seen.has(expected))).toEqual([]);
    expect(compared).toBeGreaterThan(5_000);
  });

  test('the deployed rows with a definition: the definition and the row agree on every probe (unknown fields accepted by both)', () => {
    const deployed = deployedOpenApiTour();
    // Every deployed row with a definition: those without a request definition take no input.
    const rows = DEPLOYED_ROUTES.filter(
      (route) => Object.hasOwn(DEPLOYED_REQUESTS, route.id) || Object.hasOwn(DEPLOYED_RESPONSES, route.id),
    );
    expect(Object.keys(DEPLOYED_REQUESTS).filter((rowId) => !rows.some((route) => route.id === rowId))).toEqual([]);
    const { disagreements, compared } = compareAll(rows, DEPLOYED_REQUESTS, deployed.platform, deployed.byRow);
    const where = (line: string): string => line.replace(/^(\S+ \S+?)(?:=| removed).*$/s, '$1');
    expect(disagreements.filter((line) => !EXPECTED_DEPLOYED_DISAGREEMENTS.has(where(line)))).toEqual([]);
    const seen = new Set(disagreements.map(where));
    expect([...EXPECTED_DEPLOYED_DISAGREEMENTS.keys()].filter((expected) => !seen.has(expected))).toEqual([]);
    expect(compared).toBeGreaterThan(200);
    // Every deployed row that reads input has its definition: no generic body is left.
    const undefinedRows = DEPLOYED_ROUTES.filter((route) => !Object.hasOwn(DEPLOYED_RESPONSES, route.id)).map(
      (route) => route.id,
    );
    expect(undefinedRows).toEqual([]);
  });

  test("each game's documented fields are exactly its paramFields", () => {
    for (const game of GAMES)
      expect(Object.keys(GAME_PARAMS[game.id]).sort(), game.id).toEqual([...game.paramFields].sort());
  });

  test('every definition names a row of the table, and every path parameter of its row', () => {
    for (const [rowId, contract] of Object.entries(REQUESTS)) {
      const route = ALL_ROUTES.find((candidate) => candidate.id === rowId);
      expect(route, rowId).toBeDefined();
      const names = (route?.path ?? '')
        .split('/')
        .filter((segment) => segment.startsWith(':'))
        .map((segment) => segment.slice(1));
      expect(Object.keys(contract.params?.shape ?? {}), rowId).toEqual(names);
      if (contract.body !== undefined) expect(['POST', 'PUT'], rowId).toContain(route?.method);
    }
  });
});
