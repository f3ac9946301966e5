/**
 * How every service's case file makes its rejection cases: given how it builds a request to one
 * of its endpoints (its paths, its path values) and which setup a row needs, one function makes a
 * case from an endpoint, a name, the refusal expected, what differs from a valid request and who
 * calls. Why here: the case's kind, its `endpoint: name` label and the defaults (the caller's key,
 * a fresh pair) are the same for every service; only the request differs.
 */
import type { TransportRequest } from '../client/transport.ts';
import type { CaseWorld, ExpectedRejection, RejectionCase } from './conformance-case.ts';

/** An endpoint a rejection case aims at (an unknown route has none and is made by hand). */
export type CaseEndpoint = NonNullable<RejectionCase['endpoint']>;

/** What differs from a valid request: fixed, or drawn from the case's world (its agents, its escrow). */
export type RequestExtra = Partial<TransportRequest> | ((world: CaseWorld) => Partial<TransportRequest>);

export type MakeEndpointRejection<E extends CaseEndpoint> = (
  endpoint: E,
  name: string,
  expect: ExpectedRejection,
  extra: RequestExtra,
  auth?: RejectionCase['auth'],
) => RejectionCase;

/** `requestTo`: the valid request to `endpoint` in `world`, altered by `extra`; `setupOf`: the setup a row needs. */
export function rejectionMaker<E extends CaseEndpoint>(
  requestTo: (endpoint: E, world: CaseWorld, extra: Partial<TransportRequest>) => TransportRequest,
  setupOf: (endpoint: E) => RejectionCase['setup'] = () => 'pair',
): MakeEndpointRejection<E> {
  return (endpoint, name, expect, extra, auth = 'caller') => ({
    kind: 'rejection',
    name: `${endpoint}: ${name}`,
    endpoint,
    setup: setupOf(endpoint),
    auth,
    expect,
    request: (world) => requestTo(endpoint, world, typeof extra === 'function' ? extra(world) : extra),
  });
}
