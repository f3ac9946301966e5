// Each invariant checker passes a clean sequence and catches a hand-made violation, with the
// violating event in its report; the monitor counts checks and keeps the first violation.
import { describe, expect, test } from 'vitest';
import { agentAccount, escrowAccount, type Ledger, type Transfer } from '../../src/core/ledger.ts';
import { usdc } from '../../src/core/money.ts';
import { Dispatcher, type ApiRequest, type ApiResponse } from '../../src/http/dispatcher.ts';
import type { Route } from '../../src/http/route.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import type { DomainEvent } from '../../src/services/shared/events.ts';
import type { CheckerContext, Exchange, InvariantChecker } from '../../src/sim/invariants/index.ts';
import { INVARIANTS } from '../../src/sim/invariants/index.ts';
import { InvariantMonitor } from '../../src/sim/invariants/monitor.ts';

const START_MS = Date.parse('2026-01-01T00:00:00Z');
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

function contextOf(platform: Platform, clock: { now: number }): CheckerContext {
  return { platform, nowMs: () => clock.now };
}

function checker(
  name: keyof typeof INVARIANTS,
  platform = new Platform({ seed: 't', startMs: START_MS }),
  clock = { now: START_MS },
): InvariantChecker {
  return INVARIANTS[name].create(contextOf(platform, clock));
}

function created(escrowId: string, atMs: number, expiresAtMs: number): DomainEvent {
  return {
    type: 'escrow.created',
    atMs,
    escrowId,
    senderId: 'buyer',
    receiverId: 'seller',
    amountMicro: usdc(2),
    feeMicro: 20_000n,
    expiresAtMs,
  };
}

function released(escrowId: string, atMs: number): DomainEvent {
  return {
    type: 'escrow.released',
    atMs,
    escrowId,
    netMicro: 1_980_000n,
    feeMicro: 20_000n,
    referrerId: null,
    referralMicro: 0n,
  };
}

describe('conservation', () => {
  test('passes while the ledger sums to zero; catches money minted from nothing at the event', () => {
    const platform = new Platform({ seed: 't', startMs: START_MS });
    const check = checker('conservation', platform);
    const claim: DomainEvent = {
      type: 'faucet.claimed',
      atMs: START_MS,
      agentId: 'a',
      style: 'A',
      amountMicro: usdc(1),
      nextClaimAtMs: null,
    };
    expect(check.onEvent?.(claim)).toBeNull();
    expect(check.onHour?.(START_MS + HOUR_MS)).toBeNull();
    platform.ledger.faultMint(agentAccount('a'), usdc(1));
    const violation = check.onEvent?.(claim);
    expect(violation?.message).toContain('ledger sums to 1000000 micro-USDC after faucet.claimed');
    expect(violation?.event).toContain('"type":"faucet.claimed"');
    expect(check.atEnd?.(START_MS + DAY_MS)?.message).toContain('full audit');
  });
});

describe('no-negative-balance', () => {
  const transfer: Transfer = {
    from: agentAccount('a'),
    to: agentAccount('b'),
    amountMicro: 5n,
    reason: 'test.move',
    reference: 'r',
  };
  const fakePlatform = (balance: bigint): Platform =>
    ({
      ledger: {
        balance: () => balance,
        negativeAccounts: () => (balance < 0n ? [agentAccount('a')] : []),
      } as unknown as Ledger,
    }) as unknown as Platform;

  test('passes non-negative balances, catches a negative account per transfer and at the end', () => {
    expect(checker('no-negative-balance', fakePlatform(0n)).onTransfer?.(transfer)).toBeNull();
    expect(checker('no-negative-balance', fakePlatform(0n)).atEnd?.(START_MS)).toBeNull();
    const violation = checker('no-negative-balance', fakePlatform(-5n)).onTransfer?.(transfer);
    expect(violation?.message).toContain('agent:a is negative (-5 micro-USDC) after test.move');
    expect(checker('no-negative-balance', fakePlatform(-5n)).atEnd?.(START_MS)?.message).toContain(
      '1 account(s) negative',
    );
  });

  test('the external account may go negative', () => {
    const check = checker('no-negative-balance', fakePlatform(-5n));
    expect(check.onTransfer?.({ ...transfer, from: 'external', to: 'external' })).toBeNull();
  });
});

describe('faucet-cooldown', () => {
  const registered: DomainEvent = {
    type: 'agent.registered',
    atMs: START_MS,
    agentId: 'a',
    style: 'B',
    referrerId: null,
    grantMicro: usdc(10),
  };
  const claimB = (atMs: number): DomainEvent => ({
    type: 'faucet.claimed',
    atMs,
    agentId: 'a',
    style: 'B',
    amountMicro: usdc(2),
    nextClaimAtMs: atMs + DAY_MS,
  });
  const claimA = (atMs: number): DomainEvent => ({
    type: 'faucet.claimed',
    atMs,
    agentId: 'a',
    style: 'A',
    amountMicro: usdc(1),
    nextClaimAtMs: null,
  });

  test('B payouts a cooldown apart (the grant starts it) and one A claim pass', () => {
    const check = checker('faucet-cooldown');
    for (const event of [registered, claimA(START_MS + 1), claimB(START_MS + DAY_MS), claimB(START_MS + 2 * DAY_MS)])
      expect(check.onEvent?.(event)).toBeNull();
  });

  test('a B claim inside the cooldown after the registration grant is caught', () => {
    const check = checker('faucet-cooldown');
    check.onEvent?.(registered);
    expect(check.onEvent?.(claimB(START_MS + DAY_MS - 1))?.message).toContain(
      '86399999 ms after its previous B payout',
    );
  });

  test('a B claim 23 h after the previous one, and a second A claim, are caught', () => {
    const check = checker('faucet-cooldown');
    check.onEvent?.(claimB(START_MS));
    expect(check.onEvent?.(claimB(START_MS + 23 * HOUR_MS))?.event).toContain('"style":"B"');
    const other = checker('faucet-cooldown');
    other.onEvent?.(claimA(START_MS));
    expect(other.onEvent?.(claimA(START_MS + 5 * DAY_MS))?.message).toContain('second style-A claim');
  });
});

describe('escrow-settles-once', () => {
  test('one settlement per escrow passes; a second one is caught', () => {
    const check = checker('escrow-settles-once');
    expect(check.onEvent?.(created('e1', START_MS, START_MS + HOUR_MS))).toBeNull();
    expect(check.onEvent?.(released('e1', START_MS + 10))).toBeNull();
    expect(check.atEnd?.(START_MS + DAY_MS)).toBeNull();
    expect(check.onEvent?.(released('e1', START_MS + 20))?.message).toBe(
      'escrow e1 settled twice: escrow.released, then escrow.released',
    );
  });

  test('a settlement of an unknown escrow and an escrow left locked past its expiry are caught', () => {
    expect(checker('escrow-settles-once').onEvent?.(released('ghost', START_MS))?.message).toContain('never created');
    const check = checker('escrow-settles-once');
    check.onEvent?.(created('e2', START_MS, START_MS + HOUR_MS));
    expect(check.atEnd?.(START_MS + HOUR_MS - 1)).toBeNull();
    expect(check.atEnd?.(START_MS + HOUR_MS)?.message).toContain('still locked past its expiry');
  });

  test('a disputed escrow must settle by the end of its window', () => {
    const check = checker('escrow-settles-once');
    check.onEvent?.(created('e3', START_MS, START_MS + HOUR_MS));
    check.onEvent?.({
      type: 'escrow.disputed',
      atMs: START_MS + 5,
      escrowId: 'e3',
      byAgentId: 'seller',
      windowEndsAtMs: START_MS + 48 * HOUR_MS,
    });
    expect(check.atEnd?.(START_MS + 47 * HOUR_MS)).toBeNull();
    expect(check.atEnd?.(START_MS + 48 * HOUR_MS)?.message).toContain('disputed past its window');
  });
});

describe('escrow-expiry-exact', () => {
  const expiresAtMs = START_MS + HOUR_MS;
  const refund: Transfer = {
    from: escrowAccount('e1'),
    to: agentAccount('buyer'),
    amountMicro: usdc(2),
    reason: 'escrow.expire',
    reference: 'e1',
  };
  const expired = (atMs: number): DomainEvent => ({
    type: 'escrow.expired',
    atMs,
    escrowId: 'e1',
    amountMicro: usdc(2),
    expiresAtMs,
  });

  test('expiry at exactly expires_at with the full refund then passes', () => {
    const clock = { now: START_MS };
    const check = checker('escrow-expiry-exact', undefined, clock);
    check.onEvent?.(created('e1', START_MS, expiresAtMs));
    expect(check.onTick?.(expiresAtMs - 1)).toBeNull();
    clock.now = expiresAtMs;
    check.onTransfer?.(refund);
    expect(check.onEvent?.(expired(expiresAtMs))).toBeNull();
    expect(check.onTick?.(expiresAtMs)).toBeNull();
  });

  test('a late expiry, an expiry without the refund, and a missed expiry are caught', () => {
    const clock = { now: expiresAtMs + 1 };
    const late = checker('escrow-expiry-exact', undefined, clock);
    late.onEvent?.(created('e1', START_MS, expiresAtMs));
    late.onTransfer?.(refund);
    expect(late.onEvent?.(expired(expiresAtMs + 1))?.message).toContain('not at its expires_at');

    const unpaid = checker('escrow-expiry-exact', undefined, { now: expiresAtMs });
    unpaid.onEvent?.(created('e1', START_MS, expiresAtMs));
    expect(unpaid.onEvent?.(expired(expiresAtMs))?.message).toContain('without returning its full amount');

    const missed = checker('escrow-expiry-exact');
    missed.onEvent?.(created('e1', START_MS, expiresAtMs));
    expect(missed.onTick?.(expiresAtMs)?.message).toContain('still locked');
  });

  test('a disputed escrow does not expire', () => {
    const check = checker('escrow-expiry-exact');
    check.onEvent?.(created('e1', START_MS, expiresAtMs));
    check.onEvent?.({
      type: 'escrow.disputed',
      atMs: START_MS + 1,
      escrowId: 'e1',
      byAgentId: 'seller',
      windowEndsAtMs: START_MS + 48 * HOUR_MS,
    });
    expect(check.onTick?.(expiresAtMs + 1)).toBeNull();
  });
});

function exchangeThrough(dispatcher: Dispatcher, request: ApiRequest, atMs: number): Exchange {
  const response: ApiResponse = dispatcher.handle(request, atMs);
  const route: Route | null = ALL_ROUTES.find((row) => row.id === response.routeId) ?? null;
  return { atMs, agentId: 'tester', request, response, route };
}

const registerB = (agentId: string): ApiRequest => ({
  mount: 'api',
  method: 'POST',
  path: '/register',
  query: {},
  headers: {},
  body: { agent_id: agentId },
  ip: '2001:db8::1',
});

describe('rate-limit-headers', () => {
  test('headers that match the limiter pass, 429s included; a header that drifts is caught', () => {
    const platform = new Platform({ seed: 't', startMs: START_MS });
    const dispatcher = new Dispatcher(platform, ALL_ROUTES);
    const check = checker('rate-limit-headers', platform);
    const exchanges: Exchange[] = [];
    for (let index = 0; index < 12; index++) {
      const exchange = exchangeThrough(dispatcher, registerB(`agent-${index}`), START_MS + index);
      expect(check.onExchange?.(exchange), String(exchange.response.status)).toBeNull();
      exchanges.push(exchange);
    }
    expect(exchanges.map((exchange) => exchange.response.status)).toEqual([...Array<number>(10).fill(201), 429, 429]);
    const last = exchanges[9] as Exchange;
    const tampered: Exchange = {
      ...last,
      response: { ...last.response, headers: { ...last.response.headers, 'x-ratelimit-remaining': '7' } },
    };
    expect(check.onExchange?.(tampered)?.message).toMatch(/headers say limit \d+, remaining 7/);
    const refused = exchanges[11] as Exchange;
    const noRetry: Exchange = {
      ...refused,
      response: { ...refused.response, headers: { ...refused.response.headers, 'retry-after': '0' } },
    };
    expect(check.onExchange?.(noRetry)?.message).toContain('Retry-After');
  });

  test('a response without the headers is caught', () => {
    const platform = new Platform({ seed: 't', startMs: START_MS });
    const exchange = exchangeThrough(new Dispatcher(platform, ALL_ROUTES), registerB('x'), START_MS);
    const bare: Exchange = { ...exchange, response: { ...exchange.response, headers: {} } };
    expect(checker('rate-limit-headers', platform).onExchange?.(bare)?.message).toContain('lacks an X-RateLimit');
  });
});

describe('error-shape', () => {
  const base = exchangeThrough(
    new Dispatcher(new Platform({ seed: 't', startMs: START_MS }), ALL_ROUTES),
    { mount: 'api', method: 'GET', path: '/nope', query: {}, headers: {}, ip: '2001:db8::2' },
    START_MS,
  );

  test('errors with string error and code pass, and so do successes', () => {
    expect(base.response.status).toBe(404);
    expect(checker('error-shape').onExchange?.(base)).toBeNull();
    expect(
      checker('error-shape').onExchange?.({ ...base, response: { ...base.response, status: 200, body: { ok: true } } }),
    ).toBeNull();
  });

  test('an error without code, or with a non-string error, is caught', () => {
    expect(
      checker('error-shape').onExchange?.({ ...base, response: { ...base.response, body: { error: 'no' } } })?.message,
    ).toContain('status 404');
    expect(
      checker('error-shape').onExchange?.({
        ...base,
        response: { ...base.response, status: 500, body: { error: 1, code: 'X' } },
      }),
    ).not.toBeNull();
  });
});

describe('InvariantMonitor', () => {
  test('counts one check per hook call per checker and keeps the first violation', () => {
    const platform = new Platform({ seed: 't', startMs: START_MS });
    const monitor = new InvariantMonitor(['conservation', 'faucet-cooldown'], contextOf(platform, { now: START_MS }));
    const claim: DomainEvent = {
      type: 'faucet.claimed',
      atMs: START_MS,
      agentId: 'a',
      style: 'A',
      amountMicro: usdc(1),
      nextClaimAtMs: null,
    };
    monitor.onEvent(claim);
    expect(monitor.failure).toBeNull();
    monitor.onEvent({ ...claim, atMs: START_MS + 1 });
    expect(monitor.failure?.invariant).toBe('faucet-cooldown');
    platform.ledger.faultMint(agentAccount('a'), 1n);
    monitor.onEvent({ ...claim, atMs: START_MS + 2 });
    expect(monitor.failure?.invariant).toBe('faucet-cooldown');
    const results = monitor.results();
    expect(results.map((result) => [result.name, result.checks, result.violations])).toEqual([
      ['conservation', 3, 1],
      ['faucet-cooldown', 3, 2],
      ['agent-assertions', 0, 0],
    ]);
    expect(results[1]?.first?.atMs).toBe(START_MS + 1);
  });
});
