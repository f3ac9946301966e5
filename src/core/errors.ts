/**
 * The spec's error table (platform.md "Errors") as data, and the failure value that domain
 * operations return. A failure is a value, not an exception: `throw` is reserved for bugs.
 *
 * Body shape on the wire: `{ "error": message, "code": CODE, ...extra }` (+ `_info`, added by
 * the HTTP layer). The statuses of the three service-specific codes are not shown in the spec;
 * afp's choice is recorded in docs/decisions.md.
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

export interface Failure {
  readonly ok: false;
  /** HTTP status; defaults to the table's, overridden only for transport-level errors (405, 413, 415). */
  readonly status: number;
  readonly code: ErrorCode;
  readonly message: string;
  /** Extra body fields (the 429 body, a `max_bet`...). */
  readonly extra?: JsonObject;
}

export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

export type Outcome<T> = Success<T> | Failure;

export function fail(code: ErrorCode, message: string, extra?: JsonObject): Failure {
  return extra === undefined
    ? { ok: false, status: ERROR_STATUS[code], code, message }
    : { ok: false, status: ERROR_STATUS[code], code, message, extra };
}

/** A failure whose HTTP status differs from the code's table status (405, 413, 415). */
export function failWithStatus(status: number, code: ErrorCode, message: string): Failure {
  return { ok: false, status, code, message };
}

export function succeed<T>(value: T): Success<T> {
  return { ok: true, value };
}

export function isFailure(value: unknown): value is Failure {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}
