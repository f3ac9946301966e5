/**
 * One typed call's two ends: what a caller gives (path parameters, query, body) and what comes
 * back (`ok` exactly when the status is 2xx, with the answer's body or the error body). Its own
 * file so that AfpClient and the per-service clients it builds share these shapes without
 * importing each other.
 */
export type ApiResult<T> =
  | { ok: true; status: number; headers: Readonly<Record<string, string>>; body: T }
  | { ok: false; status: number; headers: Readonly<Record<string, string>>; body: ErrorBody };

export interface ErrorBody {
  error: string;
  code: string;
  [k: string]: unknown;
}

export type QueryInput = Readonly<Record<string, string | number | boolean | undefined>>;

export interface CallInput {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: QueryInput;
  readonly body?: unknown;
}
