/**
 * Each endpoint's own rejection rows: wrong field types, missing required fields, bad amounts
 * (negative, zero, NaN-like, huge, 7 decimals, below the minimum, a string where style A wants a
 * number), bad ids, bad query values, and the domain's refusals that must change nothing (another
 * agent's data 403, unknown references 404, a duplicate 409, a short balance 422).
 * Rows are data: a new bad input is a new row (src/conformance/rejection-cases.ts turns them into cases).
 */
import type { EndpointId } from '../client/client.ts';
import type { TransportRequest } from '../client/transport.ts';
import type { CaseWorld, ExpectedRejection, RejectionCase } from './conformance-case.ts';

export interface SpecificRow {
  readonly name: string;
  readonly endpoint: EndpointId;
  readonly expect: ExpectedRejection;
  readonly extra: (world: CaseWorld) => Partial<TransportRequest>;
  readonly auth?: RejectionCase['auth'];
}

const BAD: ExpectedRejection = { status: 400, code: 'BAD_REQUEST' };
const FORBIDDEN: ExpectedRejection = { status: 403, code: 'FORBIDDEN' };
const NOT_FOUND: ExpectedRejection = { status: 404, code: 'NOT_FOUND' };
const SHORT: ExpectedRejection = { status: 422, code: 'INSUFFICIENT_BALANCE' };
const UNKNOWN_ESCROW = 'esc_doesnotexist00';
const UNKNOWN_AGENT = 'no-such-agent-conformance';

type Fields = Record<string, unknown>;

function body(
  name: string,
  endpoint: EndpointId,
  expect: ExpectedRejection,
  fields: (world: CaseWorld) => unknown,
  auth?: RejectionCase['auth'],
): SpecificRow {
  return {
    name,
    endpoint,
    expect,
    extra: (world) => ({ body: fields(world) }),
    ...(auth === undefined ? {} : { auth }),
  };
}

function query(name: string, endpoint: EndpointId, values: Readonly<Record<string, string>>): SpecificRow {
  return { name, endpoint, expect: BAD, extra: () => ({ query: values }) };
}

function path(
  name: string,
  endpoint: EndpointId,
  expect: ExpectedRejection,
  pathText: string | ((world: CaseWorld) => string),
): SpecificRow {
  return {
    name,
    endpoint,
    expect,
    extra: (world) => ({ path: typeof pathText === 'string' ? pathText : pathText(world) }),
  };
}

const createA = (world: CaseWorld, fields: Fields): Fields => ({
  buyer: world.caller.agentId,
  seller: world.counterparty.agentId,
  amount: 1,
  ...fields,
});
const createB = (world: CaseWorld, fields: Fields): Fields => ({
  amount: '1.00',
  receiver: world.counterparty.agentId,
  ...fields,
});

const amountsA: readonly [string, unknown, ExpectedRejection][] = [
  ['a string', '1.00', BAD],
  ['negative', -1, BAD],
  ['zero', 0, BAD],
  ['null (NaN has no JSON)', null, BAD],
  ['huge (1e15)', 1e15, BAD],
  ['7 decimals', 0.1234567, BAD],
  ['below the minimum (0.05)', 0.05, BAD],
  ['a boolean', true, BAD],
  ['above the balance (1000)', 1000, SHORT],
];
const amountsB: readonly [string, unknown, ExpectedRejection][] = [
  ['"ten"', 'ten', BAD],
  ['"NaN"', 'NaN', BAD],
  ['"Infinity"', 'Infinity', BAD],
  ['-1', -1, BAD],
  ['"-1.00"', '-1.00', BAD],
  ['0', 0, BAD],
  ['"0.000000"', '0.000000', BAD],
  ['huge "10000000000000"', '10000000000000', BAD],
  ['1e13', 1e13, BAD],
  ['7 decimals "1.0000001"', '1.0000001', BAD],
  ['exponent "1e2"', '1e2', BAD],
  ['below the minimum "0.09"', '0.09', BAD],
  ['an object', { value: 1 }, BAD],
  ['above the balance "1000.00"', '1000.00', SHORT],
];

const listQueries = (endpoint: EndpointId): SpecificRow[] => [
  query('role bogus', endpoint, { role: 'bogus' }),
  query('status bogus', endpoint, { status: 'bogus' }),
  query('limit 0', endpoint, { limit: '0' }),
  query('limit 101', endpoint, { limit: '101' }),
  query('limit "abc"', endpoint, { limit: 'abc' }),
  query('limit -1', endpoint, { limit: '-1' }),
  query('limit 1.5', endpoint, { limit: '1.5' }),
];

export const SPECIFIC_CASES: readonly SpecificRow[] = [
  body('agent_id a number', 'faucet.A.register', BAD, () => ({ agent_id: 42 }), 'none'),
  body('agent_id missing', 'faucet.A.register', BAD, () => ({}), 'none'),
  body('agent_id with spaces', 'faucet.A.register', BAD, () => ({ agent_id: 'not a valid id!' }), 'none'),
  body('agent_id of 65 characters', 'faucet.A.register', BAD, () => ({ agent_id: 'x'.repeat(65) }), 'none'),
  body(
    'referrer a number',
    'faucet.A.register',
    BAD,
    (world) => ({ agent_id: `${world.caller.agentId}-n`, referrer: 7 }),
    'none',
  ),
  body(
    'unknown referrer',
    'faucet.A.register',
    NOT_FOUND,
    (world) => ({ agent_id: `${world.caller.agentId}-n`, referrer: UNKNOWN_AGENT }),
    'none',
  ),
  body(
    "agent_id taken (the caller's own)",
    'faucet.A.register',
    { status: 409, code: 'CONFLICT' },
    (world) => ({ agent_id: world.caller.agentId }),
    'none',
  ),
  body('agent_id a number', 'faucet.B.register', BAD, () => ({ agent_id: 42 }), 'none'),
  body('agent_id missing', 'faucet.B.register', BAD, () => ({ metadata: {} }), 'none'),
  body('agent_id empty', 'faucet.B.register', BAD, () => ({ agent_id: '' }), 'none'),
  body(
    'metadata an array',
    'faucet.B.register',
    BAD,
    (world) => ({ agent_id: `${world.caller.agentId}-n`, metadata: [1] }),
    'none',
  ),
  body(
    "agent_id taken (the caller's own)",
    'faucet.B.register',
    { status: 409, code: 'CONFLICT' },
    (world) => ({ agent_id: world.caller.agentId }),
    'none',
  ),
  body('a body (it takes none)', 'faucet.A.claim', BAD, () => ({ amount: 5 })),
  body('agent_id a number', 'faucet.B.claim', BAD, () => ({ agent_id: 7 })),
  body("another agent's agent_id with the caller's key", 'faucet.B.claim', FORBIDDEN, (world) => ({
    agent_id: world.counterparty.agentId,
  })),
  body('inside the registration cooldown', 'faucet.B.claim', { status: 409, code: 'FAUCET_CLAIMED' }, () => ({})),
  path(
    'another agent',
    'faucet.A.agent',
    FORBIDDEN,
    (world) => `/api/v1/agents/${encodeURIComponent(world.counterparty.agentId)}`,
  ),
  path('an unknown agent', 'faucet.A.agent', NOT_FOUND, `/api/v1/agents/${UNKNOWN_AGENT}`),
  query('limit 0', 'faucet.B.agents', { limit: '0' }),
  query('limit 101', 'faucet.B.agents', { limit: '101' }),
  query('limit "ten"', 'faucet.B.agents', { limit: 'ten' }),
  ...amountsA.map(([name, amount, expect]) =>
    body(`amount ${name}`, 'escrow.A.create', expect, (world) => createA(world, { amount })),
  ),
  body('amount missing', 'escrow.A.create', BAD, (world) => ({
    buyer: world.caller.agentId,
    seller: world.counterparty.agentId,
  })),
  body('seller missing', 'escrow.A.create', BAD, (world) => ({ buyer: world.caller.agentId, amount: 1 })),
  body('seller a number', 'escrow.A.create', BAD, (world) => createA(world, { seller: 9 })),
  body('currency EUR', 'escrow.A.create', BAD, (world) => createA(world, { currency: 'EUR' })),
  body('buyer another agent', 'escrow.A.create', FORBIDDEN, (world) =>
    createA(world, { buyer: world.counterparty.agentId, seller: world.caller.agentId }),
  ),
  body('seller unknown', 'escrow.A.create', NOT_FOUND, (world) => createA(world, { seller: UNKNOWN_AGENT })),
  body('seller the buyer', 'escrow.A.create', BAD, (world) => createA(world, { seller: world.caller.agentId })),
  ...amountsB.map(([name, amount, expect]) =>
    body(`amount ${name}`, 'escrow.B.create', expect, (world) => createB(world, { amount })),
  ),
  body('amount missing', 'escrow.B.create', BAD, (world) => ({ receiver: world.counterparty.agentId })),
  body('receiver missing', 'escrow.B.create', BAD, () => ({ amount: '1.00' })),
  body('receiver a number', 'escrow.B.create', BAD, (world) => createB(world, { receiver: 12 })),
  body('receiver unknown', 'escrow.B.create', NOT_FOUND, (world) => createB(world, { receiver: UNKNOWN_AGENT })),
  body('receiver the sender', 'escrow.B.create', BAD, (world) => createB(world, { receiver: world.caller.agentId })),
  body('expires_in 0', 'escrow.B.create', BAD, (world) => createB(world, { expires_in: 0 })),
  body('expires_in 1.5', 'escrow.B.create', BAD, (world) => createB(world, { expires_in: 1.5 })),
  body('expires_in "3600"', 'escrow.B.create', BAD, (world) => createB(world, { expires_in: '3600' })),
  body('expires_in 7776001', 'escrow.B.create', BAD, (world) => createB(world, { expires_in: 7_776_001 })),
  body('conditions an array', 'escrow.B.create', BAD, (world) => createB(world, { conditions: [1] })),
  body('description a number', 'escrow.B.create', BAD, (world) => createB(world, { description: 5 })),
  body('escrow_id missing', 'escrow.A.release', BAD, () => ({})),
  body('escrow_id a number', 'escrow.A.release', BAD, () => ({ escrow_id: 123 })),
  body('an unknown escrow', 'escrow.A.release', NOT_FOUND, () => ({ escrow_id: UNKNOWN_ESCROW })),
  body('reason missing', 'escrow.A.dispute', BAD, (world) => ({ escrow_id: world.escrowId })),
  body('reason a number', 'escrow.A.dispute', BAD, (world) => ({ escrow_id: world.escrowId, reason: 5 })),
  body('escrow_id missing', 'escrow.A.dispute', BAD, () => ({ reason: 'x' })),
  path('an unknown escrow', 'escrow.A.get', NOT_FOUND, `/api/v1/escrow/${UNKNOWN_ESCROW}`),
  path('a malformed id', 'escrow.A.get', BAD, '/api/v1/escrow/bad%20id'),
  ...listQueries('escrow.A.list'),
  path('an unknown escrow', 'escrow.B.release', NOT_FOUND, `/escrow/${UNKNOWN_ESCROW}/release`),
  path('a malformed id', 'escrow.B.release', BAD, '/escrow/bad%20id/release'),
  path('an unknown escrow', 'escrow.B.refund', NOT_FOUND, `/escrow/${UNKNOWN_ESCROW}/refund`),
  path('an unknown escrow', 'escrow.B.get', NOT_FOUND, `/escrow/${UNKNOWN_ESCROW}`),
  path('a malformed id', 'escrow.B.get', BAD, '/escrow/bad%20id'),
  ...listQueries('escrow.B.list'),
  body('reason missing', 'escrow.B.dispute', BAD, () => ({})),
  body('reason a number', 'escrow.B.dispute', BAD, () => ({ reason: 5 })),
  body('evidence a number', 'escrow.B.dispute', BAD, () => ({ reason: 'x', evidence: 5 })),
];
