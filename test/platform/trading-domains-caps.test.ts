// The trading and domains rate caps of issue 20 (points 5 and 8) with the default configuration,
// on the limiter itself (the route tests show the bursts through the dispatcher): style-B trading
// refills 120 a minute after its burst of 200 and counts order placement against 50,000 a day
// (other trading rows are not counted); style-B domains refills 30 a minute after its burst of 50
// and stops at 1,000 a day. An Enterprise agent, so the tier bucket never binds.
import { describe, expect, test } from 'vitest';
import type { RouteLimits } from '../../src/platform/route-limits.ts';
import { RateLimiter, type LimitRequest } from '../../src/platform/rate-limiter.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';

const T0 = Date.parse('2025-03-03T00:00:00.000Z');
const ORDER_B: RouteLimits = { serviceRowB: true, endpointDaily: 'trading.order' };
const ROW_B: RouteLimits = { serviceRowB: true };

function caller(service: 'trading' | 'domains', limits: RouteLimits): LimitRequest {
  return { identity: 'agent:enterprise-1', tier: 'enterprise', ip: '10.0.0.9', service, limits };
}

/** How many of `count` requests spaced `stepMs` apart from `fromMs` are allowed; and the first refusal. */
function spaced(
  limiter: RateLimiter,
  request: LimitRequest,
  count: number,
  fromMs: number,
  stepMs: number,
): { allowed: number; firstRefusedScope: string | null } {
  let allowed = 0;
  let firstRefusedScope: string | null = null;
  for (let index = 0; index < count; index++) {
    const decision = limiter.charge(request, fromMs + index * stepMs);
    if (decision.allowed) allowed++;
    else firstRefusedScope ??= decision.scope;
  }
  return { allowed, firstRefusedScope };
}

describe('trading caps (style B)', () => {
  test('a burst of 200 at one instant, then 120 a minute', () => {
    const limiter = new RateLimiter(DEFAULT_CONFIG.limits);
    expect(spaced(limiter, caller('trading', ROW_B), 250, T0, 0)).toEqual({
      allowed: 200,
      firstRefusedScope: 'service:trading',
    });
    // One minute later 120 tokens came back, not more.
    expect(spaced(limiter, caller('trading', ROW_B), 150, T0 + 60_000, 0).allowed).toBe(120);
  });

  test('order placement stops at 50,000 a day; other trading rows go on; the next day orders pass again', () => {
    const limiter = new RateLimiter(DEFAULT_CONFIG.limits);
    // 100 a minute stays under the 120-a-minute row: only the day count can bind.
    const orders = spaced(limiter, caller('trading', ORDER_B), 50_010, T0, 600);
    expect(orders).toEqual({ allowed: 50_000, firstRefusedScope: 'endpoint:trading.order' });
    const afterMs = T0 + 50_010 * 600;
    expect(limiter.charge(caller('trading', ROW_B), afterMs).allowed).toBe(true);
    expect(limiter.charge(caller('trading', ORDER_B), T0 + 86_400_000).allowed).toBe(true);
  });
});

describe('domains caps (style B)', () => {
  test('a burst of 50 at one instant, then 30 a minute', () => {
    const limiter = new RateLimiter(DEFAULT_CONFIG.limits);
    expect(spaced(limiter, caller('domains', ROW_B), 60, T0, 0)).toEqual({
      allowed: 50,
      firstRefusedScope: 'service:domains',
    });
    expect(spaced(limiter, caller('domains', ROW_B), 40, T0 + 60_000, 0).allowed).toBe(30);
  });

  test('1,000 a day, then 429 until the next day', () => {
    const limiter = new RateLimiter(DEFAULT_CONFIG.limits);
    // One every 2 s: the 30-a-minute rate, so only the day count can bind.
    const day = spaced(limiter, caller('domains', ROW_B), 1_010, T0, 2_000);
    expect(day.allowed).toBe(1_000);
    expect(day.firstRefusedScope).toBe('service-daily:domains');
    expect(limiter.charge(caller('domains', ROW_B), T0 + 86_400_000).allowed).toBe(true);
  });
});
