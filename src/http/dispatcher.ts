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
 */
import { fail, failWithStatus, type Failure, type JsonObject } from '../core/errors.ts';
import { INFO, PLATFORM_INFO } from '../platform/info.ts';
import type { Platform, ServiceName } from '../platform/platform.ts';
import type { LimitDecision } from '../platform/rate-limiter.ts';
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
    const service: ServiceName | null = route?.service ?? (request.mount === 'api' ? null : request.mount);
    const identified = platform.authenticate(request.headers['authorization']);
    const caller: Agent | null = typeof identified === 'object' ? identified : null;

    const decision = platform.limiter.charge(
      {
        identity: caller === null ? `ip:${request.ip}` : `agent:${caller.id}`,
        tier: caller?.tier ?? 'free',
        ip: request.ip,
        service,
        style: route?.style ?? null,
        limits: route?.limits,
      },
      nowMs,
    );
    const info = service === null ? PLATFORM_INFO : INFO[service];
    const respond = (status: number, body: JsonObject, extraHeaders?: Record<string, string>): ApiResponse => ({
      status,
      headers: { ...rateLimitHeaders(decision), ...extraHeaders },
      body: { ...body, _info: info },
      routeId: route?.id ?? null,
    });
    const failure = (value: Failure, extraHeaders?: Record<string, string>): ApiResponse =>
      respond(value.status, { error: value.message, code: value.code, ...value.extra }, extraHeaders);

    if (!decision.allowed) {
      return respond(429, platform.limiter.rejectionBody(decision, caller?.tier ?? 'free'), { 'retry-after': String(decision.retryAfterSeconds) });
    }
    if (service !== null) {
      const fault = platform.activeFault(service, nowMs);
      if (fault !== undefined) {
        return failure(fault.status === 503 ? fail('SERVICE_UNAVAILABLE', `${service} is temporarily offline`) : fail('INTERNAL_ERROR', `${service} failed`));
      }
    }
    if (match.kind === 'not-found') return failure(fail('NOT_FOUND', `no route for ${request.method} ${request.path}`));
    if (match.kind === 'method-not-allowed') {
      return failure(failWithStatus(405, 'BAD_REQUEST', `${request.method} is not allowed on ${request.path}; allowed: ${match.allowed.join(', ')}`), { allow: match.allowed.join(', ') });
    }
    if (request.bodyFailure !== undefined) return failure(request.bodyFailure);
    const matched = match.route;
    if (matched.auth === 'bearer' && caller === null) {
      return failure(fail('UNAUTHORIZED', identified === 'invalid' ? 'invalid API key' : 'missing API key: send Authorization: Bearer <api_key>'));
    }
    if (matched.auth === 'optional' && identified === 'invalid') return failure(fail('UNAUTHORIZED', 'invalid API key'));

    const context: RouteContext = { platform, nowMs, caller: matched.auth === 'none' ? null : caller, ip: request.ip };
    const command = matched.parse({ params: match.params, query: request.query, body: request.body }, context);
    if (isFailureValue(command)) return failure(command);
    const outcome = matched.run(context, command);
    if (!outcome.ok) return failure(outcome);
    const rendered = matched.render(outcome.value, context);
    return respond(rendered.status, rendered.body);
  }
}

function isFailureValue(value: unknown): value is Failure {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetAtSeconds),
  };
}
