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
 *   7. the row parses (400), runs (domain outcome), renders.
 * Every response carries the X-RateLimit-* headers and, for JSON objects, `_info`.
 * No sockets, no Request/Response objects, no JSON text here.
 *
 * Hot path (every simulated request comes through here): no closures, copies or string building
 * per request on the normal path. The caller's limiter identity comes memoized with its key
 * (Platform.identify); headers are one object literal; `_info` is added in place to the body a
 * row just rendered (rows return a fresh object per call, as their tests check), which gives the
 * same keys in the same order as copying it.
 */
import { fail, failWithStatus, type Failure, type JsonObject } from '../core/errors.ts';
import { INFO, PLATFORM_INFO } from '../platform/info.ts';
import type { Platform, ServiceName } from '../platform/platform.ts';
import { limiterIdentityOfIp, type LimitDecision } from '../platform/rate-limiter.ts';
import type { Agent } from '../services/shared/agents.ts';
import { Router } from './router.ts';
import type { Mount, Route, RouteContext } from './route.ts';

/** A request as the dispatcher sees it; header names are lower-case. */
export interface ApiRequest {
  readonly mount: Mount;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body, or undefined. */
  readonly body?: unknown;
  /** Set by the HTTP edge when the body could not be read (malformed JSON, too large, wrong type). */
  readonly bodyFailure?: Failure;
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

export class Dispatcher {
  readonly platform: Platform;
  readonly router: Router;

  constructor(platform: Platform, routes: readonly Route[]) {
    this.platform = platform;
    this.router = new Router(routes);
  }

  handle(request: ApiRequest, nowMs: number): ApiResponse {
    const platform = this.platform;
    platform.advanceTo(nowMs);
    const match = this.router.match(request.mount, request.method, request.path);
    const route = match.kind === 'found' ? match.route : null;
    const service: ServiceName | null = route !== null ? route.service : request.mount === 'api' ? null : request.mount;
    const identified = platform.identify(request.headers['authorization']);
    const authenticated = typeof identified === 'object' ? identified : null;
    const caller: Agent | null = authenticated === null ? null : authenticated.agent;
    const tier = caller === null ? 'free' : caller.tier;

    const decision = platform.limiter.charge(
      {
        identity: authenticated === null ? limiterIdentityOfIp(request.ip) : authenticated.limiterIdentity,
        tier,
        ip: request.ip,
        service,
        style: route === null ? null : route.style,
        limits: route === null ? undefined : route.limits,
        handle: authenticated === null ? undefined : authenticated.limiterHandle,
      },
      nowMs,
    );
    const answer: Answer = { decision, info: service === null ? PLATFORM_INFO : INFO[service], routeId: route === null ? null : route.id };

    if (!decision.allowed) {
      const response = respond(answer, 429, platform.limiter.rejectionBody(decision, tier));
      response.headers['retry-after'] = String(decision.retryAfterSeconds);
      return response;
    }
    if (service !== null) {
      const fault = platform.activeFault(service, nowMs);
      if (fault !== undefined) {
        return failure(answer, fault.status === 503 ? fail('SERVICE_UNAVAILABLE', `${service} is temporarily offline`) : fail('INTERNAL_ERROR', `${service} failed`));
      }
    }
    if (match.kind === 'not-found') return failure(answer, fail('NOT_FOUND', `no route for ${request.method} ${request.path}`));
    if (match.kind === 'method-not-allowed') {
      const allowed = match.allowed.join(', ');
      const response = failure(answer, failWithStatus(405, 'BAD_REQUEST', `${request.method} is not allowed on ${request.path}; allowed: ${allowed}`));
      response.headers['allow'] = allowed;
      return response;
    }
    if (request.bodyFailure !== undefined) return failure(answer, request.bodyFailure);
    const matched = match.route;
    if (matched.auth === 'bearer' && caller === null) {
      return failure(answer, fail('UNAUTHORIZED', identified === 'invalid' ? 'invalid API key' : 'missing API key: send Authorization: Bearer <api_key>'));
    }
    if (matched.auth === 'optional' && identified === 'invalid') return failure(answer, fail('UNAUTHORIZED', 'invalid API key'));

    const context: RouteContext = { platform, nowMs, caller: matched.auth === 'none' ? null : caller, ip: request.ip };
    const command = matched.parse({ params: match.params, query: request.query, body: request.body }, context);
    if (isFailureValue(command)) return failure(answer, command);
    const outcome = matched.run(context, command);
    if (!outcome.ok) return failure(answer, outcome);
    const rendered = matched.render(outcome.value, context);
    return respond(answer, rendered.status, rendered.body);
  }
}

/** What every response of one request shares: the limiter's decision, `_info`, the row. */
interface Answer {
  readonly decision: LimitDecision;
  readonly info: Readonly<JsonObject>;
  readonly routeId: string | null;
}

/** The response; `body` must be fresh (it receives `_info`), headers may be added by the caller. */
function respond(answer: Answer, status: number, body: JsonObject): ApiResponse {
  body['_info'] = answer.info;
  return { status, headers: rateLimitHeaders(answer.decision), body, routeId: answer.routeId };
}

function failure(answer: Answer, value: Failure): ApiResponse {
  const body: JsonObject = value.extra === undefined ? { error: value.message, code: value.code } : { error: value.message, code: value.code, ...value.extra };
  return respond(answer, value.status, body);
}

function isFailureValue(value: unknown): value is Failure {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

/** Every answer is JSON; the rate-limit headers of platform.md Limits rule 4 on every response. */
export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-ratelimit-limit': integerText(decision.limit),
    'x-ratelimit-remaining': integerText(decision.remaining),
    'x-ratelimit-reset': resetText(decision.resetAtSeconds),
  };
}

/**
 * Header values repeat: limits are a handful of numbers, remaining counts are small, and the
 * reset second is shared by every answer within that second. Interned texts spare two string
 * allocations per request on the hot path.
 */
const SMALL_INTEGER_TEXT: readonly string[] = Array.from({ length: 4096 }, (_, index) => String(index));
function integerText(value: number): string {
  return value >= 0 && value < SMALL_INTEGER_TEXT.length ? (SMALL_INTEGER_TEXT[value] as string) : String(value);
}

let lastResetSeconds = -1;
let lastResetText = '';
function resetText(seconds: number): string {
  if (seconds !== lastResetSeconds) {
    lastResetSeconds = seconds;
    lastResetText = String(seconds);
  }
  return lastResetText;
}
