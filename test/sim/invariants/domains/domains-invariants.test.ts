// The three domains invariants: each holds while a real platform registers, renews, sells, expires
// and releases domains (every event and transfer fed to the checkers as the simulator does), and
// each trips on a fabricated history that breaks its rule: a second owner, a transfer from a
// non-owner, an expiry off its instant or a missed one, a fee that does not match the cost or a
// referral share that is not 15%, a sale whose money moved elsewhere.
import { describe, expect, test } from 'vitest';
import { addAgent } from '../../../fixtures/agents.ts';
import { FEE_INCOME, agentAccount, type Transfer } from '../../../../src/core/ledger.ts';
import { usdc } from '../../../../src/core/money.ts';
import { Platform } from '../../../../src/platform/platform.ts';
import type { DomainEvent } from '../../../../src/services/shared/events.ts';
import { INVARIANTS, type InvariantChecker, type Violation } from '../../../../src/sim/invariants/index.ts';

const START = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const YEAR = 365 * DAY;
const NAMES = ['domains-one-owner', 'domains-expiry-exact', 'domains-fees'] as const;

function harness() {
  const platform = new Platform({ seed: 'domains-invariants', startMs: START });
  let nowMs = START;
  const checkers = new Map<string, InvariantChecker>(
    NAMES.map((name) => [name, INVARIANTS[name].create({ platform, nowMs: () => nowMs })]),
  );
  const violations: (Violation & { invariant: string })[] = [];
  const collect = (invariant: string, violation: Violation | null | undefined): void => {
    if (violation !== null && violation !== undefined) violations.push({ ...violation, invariant });
  };
  platform.ledger.onTransfer({
    onTransfer: (transfer: Transfer) => {
      for (const [name, checker] of checkers) collect(name, checker.onTransfer?.(transfer));
    },
  });
  platform.onEvent((event) => {
    for (const [name, checker] of checkers) collect(name, checker.onEvent?.(event));
  });
  const at = (ms: number): void => {
    platform.advanceTo(ms);
    nowMs = ms;
    for (const [name, checker] of checkers) {
      collect(name, checker.onTick?.(ms));
      collect(name, checker.onHour?.(ms));
    }
  };
  /** Feeds a fabricated event (and transfers) straight to the checkers, as if the platform had emitted them. */
  const feed = (transfers: readonly Transfer[], event: DomainEvent): void => {
    for (const [name, checker] of checkers) {
      for (const transfer of transfers) collect(name, checker.onTransfer?.(transfer));
      collect(name, checker.onEvent?.(event));
    }
  };
  addAgent(platform, 'rita', { createdAtMs: START });
  addAgent(platform, 'alice', { referrerId: 'rita', fundMicro: usdc(500), createdAtMs: START });
  addAgent(platform, 'bob', { fundMicro: usdc(500), createdAtMs: START });
  return { platform, at, feed, violations };
}

describe('domains invariants', () => {
  test('hold over registrations, renewals, a sale, a gift, expiry and release', () => {
    const { platform, at, violations } = harness();
    const domains = platform.domains;
    expect(domains.register({ callerId: 'alice', domain: 'one.com', years: 1, resolver: null }, START).ok).toBe(true);
    expect(domains.register({ callerId: 'bob', domain: 'two.io', years: 2, resolver: null }, START).ok).toBe(true);
    at(START + DAY);
    expect(domains.renew({ callerId: 'bob', domain: 'two.io', years: 1 }, START + DAY).ok).toBe(true);
    expect(
      domains.transfer({ callerId: 'alice', domain: 'one.com', to: 'bob', priceMicro: usdc(20) }, START + DAY).ok,
    ).toBe(true);
    expect(
      domains.transfer({ callerId: 'bob', domain: 'one.com', to: 'bob', priceMicro: usdc(20) }, START + DAY).ok,
    ).toBe(true);
    expect(domains.transfer({ callerId: 'bob', domain: 'two.io', to: 'alice', priceMicro: null }, START + DAY).ok).toBe(
      true,
    );
    for (let day = 2; day <= 364; day += 7) at(START + day * DAY);
    at(START + YEAR);
    expect(domains.find('one.com')?.status).toBe('expired');
    at(START + YEAR + 30 * DAY);
    for (let day = 400; day <= 1200; day += 7) at(START + day * DAY);
    expect(domains.find('one.com')).toBeUndefined();
    expect(violations).toEqual([]);
  });

  test('domains-one-owner trips on a second owner and on a transfer from a non-owner', () => {
    const { platform, feed, violations } = harness();
    expect(
      platform.domains.register({ callerId: 'alice', domain: 'one.com', years: 1, resolver: null }, START).ok,
    ).toBe(true);
    feed([], {
      type: 'domains.registered',
      atMs: START,
      domainId: 'dom_fake',
      domain: 'one.com',
      ownerId: 'bob',
      years: 1,
      costMicro: 0n,
      referrerId: null,
      referralMicro: 0n,
      expiresAtMs: START + YEAR,
    });
    const record = platform.domains.find('one.com');
    feed([], {
      type: 'domains.transferred',
      atMs: START,
      domainId: record?.id ?? '',
      domain: 'one.com',
      fromId: 'bob',
      toId: 'rita',
      priceMicro: null,
    });
    const owners = violations.filter((violation) => violation.invariant === 'domains-one-owner');
    expect(owners.map((violation) => violation.message)).toEqual([
      expect.stringContaining('registered by bob while held by alice'),
      expect.stringContaining('transferred from bob'),
    ]);
  });

  test('domains-expiry-exact trips on an expiry off its instant and on a missed one', () => {
    const { platform, feed, at, violations } = harness();
    expect(
      platform.domains.register({ callerId: 'alice', domain: 'one.com', years: 1, resolver: null }, START).ok,
    ).toBe(true);
    const id = platform.domains.find('one.com')?.id ?? '';
    feed([], {
      type: 'domains.expired',
      atMs: START + YEAR - 1,
      domainId: id,
      domain: 'one.com',
      ownerId: 'alice',
      expiresAtMs: START + YEAR,
    });
    expect(violations.map((violation) => violation.message)).toEqual([expect.stringContaining('expired at')]);
    // A domain the platform never expires: its deadline passes with the record still active.
    feed([], {
      type: 'domains.registered',
      atMs: START,
      domainId: id,
      domain: 'one.com',
      ownerId: 'alice',
      years: 1,
      costMicro: usdc(18),
      referrerId: 'rita',
      referralMicro: 2_700_000n,
      expiresAtMs: START + DAY,
    });
    at(START + 2 * DAY);
    expect(
      violations.some(
        (violation) => violation.invariant === 'domains-expiry-exact' && violation.message.includes('still active'),
      ),
    ).toBe(true);
  });

  test('domains-fees trips on a fee unlike the cost, a wrong referral share and a misdirected sale', () => {
    const { feed, violations } = harness();
    const fee = (amountMicro: bigint): Transfer => ({
      from: agentAccount('alice'),
      to: FEE_INCOME,
      amountMicro,
      reason: 'domains.register',
      reference: 'dom_a',
    });
    feed([fee(usdc(17))], {
      type: 'domains.registered',
      atMs: START,
      domainId: 'dom_a',
      domain: 'a.com',
      ownerId: 'alice',
      years: 1,
      costMicro: usdc(18),
      referrerId: null,
      referralMicro: 0n,
      expiresAtMs: START + YEAR,
    });
    feed([fee(usdc(18))], {
      type: 'domains.registered',
      atMs: START,
      domainId: 'dom_a',
      domain: 'a.com',
      ownerId: 'alice',
      years: 1,
      costMicro: usdc(18),
      referrerId: 'rita',
      referralMicro: usdc(3),
      expiresAtMs: START + YEAR,
    });
    feed(
      [{ from: agentAccount('bob'), to: FEE_INCOME, amountMicro: usdc(5), reason: 'domains.sale', reference: 'dom_a' }],
      {
        type: 'domains.transferred',
        atMs: START,
        domainId: 'dom_a',
        domain: 'a.com',
        fromId: 'alice',
        toId: 'bob',
        priceMicro: usdc(5),
      },
    );
    feed([fee(usdc(18))], {
      type: 'domains.registered',
      atMs: START,
      domainId: 'dom_a',
      domain: 'a.com',
      ownerId: 'alice',
      years: 1,
      costMicro: usdc(18),
      referrerId: 'rita',
      referralMicro: 2_700_000n,
      expiresAtMs: START + YEAR,
    });
    const fees = violations
      .filter((violation) => violation.invariant === 'domains-fees')
      .map((violation) => violation.message);
    expect(fees).toEqual([
      expect.stringContaining('should move 18000000'),
      expect.stringContaining('is not 1500 bps'),
      expect.stringContaining('the sale of a.com'),
    ]);
  });
});
