/**
 * The rejection cases of the conformance suite, as data: for every faucet and escrow endpoint of
 * both styles, the generic bad inputs its shape admits (malformed JSON, a wrong content type, a
 * non-object body, an unknown field, an unknown query parameter, a missing and an unknown key, a
 * wrong method), then the endpoint's own rows (wrong field types, missing fields, bad amounts, bad
 * ids, bad query values), unknown routes, and the bad-input sender's table (src/agent/bad-input-cases.ts)
 * reused as is. Expected statuses follow the dispatcher's precedence (route 404/405, body
 * 400/413/415, auth 401, field validation 400, then the domain's 403/404/409/422).
 * Non-goals: rate limiting (429 depends on what else hits a shared target).
 */
import { ENDPOINT_IDS, ENDPOINTS, endpointPath, type EndpointId } from '../client/client.ts';
import type { HttpMethod, TransportRequest } from '../client/transport.ts';
import { BAD_INPUT_CASES } from '../agent/bad-input-cases.ts';
import type { CaseWorld, ExpectedRejection, RejectionCase } from './conformance-case.ts';
import { SPECIFIC_CASES } from './endpoint-cases.ts';
import { rejectionMaker } from './rejection-maker.ts';
import { keyRejections, type MakeRejection } from './transport-rejections.ts';

type Body = Readonly<Record<string, unknown>>;

interface EndpointShape {
  readonly auth: 'bearer' | 'none' | 'optional';
  /** A valid body for the endpoint (unknown-field cases extend it); null = the endpoint takes none. */
  readonly body: ((world: CaseWorld) => Body) | null;
  readonly setup: RejectionCase['setup'];
}

const escrowOf = (world: CaseWorld): string => world.escrowId ?? 'esc_missing';

/** Every endpoint's shape; a new endpoint without a row fails to compile. */
export const ENDPOINT_SHAPES: Readonly<Record<EndpointId, EndpointShape>> = {
  'faucet.A.register': { auth: 'none', body: (world) => ({ agent_id: `${world.caller.agentId}-n` }), setup: 'pair' },
  'faucet.A.claim': { auth: 'bearer', body: null, setup: 'pair' },
  'faucet.A.status': { auth: 'bearer', body: null, setup: 'pair' },
  'faucet.A.agent': { auth: 'bearer', body: null, setup: 'pair' },
  'faucet.B.register': { auth: 'none', body: (world) => ({ agent_id: `${world.caller.agentId}-n` }), setup: 'pair' },
  'faucet.B.claim': { auth: 'optional', body: (world) => ({ agent_id: world.caller.agentId }), setup: 'pair' },
  'faucet.B.status': { auth: 'bearer', body: null, setup: 'pair' },
  'faucet.B.agents': { auth: 'none', body: null, setup: 'pair' },
  'faucet.B.referrals': { auth: 'bearer', body: null, setup: 'pair' },
  'escrow.A.create': {
    auth: 'bearer',
    body: (world) => ({ buyer: world.caller.agentId, seller: world.counterparty.agentId, amount: 1 }),
    setup: 'pair',
  },
  'escrow.A.release': { auth: 'bearer', body: (world) => ({ escrow_id: escrowOf(world) }), setup: 'escrow' },
  'escrow.A.dispute': {
    auth: 'bearer',
    body: (world) => ({ escrow_id: escrowOf(world), reason: 'not delivered' }),
    setup: 'escrow',
  },
  'escrow.A.get': { auth: 'bearer', body: null, setup: 'escrow' },
  'escrow.A.list': { auth: 'bearer', body: null, setup: 'pair' },
  'escrow.B.create': {
    auth: 'bearer',
    body: (world) => ({ amount: '1.00', receiver: world.counterparty.agentId }),
    setup: 'pair',
  },
  'escrow.B.release': { auth: 'bearer', body: null, setup: 'escrow' },
  'escrow.B.refund': { auth: 'bearer', body: null, setup: 'escrow' },
  'escrow.B.get': { auth: 'bearer', body: null, setup: 'escrow' },
  'escrow.B.list': { auth: 'bearer', body: null, setup: 'pair' },
  'escrow.B.dispute': { auth: 'bearer', body: () => ({ reason: 'not delivered' }), setup: 'escrow' },
};

const BAD_REQUEST: ExpectedRejection = { status: 400, code: 'BAD_REQUEST' };

/** The request to `endpoint` in `world` (path parameter: the setup's escrow, else the caller's id), altered by `extra`. */
export function requestTo(
  endpoint: EndpointId,
  world: CaseWorld,
  extra: Partial<TransportRequest> = {},
): TransportRequest {
  const row = ENDPOINTS[endpoint];
  const id = ENDPOINT_SHAPES[endpoint].setup === 'escrow' ? escrowOf(world) : world.caller.agentId;
  return { mount: row.mount, method: row.method, path: endpointPath(endpoint, { id }), ...extra };
}

const rejection = rejectionMaker<EndpointId>(requestTo, (endpoint) => ENDPOINT_SHAPES[endpoint].setup);

/** The bad inputs every endpoint of its shape must reject. */
function genericCases(endpoint: EndpointId): RejectionCase[] {
  const shape = ENDPOINT_SHAPES[endpoint];
  const method = ENDPOINTS[endpoint].method;
  const wrongMethod: HttpMethod = 'DELETE';
  const cases = [
    rejection(endpoint, `wrong method ${wrongMethod}`, { status: 405, code: 'BAD_REQUEST' }, () => ({
      method: wrongMethod,
    })),
  ];
  if (method === 'POST') {
    const valid = shape.body ?? ((): Body => ({}));
    cases.push(
      rejection(endpoint, 'malformed JSON', BAD_REQUEST, () => ({
        rawBody: { text: '{"agent_id": "', contentType: 'application/json' },
      })),
      rejection(endpoint, 'wrong content type (text/plain)', { status: 415, code: 'BAD_REQUEST' }, () => ({
        rawBody: { text: 'agent_id=x', contentType: 'text/plain' },
      })),
      rejection(endpoint, 'a non-object body (an array)', BAD_REQUEST, () => ({ body: [1, 2, 3] })),
      rejection(endpoint, 'a non-object body (a string)', BAD_REQUEST, () => ({ body: 'hello' })),
      rejection(endpoint, 'an unknown field', BAD_REQUEST, (world) => ({ body: { ...valid(world), colour: 'red' } })),
    );
  } else {
    cases.push(rejection(endpoint, 'an unknown query parameter', BAD_REQUEST, () => ({ query: { colour: 'red' } })));
  }
  if (shape.auth !== 'none') {
    const make: MakeRejection = (name, expect, extra, auth) => rejection(endpoint, name, expect, extra, auth);
    const request = (world: CaseWorld): Partial<TransportRequest> =>
      shape.body === null ? {} : { body: shape.body(world) };
    cases.push(...keyRejections(make, request, { withoutKey: shape.auth === 'bearer', malformedWithRequest: false }));
  }
  return cases;
}

/** The endpoint a request of the bad-input table aims at (by mount, method and path template). */
function endpointOf(request: TransportRequest): EndpointId | null {
  for (const endpoint of ENDPOINT_IDS) {
    const row = ENDPOINTS[endpoint];
    const pattern = new RegExp(`^${row.path.replace(/:[A-Za-z_]+/g, '[^/]+')}$`);
    if (row.mount === request.mount && row.method === request.method && pattern.test(request.path)) return endpoint;
  }
  return null;
}

const CODE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'BAD_REQUEST',
  413: 'BAD_REQUEST',
  415: 'BAD_REQUEST',
};

/** The bad-input sender's rows, sent by the case's caller with its key (a row's own header wins). */
function simulatorCases(): RejectionCase[] {
  return BAD_INPUT_CASES.map((row) => {
    const probe = row.build({ agentId: 'probe', counterparty: 'probe-2' });
    return {
      kind: 'rejection',
      name: `bad-input sender: ${row.name}`,
      endpoint: endpointOf(probe),
      setup: 'pair',
      auth: 'caller',
      expect: { status: row.expect, code: CODE_OF_STATUS[row.expect] ?? 'BAD_REQUEST' },
      request: (world) => row.build({ agentId: world.caller.agentId, counterparty: world.counterparty.agentId }),
    };
  });
}

function unknownRoute(mount: TransportRequest['mount'], path: string): RejectionCase {
  return {
    kind: 'rejection',
    name: `unknown route ${mount}:${path}`,
    endpoint: null,
    setup: 'pair',
    auth: 'caller',
    expect: { status: 404, code: 'NOT_FOUND' },
    request: () => ({ mount, method: 'GET', path }),
  };
}

export const REJECTION_CASES: readonly RejectionCase[] = [
  ...ENDPOINT_IDS.flatMap(genericCases),
  ...SPECIFIC_CASES.map((row) => rejection(row.endpoint, row.name, row.expect, row.extra, row.auth)),
  unknownRoute('api', '/no-such-route'),
  unknownRoute('faucet', '/api/v1/no-such-route'),
  unknownRoute('escrow', '/api/v1/escrow/list/extra'),
  ...simulatorCases(),
];
