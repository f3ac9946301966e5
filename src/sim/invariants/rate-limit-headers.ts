/**
 * Invariant `rate-limit-headers`: every response carries X-RateLimit-Limit, -Remaining and -Reset,
 * and they say what the limiter holds right after the request: the same values
 * `platform.limiter.peek` reports for the same identity and route at the same instant. A 429 also
 * carries Retry-After (>= 1 s), reports 0 remaining, and the limiter indeed has no room.
 *
 * The identity and buckets are derived exactly as the dispatcher derives them (valid key → the
 * agent and its tier, otherwise the originating IP on the free tier; the matched row's service,
 * style and limits), so a header that drifts from the limiter's state is caught.
 */
import type { LimitRequest } from '../../platform/rate-limiter.ts';
import type { Agent } from '../../services/shared/agents.ts';
import type { CheckerContext, Exchange, InvariantDefinition, Violation } from './checker.ts';
import { exchangeText } from './exchange-text.ts';

/** Keys never change owner, so a resolved key is remembered (hashing every request costs). */
function callerOf(context: CheckerContext, known: Map<string, Agent>, authorization: string | undefined): Agent | null {
  if (authorization === undefined) return null;
  const remembered = known.get(authorization);
  if (remembered !== undefined) return remembered;
  const identified = context.platform.authenticate(authorization);
  if (typeof identified !== 'object' || identified === null) return null;
  known.set(authorization, identified);
  return identified;
}

function limitRequestOf(context: CheckerContext, known: Map<string, Agent>, exchange: Exchange): LimitRequest {
  const { request, route } = exchange;
  const caller = callerOf(context, known, request.headers['authorization']);
  return {
    identity: caller === null ? `ip:${request.ip}` : `agent:${caller.id}`,
    tier: caller?.tier ?? 'free',
    ip: request.ip,
    service: route?.service ?? (request.mount === 'api' ? null : request.mount),
    limits: route?.limits,
  };
}

function mismatch(exchange: Exchange, message: string): Violation {
  return { atMs: exchange.atMs, event: exchangeText(exchange), message };
}

export const rateLimitHeaders: InvariantDefinition = {
  name: 'rate-limit-headers',
  description: 'X-RateLimit-* headers on every response equal the limiter state right after the request',
  create(context) {
    const known = new Map<string, Agent>();
    return {
      onExchange(exchange) {
        const headers = exchange.response.headers;
        const shown = {
          limit: headers['x-ratelimit-limit'],
          remaining: headers['x-ratelimit-remaining'],
          reset: headers['x-ratelimit-reset'],
        };
        if (shown.limit === undefined || shown.remaining === undefined || shown.reset === undefined) {
          return mismatch(exchange, 'response lacks an X-RateLimit-Limit, -Remaining or -Reset header');
        }
        const peeked = context.platform.limiter.peek(limitRequestOf(context, known, exchange), exchange.atMs);
        if (exchange.response.status === 429) {
          const retryAfter = Number(headers['retry-after']);
          if (!Number.isSafeInteger(retryAfter) || retryAfter < 1)
            return mismatch(
              exchange,
              `429 without a Retry-After of at least 1 s (got ${headers['retry-after'] ?? 'none'})`,
            );
          if (shown.remaining !== '0' || peeked.remaining !== 0) {
            return mismatch(
              exchange,
              `429 reports ${shown.remaining} remaining; the limiter holds ${peeked.remaining}`,
            );
          }
          return null;
        }
        const expected = {
          limit: String(peeked.limit),
          remaining: String(peeked.remaining),
          reset: String(peeked.resetAtSeconds),
        };
        if (shown.limit === expected.limit && shown.remaining === expected.remaining && shown.reset === expected.reset)
          return null;
        return mismatch(
          exchange,
          `headers say limit ${shown.limit}, remaining ${shown.remaining}, reset ${shown.reset}; the limiter says ${expected.limit}, ${expected.remaining}, ${expected.reset}`,
        );
      },
    };
  },
};
