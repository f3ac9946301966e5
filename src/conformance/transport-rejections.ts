/**
 * The rejections every keyed JSON row gives, whatever its service: a method its path does not take
 * (405), a body that cannot be read (malformed JSON, text/plain 415, an array, an unknown field) or,
 * on a row that takes no body, an unknown query parameter (400), and a missing, unknown or
 * malformed key (401). Each service's case file builds its own requests (`make`: its paths and
 * setup) and adds its rows' own cases after these.
 */
import type { HttpMethod, TransportRequest } from '../client/transport.ts';
import type { ExpectedRejection, RejectionCase } from './conformance-case.ts';
import { UNKNOWN_KEY } from './rejection-cases.ts';

/** One case of the caller's endpoint: its name, the refusal expected, what differs from a valid request, who calls. */
export type MakeRejection = (
  name: string,
  expect: ExpectedRejection,
  extra: Partial<TransportRequest>,
  auth?: RejectionCase['auth'],
) => RejectionCase;

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
  cases.push(
    make('no key', UNAUTHORIZED, body, 'none'),
    make('an unknown key', UNAUTHORIZED, { ...body, headers: { authorization: `Bearer ${UNKNOWN_KEY}` } }, 'none'),
    make(
      'a malformed authorization header',
      UNAUTHORIZED,
      { ...body, headers: { authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' } },
      'none',
    ),
  );
  return cases;
}
