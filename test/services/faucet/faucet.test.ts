// FaucetService domain tests: registration (both styles, referrers, conflicts, pool), claim
// rules of both styles with exact cooldown edges, keyless first B claim, views, ledger balances
// and events after each operation, and the two deliberate defects.
// The context is built here from the shared parts (no Platform), so these tests do not depend
// on the escrow service or the rate limiter.
import { describe, expect, test } from 'vitest';
import { hashKey, IdSource } from '../../../src/core/ids.ts';
import { EXTERNAL, FAUCET_POOL, Ledger, agentAccount } from '../../../src/core/ledger.ts';
import { usdc } from '../../../src/core/money.ts';
import { Rng } from '../../../src/core/rng.ts';
import { Scheduler } from '../../../src/core/scheduler.ts';
import { KEYLESS_CLAIM } from '../../../src/services/faucet/claims.ts';
import { FaucetService } from '../../../src/services/faucet/faucet.ts';
import { AgentRegistry } from '../../../src/services/shared/agents.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../../../src/services/shared/config.ts';
import type { DefectName, PlatformTimer, ServiceContext } from '../../../src/services/shared/context.ts';
import type { DomainEvent } from '../../../src/services/shared/events.ts';
import { ReferralBook } from '../../../src/services/shared/referral.ts';

const START_MS = Date.UTC(2026, 0, 1);
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

interface Fixture {
  readonly ctx: ServiceContext;
  readonly faucet: FaucetService;
  readonly events: DomainEvent[];
}

function fixture(options: { config?: PlatformConfig; defects?: DefectName[]; seed?: string } = {}): Fixture {
  const config = options.config ?? DEFAULT_CONFIG;
  const ledger = new Ledger();
  const events: DomainEvent[] = [];
  const emit = (event: DomainEvent): void => {
    events.push(event);
  };
  const rng = new Rng(options.seed ?? 'faucet-test');
  const ctx: ServiceContext = {
    ledger,
    agents: new AgentRegistry(),
    ids: new IdSource(rng.fork('ids')),
    rng: rng.fork('services'),
    config,
    timers: new Scheduler<PlatformTimer>(),
    emit,
    referrals: new ReferralBook({ ledger, events: { emit } }),
    defects: new Set(options.defects ?? []),
  };
  ledger.transfer({
    from: EXTERNAL,
    to: FAUCET_POOL,
    amountMicro: config.faucet.poolFundingMicro,
    reason: 'faucet.pool-funding',
    reference: 'genesis',
  });
  return { ctx, faucet: new FaucetService(ctx), events };
}

function withPool(poolFundingMicro: bigint): PlatformConfig {
  return { ...DEFAULT_CONFIG, faucet: { ...DEFAULT_CONFIG.faucet, poolFundingMicro } };
}

function ok<T>(outcome: { ok: true; value: T } | { ok: false; code: string; message: string }): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

const balance = (f: Fixture, agentId: string): bigint => f.ctx.ledger.balance(agentAccount(agentId));
const pool = (f: Fixture): bigint => f.ctx.ledger.balance(FAUCET_POOL);
const POOL = DEFAULT_CONFIG.faucet.poolFundingMicro;

describe('registration', () => {
  test('style A: agent with key, address, referral code; no grant; event emitted', () => {
    const f = fixture();
    const registration = ok(f.faucet.register({ style: 'A', agentId: 'alice' }, START_MS));
    expect(registration.agent).toMatchObject({
      id: 'alice',
      tier: 'free',
      referrerId: null,
      createdAtMs: START_MS,
      metadata: null,
      registeredStyle: 'A',
    });
    expect(registration.apiKey).toMatch(/^sk_live_[0-9a-f]{48}$/);
    expect(registration.agent.keyHash).toBe(hashKey(registration.apiKey));
    expect(registration.agent.keyHash).not.toContain(registration.apiKey);
    expect(registration.agent.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(registration.agent.referralCode).toMatch(/^ref_[0-9a-f]{8}$/);
    expect(registration.grantMicro).toBe(0n);
    expect(registration.balanceMicro).toBe(0n);
    expect(registration.nextClaimAtMs).toBeNull();
    expect(f.ctx.agents.get('alice')).toBe(registration.agent);
    expect(f.ctx.agents.byKey(hashKey(registration.apiKey))).toBe(registration.agent);
    expect(balance(f, 'alice')).toBe(0n);
    expect(pool(f)).toBe(POOL);
    expect(f.events).toEqual([
      { type: 'agent.registered', atMs: START_MS, agentId: 'alice', style: 'A', referrerId: null, grantMicro: 0n },
    ]);
  });

  test('style B: 10 USDC grant from the pool starts the 24 h cooldown', () => {
    const f = fixture();
    const registration = ok(
      f.faucet.register({ style: 'B', agentId: 'bob', metadata: { framework: 'langchain', version: '1' } }, START_MS),
    );
    expect(registration.grantMicro).toBe(usdc(10));
    expect(registration.balanceMicro).toBe(usdc(10));
    expect(registration.nextClaimAtMs).toBe(START_MS + DAY_MS);
    expect(registration.agent.metadata).toEqual({ framework: 'langchain', version: '1' });
    expect(registration.agent.registeredStyle).toBe('B');
    expect(balance(f, 'bob')).toBe(usdc(10));
    expect(pool(f)).toBe(POOL - usdc(10));
    expect(f.ctx.ledger.sumMicro).toBe(0n);
    expect(f.faucet.record('bob')).toEqual({
      claimedA: false,
      claimsB: 0,
      nextClaimBAtMs: START_MS + DAY_MS,
      claims: 0,
      receivedMicro: usdc(10),
      framework: 'langchain',
    });
    expect(f.events).toEqual([
      { type: 'agent.registered', atMs: START_MS, agentId: 'bob', style: 'B', referrerId: null, grantMicro: usdc(10) },
    ]);
  });

  test('duplicate agent_id is 409 CONFLICT and changes nothing', () => {
    const f = fixture();
    ok(f.faucet.register({ style: 'B', agentId: 'bob' }, START_MS));
    const accountsBefore = new Map(f.ctx.ledger.accounts());
    const eventsBefore = f.events.length;
    for (const style of ['A', 'B'] as const) {
      const outcome = f.faucet.register({ style, agentId: 'bob' }, START_MS + 1);
      expect(outcome).toMatchObject({ ok: false, status: 409, code: 'CONFLICT' });
    }
    expect(new Map(f.ctx.ledger.accounts())).toEqual(accountsBefore);
    expect(f.events.length).toBe(eventsBefore);
    expect(f.ctx.agents.size).toBe(1);
  });

  test("an agent_id equal to another agent's address or referral code is taken too", () => {
    const f = fixture();
    const bob = ok(f.faucet.register({ style: 'A', agentId: 'bob' }, START_MS)).agent;
    expect(f.faucet.register({ style: 'A', agentId: bob.referralCode }, START_MS)).toMatchObject({
      ok: false,
      code: 'CONFLICT',
    });
    expect(
      f.faucet.register({ style: 'A', agentId: bob.address.toUpperCase().replace('0X', '0x') }, START_MS),
    ).toMatchObject({ ok: false, code: 'CONFLICT' });
  });

  test('agent_id syntax is checked: 1..64 of [A-Za-z0-9_.-]', () => {
    const f = fixture();
    for (const agentId of ['', 'a b', 'x'.repeat(65), 'é', 'a/b']) {
      expect(f.faucet.register({ style: 'A', agentId }, START_MS)).toMatchObject({
        ok: false,
        status: 400,
        code: 'BAD_REQUEST',
      });
    }
    ok(f.faucet.register({ style: 'A', agentId: 'A-z_0.9'.padEnd(64, 'x') }, START_MS));
    expect(f.ctx.agents.size).toBe(1);
  });

  test('referrer by id, by address (any case) and by referral code; linked and recorded', () => {
    const f = fixture();
    const ref = ok(f.faucet.register({ style: 'A', agentId: 'ref' }, START_MS)).agent;
    const byId = ok(f.faucet.register({ style: 'B', agentId: 'one', referrer: 'ref' }, START_MS + 1)).agent;
    const byAddress = ok(
      f.faucet.register(
        { style: 'A', agentId: 'two', referrer: ref.address.toUpperCase().replace('0X', '0x') },
        START_MS + 2,
      ),
    ).agent;
    const byCode = ok(
      f.faucet.register({ style: 'B', agentId: 'three', referrer: ref.referralCode }, START_MS + 3),
    ).agent;
    for (const agent of [byId, byAddress, byCode]) expect(agent.referrerId).toBe('ref');
    expect(f.ctx.referrals.referredBy('ref')).toEqual(['one', 'two', 'three']);
    expect(f.events.filter((event) => event.type === 'agent.registered').map((event) => event.referrerId)).toEqual([
      null,
      'ref',
      'ref',
      'ref',
    ]);
    const view = ok(f.faucet.referrals({ agentId: 'ref' }));
    expect(view).toEqual({
      referralCode: ref.referralCode,
      referredCount: 3,
      referred: [
        { agentId: 'one', registeredAtMs: START_MS + 1 },
        { agentId: 'two', registeredAtMs: START_MS + 2 },
        { agentId: 'three', registeredAtMs: START_MS + 3 },
      ],
      earnedMicro: 0n,
      paidMicro: 0n,
      pendingMicro: 0n,
      shareBps: 1500n,
      levels: [
        { level: 1, referredAgents: 3, earnedMicro: 0n },
        { level: 2, referredAgents: 0, earnedMicro: 0n },
        { level: 3, referredAgents: 0, earnedMicro: 0n },
      ],
    });
  });

  test('unknown referrer is 404 and registers nothing', () => {
    const f = fixture();
    expect(f.faucet.register({ style: 'B', agentId: 'one', referrer: 'ghost' }, START_MS)).toMatchObject({
      ok: false,
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(f.ctx.agents.size).toBe(0);
    expect(pool(f)).toBe(POOL);
    expect(f.events).toEqual([]);
  });

  test('B registration with the pool short is 422 and registers nothing; A still registers', () => {
    const f = fixture({ config: withPool(usdc(5)) });
    expect(f.faucet.register({ style: 'B', agentId: 'one' }, START_MS)).toMatchObject({
      ok: false,
      status: 422,
      code: 'INSUFFICIENT_BALANCE',
    });
    expect(f.ctx.agents.size).toBe(0);
    expect(pool(f)).toBe(usdc(5));
    ok(f.faucet.register({ style: 'A', agentId: 'one' }, START_MS));
  });

  test('the same seed draws the same keys, addresses and codes', () => {
    const first = ok(fixture({ seed: 's' }).faucet.register({ style: 'A', agentId: 'x' }, START_MS));
    const second = ok(fixture({ seed: 's' }).faucet.register({ style: 'A', agentId: 'x' }, START_MS));
    expect(second.apiKey).toBe(first.apiKey);
    expect(second.agent).toEqual(first.agent);
  });
});

describe('style A claim', () => {
  test('1 USDC once per agent; the second is 409 FAUCET_CLAIMED', () => {
    const f = fixture();
    ok(f.faucet.register({ style: 'A', agentId: 'alice' }, START_MS));
    expect(f.faucet.statusA({ agentId: 'alice' })).toEqual({ ok: true, value: { eligible: true, balanceMicro: 0n } });
    const claim = ok(f.faucet.claimA({ agentId: 'alice' }, START_MS + 5));
    expect(claim).toEqual({ agentId: 'alice', amountMicro: usdc(1), balanceMicro: usdc(1), nextClaimAtMs: null });
    expect(balance(f, 'alice')).toBe(usdc(1));
    expect(pool(f)).toBe(POOL - usdc(1));
    expect(f.events.at(-1)).toEqual({
      type: 'faucet.claimed',
      atMs: START_MS + 5,
      agentId: 'alice',
      style: 'A',
      amountMicro: usdc(1),
      nextClaimAtMs: null,
    });
    expect(f.faucet.statusA({ agentId: 'alice' })).toEqual({
      ok: true,
      value: { eligible: false, balanceMicro: usdc(1) },
    });

    const eventsBefore = f.events.length;
    const again = f.faucet.claimA({ agentId: 'alice' }, START_MS + 100 * DAY_MS);
    expect(again).toMatchObject({ ok: false, status: 409, code: 'FAUCET_CLAIMED' });
    expect(balance(f, 'alice')).toBe(usdc(1));
    expect(f.events.length).toBe(eventsBefore);
  });

  test('A and B rules are independent: a B agent may take the A claim once, and it does not touch the B cooldown', () => {
    const f = fixture();
    ok(f.faucet.register({ style: 'B', agentId: 'bob' }, START_MS));
    ok(f.faucet.claimA({ agentId: 'bob' }, START_MS + 1));
    expect(balance(f, 'bob')).toBe(usdc(11));
    expect(f.faucet.record('bob')?.nextClaimBAtMs).toBe(START_MS + DAY_MS);
    // An A agent may claim in B at once: no grant, so no cooldown was started.
    ok(f.faucet.register({ style: 'A', agentId: 'alice' }, START_MS));
    ok(f.faucet.claimA({ agentId: 'alice' }, START_MS + 1));
    const claim = ok(f.faucet.claimB({ callerId: 'alice', agentId: null }, START_MS + 2));
    expect(claim.amountMicro).toBe(usdc(2));
    expect(balance(f, 'alice')).toBe(usdc(3));
  });

  test('unknown agent is 404; pool empty is 422 and pays nothing', () => {
    const f = fixture({ config: withPool(500_000n) });
    expect(f.faucet.claimA({ agentId: 'ghost' }, START_MS)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    ok(f.faucet.register({ style: 'A', agentId: 'alice' }, START_MS));
    expect(f.faucet.statusA({ agentId: 'alice' })).toEqual({ ok: true, value: { eligible: false, balanceMicro: 0n } });
    expect(f.faucet.claimA({ agentId: 'alice' }, START_MS)).toMatchObject({
      ok: false,
      status: 422,
      code: 'INSUFFICIENT_BALANCE',
    });
    expect(balance(f, 'alice')).toBe(0n);
    expect(pool(f)).toBe(500_000n);
    expect(f.faucet.record('alice')?.claimedA).toBe(false);
  });
});

describe('style B claim', () => {
  test('cooldown is exact: next_claim − 1 ms refused with the exact next_claim, next_claim accepted', () => {
    const f = fixture();
    ok(f.faucet.register({ style: 'B', agentId: 'bob' }, START_MS));
    const key = { callerId: 'bob', agentId: null };
    const early = f.faucet.claimB(key, START_MS + DAY_MS - 1);
    expect(early).toEqual({
      ok: false,
      status: 409,
      code: 'FAUCET_CLAIMED',
      message: expect.any(String) as string,
      extra: { next_claim: '2026-01-02T00:00:00.000Z', retry_after_seconds: 1 },
    });
    expect(balance(f, 'bob')).toBe(usdc(10));

    const claim = ok(f.faucet.claimB(key, START_MS + DAY_MS));
    expect(claim).toEqual({
      agentId: 'bob',
      amountMicro: usdc(2),
      balanceMicro: usdc(12),
      nextClaimAtMs: START_MS + 2 * DAY_MS,
    });
    expect(pool(f)).toBe(POOL - usdc(12));
    expect(f.events.at(-1)).toEqual({
      type: 'faucet.claimed',
      atMs: START_MS + DAY_MS,
      agentId: 'bob',
      style: 'B',
      amountMicro: usdc(2),
      nextClaimAtMs: START_MS + 2 * DAY_MS,
    });

    const second = f.faucet.claimB(key, START_MS + 2 * DAY_MS - 1);
    expect(second).toMatchObject({
      ok: false,
      code: 'FAUCET_CLAIMED',
      extra: { next_claim: '2026-01-03T00:00:00.000Z', retry_after_seconds: 1 },
    });
    expect(f.faucet.claimB(key, START_MS + DAY_MS + 1)).toMatchObject({ extra: { retry_after_seconds: 86_400 } });
    ok(f.faucet.claimB(key, START_MS + 2 * DAY_MS));
    expect(balance(f, 'bob')).toBe(usdc(14));
    expect(f.faucet.record('bob')).toMatchObject({ claimsB: 2, claims: 2, receivedMicro: usdc(14) });
  });

  test('a keyless claim is 401 whoever it names, and pays nothing; the key claims', () => {
    const f = fixture();
    ok(f.faucet.register({ style: 'A', agentId: 'alice' }, START_MS));
    ok(f.faucet.register({ style: 'B', agentId: 'bob' }, START_MS));
    for (const agentId of ['alice', 'bob', 'ghost']) {
      for (const atMs of [START_MS, START_MS + HOUR_MS, START_MS + DAY_MS]) {
        expect(f.faucet.claimB({ callerId: null, agentId }, atMs)).toMatchObject({
          ok: false,
          status: 401,
          code: 'UNAUTHORIZED',
          message: KEYLESS_CLAIM,
        });
      }
    }
    expect(balance(f, 'alice')).toBe(0n);
    ok(f.faucet.claimB({ callerId: 'alice', agentId: 'alice' }, START_MS + DAY_MS));
    ok(f.faucet.claimB({ callerId: 'bob', agentId: null }, START_MS + DAY_MS));
    expect(balance(f, 'alice')).toBe(usdc(2));
  });

  test('identity errors: another agent_id with a key 403, no key 401 whatever the agent_id', () => {
    const f = fixture();
    ok(f.faucet.register({ style: 'A', agentId: 'alice' }, START_MS));
    ok(f.faucet.register({ style: 'A', agentId: 'eve' }, START_MS));
    expect(f.faucet.claimB({ callerId: 'eve', agentId: 'alice' }, START_MS)).toMatchObject({
      ok: false,
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(f.faucet.claimB({ callerId: null, agentId: null }, START_MS)).toMatchObject({
      ok: false,
      status: 401,
      code: 'UNAUTHORIZED',
    });
    expect(f.faucet.claimB({ callerId: null, agentId: 'ghost' }, START_MS)).toMatchObject({
      ok: false,
      status: 401,
      code: 'UNAUTHORIZED',
    });
    expect(balance(f, 'alice') + balance(f, 'eve')).toBe(0n);
  });

  test('pool empty is 422 after the cooldown check', () => {
    const f = fixture({ config: withPool(usdc(11)) });
    ok(f.faucet.register({ style: 'B', agentId: 'bob' }, START_MS));
    expect(f.faucet.claimB({ callerId: 'bob', agentId: null }, START_MS)).toMatchObject({ code: 'FAUCET_CLAIMED' });
    expect(f.faucet.claimB({ callerId: 'bob', agentId: null }, START_MS + DAY_MS)).toMatchObject({
      ok: false,
      status: 422,
      code: 'INSUFFICIENT_BALANCE',
    });
    expect(balance(f, 'bob')).toBe(usdc(10));
    expect(pool(f)).toBe(usdc(1));
    expect(f.faucet.statusB({ agentId: 'bob' }, START_MS + DAY_MS)).toMatchObject({
      ok: true,
      value: { canClaim: false, secondsUntilNextClaim: 0 },
    });
  });

  test('status B: can_claim, exact next claim and seconds until it, balances', () => {
    const f = fixture();
    ok(f.faucet.register({ style: 'B', agentId: 'bob' }, START_MS));
    ok(f.faucet.register({ style: 'A', agentId: 'alice' }, START_MS));
    expect(ok(f.faucet.statusB({ agentId: 'bob' }, START_MS + DAY_MS - 1500))).toEqual({
      agentId: 'bob',
      canClaim: false,
      nextClaimAtMs: START_MS + DAY_MS,
      secondsUntilNextClaim: 2,
      balanceMicro: usdc(10),
      poolMicro: POOL - usdc(10),
    });
    expect(ok(f.faucet.statusB({ agentId: 'bob' }, START_MS + DAY_MS))).toMatchObject({
      canClaim: true,
      secondsUntilNextClaim: 0,
    });
    expect(ok(f.faucet.statusB({ agentId: 'alice' }, START_MS))).toMatchObject({
      canClaim: true,
      nextClaimAtMs: null,
      secondsUntilNextClaim: 0,
      balanceMicro: 0n,
    });
    expect(f.faucet.statusB({ agentId: 'ghost' }, START_MS)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});

describe('views', () => {
  test('agent details: own only (403 for another agent), 404 unknown, by id, address or code', () => {
    const f = fixture();
    const bob = ok(f.faucet.register({ style: 'B', agentId: 'bob' }, START_MS)).agent;
    ok(f.faucet.register({ style: 'A', agentId: 'eve' }, START_MS));
    for (const reference of ['bob', bob.address, bob.referralCode]) {
      expect(f.faucet.agentDetails({ callerId: 'bob', reference })).toEqual({
        ok: true,
        value: { agent: bob, balanceMicro: usdc(10) },
      });
    }
    expect(f.faucet.agentDetails({ callerId: 'eve', reference: 'bob' })).toMatchObject({
      ok: false,
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(f.faucet.agentDetails({ callerId: 'eve', reference: 'ghost' })).toMatchObject({
      ok: false,
      status: 404,
      code: 'NOT_FOUND',
    });
  });

  test('agent list: claims desc then agent_id, limit, totals and framework breakdown', () => {
    const f = fixture();
    ok(f.faucet.register({ style: 'B', agentId: 'zed', metadata: { framework: 'crewai' } }, START_MS));
    ok(f.faucet.register({ style: 'B', agentId: 'amy', metadata: { framework: 'crewai' } }, START_MS));
    ok(f.faucet.register({ style: 'A', agentId: 'max', metadata: { framework: 'autogen' } }, START_MS));
    ok(f.faucet.register({ style: 'A', agentId: 'bea' }, START_MS));
    ok(f.faucet.claimA({ agentId: 'zed' }, START_MS));
    ok(f.faucet.claimB({ callerId: 'zed', agentId: null }, START_MS + DAY_MS));
    ok(f.faucet.claimA({ agentId: 'max' }, START_MS));
    ok(f.faucet.claimA({ agentId: 'bea' }, START_MS));
    const list = ok(f.faucet.listAgents({ limit: 3 }));
    expect(list.agents.map((entry) => [entry.agentId, entry.claims, entry.receivedMicro])).toEqual([
      ['zed', 2, usdc(13)],
      ['bea', 1, usdc(1)],
      ['max', 1, usdc(1)],
    ]);
    expect(list.agents[0]).toEqual({
      agentId: 'zed',
      address: f.ctx.agents.get('zed')?.address,
      framework: 'crewai',
      claims: 2,
      receivedMicro: usdc(13),
      createdAtMs: START_MS,
    });
    expect(list.totalAgents).toBe(4);
    expect(list.totalClaimedMicro).toBe(usdc(10 + 10 + 1 + 2 + 1 + 1));
    expect(list.totalClaimedMicro).toBe(POOL - pool(f));
    expect(list.frameworks).toEqual([
      ['autogen', 1],
      ['crewai', 2],
      ['unknown', 1],
    ]);
    expect(ok(f.faucet.listAgents({ limit: 100 })).agents.map((entry) => entry.agentId)).toEqual([
      'zed',
      'bea',
      'max',
      'amy',
    ]);
    for (const limit of [0, 101, 1.5])
      expect(f.faucet.listAgents({ limit })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
  });

  test('referral view shows accrued, pending and paid shares from the referral book', () => {
    const f = fixture();
    ok(f.faucet.register({ style: 'A', agentId: 'ref' }, START_MS));
    f.ctx.ledger.transfer({
      from: EXTERNAL,
      to: 'fee-income',
      amountMicro: usdc(1),
      reason: 'test.fee',
      reference: 'x',
    });
    f.ctx.referrals.accrue({
      referrerId: 'ref',
      feeMicro: usdc(1),
      shareBps: 1500n,
      reference: 'x',
      service: 'escrow',
      level: 1,
    });
    expect(ok(f.faucet.referrals({ agentId: 'ref' }))).toMatchObject({
      earnedMicro: 150_000n,
      pendingMicro: 150_000n,
      paidMicro: 0n,
    });
    f.ctx.referrals.sweep(START_MS + DAY_MS);
    expect(ok(f.faucet.referrals({ agentId: 'ref' }))).toMatchObject({
      earnedMicro: 150_000n,
      pendingMicro: 0n,
      paidMicro: 150_000n,
    });
    expect(f.faucet.referrals({ agentId: 'ghost' })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});

describe('deliberate defects', () => {
  test('none is active by default: conservation holds after every operation', () => {
    const f = fixture();
    ok(f.faucet.register({ style: 'B', agentId: 'bob' }, START_MS));
    ok(f.faucet.claimA({ agentId: 'bob' }, START_MS));
    ok(f.faucet.claimB({ callerId: 'bob', agentId: null }, START_MS + DAY_MS));
    expect(f.ctx.ledger.sumMicro).toBe(0n);
    expect(f.ctx.ledger.auditSum()).toBe(0n);
  });

  test('mint-on-claim: a claim also credits the same amount from nothing, breaking conservation', () => {
    const f = fixture({ defects: ['mint-on-claim'] });
    ok(f.faucet.register({ style: 'A', agentId: 'alice' }, START_MS));
    expect(f.ctx.ledger.sumMicro).toBe(0n);
    const claim = ok(f.faucet.claimA({ agentId: 'alice' }, START_MS));
    expect(claim.balanceMicro).toBe(usdc(2));
    expect(balance(f, 'alice')).toBe(usdc(2));
    expect(pool(f)).toBe(POOL - usdc(1));
    expect(f.ctx.ledger.sumMicro).toBe(usdc(1));
    expect(f.ctx.ledger.auditSum()).toBe(usdc(1));
  });

  test('faucet-cooldown-23h: the B cooldown is 23 h', () => {
    const f = fixture({ defects: ['faucet-cooldown-23h'] });
    const registration = ok(f.faucet.register({ style: 'B', agentId: 'bob' }, START_MS));
    expect(registration.nextClaimAtMs).toBe(START_MS + 23 * HOUR_MS);
    const claim = ok(f.faucet.claimB({ callerId: 'bob', agentId: null }, START_MS + 23 * HOUR_MS));
    expect(claim.nextClaimAtMs).toBe(START_MS + 46 * HOUR_MS);
  });
});
