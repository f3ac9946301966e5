/**
 * Dialect: how one addressing style puts afp's operations (src/live/operations.ts) on the wire and
 * reads the answers back. A dialect is a table of rows, one per operation it offers; a new
 * deployment shape is a new table, never an `if (dialect === …)` inside a command (docs/design.md
 * "Live targets"). The documents' styles A, B and short are dialects too.
 *
 * A row builds the request (service, method, path, query, body, whether it carries the key) from
 * the operation's input, and reads a success answer through a WireReader, which records what
 * differs from the documents. Error answers are read by one function for every row
 * (`readRefusal`): the target's own error name is kept, and a body without `code` is a deviation.
 * Non-goals: sending (src/live/live-session.ts), pacing, deciding severities.
 */
import type { JsonObject, JsonValue } from '../../core/errors.ts';
import type { ServiceName } from '../../platform/platform.ts';
import type { HttpMethod } from '../../http/route.ts';
import type { OperationInput, OperationName, OperationResult, Refusal } from '../operations.ts';
import type { DialectName } from '../target.ts';
import type { WireReader } from '../wire-reader.ts';

export interface DialectRequest {
  readonly service: ServiceName;
  readonly method: HttpMethod;
  /** Path below the service's base URL, parameters already encoded. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: JsonValue;
  /** Whether the call carries the agent's key (Authorization: Bearer). */
  readonly auth: boolean;
  /** An Accept header to send (an MCP door wants JSON or an event stream); absent: none. */
  readonly accept?: string;
  /** The body holds the key as KEY_PLACEHOLDER (live/mcp-call.ts), put in as the request goes out. */
  readonly keyInBody?: true;
  /** How the answer is wrapped: `mcp`, a tool result inside a JSON-RPC answer (live/mcp-call.ts); absent: plain. */
  readonly envelope?: 'mcp';
}

export interface OperationRow<O extends OperationName> {
  readonly op: O;
  /**
   * `api`: the path lives on the documents' shared api_url (style B, `/casino-api/...`), not on the
   * service's own address. A target names that address only when it is an afp serve (its api
   * mount, Target.adminUrl); any other target does not offer the row.
   */
  readonly base?: 'api';
  request(input: OperationInput<O>): DialectRequest;
  /** Why this dialect cannot put `input` on the wire (an input its shape has no field for), or null; the call is then not sent. */
  unsupported?(input: OperationInput<O>): string | null;
  /** Reads a 2xx answer; returns null when even the essential fields are missing (the reader holds why). */
  read(reader: WireReader, input: OperationInput<O>): OperationResult<O> | null;
  /**
   * escrow.create only: the shortest expiry this request can set and how long after it the target
   * settles (a sweep), as the style documents them, with where it says so. A settlement probe
   * waits that long at most; absent: the row states no expiry.
   */
  readonly expiry?: EscrowExpiryTerms;
  /**
   * Error names this row's service documents without a message (DEPLOYED.md §1: the escrow's
   * `{"error":"unauthorized"}`, trading's and domains' `{"error":"invalid_key"}`): their missing
   * `message` is a documented deviation (info), not the target's fault.
   */
  readonly bareErrors?: readonly string[];
}

export interface EscrowExpiryTerms {
  readonly shortestSeconds: number;
  readonly sweepSeconds: number;
  readonly source: string;
}

export type DialectTable = { readonly [O in OperationName]?: OperationRow<O> };

export interface Dialect {
  readonly name: DialectName;
  /** How the documents name errors on this style: `code` (documents) or `error` (deployed). */
  readonly errorName: 'code' | 'error';
  readonly rows: DialectTable;
  /**
   * 429 error names whose window outlasts any wait a command can afford (the deployment's faucet:
   * one claim per IP per 24 h, `ip_rate_limited`): answered as a refusal at once, not waited out.
   */
  readonly refusingRateLimits?: readonly string[];
}

/** A row typed by its operation (the table's keys and rows cannot disagree). */
export function row<O extends OperationName>(op: O, spec: Omit<OperationRow<O>, 'op'>): OperationRow<O> {
  return { op, ...spec };
}

/** The dialect's row for `op`, or null when the style does not offer the operation. */
export function rowOf<O extends OperationName>(dialect: Dialect, op: O): OperationRow<O> | null {
  return (dialect.rows[op] as OperationRow<O> | undefined) ?? null;
}

/**
 * A non-2xx answer as a Refusal. The name is the target's own: `code` where it sends one, else
 * `error`, else `http_<status>`; a body whose shape differs from the dialect's documented error
 * shape is recorded on the reader (`error-shape`), documented when the dialect says so.
 */
export function readRefusal(
  dialect: Dialect,
  status: number,
  reader: WireReader,
  bareErrors: readonly string[] = [],
): Refusal {
  const body = reader.body;
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as JsonObject) : {};
  const code = typeof fields['code'] === 'string' ? fields['code'] : null;
  const error = typeof fields['error'] === 'string' ? fields['error'] : null;
  const message = typeof fields['message'] === 'string' ? fields['message'] : (error ?? '');
  // An error body's extra fields (max_bet, suggestion, docs…) are the error's own detail, not unknown fields.
  reader.knows(...Object.keys(fields));
  if (dialect.errorName === 'code' && code === null) {
    reader.record({
      kind: 'error-shape',
      field: 'code',
      expected: '{ "error": message, "code": CODE }',
      seen: Object.keys(fields).sort().join(', ') || typeof body,
      documented: false,
      required: false,
    });
  }
  if (dialect.errorName === 'error') {
    // One deviation per field the body lacks, named as it is: `error`, `message`, or both.
    const seen = Object.keys(fields).sort().join(', ') || typeof body;
    const bare = error !== null && bareErrors.includes(error);
    for (const [field, present] of [
      ['error', error !== null],
      ['message', typeof fields['message'] === 'string'],
    ] as const) {
      if (!present)
        reader.record({
          kind: 'error-shape',
          field,
          expected: '{ "error": snake_case, "message": text }',
          seen,
          documented: field === 'message' && bare,
          required: false,
        });
    }
  }
  if (dialect.errorName === 'error' && error !== null && code === null) {
    // The deployment's documented shape: no `code`. Still a deviation from the documents, reported as info.
    reader.record({
      kind: 'error-shape',
      field: 'code',
      expected: '{ "error": message, "code": CODE }',
      seen: `{ "error": "${error}", "message": … } (no code)`,
      documented: true,
      required: false,
    });
  }
  return { status, name: code ?? error ?? `http_${status}`, message, body: (body ?? null) as JsonValue };
}
