// EscrowService: every transition with exact balances (sender, receiver, hold, fee-income,
// referral payable) after each step, expiry and dispute windows at their exact instants, the
// 400/403/404/409/422 rules, listing, referrer precedence and the two deliberate defects.
// Agents are added straight to the registry and funded from the faucet pool, so these tests do
// not depend on the faucet service.
import { describe, expect, test } from 'vitest';
import { addAgent as addFixtureAgent } from '../../fixtures/agents.ts';
import { isFailure, type Failure, type Outcome } from '../../../src/core/errors.ts';
import { FAUCET_POOL, FEE_INCOME, agentAccount, escrowAccount, referralAccount } from '../../../src/core/ledger.ts';
import { usdc, type Micro } from '../../../src/core/money.ts';
import { Platform } from '../../../src/platform/platform.ts';
import type { CreateEscrowCommand, EscrowRecord } from '../../../src/services/escrow/escrow-record.ts';
import { DEFAULT_CONFIG, type PlatformConfig } from '../../../src/services/shared/config.ts';
import type { DefectName } from '../../../src/services/shared/context.ts';
import type { DomainEvent } from '../../../src/services/shared/events.ts';

const START = Date.UTC(2026, 0, 1);
const SECOND = 1000;
const HOUR = 3_600_000;

interface World {
  platform: Platform;
  events: DomainEvent[];
  balance(account: string): Micro;
  create(command: Partial<CreateEscrowCommand>, atMs?: number): EscrowRecord;
  at(ms: number): number;
}

function addAgent(platform: Platform, id: string, options: { referrerId?: string; fundMicro?: Micro } = {}): string {
  return addFixtureAgent(platform, id, { ...options, createdAtMs: START });
}

function ok<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

function failed<T>(outcome: Outcome<T>): Failure {
  if (outcome.ok) throw new Error('expected a failure, got success');
  return outcome;
}

/** alice (100 USDC, referred by rita) sends to bob; carol is a bystander; rita and eric refer. */
function world(options: { config?: PlatformConfig; defects?: DefectName[] } = {}): World {
  const platform = new Platform({ seed: 'test', startMs: START, config: options.config, defects: options.defects });
  const events: DomainEvent[] = [];
  platform.onEvent((event) => events.push(event));
  addAgent(platform, 'rita');
  addAgent(platform, 'eric');
  addAgent(platform, 'alice', { referrerId: 'rita', fundMicro: usdc(100) });
  addAgent(platform, 'bob', { fundMicro: usdc(5) });
  addAgent(platform, 'carol', { fundMicro: usdc(5) });
  let nowMs = START;
  const at = (ms: number): number => {
    platform.advanceTo(ms);
    nowMs = ms;
    return ms;
  };
  return {
    platform,
    events,
    at,
    balance: (account) => platform.ledger.balance(account),
    create: (command, atMs) => {
      const whenMs = atMs === undefined ? nowMs : at(atMs);
      const full: CreateEscrowCommand = {
        senderId: 'alice',
        receiver: 'bob',
        amountMicro: usdc(10),
        description: null,
        expiresInSeconds: null,
        referrer: null,
        conditions: null,
        ...command,
      };
      return ok(platform.escrow.create(full, whenMs));
    },
  };
}

function createCommand(overrides: Partial<CreateEscrowCommand>): CreateEscrowCommand {
  return {
    senderId: 'alice',
    receiver: 'bob',
    amountMicro: usdc(10),
    description: null,
    expiresInSeconds: null,
    referrer: null,
    conditions: null,
    ...overrides,
  };
}

describe('create', () => {
  test('locks the full amount in the hold and records fee, net, expiry and referrer', () => {
    const w = world();
    const escrow = w.create({ description: 'logo design', conditions: { milestone: 1 } }, START + 5 * SECOND);
    expect(escrow.id).toMatch(/^esc_[0-9a-f]{16}$/);
    expect(escrow).toMatchObject({
      senderId: 'alice',
      receiverId: 'bob',
      amountMicro: 10_000_000n,
      feeMicro: 100_000n,
      netMicro: 9_900_000n,
      description: 'logo design',
      conditions: { milestone: 1 },
      referrerId: 'rita',
      createdAtMs: START + 5 * SECOND,
      expiresAtMs: START + 5 * SECOND + 86_400 * SECOND,
      status: 'locked',
      settledAtMs: null,
      txHash: null,
      dispute: null,
    });
    expect(w.balance(agentAccount('alice'))).toBe(usdc(90));
    expect(w.balance(escrowAccount(escrow.id))).toBe(usdc(10));
    expect(w.balance(agentAccount('bob'))).toBe(usdc(5));
    expect(w.balance(FEE_INCOME)).toBe(0n);
    expect(w.events).toEqual([
      {
        type: 'escrow.created',
        atMs: START + 5 * SECOND,
        escrowId: escrow.id,
        senderId: 'alice',
        receiverId: 'bob',
        amountMicro: usdc(10),
        feeMicro: 100_000n,
        expiresAtMs: escrow.expiresAtMs,
      },
    ]);
    expect(w.platform.escrow.find(escrow.id)).toBe(escrow);
    expect(w.platform.escrow.size).toBe(1);
  });

  test('receivers resolve by id, address in any case, or referral code; responses name the id', () => {
    const w = world();
    const address = `0x${Buffer.from('bob').toString('hex').padEnd(40, 'a')}`;
    expect(w.create({ receiver: address.toUpperCase().replace('0X', '0x') }).receiverId).toBe('bob');
    expect(w.create({ receiver: 'ref_bob' }).receiverId).toBe('bob');
  });

  test.each([
    ['0.10', 100_000n, 1_000n],
    ['0.15', 150_000n, 1_500n],
    ['1.234567', 1_234_567n, 12_346n],
    ['0.100001', 100_001n, 1_001n],
    ['99.999999', 99_999_999n, 1_000_000n],
  ])('fee on %s rounds up to the micro', (_text, amountMicro, feeMicro) => {
    const w = world();
    const escrow = w.create({ amountMicro });
    expect(escrow.feeMicro).toBe(feeMicro);
    expect(escrow.netMicro).toBe(amountMicro - feeMicro);
  });

  test('bad input answers 400 and moves nothing', () => {
    const w = world();
    const before = new Map(w.platform.ledger.accounts());
    const cases: [Partial<CreateEscrowCommand>, string][] = [
      [{ amountMicro: 99_999n }, 'amount must be at least 0.10'],
      [{ amountMicro: 0n }, 'amount must be at least 0.10'],
      [{ amountMicro: -usdc(1) }, 'amount must be at least 0.10'],
      [{ amountMicro: usdc(1_000_000_000_001) }, 'amount is too large'],
      [{ expiresInSeconds: 0 }, 'expires_in'],
      [{ expiresInSeconds: 1.5 }, 'expires_in'],
      [{ expiresInSeconds: 7_776_001 }, 'expires_in'],
      [{ description: '   ' }, 'description must not be empty'],
      [{ description: 'x'.repeat(1001) }, 'description is longer than 1000'],
      [{ receiver: 'alice' }, 'receiver must be an agent other than the sender'],
      [{ referrer: 'alice' }, 'referrer must not be the sender or the receiver'],
      [{ referrer: 'bob' }, 'referrer must not be the sender or the receiver'],
      [{ conditions: { a: { b: { c: { d: { e: 1 } } } } } }, 'conditions is nested deeper than 4 levels'],
      [{ conditions: { n: Number.NaN } }, 'conditions holds a non-finite number'],
    ];
    for (const [command, message] of cases) {
      const failure = failed(w.platform.escrow.create(createCommand(command), START));
      expect(failure.code, message).toBe('BAD_REQUEST');
      expect(failure.status).toBe(400);
      expect(failure.message).toContain(message);
    }
    expect(new Map(w.platform.ledger.accounts())).toEqual(before);
    expect(w.events).toEqual([]);
    expect(w.platform.escrow.size).toBe(0);
  });

  test('unknown receiver or referrer is 404; a short balance is 422; nothing moves', () => {
    const w = world();
    const before = new Map(w.platform.ledger.accounts());
    expect(failed(w.platform.escrow.create(createCommand({ receiver: 'nobody' }), START))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(failed(w.platform.escrow.create(createCommand({ referrer: 'nobody' }), START))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(failed(w.platform.escrow.create(createCommand({ amountMicro: usdc(100) + 1n }), START))).toMatchObject({
      status: 422,
      code: 'INSUFFICIENT_BALANCE',
    });
    expect(
      failed(
        w.platform.escrow.create(createCommand({ senderId: 'bob', receiver: 'alice', amountMicro: 5_000_001n }), START),
      ),
    ).toMatchObject({ status: 422 });
    expect(new Map(w.platform.ledger.accounts())).toEqual(before);
    expect(w.platform.escrow.size).toBe(0);
  });

  test('the whole balance can be locked', () => {
    const w = world();
    w.create({ amountMicro: usdc(100) });
    expect(w.balance(agentAccount('alice'))).toBe(0n);
  });

  test('conditions are deep-copied: mutating the caller object later changes nothing', () => {
    const w = world();
    const conditions = { steps: ['draft', 'final'], nested: { done: false } };
    const escrow = w.create({ conditions });
    conditions.steps.push('extra');
    conditions.nested.done = true;
    expect(escrow.conditions).toEqual({ steps: ['draft', 'final'], nested: { done: false } });
    const proto = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, never>;
    const stored = w.create({ conditions: proto }).conditions;
    expect(Object.keys(stored ?? {})).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('release', () => {
  test('pays net to the receiver, fee to fee-income, 15% of the fee to the registration referrer', () => {
    const w = world();
    const escrow = w.create({ amountMicro: 1_234_567n }, START);
    const released = ok(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, w.at(START + HOUR)));
    expect(released).toMatchObject({ status: 'released', settledAtMs: START + HOUR, referrerId: 'rita' });
    expect(released.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(w.balance(agentAccount('alice'))).toBe(usdc(100) - 1_234_567n);
    expect(w.balance(agentAccount('bob'))).toBe(usdc(5) + 1_222_221n);
    expect(w.balance(escrowAccount(escrow.id))).toBe(0n);
    expect(w.balance(FEE_INCOME)).toBe(12_346n - 1_851n);
    expect(w.balance(referralAccount('rita'))).toBe(1_851n);
    expect(w.platform.referrals.totalsFor('rita').earnedMicro).toBe(1_851n);
    expect(w.events.at(-1)).toEqual({
      type: 'escrow.released',
      atMs: START + HOUR,
      escrowId: escrow.id,
      netMicro: 1_222_221n,
      feeMicro: 12_346n,
      referrerId: 'rita',
      referralMicro: 1_851n,
    });
    expect(w.platform.ledger.auditSum()).toBe(0n);
  });

  test('only the sender releases (403); unknown escrow is 404; a second release is 409', () => {
    const w = world();
    const escrow = w.create({});
    expect(failed(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'bob' }, START))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(failed(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'carol' }, START))).toMatchObject({
      status: 403,
    });
    expect(
      failed(w.platform.escrow.release({ escrowId: 'esc_0000000000000000', callerId: 'alice' }, START)),
    ).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    ok(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, START));
    const after = new Map(w.platform.ledger.accounts());
    expect(failed(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, START))).toMatchObject({
      status: 409,
      code: 'CONFLICT',
      message: 'escrow is already released',
    });
    expect(failed(w.platform.escrow.refund({ escrowId: escrow.id, callerId: 'alice' }, START))).toMatchObject({
      status: 409,
    });
    expect(
      failed(
        w.platform.escrow.dispute({ escrowId: escrow.id, callerId: 'bob', reason: 'late', evidence: null }, START),
      ),
    ).toMatchObject({ status: 409 });
    expect(new Map(w.platform.ledger.accounts())).toEqual(after);
    expect(w.events.filter((event) => event.type === 'escrow.released')).toHaveLength(1);
  });
});

describe('refund', () => {
  test('returns the full amount to the sender, no fee, no referral', () => {
    const w = world();
    const escrow = w.create({ amountMicro: usdc(7) });
    const refunded = ok(w.platform.escrow.refund({ escrowId: escrow.id, callerId: 'alice' }, w.at(START + 2 * HOUR)));
    expect(refunded).toMatchObject({ status: 'refunded', settledAtMs: START + 2 * HOUR });
    expect(refunded.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(w.balance(agentAccount('alice'))).toBe(usdc(100));
    expect(w.balance(agentAccount('bob'))).toBe(usdc(5));
    expect(w.balance(escrowAccount(escrow.id))).toBe(0n);
    expect(w.balance(FEE_INCOME)).toBe(0n);
    expect(w.balance(referralAccount('rita'))).toBe(0n);
    expect(w.events.at(-1)).toEqual({
      type: 'escrow.refunded',
      atMs: START + 2 * HOUR,
      escrowId: escrow.id,
      amountMicro: usdc(7),
      cause: 'sender',
    });
  });

  test('sender only (403); after refund, release and refund are 409', () => {
    const w = world();
    const escrow = w.create({});
    expect(failed(w.platform.escrow.refund({ escrowId: escrow.id, callerId: 'bob' }, START))).toMatchObject({
      status: 403,
    });
    ok(w.platform.escrow.refund({ escrowId: escrow.id, callerId: 'alice' }, START));
    expect(failed(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, START))).toMatchObject({
      status: 409,
      message: 'escrow is already refunded',
    });
    expect(failed(w.platform.escrow.refund({ escrowId: escrow.id, callerId: 'alice' }, START))).toMatchObject({
      status: 409,
    });
    expect(w.balance(agentAccount('alice'))).toBe(usdc(100));
  });
});

describe('expiry', () => {
  test('a locked escrow expires at exactly expires_at: one millisecond before it is still locked', () => {
    const w = world();
    const escrow = w.create({ expiresInSeconds: 3_600 }, START + 250);
    const expiresAtMs = START + 250 + HOUR;
    expect(escrow.expiresAtMs).toBe(expiresAtMs);
    w.at(expiresAtMs - 1);
    expect(escrow.status).toBe('locked');
    expect(w.balance(agentAccount('alice'))).toBe(usdc(90));
    expect(w.balance(escrowAccount(escrow.id))).toBe(usdc(10));
    w.at(expiresAtMs);
    expect(escrow).toMatchObject({ status: 'expired', settledAtMs: expiresAtMs });
    expect(escrow.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(w.balance(agentAccount('alice'))).toBe(usdc(100));
    expect(w.balance(escrowAccount(escrow.id))).toBe(0n);
    expect(w.balance(FEE_INCOME)).toBe(0n);
    expect(w.events.at(-1)).toEqual({
      type: 'escrow.expired',
      atMs: expiresAtMs,
      escrowId: escrow.id,
      amountMicro: usdc(10),
      expiresAtMs,
    });
    expect(failed(w.platform.escrow.refund({ escrowId: escrow.id, callerId: 'alice' }, expiresAtMs))).toMatchObject({
      status: 409,
      message: 'escrow is already expired',
    });
    expect(failed(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, expiresAtMs))).toMatchObject({
      status: 409,
    });
  });

  test('refund one millisecond before expiry works; the expiry timer is then a no-op', () => {
    const w = world();
    const escrow = w.create({ expiresInSeconds: 1 });
    ok(w.platform.escrow.refund({ escrowId: escrow.id, callerId: 'alice' }, w.at(START + 999)));
    w.at(START + 10 * SECOND);
    expect(escrow.status).toBe('refunded');
    expect(w.events.map((event) => event.type)).toEqual(['escrow.created', 'escrow.refunded']);
    expect(w.balance(agentAccount('alice'))).toBe(usdc(100));
  });

  test('a call at or after expires_at whose timer has not run yet still answers 409', () => {
    const w = world();
    const escrow = w.create({ expiresInSeconds: 60 });
    expect(
      failed(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, START + 60 * SECOND)),
    ).toMatchObject({ status: 409, message: 'escrow has expired' });
    expect(
      failed(w.platform.escrow.refund({ escrowId: escrow.id, callerId: 'alice' }, START + 60 * SECOND)),
    ).toMatchObject({ status: 409 });
    expect(
      failed(
        w.platform.escrow.dispute(
          { escrowId: escrow.id, callerId: 'bob', reason: 'x', evidence: null },
          START + 60 * SECOND,
        ),
      ),
    ).toMatchObject({ status: 409 });
    expect(escrow.status).toBe('locked');
  });

  test('the maximum expiry is 90 days', () => {
    const w = world();
    expect(w.create({ expiresInSeconds: 7_776_000 }).expiresAtMs).toBe(START + 7_776_000 * SECOND);
  });
});

describe('dispute', () => {
  test('either party opens it: funds frozen, refund 409, receiver release 403, expiry suspended', () => {
    const w = world();
    const escrow = w.create({ expiresInSeconds: 3_600 });
    const disputed = ok(
      w.platform.escrow.dispute(
        { escrowId: escrow.id, callerId: 'bob', reason: 'not delivered', evidence: 'ipfs://Qm1' },
        w.at(START + 10 * SECOND),
      ),
    );
    expect(disputed.status).toBe('disputed');
    expect(disputed.dispute).toEqual({
      reason: 'not delivered',
      evidence: 'ipfs://Qm1',
      openedById: 'bob',
      openedAtMs: START + 10 * SECOND,
      windowEndsAtMs: START + 10 * SECOND + 48 * HOUR,
      outcome: null,
    });
    expect(w.events.at(-1)).toEqual({
      type: 'escrow.disputed',
      atMs: START + 10 * SECOND,
      escrowId: escrow.id,
      byAgentId: 'bob',
      windowEndsAtMs: START + 10 * SECOND + 48 * HOUR,
    });
    expect(
      failed(w.platform.escrow.refund({ escrowId: escrow.id, callerId: 'alice' }, START + 20 * SECOND)),
    ).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(
      failed(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'bob' }, START + 20 * SECOND)),
    ).toMatchObject({ status: 403 });
    expect(
      failed(
        w.platform.escrow.dispute(
          { escrowId: escrow.id, callerId: 'alice', reason: 'again', evidence: null },
          START + 20 * SECOND,
        ),
      ),
    ).toMatchObject({ status: 409, message: 'escrow is already disputed' });
    w.at(START + 2 * HOUR);
    expect(escrow.status).toBe('disputed');
    expect(w.balance(escrowAccount(escrow.id))).toBe(usdc(10));
    expect(w.balance(agentAccount('alice'))).toBe(usdc(90));
  });

  test('the sender may concede during the window: released as normal, the window end then does nothing', () => {
    const w = world();
    const escrow = w.create({});
    ok(
      w.platform.escrow.dispute(
        { escrowId: escrow.id, callerId: 'alice', reason: 'wrong colour', evidence: null },
        START,
      ),
    );
    const released = ok(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, w.at(START + HOUR)));
    expect(released.status).toBe('released');
    expect(released.dispute?.outcome).toBe('released');
    expect(w.balance(agentAccount('bob'))).toBe(usdc(5) + 9_900_000n);
    expect(w.balance(FEE_INCOME)).toBe(100_000n - 15_000n);
    expect(w.balance(referralAccount('rita'))).toBe(15_000n);
    w.at(START + 49 * HOUR);
    const escrowEvents = w.events.filter((event) => event.type.startsWith('escrow.'));
    expect(escrowEvents.map((event) => event.type)).toEqual(['escrow.created', 'escrow.disputed', 'escrow.released']);
    expect(escrow.settledAtMs).toBe(START + HOUR);
  });

  test('window end with disputeOutcome "refund" (default) refunds in full at exactly its end', () => {
    const w = world();
    const escrow = w.create({ expiresInSeconds: 60 });
    ok(
      w.platform.escrow.dispute(
        { escrowId: escrow.id, callerId: 'bob', reason: 'scam', evidence: null },
        w.at(START + SECOND),
      ),
    );
    const endMs = START + SECOND + 48 * HOUR;
    w.at(endMs - 1);
    expect(escrow.status).toBe('disputed');
    w.at(endMs);
    expect(escrow).toMatchObject({ status: 'refunded', settledAtMs: endMs });
    expect(escrow.dispute?.outcome).toBe('refunded');
    expect(w.balance(agentAccount('alice'))).toBe(usdc(100));
    expect(w.balance(agentAccount('bob'))).toBe(usdc(5));
    expect(w.balance(escrowAccount(escrow.id))).toBe(0n);
    expect(w.balance(FEE_INCOME)).toBe(0n);
    expect(w.events.at(-1)).toEqual({
      type: 'escrow.refunded',
      atMs: endMs,
      escrowId: escrow.id,
      amountMicro: usdc(10),
      cause: 'dispute-window',
    });
    expect(w.events.filter((event) => event.type === 'escrow.expired')).toEqual([]);
  });

  test('window end with disputeOutcome "release" releases with fee and referral', () => {
    const config: PlatformConfig = {
      ...DEFAULT_CONFIG,
      escrow: { ...DEFAULT_CONFIG.escrow, disputeOutcome: 'release' },
    };
    const w = world({ config });
    const escrow = w.create({ amountMicro: usdc(20), referrer: 'eric' });
    ok(w.platform.escrow.dispute({ escrowId: escrow.id, callerId: 'alice', reason: 'slow', evidence: null }, START));
    w.at(START + 48 * HOUR);
    expect(escrow).toMatchObject({ status: 'released', settledAtMs: START + 48 * HOUR });
    expect(escrow.dispute?.outcome).toBe('released');
    expect(w.balance(agentAccount('alice'))).toBe(usdc(80));
    expect(w.balance(agentAccount('bob'))).toBe(usdc(5) + 19_800_000n);
    expect(w.balance(FEE_INCOME)).toBe(200_000n - 30_000n);
    // The window timer was scheduled before the 48 h referral sweep, so it runs first at that
    // instant and the sweep then pays the accrued share straight into eric's balance.
    expect(w.balance(referralAccount('eric'))).toBe(0n);
    expect(w.balance(agentAccount('eric'))).toBe(30_000n);
    expect(w.platform.referrals.totalsFor('eric')).toEqual({ earnedMicro: 30_000n, paidMicro: 30_000n });
    expect(w.platform.referrals.totalsFor('rita').earnedMicro).toBe(0n);
  });

  test('403 for a bystander, 404 for an unknown escrow, 400 for a blank or long reason', () => {
    const w = world();
    const escrow = w.create({});
    const command = { escrowId: escrow.id, callerId: 'carol', reason: 'x', evidence: null };
    expect(failed(w.platform.escrow.dispute(command, START))).toMatchObject({ status: 403 });
    expect(failed(w.platform.escrow.dispute({ ...command, escrowId: 'esc_nope' }, START))).toMatchObject({
      status: 404,
    });
    expect(failed(w.platform.escrow.dispute({ ...command, callerId: 'bob', reason: ' ' }, START))).toMatchObject({
      status: 400,
    });
    expect(
      failed(w.platform.escrow.dispute({ ...command, callerId: 'bob', reason: 'r'.repeat(1001) }, START)),
    ).toMatchObject({ status: 400 });
    expect(
      failed(w.platform.escrow.dispute({ ...command, callerId: 'bob', evidence: 'e'.repeat(1001) }, START)),
    ).toMatchObject({ status: 400 });
    expect(escrow.status).toBe('locked');
  });
});

describe('referrer precedence', () => {
  function releaseWith(w: World, command: Partial<CreateEscrowCommand>): EscrowRecord {
    const escrow = w.create({ amountMicro: usdc(10), ...command });
    return ok(w.platform.escrow.release({ escrowId: escrow.id, callerId: escrow.senderId }, START));
  }

  test('the explicit referrer wins over the registration referrer; never both', () => {
    const w = world();
    expect(releaseWith(w, { referrer: 'eric' }).referrerId).toBe('eric');
    expect(w.balance(referralAccount('eric'))).toBe(15_000n);
    expect(w.balance(referralAccount('rita'))).toBe(0n);
    expect(w.balance(FEE_INCOME)).toBe(85_000n);
  });

  test('explicit referrer by referral code or address', () => {
    const w = world();
    expect(w.create({ referrer: 'ref_eric' }).referrerId).toBe('eric');
    expect(w.create({ referrer: `0x${Buffer.from('eric').toString('hex').padEnd(40, 'a')}` }).referrerId).toBe('eric');
  });

  test('without an explicit one, the registration referrer earns; a sender without one pays no share', () => {
    const w = world();
    expect(releaseWith(w, {}).referrerId).toBe('rita');
    expect(w.balance(referralAccount('rita'))).toBe(15_000n);
    const fromBob = releaseWith(w, { senderId: 'bob', receiver: 'carol', amountMicro: usdc(1) });
    expect(fromBob.referrerId).toBeNull();
    expect(w.balance(FEE_INCOME)).toBe(85_000n + 10_000n);
  });

  test('a registration referrer who is the receiver earns nothing on that escrow', () => {
    const w = world();
    const escrow = releaseWith(w, { receiver: 'rita' });
    expect(escrow.referrerId).toBeNull();
    expect(w.balance(referralAccount('rita'))).toBe(0n);
    expect(w.balance(FEE_INCOME)).toBe(100_000n);
    expect(w.balance(agentAccount('rita'))).toBe(9_900_000n);
  });
});

describe('get and list', () => {
  test('parties see an escrow; others get 403; unknown ids 404', () => {
    const w = world();
    const escrow = w.create({});
    expect(ok(w.platform.escrow.get({ escrowId: escrow.id, callerId: 'alice' }))).toBe(escrow);
    expect(ok(w.platform.escrow.get({ escrowId: escrow.id, callerId: 'bob' }))).toBe(escrow);
    expect(failed(w.platform.escrow.get({ escrowId: escrow.id, callerId: 'carol' }))).toMatchObject({ status: 403 });
    expect(failed(w.platform.escrow.get({ escrowId: 'esc_ffffffffffffffff', callerId: 'alice' }))).toMatchObject({
      status: 404,
    });
  });

  test('role and status filters, newest first with the id as tie-breaker, and the limit', () => {
    const w = world();
    const first = w.create({}, START);
    const sameA = w.create({ receiver: 'carol' }, START + SECOND);
    const sameB = w.create({ receiver: 'carol' }, START + SECOND);
    const incoming = w.create({ senderId: 'bob', receiver: 'alice', amountMicro: usdc(1) }, START + 2 * SECOND);
    ok(w.platform.escrow.release({ escrowId: first.id, callerId: 'alice' }, START + 2 * SECOND));
    const [earlier, later] = [sameA, sameB].sort((a, b) => (a.id < b.id ? -1 : 1));
    const ids = (outcome: Outcome<readonly EscrowRecord[]>): string[] => ok(outcome).map((escrow) => escrow.id);
    const list = (role: 'sender' | 'receiver' | 'all', status: EscrowRecord['status'] | null, limit = 20): string[] =>
      ids(w.platform.escrow.list({ callerId: 'alice', role, status, limit }));
    expect(list('all', null)).toEqual([incoming.id, earlier?.id, later?.id, first.id]);
    expect(list('sender', null)).toEqual([earlier?.id, later?.id, first.id]);
    expect(list('receiver', null)).toEqual([incoming.id]);
    expect(list('all', 'released')).toEqual([first.id]);
    expect(list('sender', 'locked')).toEqual([earlier?.id, later?.id]);
    expect(list('all', 'expired')).toEqual([]);
    expect(list('all', null, 2)).toEqual([incoming.id, earlier?.id]);
    expect(ids(w.platform.escrow.list({ callerId: 'carol', role: 'all', status: null, limit: 20 }))).toEqual([
      earlier?.id,
      later?.id,
    ]);
    expect(ids(w.platform.escrow.list({ callerId: 'eric', role: 'all', status: null, limit: 20 }))).toEqual([]);
    expect(failed(w.platform.escrow.list({ callerId: 'alice', role: 'all', status: null, limit: 0 }))).toMatchObject({
      status: 400,
    });
    expect(failed(w.platform.escrow.list({ callerId: 'alice', role: 'all', status: null, limit: 101 }))).toMatchObject({
      status: 400,
    });
  });
});

describe('deliberate defects', () => {
  test("'escrow-fee-2pct' charges 2%", () => {
    const w = world({ defects: ['escrow-fee-2pct'] });
    const escrow = w.create({ amountMicro: 1_234_567n });
    expect(escrow.feeMicro).toBe(24_692n);
    ok(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, START));
    expect(w.balance(agentAccount('bob'))).toBe(usdc(5) + 1_234_567n - 24_692n);
  });

  test("'escrow-release-twice' answers a second release with success and pays again from fee-income", () => {
    const w = world({ defects: ['escrow-release-twice'] });
    const escrow = w.create({ amountMicro: usdc(10) });
    ok(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, START));
    // Fee income (0.085 after the referral share) cannot cover 9.90: success, no payment.
    expect(ok(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, START)).status).toBe('released');
    expect(w.balance(agentAccount('bob'))).toBe(usdc(5) + 9_900_000n);
    w.platform.ledger.transfer({
      from: FAUCET_POOL,
      to: FEE_INCOME,
      amountMicro: usdc(50),
      reason: 'test.fund',
      reference: 'fee',
    });
    ok(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, START));
    expect(w.balance(agentAccount('bob'))).toBe(usdc(5) + 2n * 9_900_000n);
    expect(w.events.filter((event) => event.type === 'escrow.released')).toHaveLength(3);
    expect(w.platform.ledger.auditSum()).toBe(0n);
  });

  test('without the defect a second release is 409 (control)', () => {
    const w = world();
    const escrow = w.create({});
    ok(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, START));
    expect(isFailure(w.platform.escrow.release({ escrowId: escrow.id, callerId: 'alice' }, START))).toBe(true);
  });
});
