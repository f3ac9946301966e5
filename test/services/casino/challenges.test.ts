/**
 * Challenges as domain operations: create validation and the held stake, accept (exact payout
 * and house cut, proof verifiable after the challenger's seed is revealed), decline and expiry
 * refunds, the pending bounds and lists, with the ledger checked after each lifecycle (every
 * hold at zero, nothing minted, balances exact). Expiry timers are run by hand here.
 */
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../../src/core/errors.ts';
import { EXTERNAL, agentAccount } from '../../../src/core/ledger.ts';
import { usdc, type Micro } from '../../../src/core/money.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { DEFAULT_CASINO_CONFIG } from '../../../src/services/casino/casino-config.ts';
import { CasinoState } from '../../../src/services/casino/casino-state.ts';
import { drawChallenge, verifyChallenge } from '../../../src/services/casino/challenges/challenge-draw.ts';
import {
  CHALLENGE_ID_PATTERN,
  challengeAccount,
  type ChallengeRecord,
  type CreateChallengeCommand,
} from '../../../src/services/casino/challenges/challenge-record.ts';
import { Challenges } from '../../../src/services/casino/challenges/challenges.ts';
import type { Draws } from '../../../src/services/casino/games/game.ts';
import { CASINO_HOUSE } from '../../../src/services/casino/referral-commission.ts';
import type { DomainEvent } from '../../../src/services/shared/events.ts';

const EXPIRY_MS = DEFAULT_CASINO_CONFIG.challengeExpiryMs;

function setup(seed = 'challenges') {
  const platform = new Platform({ seed, startMs: 0 });
  const state = new CasinoState(platform.context, DEFAULT_CASINO_CONFIG);
  const challenges = new Challenges(state);
  const { ledger } = platform;
  const events: DomainEvent[] = [];
  platform.onEvent((event) => events.push(event));
  const register = (agentId: string): void => {
    expect(platform.faucet.register({ style: 'B', agentId }, 0).ok).toBe(true);
  };
  const balance = (agentId: string): Micro => ledger.balance(agentAccount(agentId));
  const advance = (nowMs: number): void => {
    for (let next = platform.timers.peek(); next !== undefined && next.atMs <= nowMs; next = platform.timers.peek()) {
      platform.timers.pop();
      if (next.payload.kind === 'casino.challenge-expire') challenges.onTimer(next.payload, next.atMs);
    }
  };
  const conserved = (): void => {
    expect(ledger.sumMicro).toBe(0n);
    expect(ledger.auditSum()).toBe(0n);
    expect(ledger.negativeAccounts()).toEqual([]);
  };
  register('alice');
  register('bob');
  return { platform, state, challenges, ledger, events, register, balance, advance, conserved };
}

function command(overrides: Partial<CreateChallengeCommand> = {}): CreateChallengeCommand {
  return {
    challengerId: 'alice',
    challengedRef: 'bob',
    game: 'coin_flip',
    amountMicro: usdc(2),
    message: null,
    ...overrides,
  };
}

function value<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

describe('challenge create', () => {
  it('refuses bad input (400), unknown agents (404), itself (400), a short balance (422), and changes nothing', () => {
    const t = setup();
    const cases: [Partial<CreateChallengeCommand>, number][] = [
      [{ game: 'roulette' }, 400],
      [{ game: 'nonsense' }, 400],
      [{ amountMicro: 9_999n }, 400],
      [{ amountMicro: usdc(10_000) + 1n }, 400],
      [{ message: '' }, 400],
      [{ message: 'x'.repeat(281) }, 400],
      [{ challengerId: 'nobody' }, 404],
      [{ challengedRef: 'nobody' }, 404],
      [{ challengedRef: 'alice' }, 400],
      [{ amountMicro: usdc(10) + 1n }, 422],
    ];
    for (const [overrides, status] of cases) {
      const outcome = t.challenges.create(command(overrides), 0);
      expect(
        outcome.ok ? 'ok' : outcome.status,
        JSON.stringify(overrides, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
      ).toBe(status);
    }
    expect(t.balance('alice')).toBe(usdc(10));
    expect([...t.challenges.all()]).toEqual([]);
  });

  it('holds the challenger stake, resolves the challenged agent by id, address or referral code, and lists it both ways', () => {
    const t = setup();
    const bob = t.platform.agents.get('bob');
    expect(bob).toBeDefined();
    const byId = value(t.challenges.create(command({ message: 'best of one' }), 0));
    const byAddress = value(
      t.challenges.create(
        command({
          challengedRef: bob?.address.toUpperCase().replace('0X', '0x') ?? '',
          game: 'dice',
          amountMicro: usdc(1),
        }),
        5,
      ),
    );
    const byCode = value(
      t.challenges.create(command({ challengedRef: bob?.referralCode ?? '', amountMicro: 10_000n }), 5),
    );
    expect(byId).toMatchObject({
      challengerId: 'alice',
      challengedId: 'bob',
      status: 'pending',
      amountMicro: usdc(2),
      message: 'best of one',
      expiresAtMs: EXPIRY_MS,
      winnerId: null,
      proof: null,
      result: null,
      settledAtMs: null,
    });
    expect(byId.id).toMatch(CHALLENGE_ID_PATTERN);
    expect(byAddress.challengedId).toBe('bob');
    expect(byCode.challengedId).toBe('bob');
    expect(t.balance('alice')).toBe(usdc(10) - usdc(3) - 10_000n);
    expect(t.ledger.balance(challengeAccount(byId.id))).toBe(usdc(2));
    const newestFirst = [byAddress, byCode]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((c) => c.id)
      .concat(byId.id);
    expect(t.challenges.list('alice')).toEqual({
      incoming: [],
      outgoing: newestFirst.map((id) => t.challenges.find(id)),
    });
    expect(t.challenges.list('bob').incoming.map((c) => c.id)).toEqual(newestFirst);
    expect(t.events).toContainEqual({
      type: 'casino.challenge',
      atMs: 0,
      challengeId: byId.id,
      status: 'pending',
      winnerId: null,
    });
    t.conserved();
  });

  it('bounds pending challenges: 50 sent per challenger, 50 waiting per challenged agent (409)', () => {
    const t = setup();
    t.ledger.transfer({
      from: EXTERNAL,
      to: agentAccount('alice'),
      amountMicro: usdc(100),
      reason: 'test',
      reference: 'test',
    });
    for (let index = 0; index < 50; index++) value(t.challenges.create(command({ amountMicro: 10_000n }), index));
    expect(t.challenges.create(command({ amountMicro: 10_000n }), 50)).toMatchObject({ ok: false, status: 409 });
    t.register('carol');
    expect(t.challenges.create(command({ challengerId: 'carol', amountMicro: 10_000n }), 50)).toMatchObject({
      ok: false,
      status: 409,
    });
    const first = t.challenges.list('bob').incoming.at(-1) as ChallengeRecord;
    value(t.challenges.decline('bob', first.id, 51));
    expect(t.challenges.create(command({ challengerId: 'carol', amountMicro: 10_000n }), 52).ok).toBe(true);
    t.conserved();
  });
});

describe('challenge accept', () => {
  it('pays the winner both stakes minus the 2% cut, the cut to the house, and leaves the hold at zero', () => {
    const t = setup();
    const houseBefore = t.ledger.balance(CASINO_HOUSE);
    const created = value(t.challenges.create(command(), 0));
    expect(t.challenges.accept('alice', created.id, 1)).toMatchObject({ ok: false, status: 403 });
    expect(t.challenges.accept('bob', 'chl_000000000000', 1)).toMatchObject({ ok: false, status: 404 });
    const resolved = value(t.challenges.accept('bob', created.id, 1));
    const loserId = resolved.winnerId === 'alice' ? 'bob' : 'alice';
    expect(resolved).toMatchObject({
      status: 'resolved',
      settledAtMs: 1,
      payoutMicro: 3_920_000n,
      houseCutMicro: 80_000n,
    });
    expect(t.balance(resolved.winnerId ?? '')).toBe(usdc(10) - usdc(2) + 3_920_000n);
    expect(t.balance(loserId)).toBe(usdc(8));
    expect(t.ledger.balance(CASINO_HOUSE) - houseBefore).toBe(80_000n);
    expect(t.ledger.balance(challengeAccount(created.id))).toBe(0n);
    expect(t.challenges.accept('bob', created.id, 2)).toMatchObject({ ok: false, status: 409 });
    expect(t.challenges.decline('bob', created.id, 2)).toMatchObject({ ok: false, status: 409 });
    expect(t.challenges.list('alice')).toEqual({ incoming: [], outgoing: [] });
    expect(t.events.at(-1)).toEqual({
      type: 'casino.challenge',
      atMs: 1,
      challengeId: created.id,
      status: 'resolved',
      winnerId: resolved.winnerId,
    });
    t.conserved();
  });

  it('refuses a challenged agent that cannot cover the stake (422) and stays pending', () => {
    const t = setup();
    const created = value(t.challenges.create(command({ amountMicro: usdc(5) }), 0));
    t.ledger.transfer({
      from: agentAccount('bob'),
      to: EXTERNAL,
      amountMicro: usdc(6),
      reason: 'test',
      reference: 'test',
    });
    expect(t.challenges.accept('bob', created.id, 1)).toMatchObject({
      ok: false,
      status: 422,
      code: 'INSUFFICIENT_BALANCE',
    });
    expect(t.challenges.find(created.id)?.status).toBe('pending');
    expect(t.balance('bob')).toBe(usdc(4));
    expect(t.ledger.balance(challengeAccount(created.id))).toBe(usdc(5));
    t.conserved();
  });

  it('rounds the cut up to the micro so the house takes the fraction', () => {
    const t = setup();
    const created = value(t.challenges.create(command({ amountMicro: 10_001n }), 0));
    const resolved = value(t.challenges.accept('bob', created.id, 1));
    // pot 20,002; 2% = 400.04 → 401; the winner gets 19,601
    expect(resolved).toMatchObject({ houseCutMicro: 401n, payoutMicro: 19_601n });
    t.conserved();
  });

  it('records a proof from the challenger seed that verifies once the seed is revealed, for both games', () => {
    const t = setup();
    t.ledger.transfer({
      from: EXTERNAL,
      to: agentAccount('alice'),
      amountMicro: usdc(100),
      reason: 'test',
      reference: 'test',
    });
    t.ledger.transfer({
      from: EXTERNAL,
      to: agentAccount('bob'),
      amountMicro: usdc(100),
      reason: 'test',
      reference: 'test',
    });
    const resolved: ChallengeRecord[] = [];
    for (let index = 0; index < 40; index++) {
      const created = value(
        t.challenges.create(command({ game: index % 2 === 0 ? 'coin_flip' : 'dice', amountMicro: 100_000n }), index),
      );
      resolved.push(value(t.challenges.accept('bob', created.id, index)));
    }
    const activeHash = t.state.seeds.active('alice', 40).hash;
    expect(resolved.map((c) => c.proof?.nonce)).toEqual(resolved.map((_, index) => index));
    expect(new Set(resolved.map((c) => c.winnerId))).toEqual(new Set(['alice', 'bob']));
    const revealed = t.state.seeds.rotate('alice', 40);
    expect(revealed.hash).toBe(activeHash);
    for (const challenge of resolved) {
      const proof = challenge.proof;
      expect(proof).toMatchObject({ serverSeedHash: revealed.hash, clientSeed: challenge.id });
      if (proof === null || challenge.result === null)
        throw new Error('resolved challenges carry a proof and a result');
      const checked = verifyChallenge({ game: challenge.game, proof, result: challenge.result }, revealed.hex);
      expect(checked.verified).toBe(true);
      expect(checked.replay.challengerWins).toBe(challenge.winnerId === 'alice');
      expect(verifyChallenge({ game: challenge.game, proof, result: challenge.result }, 'ab'.repeat(32)).verified).toBe(
        false,
      );
      if (challenge.game === 'dice') {
        const rolls = challenge.result['rolls'] as number[][];
        const last = rolls.at(-1) as number[];
        expect((last[0] as number) > (last[1] as number)).toBe(challenge.winnerId === 'alice');
      }
    }
    for (const challenge of resolved) expect(t.ledger.balance(challengeAccount(challenge.id))).toBe(0n);
    t.conserved();
  });
});

describe('challenge decline and expiry', () => {
  it('decline by the challenged agent refunds the challenger exactly; the challenger may not decline', () => {
    const t = setup();
    const created = value(t.challenges.create(command(), 0));
    expect(t.challenges.decline('alice', created.id, 1)).toMatchObject({ ok: false, status: 403 });
    expect(value(t.challenges.decline('bob', created.id, 1))).toMatchObject({
      status: 'declined',
      settledAtMs: 1,
      winnerId: null,
      payoutMicro: 0n,
    });
    expect(t.balance('alice')).toBe(usdc(10));
    expect(t.balance('bob')).toBe(usdc(10));
    expect(t.ledger.balance(challengeAccount(created.id))).toBe(0n);
    expect(t.challenges.accept('bob', created.id, 2)).toMatchObject({ ok: false, status: 409 });
    t.advance(EXPIRY_MS);
    expect(t.challenges.find(created.id)?.status).toBe('declined');
    t.conserved();
  });

  it('expires at exactly expires_at, refunding the challenger; accept at that instant is refused even before the timer', () => {
    const t = setup();
    const created = value(t.challenges.create(command(), 100));
    t.advance(100 + EXPIRY_MS - 1);
    expect(t.challenges.find(created.id)?.status).toBe('pending');
    expect(t.challenges.accept('bob', created.id, 100 + EXPIRY_MS)).toMatchObject({ ok: false, status: 409 });
    t.advance(100 + EXPIRY_MS);
    expect(t.challenges.find(created.id)).toMatchObject({ status: 'expired', settledAtMs: 100 + EXPIRY_MS });
    expect(t.balance('alice')).toBe(usdc(10));
    expect(t.ledger.balance(challengeAccount(created.id))).toBe(0n);
    expect(t.challenges.list('bob').incoming).toEqual([]);
    expect(t.events.at(-1)).toMatchObject({ type: 'casino.challenge', status: 'expired', winnerId: null });
    t.conserved();
  });
});

describe('challenge draw', () => {
  const scripted = (ints: number[]): Draws => ({
    int: () => {
      const next = ints.shift();
      if (next === undefined) throw new Error('script exhausted');
      return next;
    },
    uint32: () => 0,
    fraction52: () => 0n,
    sample: () => [],
  });

  it('coin_flip: 0 is heads, the challenger wins; 1 the challenged agent', () => {
    expect(drawChallenge('coin_flip', scripted([0]))).toEqual({
      challengerWins: true,
      result: { outcome: 'heads', winner: 'challenger' },
    });
    expect(drawChallenge('coin_flip', scripted([1]))).toEqual({
      challengerWins: false,
      result: { outcome: 'tails', winner: 'challenged' },
    });
  });

  it('dice: the higher roll wins and ties roll again with the next draws', () => {
    expect(drawChallenge('dice', scripted([41, 41, 6, 72]))).toEqual({
      challengerWins: false,
      result: {
        rolls: [
          [42, 42],
          [7, 73],
        ],
        winner: 'challenged',
      },
    });
    expect(drawChallenge('dice', scripted([99, 0]))).toEqual({
      challengerWins: true,
      result: { rolls: [[100, 1]], winner: 'challenger' },
    });
  });
});
