/**
 * The request path of `afp serve --dialect deployed`: the same Platform and route rows as every
 * afp dispatcher, answered on the deployment's wire (spec/DEPLOYED.md §1, §2.12, §3, §4).
 *
 * Order (each step answers at most once), as the deployment's middleware runs:
 *   1. timers due by now run;
 *   2. the row is matched; no row (or another method) → 404 in the service's own shape;
 *   3. the per-IP fixed window of the row's service and path (ip = first X-Forwarded-For entry,
 *      else X-Real-IP, else `unknown`; over HTTP these headers count only from a --trust-proxy peer,
 *      else the edge replaces them by the socket's address: src/http/server.ts) → 429 `rate_limited`;
 *   4. a scenario fault window → 503 / 500;
 *   5. body errors → 400 `invalid_json` (413 `payload_too_large`);
 *   6. bearer auth → 401 in the service's shape (REFUSALS_BY_SERVICE); on a service with keys of its
 *      own only its prefix is read (service-keys.ts);
 *   7. the agent's bucket (`games`, `batch`) → 429 `rate_limit_exceeded` with `reset_at`;
 *   8. the row parses (unknown fields were already dropped by the deployed rows), the faucet's
 *      per-IP claim cooldown (429 `ip_rate_limited`), the row runs and renders.
 * Every JSON object body gets the deployment's `_info`; errors are `{ error, message, ...extras }`
 * (deployed-errors.ts); the only header is `content-type: application/json; charset=UTF-8` (no
 * X-RateLimit-*, no Retry-After). The platform's own limiter is not charged: these are the
 * deployment's limits, and only these.
 * Limits: the window tables are bounded (fixed-windows.ts). Non-goals: CORS. A tool call of the
 * deployed `/mcp` (src/server/mcp.ts) is a request with `door: 'mcp'`, which only the deployment's MCP
 * defects read (the claim cooldown here; the release in routes/deployed/escrow.ts).
 */
import { isFailure, type Failure, type JsonObject } from '../../core/errors.ts';
import type { Platform, ServiceName } from '../../platform/platform.ts';
import type { Agent } from '../../services/shared/agents.ts';
import { Dispatcher, type ApiResponse, type DispatchRequest } from '../dispatcher.ts';
import type { Mount, Route, RouteContext, RouteInput } from '../route.ts';
import { deployedFailure, deployedRefusal } from './deployed-errors.ts';
import { deployedInfo } from './deployed-info.ts';
import { deployedPath } from './deployed-wire.ts';
import { FloatBalances } from './float-balances.ts';
import {
  AGENT_BUCKET_LIMITS,
  agentBucketMessage,
  deployedLimitOf,
  perIpMessage,
  WINDOW_MS,
  type DeployedLimit,
} from './deployed-limits.ts';
import { FixedWindows } from './fixed-windows.ts';
import { platformAuthorization } from './service-keys.ts';

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json; charset=UTF-8',
});
const NO_STRINGS: Readonly<Record<string, string>> = Object.freeze({});

/** The originating IP as the deployment reads it (§1.3). */
export function deployedIp(headers: Readonly<Record<string, string>> | undefined): string {
  const forwarded = headers?.['x-forwarded-for'];
  if (forwarded !== undefined) {
    const first = forwarded.split(',')[0]?.trim() ?? '';
    if (first !== '') return first;
  }
  const real = headers?.['x-real-ip']?.trim();
  return real === undefined || real === '' ? 'unknown' : real;
}

function serviceOf(mount: Mount): ServiceName {
  return mount === 'api' ? 'casino' : mount;
}

export interface DeployedDispatcherOptions {
  /**
   * Write the casino's money as the deployment does (JS doubles with their rounding noise; `amount_won`,
   * `new_balance`, batch `balance_after` rounded to 2 dp): `afp serve --dialect deployed --float-money`.
   */
  readonly floatMoney?: boolean;
  /**
   * Tests only (`afp serve --lift-deployed-limits`): the per-IP windows and the per-agent buckets are
   * not applied; a tier cannot lift them, the deployment has no tiers.
   */
  readonly limitsLifted?: boolean;
}

export class DeployedDispatcher extends Dispatcher {
  private readonly limitsByRoute: ReadonlyMap<string, DeployedLimit>;
  private readonly ipWindows = new FixedWindows();
  private readonly agentWindows = new FixedWindows();
  private readonly claimCooldowns = new FixedWindows();

  /** Present with `floatMoney` (afp serve --float-money): the casino's balances as doubles. */
  private readonly floatBalances: FloatBalances | null;

  constructor(
    platform: Platform,
    routes: readonly Route[],
    options: DeployedDispatcherOptions = { floatMoney: false },
  ) {
    super(platform, routes);
    this.floatBalances = options.floatMoney === true ? new FloatBalances() : null;
    const limits = new Map<string, DeployedLimit>();
    for (const route of routes) {
      const limit = deployedLimitOf(route);
      if (limit === null) continue;
      limits.set(
        route.id,
        options.limitsLifted === true ? { ...limit, perIpPerMinute: null, agentBucket: null } : limit,
      );
    }
    this.limitsByRoute = limits;
  }

  override dispatch(request: DispatchRequest, nowMs: number): ApiResponse {
    const platform = this.platform;
    platform.advanceTo(nowMs);
    const service = serviceOf(request.mount);
    const match = this.router.match(request.mount, request.method, request.path);
    if (match.kind !== 'found') return answer(404, notFoundBody(service, request.method, request.path), service, null);
    const route = match.route;
    const limit = this.limitsByRoute.get(route.id) ?? null;
    const ip = deployedIp(request.headers);
    if (
      limit?.perIpPerMinute != null &&
      !this.ipWindows.hit(`${request.mount}:${request.path}:${ip}`, limit.perIpPerMinute, WINDOW_MS, nowMs).allowed
    ) {
      return refuse(deployedFailure(429, 'rate_limited', perIpMessage(limit.perIpPerMinute)), service, route.id);
    }
    const fault = platform.activeFault(service, nowMs);
    if (fault !== undefined) {
      return fault.status === 503
        ? refuse(deployedFailure(503, 'service_unavailable', `${service} is temporarily offline`), service, route.id)
        : refuse(deployedFailure(500, 'internal_error', 'Internal server error'), service, route.id);
    }
    if (request.bodyFailure !== undefined) return refuse(bodyRefusal(request.bodyFailure), service, route.id);
    const authorization = platformAuthorization(service, request.headers?.['authorization']);
    const identified =
      authorization === 'invalid'
        ? 'invalid'
        : request.credential === undefined
          ? platform.identify(authorization)
          : platform.identifyCredential(request.credential);
    const caller: Agent | null = typeof identified === 'object' && identified !== null ? identified.agent : null;
    if ((route.auth === 'bearer' && caller === null) || (route.auth === 'optional' && identified === 'invalid')) {
      return answer(401, unauthorizedBody(service, identified === 'invalid'), service, route.id);
    }
    if (limit?.agentBucket != null && caller !== null) {
      const window = this.agentWindows.hit(
        `${caller.id}:${limit.agentBucket}`,
        AGENT_BUCKET_LIMITS[limit.agentBucket],
        WINDOW_MS,
        nowMs,
      );
      if (!window.allowed) {
        return refuse(
          deployedFailure(429, 'rate_limit_exceeded', agentBucketMessage(limit.agentBucket), {
            reset_at: new Date(window.resetAtMs).toISOString(),
          }),
          service,
          route.id,
        );
      }
    }
    const context: RouteContext = {
      platform,
      nowMs,
      caller: route.auth === 'none' ? null : caller,
      ip,
      ...(this.floatBalances === null ? {} : { floatBalances: this.floatBalances }),
      door: request.door,
    };
    return this.runRow(route, match.params, request, context, limit);
  }

  private runRow(
    route: Route,
    params: Readonly<Record<string, string>>,
    request: DispatchRequest,
    context: RouteContext,
    limit: DeployedLimit | null,
  ): ApiResponse {
    const service = route.service;
    const input: RouteInput = { params, query: request.query ?? NO_STRINGS, body: request.body };
    const command = route.parse(input, context);
    if (isFailure(command)) return refuse(command, service, route.id);
    // DEFECT 'mcp-claim-skips-ip-cooldown' (the deployment's MCP claim_faucet, DEPLOYED.md §3; tests
    // and demos only): a claim through /mcp neither meets nor starts the per-IP cooldown.
    const skipsCooldown = context.door === 'mcp' && context.platform.context.defects.has('mcp-claim-skips-ip-cooldown');
    const cooldownKey = limit?.ipClaimCooldownMs != null && !skipsCooldown ? `claim:${context.ip}` : null;
    if (cooldownKey !== null && this.claimCooldowns.isOpen(cooldownKey, context.nowMs)) {
      return refuse(
        deployedFailure(429, 'ip_rate_limited', 'This IP address already claimed from the faucet in the last 24 hours'),
        service,
        route.id,
      );
    }
    const outcome = route.run(context, command);
    if (!outcome.ok) return refuse(outcome, service, route.id);
    if (cooldownKey !== null && limit?.ipClaimCooldownMs != null)
      this.claimCooldowns.hit(cooldownKey, 1, limit.ipClaimCooldownMs, context.nowMs);
    return answer(route.successStatus, route.render(outcome.value, context), service, route.id);
  }
}

function answer(status: number, body: JsonObject, service: ServiceName, routeId: string | null): ApiResponse {
  body['_info'] = deployedInfo(service);
  return { status, headers: { ...JSON_HEADERS }, body, routeId };
}

function refuse(failure: Failure, service: ServiceName, routeId: string | null): ApiResponse {
  const { status, body } = deployedRefusal(failure, service);
  return answer(status, body, service, routeId);
}

/** Transport-level body errors (afp's body reader) in the deployment's names. */
function bodyRefusal(failure: Failure): Failure {
  if (failure.status === 413) return deployedFailure(413, 'payload_too_large', failure.message);
  return deployedFailure(400, 'invalid_json', failure.message);
}

/** A service's own 404 and 401 bodies (§1.2): one row a service, as the deployment's services answer differently. */
interface ServiceRefusals {
  /** The docs path a 404 names with its route; null: the bare `{ error: 'not_found' }`. */
  readonly notFoundDocs: string | null;
  /** 401 without a key (or without the Bearer form). */
  readonly unauthorized: JsonObject;
  /** 401 for a key the service does not know. */
  readonly invalidKey: JsonObject;
}

const CASINO_REFUSALS: ServiceRefusals = {
  notFoundDocs: deployedPath('casino.deployed.docs'),
  unauthorized: {
    error: 'unauthorized',
    message: 'Missing or invalid Authorization header. Use: Bearer {api_key}',
    suggestion: 'Register first: POST /api/v1/auth/register returns your api_key',
  },
  invalidKey: { error: 'unauthorized', message: 'Invalid API key' },
};
/** Trading's and the domains' 401: how to authenticate, or `invalid_key` for an unknown key. */
const OWN_KEY_UNAUTHORIZED = {
  unauthorized: { error: 'unauthorized', message: 'Provide Authorization: Bearer <api_key>' },
  invalidKey: { error: 'invalid_key' },
};

/** Faucet and escrow say only `not_found`; escrow's 401 only `unauthorized`; trading's and the wallet's 404 are the casino's; the wallet's 401 too (§1.2). */
const REFUSALS_BY_SERVICE: Readonly<Record<ServiceName, ServiceRefusals>> = {
  casino: CASINO_REFUSALS,
  wallet: CASINO_REFUSALS,
  faucet: { ...CASINO_REFUSALS, notFoundDocs: null },
  escrow: { notFoundDocs: null, unauthorized: { error: 'unauthorized' }, invalidKey: { error: 'unauthorized' } },
  trading: { notFoundDocs: deployedPath('casino.deployed.docs'), ...OWN_KEY_UNAUTHORIZED },
  domains: { notFoundDocs: deployedPath('domains.deployed.docs'), ...OWN_KEY_UNAUTHORIZED },
};

function notFoundBody(service: ServiceName, method: string, path: string): JsonObject {
  const docs = REFUSALS_BY_SERVICE[service].notFoundDocs;
  if (docs === null) return { error: 'not_found' };
  return { error: 'not_found', message: `${method} ${path.slice(0, 200)} not found`, docs, openapi: '/openapi.json' };
}

/** A fresh copy of the service's 401 body (answer() adds `_info` to the body it is given). */
function unauthorizedBody(service: ServiceName, invalidKey: boolean): JsonObject {
  const refusals = REFUSALS_BY_SERVICE[service];
  return structuredClone(invalidKey ? refusals.invalidKey : refusals.unauthorized);
}
