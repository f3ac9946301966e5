/**
 * The spec's error table (platform.md "Errors") as data, and the failure value that domain
 * operations return. A failure is a value, not an exception: `throw` is reserved for bugs.
 *
 * Body shape on the wire: `{ "error": message, "code": CODE, ...extra }` (+ `_info`, added by
 * the HTTP layer). The statuses of the three service-specific codes are not shown in the spec;
 * afp's choice is recorded in docs/decisions/platform.md.
 */

export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INSUFFICIENT_BALANCE: 422,
  RATE_LIMIT: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  FAUCET_CLAIMED: 409,
  GAME_CLOSED: 409,
  MARKET_CLOSED: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * A refusal with its HTTP status. A class, not an interface: `isFailure` is then one prototype
 * check (`instanceof`) instead of reading `ok` from whatever it is handed — parse results, bodies
 * and commands of every shape meet at that one read, which made it a megamorphic load (a stub
 * cache probe) on every request. The private brand makes the type nominal: only `fail` and
 * `failWithStatus` make one, so no object literal passes for a failure that `isFailure` would miss.
 */
export class Failure {
  declare private readonly brand: never;
  readonly ok = false;
  /** HTTP status; defaults to the table's, overridden only for transport-level errors (405, 413, 415). */
  readonly status: number;
  readonly code: ErrorCode;
  readonly message: string;
  /** Extra body fields (the 429 body, a `max_bet`...); undefined when none. */
  readonly extra: JsonObject | undefined;

  constructor(status: number, code: ErrorCode, message: string, extra: JsonObject | undefined) {
    this.status = status;
    this.code = code;
    this.message = message;
    this.extra = extra;
  }
}

export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

export type Outcome<T> = Success<T> | Failure;

export function fail(code: ErrorCode, message: string, extra?: JsonObject): Failure {
  return new Failure(ERROR_STATUS[code], code, message, extra);
}

/** A failure whose HTTP status differs from the code's table status (405, 413, 415). */
export function failWithStatus(status: number, code: ErrorCode, message: string): Failure {
  return new Failure(status, code, message, undefined);
}

export function succeed<T>(value: T): Success<T> {
  return { ok: true, value };
}

export function isFailure(value: unknown): value is Failure {
  return value instanceof Failure;
}
