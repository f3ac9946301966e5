/**
 * The deployment's error bodies (spec/DEPLOYED.md §1.2, §2.12, §3, §4): `{ error: <snake_case>,
 * message, ...extras }`, never a `code`. A deployed row refuses with afp's own Failure carrying the
 * deployment's name in `extra.error` and the deployment's status (`deployedFailure`, `renamed`);
 * a failure that reaches the wire without one (an afp service's refusal passed through as is) is
 * named from its afp code by `DEFAULT_NAMES`, with the deployment's status for that service (the
 * casino's business errors are 400, escrow's short balance 402, a repeated faucet claim 409).
 * Non-goals: `_info` (deployed-info.ts), which the dispatcher adds to every object body.
 */
import { Failure, type ErrorCode, type JsonObject } from '../../core/errors.ts';
import type { ServiceName } from '../../platform/platform.ts';

/** A refusal in the deployment's terms: its status, its snake_case name, its message and extras. */
export function deployedFailure(status: number, name: string, message: string, extra?: JsonObject): Failure {
  return new Failure(status, 'BAD_REQUEST', message, { error: name, ...extra });
}

/** An afp refusal relabelled with the deployment's name (and status); its message and extras kept. */
export function renamed(failure: Failure, name: string, status: number = failure.status): Failure {
  const { error: _previous, ...extra } = failure.extra ?? {};
  return new Failure(status, failure.code, failure.message, { error: name, ...extra });
}

/** The name a failure carries on the deployed wire (its own, else its code's). */
export function deployedNameOf(failure: Failure): string {
  const name = failure.extra?.['error'];
  return typeof name === 'string' ? name : DEFAULT_NAMES[failure.code];
}

const DEFAULT_NAMES: Readonly<Record<ErrorCode, string>> = {
  BAD_REQUEST: 'invalid_request',
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  CONFLICT: 'invalid_status',
  INSUFFICIENT_BALANCE: 'insufficient_balance',
  RATE_LIMIT: 'rate_limited',
  INTERNAL_ERROR: 'internal_error',
  SERVICE_UNAVAILABLE: 'service_unavailable',
  FAUCET_CLAIMED: 'already_claimed',
  GAME_CLOSED: 'game_closed',
  MARKET_CLOSED: 'market_closed',
};

/** The status a failure without a deployed name is answered with, per service (§2.12: the casino's business errors are 400). */
function defaultStatus(failure: Failure, service: ServiceName): number {
  if (failure.code === 'INSUFFICIENT_BALANCE') return service === 'escrow' ? 402 : 400;
  if (failure.status === 422 || (service === 'casino' && failure.code === 'CONFLICT') || failure.code === 'GAME_CLOSED')
    return 400;
  return failure.status;
}

/** The status and body of a refusal on the deployed wire (without `_info`). */
export function deployedRefusal(failure: Failure, service: ServiceName): { status: number; body: JsonObject } {
  const own = failure.extra?.['error'];
  const { error: _name, ...extra } = failure.extra ?? {};
  const status = typeof own === 'string' ? failure.status : defaultStatus(failure, service);
  return { status, body: { error: deployedNameOf(failure), message: failure.message, ...extra } };
}
