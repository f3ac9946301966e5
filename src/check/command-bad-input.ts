/**
 * Bad-input commands of `afp check`: malformed JSON, a wrong content type, wrong field types,
 * unknown fields, bad amounts (text, negative, zero, 7 decimals, huge, a string where style A wants
 * a number), out-of-range expiries and list parameters, missing keys. Each must answer its 4xx
 * with code BAD_REQUEST (401 UNAUTHORIZED for a missing or unknown key) and change nothing: the
 * frame reads every balance back afterwards.
 * SERVICE_BAD_INPUTS: the same for trading and domains (issue 20's acceptance: types, ranges,
 * unknown pairs and markets, invalid DNS content, years and leverage outside 1..10, a limit order
 * without price), run by test/check/service-bad-input.test.ts in-process and against afp serve;
 * kept out of the random command table so that its seeded sequences (and the seeds tests pin) stay.
 * Why a table: a new bad input is a new row, named in the shrunk sequence by its `name`.
 */
import type { AfpClient, CallInput, EndpointId } from '../client/client.ts';
import type { DomainsEndpointId } from '../client/domains-client.ts';
import type { TradingEndpointId } from '../client/trading-client.ts';
import type { TransportRequest } from '../client/transport.ts';
import { UNKNOWN_ESCROW_ID, type CheckModel } from './check-model.ts';
import { SCOPES, type BudgetScope } from './model-limits.ts';
import { expectAnswer, keyed, keyless, keylessPrediction, type CommandSpec } from './model-command.ts';

interface BadInputRow {
  readonly name: string;
  /** 'keyless': no key, a fresh IP; 'agent': the key of the agent in the command's slot. */
  readonly sender: 'keyless' | 'agent';
  readonly styleA: boolean;
  readonly scopes: readonly BudgetScope[];
  readonly status: number;
  readonly code: 'BAD_REQUEST' | 'UNAUTHORIZED' | 'NOT_FOUND';
  /** The capability the row's service needs (trading and domains rows). */
  readonly service?: 'trading' | 'domains';
  readonly endpoint: EndpointId | TradingEndpointId | DomainsEndpointId;
  /** The call; `other` is the id of another slot's agent (registered or not). */
  input(model: Readonly<CheckModel>, own: string, other: string): CallInput;
  readonly rawBody?: { readonly text: string; readonly contentType: string };
  readonly headers?: Readonly<Record<string, string>>;
}

const JSON_TYPE = 'application/json';
const NONE: CallInput = {};
const UNKNOWN_KEY = `sk_live_${'0'.repeat(48)}`;

function keylessRow(
  name: string,
  endpoint: EndpointId,
  styleA: boolean,
  input: BadInputRow['input'],
  extra: Partial<BadInputRow> = {},
): BadInputRow {
  return { name, sender: 'keyless', styleA, scopes: [], status: 400, code: 'BAD_REQUEST', endpoint, input, ...extra };
}

function agentRow(
  name: string,
  endpoint: BadInputRow['endpoint'],
  scopes: readonly BudgetScope[],
  input: BadInputRow['input'],
  extra: Partial<BadInputRow> = {},
): BadInputRow {
  return {
    name,
    sender: 'agent',
    styleA: scopes === SCOPES.styleA,
    scopes,
    status: 400,
    code: 'BAD_REQUEST',
    endpoint,
    input,
    ...extra,
  };
}

const createB = (amount: unknown, receiver: unknown, extra: Record<string, unknown> = {}): CallInput => ({
  body: { amount, receiver, ...extra },
});

export const BAD_INPUTS: readonly BadInputRow[] = [
  keylessRow('register B: malformed JSON', 'faucet.B.register', false, () => NONE, {
    rawBody: { text: '{"agent_id": "', contentType: JSON_TYPE },
  }),
  keylessRow('register A: text/plain body', 'faucet.A.register', true, () => NONE, {
    rawBody: { text: 'agent_id=x', contentType: 'text/plain' },
    status: 415,
  }),
  keylessRow('register B: agent_id with spaces', 'faucet.B.register', false, () => ({
    body: { agent_id: 'not a valid id!' },
  })),
  keylessRow('register B: agent_id a number', 'faucet.B.register', false, () => ({ body: { agent_id: 42 } })),
  keylessRow('register A: unknown field', 'faucet.A.register', true, (_model, own) => ({
    body: { agent_id: own, nickname: 'x' },
  })),
  keylessRow('claim A: unknown key', 'faucet.A.claim', true, () => NONE, {
    status: 401,
    code: 'UNAUTHORIZED',
    headers: { authorization: `Bearer ${UNKNOWN_KEY}` },
  }),
  keylessRow('create escrow B: no key', 'escrow.B.create', false, (_model, _own, other) => createB(1, other), {
    status: 401,
    code: 'UNAUTHORIZED',
  }),
  agentRow('claim B: unknown field', 'faucet.B.claim', SCOPES.faucetB, (_model, own) => ({
    body: { agent_id: own, extra: true },
  })),
  agentRow('create escrow B: amount "ten"', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) =>
    createB('ten', other),
  ),
  agentRow('create escrow B: amount -1', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) =>
    createB(-1, other),
  ),
  agentRow('create escrow B: amount 0', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) =>
    createB(0, other),
  ),
  agentRow('create escrow B: amount "1.0000001"', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) =>
    createB('1.0000001', other),
  ),
  agentRow('create escrow B: amount 1e13', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) =>
    createB(1e13, other),
  ),
  agentRow('create escrow B: amount true', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) =>
    createB(true, other),
  ),
  agentRow('create escrow B: receiver a number', 'escrow.B.create', SCOPES.escrowCreateB, () => createB(1, 12)),
  agentRow('create escrow B: expires_in 1.5', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) =>
    createB(1, other, { expires_in: 1.5 }),
  ),
  agentRow('create escrow B: expires_in too long', 'escrow.B.create', SCOPES.escrowCreateB, (model, _own, other) =>
    createB(1, other, { expires_in: model.config.escrow.maxExpiresInSeconds + 1 }),
  ),
  agentRow('create escrow B: unknown field', 'escrow.B.create', SCOPES.escrowCreateB, (_model, _own, other) =>
    createB(1, other, { tip: 1 }),
  ),
  agentRow('create escrow B: body an array', 'escrow.B.create', SCOPES.escrowCreateB, () => ({ body: [1, 2] })),
  agentRow('create escrow B: malformed JSON', 'escrow.B.create', SCOPES.escrowCreateB, () => NONE, {
    rawBody: { text: '{"amount": 1,', contentType: JSON_TYPE },
  }),
  agentRow('create escrow A: amount a string', 'escrow.A.create', SCOPES.styleA, (_model, own, other) => ({
    body: { buyer: own, seller: other, amount: '1.50' },
  })),
  agentRow('create escrow A: currency EUR', 'escrow.A.create', SCOPES.styleA, (_model, own, other) => ({
    body: { buyer: own, seller: other, amount: 1, currency: 'EUR' },
  })),
  agentRow('dispute B: no reason', 'escrow.B.dispute', SCOPES.escrowB, () => ({
    params: { id: UNKNOWN_ESCROW_ID },
    body: { evidence: 'x' },
  })),
  agentRow('list escrows B: limit 0', 'escrow.B.list', SCOPES.escrowB, () => ({ query: { limit: 0 } })),
  agentRow('list escrows B: limit 101', 'escrow.B.list', SCOPES.escrowB, () => ({ query: { limit: 101 } })),
  agentRow('list escrows A: role boss', 'escrow.A.list', SCOPES.styleA, () => ({ query: { role: 'boss' } })),
];

const orderB = (extra: Record<string, unknown>): CallInput => ({
  body: { pair: 'BTC-USDC', side: 'buy', amount: '2.00', type: 'market', market_type: 'perp', leverage: 2, ...extra },
});
const orderA = (extra: Record<string, unknown>): CallInput => ({
  body: { symbol: 'BTC-PERP', side: 'long', size: 2, leverage: 2, type: 'market', ...extra },
});
const trading = { service: 'trading' } as const;
const domains = { service: 'domains' } as const;
/** A name nobody holds in any run: DNS content is validated before the lookup. */
const UNHELD = 'afp-never-held-0000.xyz';
const dnsA = (record: Record<string, unknown>): CallInput => ({ body: { domain: UNHELD, records: [record] } });

export const SERVICE_BAD_INPUTS: readonly BadInputRow[] = [
  agentRow('order B: amount "ten"', 'trading.B.order', SCOPES.tradingOrderB, () => orderB({ amount: 'ten' }), trading),
  agentRow(
    'order B: amount 0.5 (below 1)',
    'trading.B.order',
    SCOPES.tradingOrderB,
    () => orderB({ amount: '0.50' }),
    trading,
  ),
  agentRow(
    'order B: amount 1000000.01',
    'trading.B.order',
    SCOPES.tradingOrderB,
    () => orderB({ amount: '1000000.01' }),
    trading,
  ),
  agentRow(
    'order B: unknown pair',
    'trading.B.order',
    SCOPES.tradingOrderB,
    () => orderB({ pair: 'NOPE-USDC' }),
    trading,
  ),
  agentRow(
    'order B: pair only a perpetual, as spot',
    'trading.B.order',
    SCOPES.tradingOrderB,
    () => orderB({ pair: 'TSLA-USDC', market_type: 'spot', leverage: 1 }),
    trading,
  ),
  agentRow('order B: leverage 0', 'trading.B.order', SCOPES.tradingOrderB, () => orderB({ leverage: 0 }), trading),
  agentRow('order B: leverage 11', 'trading.B.order', SCOPES.tradingOrderB, () => orderB({ leverage: 11 }), trading),
  agentRow(
    'order B: spot with leverage 2',
    'trading.B.order',
    SCOPES.tradingOrderB,
    () => orderB({ market_type: 'spot' }),
    trading,
  ),
  agentRow(
    'order B: limit without price',
    'trading.B.order',
    SCOPES.tradingOrderB,
    () => orderB({ type: 'limit' }),
    trading,
  ),
  agentRow(
    'order B: price -1',
    'trading.B.order',
    SCOPES.tradingOrderB,
    () => orderB({ type: 'limit', price: '-1' }),
    trading,
  ),
  agentRow('order B: side up', 'trading.B.order', SCOPES.tradingOrderB, () => orderB({ side: 'up' }), trading),
  agentRow('order A: size a string', 'trading.A.order', SCOPES.styleA, () => orderA({ size: '2' }), trading),
  agentRow('order A: unknown market', 'trading.A.order', SCOPES.styleA, () => orderA({ symbol: 'NOPE-PERP' }), trading),
  agentRow('order A: leverage 1.5', 'trading.A.order', SCOPES.styleA, () => orderA({ leverage: 1.5 }), trading),
  agentRow('order A: leverage 11', 'trading.A.order', SCOPES.styleA, () => orderA({ leverage: 11 }), trading),
  agentRow('order A: limit without price', 'trading.A.order', SCOPES.styleA, () => orderA({ type: 'limit' }), trading),
  agentRow(
    'order A: market order with a price',
    'trading.A.order',
    SCOPES.styleA,
    () => orderA({ price: 95_000 }),
    trading,
  ),
  agentRow('orders B: limit 0', 'trading.B.orders', SCOPES.tradingB, () => ({ query: { limit: 0 } }), trading),
  agentRow('orders B: limit 101', 'trading.B.orders', SCOPES.tradingB, () => ({ query: { limit: 101 } }), trading),
  agentRow(
    'orders B: unknown pair',
    'trading.B.orders',
    SCOPES.tradingB,
    () => ({ query: { pair: 'NOPE-USDC' } }),
    trading,
  ),
  agentRow('price B: unknown pair', 'trading.B.price', SCOPES.tradingB, () => ({ params: { pair: 'NOPE-USDC' } }), {
    ...trading,
    status: 404,
    code: 'NOT_FOUND',
  }),
  agentRow('ticker A: unknown market', 'trading.A.ticker', SCOPES.styleA, () => ({ params: { symbol: 'NOPE-PERP' } }), {
    ...trading,
    status: 404,
    code: 'NOT_FOUND',
  }),
  agentRow(
    'register A: years 0',
    'domains.A.register',
    SCOPES.domainsRegisterA,
    () => ({ body: { domain: UNHELD, years: 0 } }),
    domains,
  ),
  agentRow(
    'register A: years 11',
    'domains.A.register',
    SCOPES.domainsRegisterA,
    () => ({ body: { domain: UNHELD, years: 11 } }),
    domains,
  ),
  agentRow(
    'register B: years 1.5',
    'domains.B.register',
    SCOPES.domainsRegisterB,
    () => ({ body: { domain: UNHELD, years: 1.5 } }),
    domains,
  ),
  agentRow(
    'register B: years "2"',
    'domains.B.register',
    SCOPES.domainsRegisterB,
    () => ({ body: { domain: UNHELD, years: '2' } }),
    domains,
  ),
  agentRow(
    'register B: invalid name',
    'domains.B.register',
    SCOPES.domainsRegisterB,
    () => ({ body: { domain: 'bad_name!.xyz' } }),
    domains,
  ),
  agentRow(
    'register A: TLD not sold',
    'domains.A.register',
    SCOPES.domainsRegisterA,
    () => ({ body: { domain: 'afp-never-held.agent' } }),
    domains,
  ),
  agentRow('check A: no domain', 'domains.A.check', SCOPES.styleA, () => ({}), domains),
  agentRow(
    'dns A: A record 300.1.1.1',
    'domains.A.dns',
    SCOPES.styleA,
    () => dnsA({ type: 'A', value: '300.1.1.1' }),
    domains,
  ),
  agentRow(
    'dns A: AAAA record an IPv4',
    'domains.A.dns',
    SCOPES.styleA,
    () => dnsA({ type: 'AAAA', value: '192.0.2.1' }),
    domains,
  ),
  agentRow(
    'dns A: CNAME not a host',
    'domains.A.dns',
    SCOPES.styleA,
    () => dnsA({ type: 'CNAME', value: 'not a host' }),
    domains,
  ),
  agentRow('dns A: record type SRV', 'domains.A.dns', SCOPES.styleA, () => dnsA({ type: 'SRV', value: 'x' }), domains),
  agentRow(
    'renew B: years 11',
    'domains.B.renew',
    SCOPES.domainsB,
    () => ({ body: { domain: UNHELD, years: 11 } }),
    domains,
  ),
  agentRow(
    'transfer B: price -1',
    'domains.B.transfer',
    SCOPES.domainsB,
    (_model, _own, other) => ({ body: { domain: UNHELD, to: other, price: -1 } }),
    domains,
  ),
];

function requestOf(client: AfpClient, row: BadInputRow, input: CallInput): TransportRequest {
  switch (row.service) {
    case 'trading':
      return client.tradingRequest(row.endpoint as TradingEndpointId, input);
    case 'domains':
      return client.domainsRequest(row.endpoint as DomainsEndpointId, input);
    case undefined:
      return client.request(row.endpoint as EndpointId, input);
  }
}

export function badInputCommand(row: BadInputRow, slot: number, otherSlot: number): CommandSpec {
  const label = `badInput(${row.name}${row.sender === 'agent' ? `, by a${slot}` : ''})`;
  return {
    label,
    applicable: (model) =>
      (!row.styleA || model.capabilities.styleA) &&
      (row.service === undefined || model.capabilities[row.service]) &&
      (row.sender === 'keyless' || model.agents[slot] !== undefined),
    charges: () => (row.sender === 'agent' ? [{ slot, scopes: row.scopes }] : []),
    parties: () => [slot, otherSlot],
    execute: async (model, system) => {
      const client = row.sender === 'agent' ? keyed(model, system, slot) : keyless(model, system);
      const built = requestOf(client, row, row.input(model, model.names.agentId(slot), model.names.agentId(otherSlot)));
      const request: TransportRequest = {
        ...built,
        ...(row.rawBody === undefined ? {} : { rawBody: row.rawBody }),
        ...(row.headers === undefined ? {} : { headers: { ...built.headers, ...row.headers } }),
      };
      const answer = await client.raw(request);
      const prediction = { expected: { status: row.status, code: row.code } };
      const judged = row.sender === 'keyless' ? keylessPrediction(model, system, answer, prediction) : prediction;
      expectAnswer(label, model, answer, judged);
    },
  };
}
