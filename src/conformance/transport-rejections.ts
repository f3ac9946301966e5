/**
 * The rejections every keyed JSON row gives, whatever its service: a method its path does not take
 * (405), a body that cannot be read (malformed JSON, text/plain 415, an array, an unknown field) or,
 * on a row that takes no body, an unknown query parameter (400), and a missing, unknown or
 * malformed key (401). Each service's case file builds its own requests (`make`: its paths and
 * setup) and adds its rows' own cases after these; the faucet's, escrow's, casino's and domains'
 * files, whose body cases differ, share the key cases (keyRejections).
 */
import type { HttpMethod, TransportRequest } from '../client/transport.ts';
import type { CaseWorld, ExpectedRejection, RejectionCase } from './conformance-case.ts';
import type { RequestExtra } from './rejection-maker.ts';

/** One case of the caller's endpoint: its name, the refusal expected, what differs from a valid request, who calls. */
export type MakeRejection = (
  name: string,
  expect: ExpectedRejection,
  extra: RequestExtra,
  auth?: RejectionCase['auth'],
) => RejectionCase;

/** A key in the platform's form that no agent holds. */
export const UNKNOWN_KEY = `sk_live_${'0'.repeat(48)}`;
const BAD_REQUEST: ExpectedRejection = { status: 400, code: 'BAD_REQUEST' };
const UNAUTHORIZED: ExpectedRejection = { status: 401, code: 'UNAUTHORIZED' };

/** `validBody`: a body the row accepts, or undefined for a row that takes none. */
export function transportRejections(
  method: HttpMethod,
  validBody: Readonly<Record<string, unknown>> | undefined,
  make: MakeRejection,
): RejectionCase[] {
  const other: HttpMethod = method === 'DELETE' ? 'PUT' : 'DELETE';
  const cases = [make(`wrong method ${other}`, { status: 405, code: 'BAD_REQUEST' }, { method: other })];
  if (validBody !== undefined) {
    cases.push(
      make('malformed JSON', BAD_REQUEST, { rawBody: { text: '{"amount": ', contentType: 'application/json' } }),
      make(
        'wrong content type (text/plain)',
        { status: 415, code: 'BAD_REQUEST' },
        { rawBody: { text: 'amount=1', contentType: 'text/plain' } },
      ),
      make('a non-object body (an array)', BAD_REQUEST, { body: [1, 2, 3] }),
      make('an unknown field', BAD_REQUEST, { body: { ...validBody, colour: 'red' } }),
    );
  } else {
    cases.push(make('an unknown query parameter', BAD_REQUEST, { query: { colour: 'red' } }));
  }
  const body: Partial<TransportRequest> = validBody === undefined ? {} : { body: validBody };
  cases.push(...keyRejections(make, () => body, { withoutKey: true, malformedWithRequest: true }));
  return cases;
}

/**
 * The key cases of a keyed row, sent without the caller's key: none at all (where the row needs
 * one), an unknown key and a malformed header (401). `request`: what the row's valid request
 * carries besides its path (its body or query); `malformedWithRequest`: whether the malformed
 * header is sent with it (the faucet's and casino's cases send the header alone).
 */
export function keyRejections(
  make: MakeRejection,
  request: (world: CaseWorld) => Partial<TransportRequest>,
  options: { readonly withoutKey: boolean; readonly malformedWithRequest: boolean },
): RejectionCase[] {
  const withHeader =
    (authorization: string, carried: boolean) =>
    (world: CaseWorld): Partial<TransportRequest> => ({
      ...(carried ? request(world) : {}),
      headers: { authorization },
    });
  return [
    ...(options.withoutKey ? [make('no key', UNAUTHORIZED, request, 'none')] : []),
    make('an unknown key', UNAUTHORIZED, withHeader(`Bearer ${UNKNOWN_KEY}`, true), 'none'),
    make(
      'a malformed authorization header',
      UNAUTHORIZED,
      withHeader('Basic YWxhZGRpbjpvcGVuc2VzYW1l', options.malformedWithRequest),
      'none',
    ),
  ];
}
