// RateLimiter: exact behaviour of every bucket of spec/platform.md "Limits" at explicit instants
// (bursts, refill, daily quotas and their UTC reset, per-IP register caps, style-B service rows,
// endpoint daily caps, binding choice, the 429 body, eviction), plus two fast-check properties:
// no 60-second window admits more than capacity + perMinute, and a retry at now + Retry-After passes.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AssertionFailure } from '../../src/core/assert.ts';
import type { RouteLimits } from '../../src/platform/route-limits.ts';
import type { ServiceName } from '../../src/platform/platform.ts';
import {
  LimiterHandle,
  RateLimiter,
  UNLIMITED,
  type LimitDecision,
  type LimitRequest,
  type RateLimiterOptions,
} from '../../src/platform/rate-limiter.ts';
import type { Tier } from '../../src/services/shared/agents.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../../src/services/shared/config.ts';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0); // noon UTC: a whole half day before the daily reset
const MIDNIGHT = Date.UTC(2025, 0, 2);
const REGISTER: RouteLimits = { registerPerIp: true };
const ROW_B: RouteLimits = { serviceRowB: true };
const ESCROW_CREATE_B: RouteLimits = { serviceRowB: true, endpointDaily: 'escrow.create' };

function request(overrides: Partial<LimitRequest> = {}): LimitRequest {
  return { identity: 'ip:10.0.0.1', tier: 'free', ip: '10.0.0.1', service: null, limits: undefined, ...overrides };
}

function agent(id: string, tier: Tier, extra: Partial<LimitRequest> = {}): LimitRequest {
  return request({ identity: `agent:${id}`, tier, ...extra });
}

function serviceB(id: string, service: ServiceName, limits: RouteLimits, tier: Tier = 'free'): LimitRequest {
  return agent(id, tier, { service, limits });
}

function limiter(options?: RateLimiterOptions, config: PlatformConfig['limits'] = DEFAULT_CONFIG.limits): RateLimiter {
  return new RateLimiter(config, options);
}

/** Charges `count` requests at `nowMs` and returns the decisions. */
function burst(rl: RateLimiter, req: LimitRequest, count: number, nowMs: number): LimitDecision[] {
  const decisions: LimitDecision[] = [];
  for (let i = 0; i < count; i += 1) decisions.push(rl.charge(req, nowMs));
  return decisions;
}

describe('tier bucket', () => {
  test('a Free identity bursts 300 at one instant, then gets 429 with a 1 s retry', () => {
    const rl = limiter();
    const decisions = burst(rl, request(), 300, T0);
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(decisions.map((d) => d.remaining)).toEqual(Array.from({ length: 300 }, (_, i) => 299 - i));
    expect(decisions[0]).toMatchObject({ limit: 100, window: '1m', scope: 'tier', tier: 'free', retryAfterSeconds: 0 });
    // After the first request the bucket lacks one token: full again 600 ms later.
    expect(decisions[0]?.resetAtSeconds).toBe(Math.ceil((T0 + 600) / 1000));
    // Empty: full again after 300 tokens × 600 ms.
    expect(decisions[299]?.resetAtSeconds).toBe((T0 + 180_000) / 1000);
    const refused = rl.charge(request(), T0);
    expect(refused).toMatchObject({
      allowed: false,
      limit: 100,
      remaining: 0,
      retryAfterSeconds: 1,
      window: '1m',
      scope: 'tier',
    });
  });

  test('refills 100 per minute: one token exactly 600 ms after emptying', () => {
    const rl = limiter();
    burst(rl, request(), 300, T0);
    expect(rl.charge(request(), T0 + 599).allowed).toBe(false);
    expect(rl.charge(request(), T0 + 600)).toMatchObject({ allowed: true, remaining: 0 });
    expect(rl.charge(request(), T0 + 600).allowed).toBe(false);
    // A minute later 100 more, and only 100.
    const minute = burst(rl, request(), 101, T0 + 60_600);
    expect(minute.filter((d) => d.allowed)).toHaveLength(100);
  });

  test('refused requests consume nothing', () => {
    const rl = limiter();
    burst(rl, request(), 300, T0);
    const refused = burst(rl, request(), 1000, T0 + 599);
    expect(refused.some((d) => d.allowed)).toBe(false);
    expect(rl.charge(request(), T0 + 600).allowed).toBe(true);
    // A refusal by another bucket (the IP's register cap) takes nothing from the tier bucket either.
    const other = agent('a', 'free', { ip: '10.9.9.9', limits: REGISTER });
    burst(rl, other, 10, T0);
    const before = rl.peek(agent('a', 'free'), T0);
    expect(burst(rl, other, 50, T0).some((d) => d.allowed)).toBe(false);
    expect(rl.peek(agent('a', 'free'), T0)).toEqual(before);
    expect(before).toMatchObject({ limit: 100, remaining: 290 });
  });

  test('Pro bursts 3000, refills one token every 60 ms, and is separate from Free identities', () => {
    const rl = limiter();
    const pro = agent('p', 'pro');
    const decisions = burst(rl, pro, 3001, T0);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3000);
    expect(decisions[0]).toMatchObject({ limit: 1000, remaining: 2999, tier: 'pro' });
    expect(decisions[3000]).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(rl.charge(pro, T0 + 59).allowed).toBe(false);
    expect(rl.charge(pro, T0 + 60).allowed).toBe(true);
    expect(rl.charge(agent('f', 'free'), T0)).toMatchObject({ allowed: true, limit: 100, remaining: 299 });
  });

  test('a tier change keeps the bucket level, clamped to the new capacity', () => {
    const rl = limiter();
    burst(rl, agent('a', 'pro'), 100, T0);
    expect(rl.charge(agent('a', 'free'), T0)).toMatchObject({ allowed: true, limit: 100, remaining: 299 });
    burst(rl, agent('a', 'free'), 299, T0);
    expect(rl.charge(agent('a', 'free'), T0).allowed).toBe(false);
    // Upgraded: the empty bucket now refills at the Pro rate (one token per 60 ms).
    expect(rl.charge(agent('a', 'pro'), T0 + 60)).toMatchObject({ allowed: true, limit: 1_000, remaining: 0 });
    // An identity seen only as Enterprise (on a capped route) starts with a full bucket when downgraded.
    rl.charge(serviceB('e', 'faucet', ROW_B, 'enterprise'), T0);
    expect(rl.charge(agent('e', 'free'), T0)).toMatchObject({ allowed: true, scope: 'tier', remaining: 299 });
  });

  test('Enterprise is unlimited: no buckets held, headers report 2147483647 and reset now', () => {
    const rl = limiter();
    const decisions = burst(rl, agent('e', 'enterprise'), 20_000, T0 + 1);
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(decisions[19_999]).toEqual({
      allowed: true,
      limit: UNLIMITED,
      remaining: UNLIMITED,
      resetAtSeconds: T0 / 1000 + 1,
      retryAfterSeconds: 0,
      window: '1m',
      scope: 'unlimited',
      tier: 'enterprise',
      atMs: T0 + 1,
    });
    expect(rl.bucketCount).toBe(0);
    expect(rl.peek(agent('e', 'enterprise'), T0)).toEqual({
      limit: UNLIMITED,
      remaining: UNLIMITED,
      resetAtSeconds: T0 / 1000,
    });
  });
});

describe('daily quota', () => {
  test('Free: 10,000 across minutes, then 429 until UTC midnight, then allowed again', () => {
    const start = Date.UTC(2025, 0, 1, 20, 0, 0); // 10,000 requests at 600 ms take 100 minutes
    const rl = limiter();
    for (let i = 0; i < 10_000; i += 1) {
      const decision = rl.charge(request(), start + i * 600);
      expect(decision.allowed).toBe(true);
      if (i === 9_000) expect(decision).toMatchObject({ scope: 'tier', remaining: 299 });
      if (i === 9_800) expect(decision).toMatchObject({ scope: 'daily', limit: 10_000, window: '1d', remaining: 199 });
    }
    const lastMs = start + 10_000 * 600;
    const refused = rl.charge(request(), lastMs);
    expect(refused).toMatchObject({ allowed: false, scope: 'daily', limit: 10_000, window: '1d', remaining: 0 });
    expect(refused.resetAtSeconds).toBe(MIDNIGHT / 1000);
    expect(refused.retryAfterSeconds).toBe(Math.ceil((MIDNIGHT - lastMs) / 1000));
    expect(rl.charge(request(), MIDNIGHT - 1).allowed).toBe(false);
    expect(rl.charge(request(), MIDNIGHT)).toMatchObject({ allowed: true, scope: 'tier', remaining: 299 });
  });

  test('Enterprise requests are not counted against any daily quota', () => {
    const rl = limiter();
    burst(rl, agent('e', 'enterprise'), 50_000, T0);
    expect(rl.peek(agent('e', 'free'), T0)).toEqual({ limit: 100, remaining: 300, resetAtSeconds: T0 / 1000 });
  });
});

describe('per-endpoint caps', () => {
  test('register: 10 per minute per IP across different keys and tiers; capacity 10, not 30', () => {
    const rl = limiter();
    const tiers: Tier[] = ['free', 'pro', 'enterprise'];
    for (let i = 0; i < 10; i += 1) {
      const decision = rl.charge(agent(`k${i}`, tiers[i % 3] ?? 'free', { ip: '1.2.3.4', limits: REGISTER }), T0);
      expect(decision).toMatchObject({ allowed: true, scope: 'register-ip', limit: 10, remaining: 9 - i });
    }
    const refused = rl.charge(agent('k10', 'enterprise', { ip: '1.2.3.4', limits: REGISTER }), T0);
    expect(refused).toMatchObject({ allowed: false, scope: 'register-ip', limit: 10, retryAfterSeconds: 6 });
    expect(rl.charge(request({ identity: 'ip:1.2.3.4', ip: '1.2.3.4', limits: REGISTER }), T0).allowed).toBe(false);
    expect(rl.charge(request({ identity: 'ip:5.6.7.8', ip: '5.6.7.8', limits: REGISTER }), T0).allowed).toBe(true);
    expect(rl.charge(agent('k0', 'free', { ip: '1.2.3.4' }), T0).allowed).toBe(true); // other routes are unaffected
    expect(rl.charge(request({ ip: '1.2.3.4', limits: REGISTER }), T0 + 5_999).allowed).toBe(false);
    expect(rl.charge(request({ ip: '1.2.3.4', limits: REGISTER }), T0 + 6_000).allowed).toBe(true);
  });

  test('faucet style-B row: burst 10 at 10 per minute, 100 per day; the lower limit wins the headers', () => {
    const rl = limiter();
    const faucet = serviceB('a', 'faucet', ROW_B);
    const decisions = burst(rl, faucet, 11, T0);
    expect(decisions[0]).toMatchObject({ allowed: true, scope: 'service:faucet', limit: 10, remaining: 9 });
    expect(decisions[10]).toMatchObject({ allowed: false, scope: 'service:faucet', limit: 10, retryAfterSeconds: 6 });
    // The identity's tier bucket still serves other routes: 10 taken, 290 left.
    expect(rl.charge(agent('a', 'free'), T0)).toMatchObject({ allowed: true, scope: 'tier', remaining: 289 });
    // Pro does not lift the style-B row.
    expect(burst(rl, serviceB('p', 'faucet', ROW_B, 'pro'), 11, T0).filter((d) => d.allowed)).toHaveLength(10);
    // Daily: 90 more at one per 6 s reach 100 for the day.
    for (let i = 1; i <= 90; i += 1) expect(rl.charge(faucet, T0 + i * 6_000).allowed).toBe(true);
    const daily = rl.charge(faucet, T0 + 91 * 6_000);
    expect(daily).toMatchObject({ allowed: false, scope: 'service-daily:faucet', limit: 100, window: '1d' });
    expect(daily.resetAtSeconds).toBe(MIDNIGHT / 1000);
  });

  test('escrow create: 100 per identity per day on top of the escrow row (burst 80, 60/min)', () => {
    const rl = limiter();
    const create = serviceB('a', 'escrow', ESCROW_CREATE_B);
    const first = burst(rl, create, 81, T0);
    expect(first.filter((d) => d.allowed)).toHaveLength(80);
    expect(first[0]).toMatchObject({ scope: 'service:escrow', limit: 60, remaining: 79 });
    expect(first[80]).toMatchObject({ allowed: false, scope: 'service:escrow', retryAfterSeconds: 1 });
    for (let i = 1; i <= 20; i += 1) expect(rl.charge(create, T0 + i * 1_000).allowed).toBe(true);
    const refused = rl.charge(create, T0 + 60_000);
    expect(refused).toMatchObject({
      allowed: false,
      scope: 'endpoint:escrow.create',
      limit: 100,
      window: '1d',
      remaining: 0,
    });
    expect(refused.retryAfterSeconds).toBe((MIDNIGHT - T0 - 60_000) / 1000);
    // Other escrow endpoints of style B still pass; another identity may still create.
    expect(rl.charge(serviceB('a', 'escrow', ROW_B), T0 + 60_000).allowed).toBe(true);
    expect(rl.charge(serviceB('b', 'escrow', ESCROW_CREATE_B), T0 + 60_000).allowed).toBe(true);
    expect(rl.charge(create, MIDNIGHT).allowed).toBe(true);
  });

  test('binding: the fewest remaining, then the lower limit', () => {
    const config: PlatformConfig['limits'] = {
      ...DEFAULT_CONFIG.limits,
      serviceB: { faucet: { perMinute: 50, burst: 300, perDay: null } },
    };
    const rl = limiter({}, config);
    // Tier (limit 100, capacity 300) and row (limit 50, capacity 300) both leave 299: the lower limit wins.
    expect(rl.charge(serviceB('a', 'faucet', ROW_B), T0)).toMatchObject({
      scope: 'service:faucet',
      limit: 50,
      remaining: 299,
    });
    // The tier bucket drains on other routes: it now has fewer remaining and binds.
    burst(rl, agent('a', 'free'), 10, T0);
    expect(rl.charge(serviceB('a', 'faucet', ROW_B), T0)).toMatchObject({ scope: 'tier', limit: 100, remaining: 288 });
  });

  test('when several buckets refuse, the longest wait binds, so that Retry-After is enough', () => {
    const rl = limiter();
    const target = agent('a', 'free', { ip: '1.2.3.4', limits: REGISTER });
    burst(rl, agent('a', 'free'), 300, T0); // tier empty: next token in 600 ms
    for (let i = 0; i < 10; i += 1) rl.charge(agent(`k${i}`, 'pro', { ip: '1.2.3.4', limits: REGISTER }), T0); // IP empty: 6 s
    const refused = rl.charge(target, T0);
    expect(refused).toMatchObject({ allowed: false, scope: 'register-ip', retryAfterSeconds: 6 });
    expect(rl.charge(target, T0 + 5_999).allowed).toBe(false);
    expect(rl.charge(target, T0 + 6_000).allowed).toBe(true);
  });

  test('refill is exact for a rate that does not divide a minute (7 per minute)', () => {
    const config: PlatformConfig['limits'] = {
      ...DEFAULT_CONFIG.limits,
      serviceB: { faucet: { perMinute: 7, burst: 2, perDay: null } },
    };
    const rl = limiter({}, config);
    const req = serviceB('a', 'faucet', ROW_B);
    const startMs = T0 + 858; // full again 2 × 60,000 / 7 = 17,142.86 ms later: at T0 + 18,000.86
    burst(rl, req, 2, startMs);
    const refused = rl.charge(req, startMs);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 9, resetAtSeconds: T0 / 1000 + 19 });
    // One token is 60,000 / 7 = 8,571.43 ms away: refused at 8,571, allowed at 8,572.
    expect(rl.charge(req, startMs + 8_571).allowed).toBe(false);
    expect(rl.charge(req, startMs + 8_572)).toMatchObject({ allowed: true, remaining: 0 });
    // The leftover fraction carries over: the next token is due at 17,142.86 ms.
    expect(rl.charge(req, startMs + 17_142).allowed).toBe(false);
    expect(rl.charge(req, startMs + 17_143).allowed).toBe(true);
  });

  test('a route with a style-B row on a service without one is a bug', () => {
    expect(() => limiter().charge(serviceB('a', 'wallet', { serviceRowB: true, row: 'no-such-row' }), T0)).toThrow(
      AssertionFailure,
    );
  });
});

describe('429 body and retry', () => {
  test('every field is present and typed; reset_at is now + retry', () => {
    const rl = limiter();
    burst(rl, request(), 300, T0);
    const decision = rl.charge(request(), T0 + 250);
    const body = rl.rejectionBody(decision, 'free', { service: 'faucet' });
    expect(body).toEqual({
      error: 'rate_limit_exceeded',
      code: 'RATE_LIMIT',
      message: expect.any(String) as unknown,
      limit: 100,
      window: '1m',
      retry_after_seconds: 1,
      reset_at: new Date(T0 + 1250).toISOString(),
      tier: 'free',
      upgrade_url: '/docs#upgrade',
      _info: { service: 'faucet' },
    });
    expect(body['message']).toContain('100 requests per minute');
    expect(String(body['upgrade_url'])).toMatch(/^\/[^/]/); // relative: no host named
  });

  test('a request at now + Retry-After passes, whatever came before (property)', () => {
    const scenario = fc.record({
      gapsMs: fc.array(fc.integer({ min: 0, max: 2_000 }), { minLength: 1, maxLength: 600 }),
      register: fc.boolean(),
      faucet: fc.boolean(),
    });
    fc.assert(
      fc.property(scenario, ({ gapsMs, register, faucet }) => {
        const rl = limiter();
        const req = serviceB('a', 'faucet', { registerPerIp: register, serviceRowB: faucet });
        let nowMs = T0;
        for (const gapMs of gapsMs) {
          nowMs += gapMs;
          const decision = rl.charge(req, nowMs);
          if (decision.allowed) continue;
          expect(decision.retryAfterSeconds).toBeGreaterThanOrEqual(1);
          expect(rl.charge(req, nowMs + decision.retryAfterSeconds * 1000).allowed).toBe(true);
          return;
        }
      }),
      { seed: 1, numRuns: 200 },
    );
  });

  test('no 60-second window admits more than capacity + perMinute (property)', () => {
    const times = fc
      .array(fc.integer({ min: 0, max: 300_000 }), { minLength: 1, maxLength: 3_000 })
      .map((list) => [...list].sort((a, b) => a - b));
    fc.assert(
      fc.property(times, fc.constantFrom<Tier>('free', 'pro'), (offsetsMs, tier) => {
        const rl = limiter();
        const perMinute = tier === 'free' ? 100 : 1_000;
        const allowedMs = offsetsMs.filter((offsetMs) => rl.charge(agent('a', tier), T0 + offsetMs).allowed);
        let first = 0;
        for (let last = 0; last < allowedMs.length; last += 1) {
          while ((allowedMs[last] ?? 0) - (allowedMs[first] ?? 0) > 60_000) first += 1;
          expect(last - first + 1).toBeLessThanOrEqual(3 * perMinute + perMinute);
        }
      }),
      { seed: 2, numRuns: 100 },
    );
  });
});

describe('memory', () => {
  test('at the bound, a registration keeps the IP bucket it charges (issue 17: ×50 quickstart, rate-limit-headers)', () => {
    // At 50,000 agents the old sweep ran between creating a new IP's register bucket and the
    // identity's entry and evicted the fresh (full) bucket: the charge went to an orphan and the
    // IP's cap was forgotten. Here every registration from a new identity fills the bound.
    const rl = limiter({ maxEntries: 2 });
    const register = request({ identity: 'ip:10.7.0.1', ip: '10.7.0.1', service: 'faucet', limits: REGISTER });
    const first = rl.charge(register, T0);
    expect(first).toMatchObject({ allowed: true, limit: 10, remaining: 9, scope: 'register-ip' });
    expect(rl.peek(register, T0)).toEqual({ limit: 10, remaining: 9, resetAtSeconds: first.resetAtSeconds });
    for (let i = 1; i < 10; i += 1) {
      expect(rl.charge({ ...register, identity: `ip:other-${i}` }, T0 + i)).toMatchObject({
        allowed: true,
        remaining: 9 - i,
      });
    }
    expect(rl.charge({ ...register, identity: 'ip:other-10' }, T0 + 10)).toMatchObject({
      allowed: false,
      scope: 'register-ip',
    });
  });

  test('entries of idle identities are evicted: the count stays bounded over days', () => {
    const rl = limiter();
    let peak = 0;
    for (let day = 0; day < 10; day += 1) {
      for (let i = 0; i < 900; i += 1) {
        rl.charge(
          request({ identity: `ip:d${day}-${i}`, ip: `d${day}-${i}`, limits: REGISTER }),
          T0 + day * 86_400_000 + i,
        );
        peak = Math.max(peak, rl.bucketCount);
      }
    }
    expect(peak).toBeLessThanOrEqual(2 * 1_000);
    // Yesterday's identities are gone; today's are still held (their daily count is live).
    expect(rl.bucketCount).toBe(1_800);
  });

  test('an evicted identity behaves exactly as if it had been kept', () => {
    const rl = limiter();
    burst(rl, request(), 300, T0);
    rl.charge(request({ identity: 'ip:b' }), T0 + 180_000);
    expect(rl.bucketCount).toBe(2);
    rl.charge(request({ identity: 'ip:c' }), MIDNIGHT); // drops both: they are full and their day is over
    expect(rl.bucketCount).toBe(1);
    expect(rl.charge(request(), MIDNIGHT)).toMatchObject({ allowed: true, remaining: 299, scope: 'tier' });
  });

  // Issue 17 (1): a million forged X-Forwarded-For values filled the limiter, and every new
  // caller was answered 500 (an assertion) until midnight, each after a scan of every entry.
  test('at the bound the least recently used entry makes room: new callers are charged, never refused for room', () => {
    const rl = limiter({ maxEntries: 50 });
    for (let i = 0; i < 50; i += 1) expect(rl.charge(request({ identity: `ip:${i}` }), T0).allowed).toBe(true);
    burst(rl, request({ identity: 'ip:0' }), 10, T0 + 1); // ip:0 used again: ip:1 is now the oldest
    for (let i = 50; i < 500; i += 1) {
      expect(rl.charge(request({ identity: `ip:${i}` }), T0 + 2)).toMatchObject({ allowed: true, remaining: 299 });
      expect(rl.bucketCount).toBe(50);
    }
    // Everyone but the last 50 was dropped, ip:0 among them (used at T0 + 1, before the flood).
    expect(rl.peek(request({ identity: 'ip:499' }), T0 + 2).remaining).toBe(299);
    expect(rl.charge(request({ identity: 'ip:0' }), T0 + 2)).toMatchObject({ allowed: true, remaining: 299 });
  });

  test('the recently used entry outlives older ones at the bound', () => {
    const rl = limiter({ maxEntries: 3 });
    burst(rl, request({ identity: 'ip:a' }), 5, T0);
    rl.charge(request({ identity: 'ip:b' }), T0);
    rl.charge(request({ identity: 'ip:c' }), T0);
    rl.charge(request({ identity: 'ip:a' }), T0 + 1); // a: 6 taken, now the most recent
    rl.charge(request({ identity: 'ip:d' }), T0 + 2); // drops b, the least recently used
    expect(rl.charge(request({ identity: 'ip:a' }), T0 + 2).remaining).toBe(293);
    expect(rl.charge(request({ identity: 'ip:b' }), T0 + 2).remaining).toBe(299); // afresh: c was dropped for it
    expect(rl.charge(request({ identity: 'ip:d' }), T0 + 2).remaining).toBe(298);
    expect(rl.bucketCount).toBe(3);
  });

  test('a bound below two entries is a bug', () => {
    expect(() => limiter({ maxEntries: 1 })).toThrow(AssertionFailure);
  });
});

describe('peek', () => {
  test('reports the binding state without changing it', () => {
    const rl = limiter();
    expect(rl.peek(request(), T0)).toEqual({ limit: 100, remaining: 300, resetAtSeconds: T0 / 1000 });
    expect(rl.bucketCount).toBe(0);
    const charged = rl.charge(request(), T0);
    expect(rl.peek(request(), T0)).toEqual({ limit: 100, remaining: 299, resetAtSeconds: charged.resetAtSeconds });
    expect(rl.peek(request(), T0 + 600)).toMatchObject({ remaining: 300 });
    expect(rl.charge(request(), T0)).toMatchObject({ remaining: 298 });
  });
});

describe('limiter handles', () => {
  test('a handle gives the same answers as the identity lookup, and is dropped with its entry', () => {
    const withHandle = limiter();
    const without = limiter();
    const handle = new LimiterHandle();
    const steps = [T0, T0, T0 + 1_000, T0 + 1_000, MIDNIGHT + 1, MIDNIGHT + 2, MIDNIGHT + 86_400_000 + 5];
    const entries = new Set<unknown>();
    for (const atMs of steps) {
      // New identities at each step: each drops up to two idle entries from the old end.
      for (let fresh = 2 * without.bucketCount + 2; fresh > 0; fresh--) {
        const other = request({ identity: `ip:${atMs}-${fresh}` });
        expect(withHandle.charge(other, atMs)).toEqual(without.charge(other, atMs));
      }
      expect(withHandle.charge(agent('a', 'free', { handle, limits: ROW_B, service: 'faucet' }), atMs)).toEqual(
        without.charge(agent('a', 'free', { limits: ROW_B, service: 'faucet' }), atMs),
      );
      expect(withHandle.charge(agent('a', 'free', { handle }), atMs)).toEqual(without.charge(agent('a', 'free'), atMs));
      expect(withHandle.bucketCount).toBe(without.bucketCount);
      expect(withHandle.peek(agent('a', 'free', { handle }), atMs)).toEqual(without.peek(agent('a', 'free'), atMs));
      entries.add(handle.entry);
    }
    // The entry was evicted after each idle midnight and recreated: the handle followed.
    expect(entries.size).toBe(3);
  });

  test('a handle is ignored by another limiter and for another identity', () => {
    const first = limiter();
    const second = limiter();
    const handle = new LimiterHandle();
    burst(first, agent('a', 'free', { handle }), 300, T0);
    expect(first.charge(agent('b', 'free', { handle }), T0)).toMatchObject({ allowed: true, remaining: 299 });
    burst(first, agent('a', 'free', { handle }), 1, T0);
    expect(second.charge(agent('a', 'free', { handle }), T0)).toMatchObject({ allowed: true, remaining: 299 });
    expect(first.charge(agent('a', 'free'), T0)).toMatchObject({ allowed: false });
  });
});

describe('charge answers a decision of its own', () => {
  test('a fresh object per charge, with the decision keys in one order', () => {
    const limiter_ = limiter();
    const requests = [
      request(),
      serviceB('b', 'escrow', ESCROW_CREATE_B),
      agent('e', 'enterprise'),
      request({ limits: REGISTER }),
    ];
    const seen = new Set<LimitDecision>();
    for (let i = 0; i < 40; i += 1) {
      const answer = limiter_.charge(requests[i % requests.length] as LimitRequest, T0 + i);
      expect(seen.has(answer)).toBe(false);
      seen.add(answer);
      expect(Object.keys(answer)).toEqual([
        'allowed',
        'limit',
        'remaining',
        'resetAtSeconds',
        'retryAfterSeconds',
        'window',
        'scope',
        'tier',
        'atMs',
      ]);
    }
  });
});
