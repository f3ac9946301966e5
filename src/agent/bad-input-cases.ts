/**
 * The bad-input table of the `bad-input-sender` archetype: one row per way a request can be wrong,
 * with the status the contract gives it. Rows are data (STYLE rule 6): a new kind of bad input is
 * a new row. Every row is wrong whatever the platform's state, so any 2xx is a broken rule.
 *
 * Expected statuses follow the dispatcher's precedence (route 404/405, then body 400/413/415, then
 * auth 401, then field validation 400); unknown escrow ids are well-formed, so they reach the
 * domain and answer 404.
 */
import type { TransportRequest } from '../client/transport.ts';
import type { ServiceName } from '../platform/platform.ts';

export interface BadInputContext {
  readonly agentId: string;
  /** A registered agent other than the sender (or the sender itself when there is none). */
  readonly counterparty: string;
}

export interface BadInputCase {
  readonly name: string;
  readonly expect: 400 | 401 | 403 | 404 | 405 | 413 | 415;
  /** The service that answers (for fault windows); null for unknown routes on the shared mount. */
  readonly service: ServiceName | null;
  build(context: BadInputContext): TransportRequest;
}

const UNKNOWN_ESCROW = 'esc_doesnotexist00';
const OVERSIZED_CHARS = 70_000;

type Body = (context: BadInputContext) => unknown;

function createB(name: string, body: Body): BadInputCase {
  return {
    name,
    expect: 400,
    service: 'escrow',
    build: (context) => ({ mount: 'api', method: 'POST', path: '/escrow', body: body(context) }),
  };
}

function createA(name: string, amount: unknown, extra: Record<string, unknown> = {}): BadInputCase {
  return {
    name,
    expect: 400,
    service: 'escrow',
    build: (context) => ({
      mount: 'escrow',
      method: 'POST',
      path: '/api/v1/escrow/create',
      body: { buyer: context.agentId, seller: context.counterparty, amount, ...extra },
    }),
  };
}

function rawB(name: string, expect: 400 | 413 | 415, text: string, contentType: string): BadInputCase {
  return {
    name,
    expect,
    service: 'escrow',
    build: () => ({ mount: 'api', method: 'POST', path: '/escrow', rawBody: { text, contentType } }),
  };
}

function simple(
  name: string,
  expect: BadInputCase['expect'],
  service: ServiceName | null,
  request: TransportRequest,
): BadInputCase {
  return { name, expect, service, build: () => request };
}

/** A style-B GET whose query `query` is refused (400). */
function badQuery(
  name: string,
  service: ServiceName,
  path: string,
  query: Readonly<Record<string, string>>,
): BadInputCase {
  return simple(name, 400, service, { mount: 'api', method: 'GET', path, query });
}

function withKey(name: string, authorization: string): BadInputCase {
  return simple(name, 401, 'faucet', { mount: 'api', method: 'GET', path: '/status', headers: { authorization } });
}

export const BAD_INPUT_CASES: readonly BadInputCase[] = [
  rawB('malformed-json', 400, '{"amount": 1, "receiver": ', 'application/json'),
  rawB('form-content-type', 415, 'amount=1&receiver=someone', 'application/x-www-form-urlencoded'),
  rawB('oversized-body', 413, `{"description":"${'x'.repeat(OVERSIZED_CHARS)}"}`, 'application/json'),
  createB('array-body', () => [1, 2, 3]),
  createB('amount-boolean', (context) => ({ amount: true, receiver: context.counterparty })),
  createB('receiver-number', () => ({ amount: '1.00', receiver: 42 })),
  createB('unknown-field', (context) => ({ amount: '1.00', receiver: context.counterparty, colour: 'red' })),
  createB('amount-negative', (context) => ({ amount: '-1.00', receiver: context.counterparty })),
  createB('amount-zero', (context) => ({ amount: 0, receiver: context.counterparty })),
  createB('amount-huge', (context) => ({ amount: '10000000000000', receiver: context.counterparty })),
  createB('amount-7-decimals', (context) => ({ amount: '1.0000001', receiver: context.counterparty })),
  createB('amount-below-minimum', (context) => ({ amount: '0.05', receiver: context.counterparty })),
  createB('amount-not-a-number', (context) => ({ amount: 'ten', receiver: context.counterparty })),
  createB('expires-in-zero', (context) => ({ amount: '1.00', receiver: context.counterparty, expires_in: 0 })),
  createB('expires-in-fraction', (context) => ({ amount: '1.00', receiver: context.counterparty, expires_in: 1.5 })),
  createB('expires-in-too-long', (context) => ({
    amount: '1.00',
    receiver: context.counterparty,
    expires_in: 7_776_001,
  })),
  createB('expires-in-string', (context) => ({ amount: '1.00', receiver: context.counterparty, expires_in: '3600' })),
  createB('receiver-self', (context) => ({ amount: '1.00', receiver: context.agentId })),
  createB('receiver-missing', () => ({ amount: '1.00' })),
  createA('a-amount-string', '1.00'),
  createA('a-amount-negative', -1),
  createA('a-amount-7-decimals', 0.1234567),
  createA('a-amount-huge', 1e15),
  createA('a-currency-eur', 1, { currency: 'EUR' }),
  simple('a-release-missing-id', 400, 'escrow', {
    mount: 'escrow',
    method: 'POST',
    path: '/api/v1/escrow/release',
    body: {},
  }),
  simple('a-release-id-number', 400, 'escrow', {
    mount: 'escrow',
    method: 'POST',
    path: '/api/v1/escrow/release',
    body: { escrow_id: 123 },
  }),
  simple('a-claim-with-body', 400, 'faucet', {
    mount: 'faucet',
    method: 'POST',
    path: '/api/v1/faucet/claim',
    body: { amount: 5 },
  }),
  {
    name: 'b-claim-unknown-field',
    expect: 400,
    service: 'faucet',
    build: (context) => ({
      mount: 'api',
      method: 'POST',
      path: '/claim',
      body: { agent_id: context.agentId, bonus: true },
    }),
  },
  simple('b-register-bad-id', 400, 'faucet', {
    mount: 'api',
    method: 'POST',
    path: '/register',
    body: { agent_id: 'bad id!' },
  }),
  simple('b-register-long-id', 400, 'faucet', {
    mount: 'api',
    method: 'POST',
    path: '/register',
    body: { agent_id: 'x'.repeat(65) },
  }),
  {
    name: 'b-register-metadata-array',
    expect: 400,
    service: 'faucet',
    build: (context) => ({
      mount: 'api',
      method: 'POST',
      path: '/register',
      body: { agent_id: `${context.agentId}-x`, metadata: [1] },
    }),
  },
  simple('a-register-missing-id', 400, 'faucet', {
    mount: 'faucet',
    method: 'POST',
    path: '/api/v1/agents/register',
    body: {},
  }),
  simple('unknown-route-b', 404, null, { mount: 'api', method: 'GET', path: '/nope' }),
  simple('unknown-route-a', 404, 'faucet', { mount: 'faucet', method: 'GET', path: '/api/v1/nothing' }),
  simple('wrong-method-delete', 405, 'escrow', { mount: 'api', method: 'DELETE', path: '/escrow' }),
  simple('wrong-method-get-claim', 405, 'faucet', { mount: 'api', method: 'GET', path: '/claim' }),
  simple('wrong-method-put-register', 405, 'faucet', {
    mount: 'faucet',
    method: 'PUT',
    path: '/api/v1/agents/register',
  }),
  withKey('bad-key-unknown', `Bearer sk_live_${'0'.repeat(48)}`),
  withKey('bad-key-scheme', 'Basic YWxhZGRpbjpvcGVuc2VzYW1l'),
  withKey('bad-key-prefix', 'Bearer not-a-key'),
  simple('no-key', 401, 'escrow', { mount: 'api', method: 'GET', path: '/escrows', headers: { authorization: '' } }),
  simple('unknown-escrow-get', 404, 'escrow', { mount: 'api', method: 'GET', path: `/escrow/${UNKNOWN_ESCROW}` }),
  simple('unknown-escrow-release', 404, 'escrow', {
    mount: 'api',
    method: 'POST',
    path: `/escrow/${UNKNOWN_ESCROW}/release`,
  }),
  simple('bad-escrow-id', 400, 'escrow', { mount: 'api', method: 'GET', path: '/escrow/bad%20id' }),
  simple('dispute-missing-reason', 400, 'escrow', {
    mount: 'api',
    method: 'POST',
    path: `/escrow/${UNKNOWN_ESCROW}/dispute`,
    body: {},
  }),
  badQuery('list-limit-zero', 'escrow', '/escrows', { limit: '0' }),
  badQuery('list-limit-text', 'escrow', '/escrows', { limit: 'abc' }),
  badQuery('list-status-bogus', 'escrow', '/escrows', { status: 'bogus' }),
  badQuery('list-unknown-query', 'escrow', '/escrows', { foo: '1' }),
  badQuery('agents-limit-huge', 'faucet', '/agents', { limit: '1000' }),
];
