/**
 * How a deployed wallet row (spec/DEPLOYED.md §6) is made from one of the wallet's documents rows
 * (src/http/routes/wallet/wallet-primary.ts, wallet-referral.ts): the same parse and run, so the
 * chains, keys and swaps are checked by one code path; the deployment's id, status and answer.
 * As deployed-row.ts's adaptedRow, with one step more: `input` fills the deployment's defaults
 * (chain `base`, symbols read as the chain's asset addresses) before the documents row parses, or
 * refuses in the deployment's own names (`view_key_required`, `not_implemented`).
 * Refusals of the documents row are renamed for the deployment (`walletRefusal`): bad input 400
 * `invalid_request` (with its `field`), a short balance 400 `insufficient_balance`, a key that
 * does not control the sender 403 `forbidden`, an unknown order 404 `not_found`.
 * Every deployed row `wallet.deployed.<operation>` is over the documents row
 * `wallet.primary.<operation>` of the same name, so a row names its operation once; unless it says
 * otherwise it answers 200, reads no body key and answers the documents row's body as is.
 */
import { assert } from '../../../core/assert.ts';
import { isFailure, type Failure, type JsonObject } from '../../../core/errors.ts';
import { deployedFailure, renamed } from '../../deployed/deployed-errors.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { walletPrimaryRoutes } from '../wallet/wallet-primary.ts';
import { walletReferralRoutes } from '../wallet/wallet-referral.ts';
import { deployedRoute, knownInput } from './deployed-row.ts';

const WALLET_ROWS: ReadonlyMap<string, Route> = new Map(
  [...walletPrimaryRoutes, ...walletReferralRoutes].map((route) => [route.id, route]),
);

/** A wallet refusal in the deployment's names (a Failure already named passes as is). */
export function walletRefusal(failure: Failure): Failure {
  if (failure.extra?.['error'] !== undefined) return failure;
  if (failure.code === 'INSUFFICIENT_BALANCE') return renamed(failure, 'insufficient_balance', 400);
  if (failure.code === 'FORBIDDEN') return renamed(failure, 'forbidden', 403);
  if (failure.code === 'NOT_FOUND') return renamed(failure, 'not_found', 404);
  if (failure.status === 400 || failure.status === 422) return renamed(failure, 'invalid_request', 400);
  return failure;
}

/** The body's fields, or a deployed 400 when the body is not an object (an absent body reads as `{}`). */
export function bodyFields(body: unknown): Record<string, unknown> | Failure {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    return deployedFailure(400, 'invalid_request', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

export interface WalletRowSpec {
  /** The operation: the row is `wallet.deployed.<operation>`, over the documents row `wallet.primary.<operation>`. */
  readonly operation: string;
  readonly summary: string;
  /** Default 200. */
  readonly successStatus?: 200 | 201;
  /** The body and query keys the deployment reads; the others are dropped before parsing (default: no body key). */
  readonly bodyKeys?: readonly string[];
  readonly queryKeys?: readonly string[];
  /** The deployment's defaults and own refusals, on the input already reduced to the known keys. */
  input?(input: RouteInput, context: RouteContext): RouteInput | Failure;
  /**
   * The deployment's answer from the documents row's outcome (`documentsBody` renders it the
   * documents' way); default: the documents body as is.
   */
  render?(value: unknown, context: RouteContext, documentsBody: () => JsonObject): JsonObject;
}

/** A deployed row over the wallet's documents row of `spec.operation`, on the wallet's address under /v1. */
export function walletRow(spec: WalletRowSpec): Route {
  const baseId = `wallet.primary.${spec.operation}`;
  const base = WALLET_ROWS.get(baseId);
  assert(base !== undefined, `the deployed wallet rows name a documents row: ${baseId}`);
  const bodyKeys = spec.bodyKeys ?? [];
  return deployedRoute<unknown, unknown>({
    id: `wallet.deployed.${spec.operation}`,
    service: 'wallet',
    style: 'deployed',
    auth: base.auth,
    summary: spec.summary,
    successStatus: spec.successStatus ?? 200,
    parse: (input, context) => {
      const known = knownInput(input, bodyKeys, spec.queryKeys);
      const filled = spec.input === undefined ? known : spec.input(known, context);
      if (isFailure(filled)) return filled;
      const command = base.parse(filled, context);
      return isFailure(command) ? walletRefusal(command) : command;
    },
    run: (context, command) => {
      const outcome = base.run(context, command);
      return outcome.ok ? outcome : walletRefusal(outcome);
    },
    render: (value, context) => {
      const documentsBody = (): JsonObject => base.render(value, context);
      return spec.render === undefined ? documentsBody() : spec.render(value, context, documentsBody);
    },
  });
}
