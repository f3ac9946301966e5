/**
 * Route rows: one row per endpoint and addressing style. Everything HTTP is derived from these
 * rows: the in-process dispatcher, the `afp serve` listeners, the replay matcher, the endpoint
 * list. A row parses a transport-neutral request into a command (validating every field), runs
 * the domain operation, and renders the outcome. Rows never see sockets or JSON text.
 *
 * A row declares its success status (`successStatus`) and `render` returns only the body: the
 * dispatcher answers with the one, the OpenAPI documents read the other, so the two cannot drift.
 *
 * Context: each request's rows get a RouteContext of their own (the instant, the caller, the
 * originating IP), which they may keep.
 *
 * Mounts: style A rows are served on their service's own address (`mount` = service name);
 * style B rows share one `api_url` (`mount` = 'api'), faucet and escrow at the root and the
 * other services under their `/<service>-api` prefix.
 */
import type { Failure, JsonObject, Outcome } from '../core/errors.ts';
import type { Agent } from '../services/shared/agents.ts';
import type { FloatBalances } from './deployed/float-balances.ts';
import { SERVICE_NAMES, type Platform, type ServiceName } from '../platform/platform.ts';
import type { RouteLimits } from '../platform/route-limits.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Style = 'A' | 'B' | 'short' | 'primary' | 'deployed';
export type Mount = 'api' | ServiceName;

/** Whether `value` names a mount: the shared `api`, or a service's own address. */
export function isMount(value: unknown): value is Mount {
  return value === 'api' || (SERVICE_NAMES as readonly unknown[]).includes(value);
}

/** What a row's `parse` sees: path parameters, query parameters and the parsed JSON body. */
export interface RouteInput {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  /** Parsed JSON body; `undefined` when the request had none. */
  readonly body: unknown;
}

/** What a row knows of its request beyond the input: one per request. */
export interface RouteContext {
  readonly platform: Platform;
  readonly nowMs: number;
  /** The authenticated agent; null on `auth: 'none'` rows or when an optional key is absent. */
  readonly caller: Agent | null;
  /** Originating address (X-Forwarded-For read from trusted proxies only, else the socket's: src/http/client-ip.ts). */
  readonly ip: string;
  /**
   * True only while a dispatcher replays its own command log (afp serve --data recovery): a logged
   * wallet send then names its verified sender instead of its key (src/http/routes/wallet/wallet-parse.ts).
   */
  readonly replaying?: boolean;
  /**
   * afp serve --dialect deployed --float-money: the casino balances as the deployment's doubles
   * (src/http/deployed/float-balances.ts), which the deployed rows render instead of the exact ones.
   */
  readonly floatBalances?: FloatBalances;
  /** `mcp` for a tool call of a /mcp endpoint (DispatchRequest.door); absent for HTTP. */
  readonly door?: 'mcp';
}

export interface RouteSpec<C, O> {
  /** Stable id: `<service>.<style>.<operation>`, e.g. `escrow.B.release`. */
  readonly id: string;
  readonly service: ServiceName;
  readonly style: Style;
  readonly mount: Mount;
  readonly method: HttpMethod;
  /** Path pattern with `:name` parameters, e.g. `/escrow/:id/release`. */
  readonly path: string;
  /** 'optional': a key is used when sent (B's first faucet claim needs none). */
  readonly auth: 'none' | 'bearer' | 'optional';
  readonly limits?: RouteLimits;
  /** One line for the endpoint list (docs/endpoints.md) and the OpenAPI summary. */
  readonly summary: string;
  /** The status of a success: 201 for rows that create a resource, 200 otherwise. */
  readonly successStatus: 200 | 201;
  parse(input: RouteInput, context: RouteContext): C | Failure;
  run(context: RouteContext, command: C): Outcome<O>;
  /** The success body, a fresh object per call (the dispatcher adds `_info` to it in place). */
  render(value: O, context: RouteContext): JsonObject;
  /**
   * What the command log of afp serve --data keeps of a request's body (src/server/recovery.ts);
   * absent: the body as sent. Rows whose bodies carry secrets replace them here (the wallet's
   * sends: no key at rest). `value` is the row's success value, undefined when it refused.
   */
  logBody?(body: unknown, value: O | undefined): unknown;
}

/** A row with its types erased, as stored in tables. */
export type Route = RouteSpec<unknown, unknown>;

/** Erases a row's command and outcome types so rows of many shapes share one table. */
export function defineRoute<C, O>(spec: RouteSpec<C, O>): Route {
  return spec as unknown as Route;
}
