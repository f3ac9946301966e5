/**
 * Dispatcher: the one request path of afp, shared by the in-process transport and `afp serve`.
 *
 * Order of the shared rules (each step answers at most once, in this precedence):
 *   1. timers due by now run (escrow expiry happens at its instant, before any request then);
 *   2. the route is matched (404 / 405 are still counted by the limiter: every request counts);
 *   3. the caller is identified (valid key → agent, otherwise the originating IP) and charged;
 *      429 when a bucket is empty;
 *   4. a scenario fault window answers 503 / 500;
 *   5. transport-level body errors (malformed JSON 400, wrong content type 415, too large 413);
 *   6. bearer auth: 401 for a missing or unknown key;
 *   7. the row parses (400), runs (domain outcome), renders its body; a success answers the row's
 *      `successStatus`.
 * Every response carries the X-RateLimit-* headers and, for JSON objects, `_info`.
 * No sockets, no Request/Response objects, no JSON text here.
 * `lastReach` says how far the last `dispatch` went (afp serve --data logs by it, recovery.ts):
 * REACH_NOTHING — the limiter answered unlimited (no bucket applies, none visited) and no row ran:
 * nothing but due timers changed; REACH_LIMITER — buckets were charged or refilled, no row was
 * called (429, fault, 404/405, body failure, 401): only the limiter changed; REACH_ROW — the row's
 * parse was called (it may run and change anything). A request with a `bodyFailure` never gets
 * past step 5, whatever else it carries: the log's charge-only entries replay through that.
 *
 * Hot path (every simulated request comes through here): no closures or string building per
 * request on the normal path. The caller's limiter identity comes memoized with its key
 * (Platform.identify). The limiter's decision is turned into the headers at once. Each request
 * gets its own RouteInput and RouteContext, which a row may keep. `_info` is added in place to the body a row just rendered (rows return a fresh
 * object per call, as their tests check), which gives the same keys in the same order as copying it.
 */
import { fail, failWithStatus, isFailure, type Failure, type JsonObject } from '../core/errors.ts';
import { infoOf } from '../platform/info.ts';
import type { AuthenticatedCaller, Credential, Platform, ServiceName } from '../platform/platform.ts';
import { limiterIdentityOfIp, type LimitDecision } from '../platform/rate-limiter.ts';
import type { Agent } from '../services/shared/agents.ts';
import { Router } from './router.ts';
import type { Mount, Route, RouteContext, RouteInput } from './route.ts';

/**
 * A request as the dispatcher takes it; header names are lower-case. The in-process transport's
 * own request has this shape, so it is handed over as is (no copy per request); the originating
 * IP, which the transport or the HTTP edge decides, comes beside it (`handle`'s `ip`).
 */
export interface DispatchRequest {
  readonly mount: Mount;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  /** Absent = none. */
  readonly query?: Readonly<Record<string, string>>;
  /** Absent = none. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Parsed JSON body, or undefined. */
  readonly body?: unknown;
  /** Set by the HTTP edge when the body could not be read (malformed JSON, too large, wrong type). */
  readonly bodyFailure?: Failure;
  /**
   * The caller, already resolved (afp serve --data's replay: the log keeps the key's hash, never
   * the header); when set, it is used instead of the Authorization header.
   */
  readonly credential?: Credential;
  /**
   * The door the request came through: absent for HTTP, `mcp` for a tool call of a listener's /mcp
   * endpoint (src/server/mcp.ts). Only the deployment's MCP defects read it (RouteContext.door).
   */
  readonly door?: 'mcp';
}

/** A request with everything resolved: the HTTP edge's, the command log's, the invariant checkers'. */
export interface ApiRequest extends DispatchRequest {
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly ip: string;
}

export interface ApiResponse {
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Record<string, string>;
  readonly body: JsonObject;
  /** The row that answered, when one matched (reports count per endpoint and style). */
  readonly routeId: string | null;
}

const NO_STRINGS: Readonly<Record<string, string>> = Object.freeze({});

/** How far a dispatch went: see the header (`Dispatcher.lastReach`). */
export type DispatchReach = typeof REACH_NOTHING | typeof REACH_LIMITER | typeof REACH_ROW;
export const REACH_NOTHING = 0;
export const REACH_LIMITER = 1;
export const REACH_ROW = 2;
const UNLIMITED_SCOPE = 'unlimited';

export class Dispatcher {
  readonly platform: Platform;
  readonly router: Router;
  /** True only while `replaying` runs: the rows' RouteContext.replaying. */
  private replayingLog = false;
  /** How far the last `dispatch` went (the header); valid until the next one. */
  lastReach: DispatchReach = REACH_NOTHING;
  /** The row the last `dispatch` matched (null: none) and its success value (undefined: refused): the command log's `logBody`. */
  lastRoute: Route | null = null;
  lastValue: unknown = undefined;

  constructor(platform: Platform, routes: readonly Route[]) {
    this.platform = platform;
    this.router = new Router(routes);
  }

  /**
   * Runs `answer` with the rows told they replay a command log (RouteContext.replaying): a logged
   * wallet send names its verified sender instead of its key. Only recovery's replay calls it.
   */
  protected replaying<T>(answer: () => T): T {
    this.replayingLog = true;
    try {
      return answer();
    } finally {
      this.replayingLog = false;
    }
  }

  /** Answers a resolved request (the HTTP edge's, MCP's, tests'): `dispatch` with its own IP. */
  handle(request: ApiRequest, nowMs: number): ApiResponse {
    return this.dispatch(request, nowMs, request.ip);
  }

  /**
   * Answers `request`, sent from `ip` (the originating address), at `nowMs`: the one request path
   * (subclasses that watch every request override this). The in-process transport calls it with
   * its own request object.
   */
  dispatch(request: DispatchRequest, nowMs: number, ip: string): ApiResponse {
    const platform = this.platform;
    this.lastRoute = null;
    this.lastValue = undefined;
    platform.advanceTo(nowMs);
    const match = this.router.match(request.mount, request.method, request.path);
    const route = match.kind === 'found' ? match.route : null;
    this.lastRoute = route;
    const service: ServiceName | null = route !== null ? route.service : request.mount === 'api' ? null : request.mount;
    const identified =
      request.credential === undefined
        ? platform.identify(request.headers?.['authorization'])
        : platform.identifyCredential(request.credential);
    const authenticated = typeof identified === 'object' ? identified : null;
    const caller: Agent | null = authenticated === null ? null : authenticated.agent;
    const tier = caller === null ? 'free' : caller.tier;

    // The limiter's decision: what the answer needs of it is taken here, before anything runs.
    const identity = authenticated === null ? limiterIdentityOfIp(ip) : authenticated.identity;
    const limits = route === null ? undefined : route.limits;
    const decision = platform.limiter.charge(
      { identity, tier, ip, service, limits, handle: authenticated ?? undefined },
      nowMs,
    );
    const info = infoOf(service);
    const routeId = route === null ? null : route.id;
    this.lastReach = decision.scope === UNLIMITED_SCOPE ? REACH_NOTHING : REACH_LIMITER;
    if (!decision.allowed)
      return {
        status: 429,
        headers: rejectionHeaders(decision),
        body: platform.limiter.rejectionBody(decision, tier, info),
        routeId,
      };
    const headers = rateLimitHeaders(decision);
    const fault = faultOf(platform, service, nowMs);
    if (fault !== null) return failure(headers, info, routeId, fault);
    if (match.kind === 'not-found')
      return failure(headers, info, routeId, fail('NOT_FOUND', `no route for ${request.method} ${request.path}`));
    if (match.kind === 'method-not-allowed') {
      const allowed = match.allowed.join(', ');
      return failure(
        withAllow(headers, allowed),
        info,
        routeId,
        failWithStatus(405, 'BAD_REQUEST', `${request.method} is not allowed on ${request.path}; allowed: ${allowed}`),
      );
    }
    const matched = match.route;
    const refused = request.bodyFailure ?? keyRefusal(matched, identified, caller);
    if (refused !== null) return failure(headers, info, routeId, refused);

    const context: RouteContext = {
      platform,
      nowMs,
      caller: matched.auth === 'none' ? null : caller,
      ip,
      replaying: this.replayingLog,
    };
    const input: RouteInput = { params: match.params, query: request.query ?? NO_STRINGS, body: request.body };
    this.lastReach = REACH_ROW;
    const command = matched.parse(input, context);
    if (isFailure(command)) return failure(headers, info, routeId, command);
    const outcome = matched.run(context, command);
    if (!outcome.ok) return failure(headers, info, routeId, outcome);
    this.lastValue = outcome.value;
    return respond(headers, info, routeId, matched.successStatus, matched.render(outcome.value, context));
  }
}

/** The failure a service's active fault (afp serve's admin faults) answers with, or null. */
function faultOf(platform: Platform, service: ServiceName | null, nowMs: number): Failure | null {
  if (service === null) return null;
  const fault = platform.activeFault(service, nowMs);
  if (fault === undefined) return null;
  return fault.status === 503
    ? fail('SERVICE_UNAVAILABLE', `${service} is temporarily offline`)
    : fail('INTERNAL_ERROR', `${service} failed`);
}

/** A route's refusal of the caller's key: missing or invalid where one is needed, invalid where one is optional; or null. */
function keyRefusal(
  route: Route,
  identified: AuthenticatedCaller | null | 'invalid',
  caller: Agent | null,
): Failure | null {
  if (route.auth === 'bearer' && caller === null)
    return fail(
      'UNAUTHORIZED',
      identified === 'invalid' ? 'invalid API key' : 'missing API key: send Authorization: Bearer <api_key>',
    );
  if (route.auth === 'optional' && identified === 'invalid') return fail('UNAUTHORIZED', 'invalid API key');
  return null;
}

/** The response; `body` must be fresh (it receives `_info`), headers may be added by the caller. */
function respond(
  headers: Record<string, string>,
  info: Readonly<JsonObject>,
  routeId: string | null,
  status: number,
  body: JsonObject,
): ApiResponse {
  body['_info'] = info;
  return { status, headers, body, routeId };
}

/**
 * A failure's answer: `_info` is written in the body's literal (no property added afterwards).
 * A body with extra fields is built apart (`bodyWithExtra`): its spread makes the result's hidden
 * class by transitions reached only weakly, and a full collection that dropped it invalidated this
 * function's optimized code with it (one answer in five is a failure).
 */
function failure(
  headers: Record<string, string>,
  info: Readonly<JsonObject>,
  routeId: string | null,
  value: Failure,
): ApiResponse {
  const body: JsonObject =
    value.extra === undefined
      ? { error: value.message, code: value.code, _info: info }
      : bodyWithExtra(value, value.extra, info);
  return { status: value.status, headers, body, routeId };
}

function bodyWithExtra(value: Failure, extra: JsonObject, info: Readonly<JsonObject>): JsonObject {
  return { error: value.message, code: value.code, ...extra, _info: info };
}

/** Every answer is JSON; the rate-limit headers of platform.md Limits rule 4 on every response. */
function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetAtSeconds),
  };
}

/** A 405's headers: the rate-limit headers and `Allow`. */
function withAllow(headers: Record<string, string>, allow: string): Record<string, string> {
  return { ...headers, allow };
}

/** A refusal's headers: the rate-limit headers and `Retry-After`. */
function rejectionHeaders(decision: LimitDecision): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetAtSeconds),
    'retry-after': String(decision.retryAfterSeconds),
  };
}
