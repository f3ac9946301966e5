// DomainsService: check, register (cost, referral share, 409, 422, years), renew (extension,
// horizon, grace), transfer (gift, offer, acceptance as an atomic swap, refusals), DNS upsert,
// lookup, listing, and expiry then release at their exact instants. Exact balances after each step.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { addAgent as addFixtureAgent } from '../../fixtures/agents.ts';
import type { Failure, Outcome } from '../../../src/core/errors.ts';
import { FEE_INCOME, agentAccount, referralAccount } from '../../../src/core/ledger.ts';
import { usdc, type Micro } from '../../../src/core/money.ts';
import { Platform } from '../../../src/platform/platform.ts';
import type { DnsRecord } from '../../../src/services/domains/dns-records.ts';
import type { DomainEvent } from '../../../src/services/shared/events.ts';

const START = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const YEAR = 365 * DAY;
const GRACE = 30 * DAY;

function ok<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

function failed<T>(outcome: Outcome<T>): Failure {
  if (outcome.ok) throw new Error('expected a failure, got success');
  return outcome;
}

/** alice (500 USDC, referred by rita), bob (200), carol (5); rita refers. */
function world() {
  const platform = new Platform({ seed: 'domains', startMs: START });
  const events: DomainEvent[] = [];
  platform.onEvent((event) => events.push(event));
  addFixtureAgent(platform, 'rita', { createdAtMs: START });
  addFixtureAgent(platform, 'alice', { referrerId: 'rita', fundMicro: usdc(500), createdAtMs: START });
  addFixtureAgent(platform, 'bob', { fundMicro: usdc(200), createdAtMs: START });
  addFixtureAgent(platform, 'carol', { fundMicro: usdc(5), createdAtMs: START });
  const balance = (agentId: string): Micro => platform.ledger.balance(agentAccount(agentId));
  const register = (domain: string, callerId = 'alice', years = 1, atMs = platform.nowMs) =>
    platform.domains.register({ callerId, domain, years, resolver: null }, atMs);
  return { platform, events, balance, register, domains: platform.domains };
}

const record = (type: DnsRecord['type'], host: string, value: string, priority: number | null = null): DnsRecord => ({
  type,
  host,
  value,
  ttl: 3600,
  priority,
});

describe('check and register', () => {
  test('a free name is available at its yearly price; registering charges price × years to fee-income', () => {
    const { domains, balance, register, platform, events } = world();
    expect(ok(domains.check('Example.COM'))).toEqual({
      domain: 'example.com',
      available: true,
      yearlyPriceMicro: usdc(18),
      status: null,
    });
    const feeBefore = platform.ledger.balance(FEE_INCOME);
    const charge = ok(register('example.com', 'alice', 3));
    expect(charge.costMicro).toBe(usdc(54));
    expect(charge.domain.expiresAtMs).toBe(START + 3 * YEAR);
    expect(balance('alice')).toBe(usdc(500 - 54));
    // 15% of the fee accrues to rita's payable; the rest stays in fee-income.
    expect(platform.ledger.balance(referralAccount('rita'))).toBe(8_100_000n);
    expect(platform.ledger.balance(FEE_INCOME) - feeBefore).toBe(usdc(54) - 8_100_000n);
    expect(ok(domains.check('example.com')).available).toBe(false);
    expect(events.filter((event) => event.type === 'domains.registered')).toHaveLength(1);
  });

  test('a taken name is 409 CONFLICT and charges nothing', () => {
    const { register, balance } = world();
    ok(register('taken.io', 'alice'));
    const before = balance('bob');
    expect(failed(register('TAKEN.io', 'bob')).code).toBe('CONFLICT');
    expect(balance('bob')).toBe(before);
  });

  test('too little balance is 422 and nothing changes', () => {
    const { register, balance, domains } = world();
    expect(failed(register('pricey.ai', 'carol')).code).toBe('INSUFFICIENT_BALANCE');
    expect(balance('carol')).toBe(usdc(5));
    expect(ok(domains.check('pricey.ai')).available).toBe(true);
  });

  test('years outside 1..10, bad names, unsupported TLDs and bad resolvers are 400 and change nothing', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -50, max: 0 }),
          fc.integer({ min: 11, max: 500 }),
          fc.double({ min: 1.01, max: 9.99, noInteger: true }),
        ),
        (years) => {
          const { register, balance, domains } = world();
          expect(failed(register('years.com', 'alice', years)).code).toBe('BAD_REQUEST');
          expect(balance('alice')).toBe(usdc(500));
          expect(domains.size).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
    const { register, domains, platform } = world();
    for (const name of [
      '',
      'nodot',
      'a.b.com',
      '-lead.com',
      'trail-.com',
      'sp ace.com',
      'under_score.com',
      'x.c0m',
      'name.zz',
      'é.com',
      `${'a'.repeat(64)}.com`,
    ]) {
      expect(failed(register(name)).code).toBe('BAD_REQUEST');
    }
    for (const resolver of ['', 'not a host', 'single', `${'a'.repeat(254)}`]) {
      expect(
        failed(domains.register({ callerId: 'alice', domain: 'ok.com', years: 1, resolver }, platform.nowMs)).code,
      ).toBe('BAD_REQUEST');
    }
    expect(domains.size).toBe(0);
    ok(
      domains.register({ callerId: 'alice', domain: 'ok.com', years: 1, resolver: 'ns1.resolver.net' }, platform.nowMs),
    );
    ok(domains.register({ callerId: 'alice', domain: 'ok2.com', years: 1, resolver: '10.0.0.53' }, platform.nowMs));
  });

  test('an agent holds at most domainsPerAgentMax domains', () => {
    const { register, platform, domains } = world();
    platform.ledger.transfer({
      from: 'faucet-pool',
      to: agentAccount('alice'),
      amountMicro: usdc(2000),
      reason: 'test',
      reference: 'test',
    });
    for (let index = 0; index < platform.config.domains.domainsPerAgentMax; index++) ok(register(`n${index}.xyz`));
    expect(failed(register('onemore.xyz')).code).toBe('CONFLICT');
    expect(domains.list('alice')).toHaveLength(platform.config.domains.domainsPerAgentMax);
  });

  test('property: the fee-income gain plus the referral payable equals the sum of costs', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            label: fc.stringMatching(/^[a-z]{1,8}$/),
            tld: fc.constantFrom('com', 'io', 'xyz', 'app'),
            years: fc.integer({ min: 1, max: 10 }),
            who: fc.constantFrom('alice', 'bob'),
          }),
          { maxLength: 12 },
        ),
        (wanted) => {
          const { register, platform, balance } = world();
          const startTotal = balance('alice') + balance('bob') + platform.ledger.balance(FEE_INCOME);
          let charged = 0n;
          for (const want of wanted) {
            const outcome = register(`${want.label}.${want.tld}`, want.who, want.years);
            if (outcome.ok) charged += outcome.value.costMicro;
          }
          expect(balance('alice') + balance('bob')).toBe(usdc(700) - charged);
          expect(
            platform.ledger.balance(FEE_INCOME) +
              platform.ledger.balance(referralAccount('rita')) +
              balance('alice') +
              balance('bob'),
          ).toBe(startTotal);
          expect(platform.domains.checkConsistent()).toBeNull();
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('expiry and renewal', () => {
  test('expired at exactly expires_at, released at exactly the end of grace, then available again', () => {
    const { register, platform, domains, events } = world();
    const expiresAtMs = ok(register('short.com')).domain.expiresAtMs;
    platform.advanceTo(expiresAtMs - 1);
    expect(domains.find('short.com')?.status).toBe('active');
    platform.advanceTo(expiresAtMs);
    expect(domains.find('short.com')?.status).toBe('expired');
    expect(ok(domains.check('short.com'))).toMatchObject({ available: false, status: 'expired' });
    expect(failed(register('short.com', 'bob')).code).toBe('CONFLICT');
    platform.advanceTo(expiresAtMs + GRACE - 1);
    expect(domains.find('short.com')?.status).toBe('expired');
    platform.advanceTo(expiresAtMs + GRACE);
    expect(domains.find('short.com')).toBeUndefined();
    expect(ok(domains.check('short.com')).available).toBe(true);
    const expired = events.find((event) => event.type === 'domains.expired');
    const released = events.find((event) => event.type === 'domains.released');
    expect(expired?.atMs).toBe(expiresAtMs);
    expect(released?.atMs).toBe(expiresAtMs + GRACE);
    ok(register('short.com', 'bob', 1, expiresAtMs + GRACE));
    expect(domains.find('short.com')?.ownerId).toBe('bob');
  });

  test('renewal extends from the current expiry, charges the price, and stale timers do nothing', () => {
    const { register, platform, domains, balance, events } = world();
    const firstExpiryMs = ok(register('keep.com', 'alice', 2)).domain.expiresAtMs;
    const renewed = ok(domains.renew({ callerId: 'alice', domain: 'keep.com', years: 3 }, platform.nowMs));
    expect(renewed.domain.expiresAtMs).toBe(START + 5 * YEAR);
    expect(renewed.costMicro).toBe(usdc(54));
    expect(balance('alice')).toBe(usdc(500 - 36 - 54));
    platform.advanceTo(firstExpiryMs + GRACE);
    expect(domains.find('keep.com')?.status).toBe('active');
    expect(events.some((event) => event.type === 'domains.expired')).toBe(false);
  });

  test('renewal in grace makes the domain active again; others may not renew; the 10-year horizon holds', () => {
    const { register, platform, domains } = world();
    ok(register('grace.com'));
    platform.advanceTo(START + YEAR + DAY);
    expect(domains.find('grace.com')?.status).toBe('expired');
    expect(failed(domains.renew({ callerId: 'bob', domain: 'grace.com', years: 1 }, platform.nowMs)).code).toBe(
      'FORBIDDEN',
    );
    ok(domains.renew({ callerId: 'alice', domain: 'grace.com', years: 1 }, platform.nowMs));
    expect(domains.find('grace.com')).toMatchObject({ status: 'active', expiresAtMs: START + 2 * YEAR });
    platform.advanceTo(START + 2 * YEAR + GRACE + DAY);
    expect(domains.find('grace.com')).toBeUndefined();
    ok(register('far.com', 'alice', 10));
    expect(failed(domains.renew({ callerId: 'alice', domain: 'far.com', years: 1 }, platform.nowMs)).code).toBe(
      'CONFLICT',
    );
    expect(failed(domains.renew({ callerId: 'alice', domain: 'nothere.com', years: 1 }, platform.nowMs)).code).toBe(
      'NOT_FOUND',
    );
    expect(failed(domains.renew({ callerId: 'alice', domain: 'far.com', years: 0 }, platform.nowMs)).code).toBe(
      'BAD_REQUEST',
    );
  });
});

describe('transfer', () => {
  test('a gift moves the domain at once and drops nothing else', () => {
    const { register, platform, domains, balance } = world();
    ok(register('gift.com'));
    const result = ok(
      domains.transfer({ callerId: 'alice', domain: 'gift.com', to: 'bob', priceMicro: null }, platform.nowMs),
    );
    expect(result.kind).toBe('transferred');
    expect(domains.find('gift.com')?.ownerId).toBe('bob');
    expect(domains.list('alice')).toHaveLength(0);
    expect(domains.list('bob').map((domain) => domain.name)).toEqual(['gift.com']);
    expect(balance('bob')).toBe(usdc(200));
    expect(domains.checkConsistent()).toBeNull();
  });

  test('a priced transfer is an offer; the buyer accepting with the same price swaps money and ownership together', () => {
    const { register, platform, domains, balance } = world();
    ok(register('sale.com'));
    const offered = ok(
      domains.transfer({ callerId: 'alice', domain: 'sale.com', to: 'bob', priceMicro: usdc(50) }, platform.nowMs),
    );
    expect(offered.kind).toBe('offered');
    expect(domains.find('sale.com')?.ownerId).toBe('alice');
    expect(
      failed(domains.transfer({ callerId: 'bob', domain: 'sale.com', to: 'bob', priceMicro: usdc(40) }, platform.nowMs))
        .code,
    ).toBe('CONFLICT');
    expect(
      failed(
        domains.transfer({ callerId: 'carol', domain: 'sale.com', to: 'carol', priceMicro: usdc(50) }, platform.nowMs),
      ).code,
    ).toBe('FORBIDDEN');
    const aliceBefore = balance('alice');
    const done = ok(
      domains.transfer({ callerId: 'bob', domain: 'sale.com', to: 'bob', priceMicro: usdc(50) }, platform.nowMs),
    );
    expect(done).toMatchObject({ kind: 'transferred', fromId: 'alice', toId: 'bob', priceMicro: usdc(50) });
    expect(balance('alice')).toBe(aliceBefore + usdc(50));
    expect(balance('bob')).toBe(usdc(150));
    expect(domains.find('sale.com')).toMatchObject({ ownerId: 'bob', offer: null });
    // The offer is spent: accepting again is refused.
    expect(
      failed(domains.transfer({ callerId: 'bob', domain: 'sale.com', to: 'bob', priceMicro: usdc(50) }, platform.nowMs))
        .code,
    ).toBe('BAD_REQUEST');
  });

  test('a buyer without the funds gets 422 and neither money nor ownership moves', () => {
    const { register, platform, domains, balance } = world();
    ok(register('dear.com'));
    ok(domains.transfer({ callerId: 'alice', domain: 'dear.com', to: 'carol', priceMicro: usdc(6) }, platform.nowMs));
    expect(
      failed(
        domains.transfer({ callerId: 'carol', domain: 'dear.com', to: 'carol', priceMicro: usdc(6) }, platform.nowMs),
      ).code,
    ).toBe('INSUFFICIENT_BALANCE');
    expect(balance('carol')).toBe(usdc(5));
    expect(domains.find('dear.com')?.ownerId).toBe('alice');
    expect(domains.find('dear.com')?.offer?.buyerId).toBe('carol');
  });

  test('refusals: non-owner, unknown recipient, self, bad price, expired; an expiry drops the offer', () => {
    const { register, platform, domains } = world();
    ok(register('own.com'));
    const transfer = (callerId: string, to: string, priceMicro: Micro | null, domain = 'own.com') =>
      domains.transfer({ callerId, domain, to, priceMicro }, platform.nowMs);
    expect(failed(transfer('bob', 'carol', null)).code).toBe('FORBIDDEN');
    expect(failed(transfer('alice', 'nobody', null)).code).toBe('NOT_FOUND');
    expect(failed(transfer('alice', 'alice', null)).code).toBe('BAD_REQUEST');
    expect(failed(transfer('alice', 'bob', 0n)).code).toBe('BAD_REQUEST');
    expect(failed(transfer('alice', 'bob', -5n)).code).toBe('BAD_REQUEST');
    expect(failed(transfer('alice', 'bob', null, 'missing.com')).code).toBe('NOT_FOUND');
    ok(transfer('alice', 'bob', usdc(10)));
    platform.advanceTo(START + YEAR);
    expect(domains.find('own.com')).toMatchObject({ status: 'expired', offer: null });
    expect(failed(transfer('alice', 'bob', null)).code).toBe('CONFLICT');
    expect(failed(transfer('bob', 'bob', usdc(10))).code).toBe('FORBIDDEN');
  });

  test('property: any sequence of transfers keeps exactly one owner and conserves money', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            caller: fc.constantFrom('alice', 'bob', 'carol'),
            to: fc.constantFrom('alice', 'bob', 'carol'),
            price: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
          }),
          { maxLength: 25 },
        ),
        (steps) => {
          const { register, platform, domains, balance } = world();
          ok(register('pass.com'));
          const total = balance('alice') + balance('bob') + balance('carol');
          for (const step of steps) {
            const before = domains.find('pass.com')?.ownerId;
            const outcome = domains.transfer(
              {
                callerId: step.caller,
                domain: 'pass.com',
                to: step.to,
                priceMicro: step.price === null ? null : usdc(step.price),
              },
              platform.nowMs,
            );
            if (!outcome.ok) expect(domains.find('pass.com')?.ownerId).toBe(before);
            expect(domains.checkConsistent()).toBeNull();
            const owners = ['alice', 'bob', 'carol'].filter((agent) =>
              domains.list(agent).some((domain) => domain.name === 'pass.com'),
            );
            expect(owners).toEqual([domains.find('pass.com')?.ownerId]);
          }
          expect(balance('alice') + balance('bob') + balance('carol')).toBe(total);
        },
      ),
      { numRuns: 80 },
    );
  });
});

describe('DNS, lookup, listing, valuation', () => {
  test('records are added, updated as sets, listed through lookup; CNAME stays alone', () => {
    const { register, domains } = world();
    ok(register('dns.com'));
    ok(
      domains.setDns({
        callerId: 'alice',
        domain: 'dns.com',
        records: [
          record('A', '@', '10.0.0.1'),
          record('MX', '@', 'mail.dns.com', 10),
          record('TXT', '@', 'v=spf1 -all'),
        ],
      }),
    );
    ok(
      domains.setDns({
        callerId: 'alice',
        domain: 'dns.com',
        records: [record('A', '@', '10.0.0.2'), record('A', '@', '10.0.0.3'), record('CNAME', 'www', 'dns.com')],
      }),
    );
    const found = ok(domains.lookup('dns.com'));
    expect(found.records.map((entry) => `${entry.type} ${entry.host} ${entry.value}`)).toEqual([
      'A @ 10.0.0.2',
      'A @ 10.0.0.3',
      'MX @ mail.dns.com',
      'TXT @ v=spf1 -all',
      'CNAME www dns.com',
    ]);
    expect(
      failed(domains.setDns({ callerId: 'alice', domain: 'dns.com', records: [record('A', 'www', '10.0.0.9')] })).code,
    ).toBe('BAD_REQUEST');
    expect(ok(domains.lookup('dns.com')).records).toHaveLength(5);
  });

  test('invalid DNS content is 400 and changes nothing; non-owners 403; expired 409', () => {
    const { register, platform, domains } = world();
    ok(register('strict.com'));
    const bad: DnsRecord[] = [
      record('A', '@', '300.1.1.1'),
      record('A', '@', '::1'),
      record('AAAA', '@', '10.0.0.1'),
      record('CNAME', '@', 'not a host'),
      record('MX', '@', 'mail.strict.com'),
      record('A', '@', '10.0.0.1', 5),
      record('TXT', '@', ''),
      record('TXT', '@', 'x'.repeat(256)),
      record('TXT', '@', 'tab\there'),
      record('A', 'bad host', '10.0.0.1'),
      { type: 'A', host: '@', value: '10.0.0.1', ttl: 5, priority: null },
    ];
    for (const entry of bad)
      expect(failed(domains.setDns({ callerId: 'alice', domain: 'strict.com', records: [entry] })).code).toBe(
        'BAD_REQUEST',
      );
    expect(failed(domains.setDns({ callerId: 'alice', domain: 'strict.com', records: [] })).code).toBe('BAD_REQUEST');
    expect(
      failed(
        domains.setDns({
          callerId: 'alice',
          domain: 'strict.com',
          records: [record('A', '@', '10.0.0.1'), record('A', '@', '10.0.0.1')],
        }),
      ).code,
    ).toBe('BAD_REQUEST');
    expect(
      failed(domains.setDns({ callerId: 'bob', domain: 'strict.com', records: [record('A', '@', '10.0.0.1')] })).code,
    ).toBe('FORBIDDEN');
    expect(ok(domains.lookup('strict.com')).records).toEqual([]);
    platform.advanceTo(START + YEAR);
    expect(
      failed(domains.setDns({ callerId: 'alice', domain: 'strict.com', records: [record('A', '@', '10.0.0.1')] })).code,
    ).toBe('CONFLICT');
  });

  test('lookup of a free name is 404; listing is sorted by name and per owner', () => {
    const { register, domains } = world();
    expect(failed(domains.lookup('free.com')).code).toBe('NOT_FOUND');
    expect(failed(domains.lookup('bad_name.com')).code).toBe('BAD_REQUEST');
    ok(register('zeta.com'));
    ok(register('alpha.io'));
    ok(register('mid.xyz', 'bob'));
    expect(domains.list('alice').map((domain) => domain.name)).toEqual(['alpha.io', 'zeta.com']);
    expect(domains.list('bob').map((domain) => domain.name)).toEqual(['mid.xyz']);
    expect(domains.list('carol')).toEqual([]);
  });

  test('valuation takes any TLD; an invalid name is 400', () => {
    const { domains } = world();
    expect(ok(domains.valuation('ai.agent')).category).toBe('standard');
    expect(ok(domains.valuation('bot.agent')).category).toBe('premium');
    expect(failed(domains.valuation('not valid')).code).toBe('BAD_REQUEST');
  });
});
