/**
 * The domains rejection cases of the conformance suite, as data: for every domains row of both
 * styles, the generic bad inputs its shape admits (wrong method, malformed JSON, a wrong content
 * type, a non-object body, an unknown field or query parameter, a missing, unknown or malformed
 * key), then the field rules of each row (names and sold TLDs, years 1..10, DNS record fields,
 * transfer recipients and prices) and the lookups of a name nobody holds (404). Each must answer
 * exactly its 4xx `{ error, code }` and leave both agents' balances as they were (the runner
 * checks). Rows whose mount a target does not announce are skipped with that reason.
 * Non-goals: refusals that need a held domain, money or time (403 not the owner, 409 taken or
 * expired, 422 funds): the happy paths here, test/http/domains and `afp check` cover them.
 */
import { DOMAINS_ENDPOINTS, type DomainsEndpointId } from '../../client/domains-client.ts';
import type { HttpMethod, TransportRequest } from '../../client/transport.ts';
import type { CaseWorld, ExpectedRejection, RejectionCase } from '../conformance-case.ts';
import { rejectionMaker } from '../rejection-maker.ts';
import { keyRejections, type MakeRejection } from '../transport-rejections.ts';

type Body = Readonly<Record<string, unknown>>;

const BAD_REQUEST: ExpectedRejection = { status: 400, code: 'BAD_REQUEST' };
const NOT_FOUND: ExpectedRejection = { status: 404, code: 'NOT_FOUND' };
/** A name no case ever registers (the happy paths register names made of their agent ids). */
const UNHELD = 'never-registered-by-conformance.com';

/** Names every row refuses: syntax, depth, length and a TLD the registrar does not sell. */
const BAD_NAMES: ReadonlyArray<readonly [string, unknown]> = [
  ['no TLD', 'example'],
  ['a subdomain', 'www.example.com'],
  ['a leading hyphen', '-example.com'],
  ['an underscore', 'ex_ample.com'],
  ['a 64-character label', `${'a'.repeat(64)}.com`],
  ['an empty name', ''],
  ['a number', 42],
];

/** A valid body per POST row (the unknown-field case extends it). */
function validBody(endpoint: DomainsEndpointId, world: CaseWorld): Body | null {
  const bodies: Partial<Record<DomainsEndpointId, Body>> = {
    'domains.A.register': { domain: UNHELD, years: 1 },
    'domains.A.dns': { domain: UNHELD, records: [{ type: 'A', value: '192.0.2.1' }] },
    'domains.B.register': { domain: UNHELD, years: 1 },
    'domains.B.renew': { domain: UNHELD, years: 1 },
    'domains.B.transfer': { domain: UNHELD, to: world.counterparty.agentId },
  };
  return bodies[endpoint] ?? null;
}

function requestTo(endpoint: DomainsEndpointId, extra: Partial<TransportRequest> = {}): TransportRequest {
  const row = DOMAINS_ENDPOINTS[endpoint];
  const path = row.path.replace(/:([A-Za-z_]+)/g, () => UNHELD);
  return { mount: row.mount, method: row.method, path, ...extra };
}

const rejection = rejectionMaker<DomainsEndpointId>((endpoint, _world, extra) => requestTo(endpoint, extra));

function genericCases(endpoint: DomainsEndpointId): RejectionCase[] {
  const method = DOMAINS_ENDPOINTS[endpoint].method as HttpMethod;
  const cases = [
    rejection(endpoint, 'wrong method DELETE', { status: 405, code: 'BAD_REQUEST' }, () => ({ method: 'DELETE' })),
  ];
  const bodyOf = (world: CaseWorld): Body => validBody(endpoint, world) ?? {};
  const query: Readonly<Record<string, string>> =
    endpoint === 'domains.A.check' || endpoint === 'domains.A.dns.list' || endpoint === 'domains.A.valuation'
      ? { domain: UNHELD }
      : {};
  if (method === 'POST') {
    cases.push(
      rejection(endpoint, 'malformed JSON', BAD_REQUEST, () => ({
        rawBody: { text: '{"domain": ', contentType: 'application/json' },
      })),
      rejection(endpoint, 'wrong content type (text/plain)', { status: 415, code: 'BAD_REQUEST' }, () => ({
        rawBody: { text: 'domain=x.com', contentType: 'text/plain' },
      })),
      rejection(endpoint, 'a non-object body (an array)', BAD_REQUEST, () => ({ body: [1, 2, 3] })),
      rejection(endpoint, 'an unknown field', BAD_REQUEST, (world) => ({ body: { ...bodyOf(world), colour: 'red' } })),
    );
  } else {
    cases.push(
      rejection(endpoint, 'an unknown query parameter', BAD_REQUEST, () => ({ query: { ...query, colour: 'red' } })),
    );
  }
  const request = (world: CaseWorld): Partial<TransportRequest> =>
    method === 'GET' ? { query } : { body: bodyOf(world) };
  const make: MakeRejection = (name, expect, extra, auth) => rejection(endpoint, name, expect, extra, auth);
  cases.push(...keyRejections(make, request, { withoutKey: true, malformedWithRequest: true }));
  return cases;
}

/** Every name rule on every row that takes a name (query, body or path). */
function nameCases(): RejectionCase[] {
  const queryRows: DomainsEndpointId[] = ['domains.A.check', 'domains.A.dns.list'];
  const bodyRows: DomainsEndpointId[] = [
    'domains.A.register',
    'domains.B.register',
    'domains.A.dns',
    'domains.B.renew',
    'domains.B.transfer',
  ];
  return [
    ...queryRows.flatMap((endpoint) => [
      ...BAD_NAMES.filter(([, value]) => typeof value === 'string').map(([label, value]) =>
        rejection(endpoint, `domain: ${label}`, BAD_REQUEST, () => ({ query: { domain: String(value) } })),
      ),
      rejection(endpoint, 'a TLD not sold (.museum)', BAD_REQUEST, () => ({ query: { domain: 'example.museum' } })),
      rejection(endpoint, 'no domain', BAD_REQUEST, () => ({ query: {} })),
    ]),
    ...bodyRows.flatMap((endpoint) => [
      ...BAD_NAMES.map(([label, value]) =>
        rejection(endpoint, `domain: ${label}`, BAD_REQUEST, (world) => ({
          body: { ...validBody(endpoint, world), domain: value },
        })),
      ),
      rejection(endpoint, 'a TLD not sold (.museum)', BAD_REQUEST, (world) => ({
        body: { ...validBody(endpoint, world), domain: 'example.museum' },
      })),
      rejection(endpoint, 'no domain', BAD_REQUEST, (world) => {
        const { domain: _dropped, ...rest } = validBody(endpoint, world) ?? {};
        return { body: rest };
      }),
    ]),
    rejection('domains.A.valuation', 'domain: a subdomain', BAD_REQUEST, () => ({
      query: { domain: 'www.example.com' },
    })),
    rejection('domains.A.valuation', 'no domain', BAD_REQUEST, () => ({ query: {} })),
    rejection('domains.B.lookup', 'domain: a subdomain', BAD_REQUEST, () => ({
      path: '/domains-api/lookup/www.example.com',
    })),
    rejection('domains.B.lookup', 'a TLD not sold (.museum)', BAD_REQUEST, () => ({
      path: '/domains-api/lookup/example.museum',
    })),
  ];
}

/** Field rules of the rows with more than a name, and lookups of a name nobody holds. */
function fieldCases(): RejectionCase[] {
  const body = (
    endpoint: DomainsEndpointId,
    name: string,
    fields: (world: CaseWorld) => Body,
    expect: ExpectedRejection = BAD_REQUEST,
  ): RejectionCase => rejection(endpoint, name, expect, (world) => ({ body: fields(world) }));
  const record = (fields: Body): Body => ({ domain: UNHELD, records: [fields] });
  const years = (endpoint: DomainsEndpointId): RejectionCase[] =>
    [0, 11, 1.5, '2', -1].map((value) =>
      body(endpoint, `years ${JSON.stringify(value)}`, () => ({ domain: UNHELD, years: value })),
    );
  return [
    ...years('domains.A.register'),
    ...years('domains.B.register'),
    ...years('domains.B.renew'),
    body('domains.A.register', 'a resolver (style A has none)', () => ({
      domain: UNHELD,
      resolver: 'ns1.example.com',
    })),
    body('domains.B.register', 'a resolver that is no host name', () => ({ domain: UNHELD, resolver: 'not a host!' })),
    body('domains.B.register', 'a 254-character resolver', () => ({
      domain: UNHELD,
      resolver: `${'a.'.repeat(126)}aa`,
    })),
    body('domains.A.dns', 'records not an array', () => ({
      domain: UNHELD,
      records: { type: 'A', value: '192.0.2.1' },
    })),
    body('domains.A.dns', 'no records', () => ({ domain: UNHELD, records: [] })),
    body('domains.A.dns', '21 records', () => ({
      domain: UNHELD,
      records: Array.from({ length: 21 }, (_unused, index) => ({ type: 'A', name: `h${index}`, value: '192.0.2.1' })),
    })),
    body('domains.A.dns', 'an unknown record type', () => record({ type: 'SRV', value: 'x' })),
    body('domains.A.dns', 'an A record that is no IPv4 address', () => record({ type: 'A', value: '300.1.1.1' })),
    body('domains.A.dns', 'an AAAA record that is no IPv6 address', () => record({ type: 'AAAA', value: '192.0.2.1' })),
    body('domains.A.dns', 'a CNAME that is no host name', () => record({ type: 'CNAME', value: 'not a host' })),
    body('domains.A.dns', 'an MX without priority', () => record({ type: 'MX', value: 'mail.example.com' })),
    body('domains.A.dns', 'a priority on an A record', () => record({ type: 'A', value: '192.0.2.1', priority: 10 })),
    body('domains.A.dns', 'ttl 59', () => record({ type: 'A', value: '192.0.2.1', ttl: 59 })),
    body('domains.A.dns', 'ttl 86401', () => record({ type: 'A', value: '192.0.2.1', ttl: 86_401 })),
    body('domains.A.dns', 'a 256-character TXT', () => record({ type: 'TXT', value: 'x'.repeat(256) })),
    body('domains.A.dns', 'a record not an object', () => ({ domain: UNHELD, records: ['A 192.0.2.1'] })),
    body('domains.A.dns', 'an unknown record field', () => record({ type: 'A', value: '192.0.2.1', weight: 5 })),
    body('domains.B.transfer', 'no recipient', () => ({ domain: UNHELD })),
    body('domains.B.transfer', 'a recipient with spaces', () => ({ domain: UNHELD, to: 'not an agent' })),
    ...[0, -1, '1.0000001', 'free', true].map((price) =>
      body('domains.B.transfer', `price ${JSON.stringify(price)}`, (world) => ({
        domain: UNHELD,
        to: world.counterparty.agentId,
        price,
      })),
    ),
    rejection('domains.B.lookup', 'a name nobody holds', NOT_FOUND, () => ({})),
    rejection('domains.A.dns.list', 'a name nobody holds', NOT_FOUND, () => ({ query: { domain: UNHELD } })),
    body('domains.A.dns', 'records of a name nobody holds', () => record({ type: 'A', value: '192.0.2.1' }), NOT_FOUND),
    body('domains.B.renew', 'a name nobody holds', () => ({ domain: UNHELD, years: 1 }), NOT_FOUND),
    body(
      'domains.B.transfer',
      'a name nobody holds',
      (world) => ({ domain: UNHELD, to: world.counterparty.agentId }),
      NOT_FOUND,
    ),
  ];
}

export const DOMAINS_REJECTION_CASES: readonly RejectionCase[] = [
  ...(Object.keys(DOMAINS_ENDPOINTS) as DomainsEndpointId[]).flatMap(genericCases),
  ...nameCases(),
  ...fieldCases(),
];
