/**
 * Tournaments as domain operations: create validation and funding, entry, plays through the one
 * bet path, the timer-driven lifecycle and the exact 60/30/10 prize split, with the ledger
 * checked after every step (the hold ends at zero, nothing minted, every balance exact).
 * Timers are run by hand here (casino kinds only), so the test needs no platform wiring.
 */
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../../src/core/errors.ts';
import { EXTERNAL, agentAccount } from '../../../src/core/ledger.ts';
import { usdc, type Micro } from '../../../src/core/money.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { DEFAULT_CASINO_CONFIG } from '../../../src/services/casino/casino-config.ts';
import { CasinoState } from '../../../src/services/casino/casino-state.ts';
import { coinFlip, type CoinFlipParams } from '../../../src/services/casino/games/coin-flip.ts';
import { dice } from '../../../src/services/casino/games/dice.ts';
import { CASINO_HOUSE } from '../../../src/services/casino/referral-commission.ts';
import { splitPrizes } from '../../../src/services/casino/tournaments/tournament-prizes.ts';
import { rankEntrants } from '../../../src/services/casino/tournaments/tournament-ranking.ts';
import {
  TOURNAMENT_ID_PATTERN,
  tournamentAccount,
  type CreateTournamentCommand,
  type TournamentEntrant,
} from '../../../src/services/casino/tournaments/tournament-record.ts';
import { Tournaments } from '../../../src/services/casino/tournaments/tournaments.ts';
import type { DomainEvent } from '../../../src/services/shared/events.ts';

const HOUR_MS = 3_600_000;

function setup() {
  const platform = new Platform({ seed: 'tournaments', startMs: 0 });
  const state = new CasinoState(platform.context, DEFAULT_CASINO_CONFIG);
  const tournaments = new Tournaments(state);
  const { ledger } = platform;
  ledger.transfer({
    from: EXTERNAL,
    to: CASINO_HOUSE,
    amountMicro: usdc(1_000_000),
    reason: 'test.house',
    reference: 'test',
  });
  const events: DomainEvent[] = [];
  platform.onEvent((event) => events.push(event));
  const register = (agentId: string): void => {
    expect(platform.faucet.register({ style: 'B', agentId }, 0).ok).toBe(true);
  };
  const balance = (agentId: string): Micro => ledger.balance(agentAccount(agentId));
  /** Runs the casino tournament timers due at or before nowMs, in order. */
  const advance = (nowMs: number): void => {
    for (let next = platform.timers.peek(); next !== undefined && next.atMs <= nowMs; next = platform.timers.peek()) {
      platform.timers.pop();
      if (next.payload.kind === 'casino.tournament') tournaments.onTimer(next.payload, next.atMs);
    }
  };
  const conserved = (): void => {
    expect(ledger.sumMicro).toBe(0n);
    expect(ledger.auditSum()).toBe(0n);
    expect(ledger.negativeAccounts()).toEqual([]);
  };
  return { platform, state, tournaments, ledger, events, register, balance, advance, conserved };
}

function command(overrides: Partial<CreateTournamentCommand> = {}): CreateTournamentCommand {
  return {
    creatorId: 'creator',
    name: 'Friday flips',
    game: 'coin_flip',
    entryFeeMicro: usdc(1),
    prizePoolMicro: usdc(3),
    maxAgents: 4,
    startsAtMs: HOUR_MS,
    endsAtMs: 2 * HOUR_MS,
    ...overrides,
  };
}

function value<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

function flip(agentId: string, tournamentId: string, amountMicro: Micro, side: CoinFlipParams['side'] = 'heads') {
  return {
    agentId,
    tournamentId,
    game: coinFlip,
    params: { side },
    paramsJson: { side },
    amountMicro,
    clientSeed: null,
  };
}

describe('tournament create', () => {
  it('refuses each bad field with 400, an unknown creator with 404, a short balance with 422, and changes nothing', () => {
    const t = setup();
    t.register('creator');
    const cases: [Partial<CreateTournamentCommand>, number][] = [
      [{ name: '' }, 400],
      [{ name: '   ' }, 400],
      [{ name: 'x'.repeat(65) }, 400],
      [{ game: 'poker' }, 400],
      [{ entryFeeMicro: -1n }, 400],
      [{ entryFeeMicro: usdc(10_001) }, 400],
      [{ prizePoolMicro: 0n }, 400],
      [{ prizePoolMicro: usdc(1_000_001) }, 400],
      [{ maxAgents: 1 }, 400],
      [{ maxAgents: 1_001 }, 400],
      [{ maxAgents: 2.5 }, 400],
      [{ startsAtMs: -1 }, 400],
      [{ startsAtMs: 31 * 24 * HOUR_MS, endsAtMs: 32 * 24 * HOUR_MS }, 400],
      [{ endsAtMs: HOUR_MS }, 400],
      [{ endsAtMs: HOUR_MS + 30 * 24 * HOUR_MS + 1 }, 400],
      [{ creatorId: 'nobody' }, 404],
      [{ prizePoolMicro: usdc(10) + 1n }, 422],
    ];
    for (const [overrides, status] of cases) {
      const outcome = t.tournaments.create(command(overrides), 0);
      expect(
        outcome.ok ? 'ok' : outcome.status,
        JSON.stringify(overrides, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
      ).toBe(status);
    }
    expect(t.balance('creator')).toBe(usdc(10));
    expect([...t.tournaments.all()]).toEqual([]);
    expect(t.platform.timers.size).toBe(1); // the referral sweep only
  });

  it('funds the pool from the creator into the hold, schedules start and end, and starts active when it starts now', () => {
    const t = setup();
    t.register('creator');
    const upcoming = value(
      t.tournaments.create(command({ maxAgents: 2, entryFeeMicro: 0n, prizePoolMicro: usdc(10) }), 0),
    );
    expect(upcoming.id).toMatch(TOURNAMENT_ID_PATTERN);
    expect(upcoming).toMatchObject({
      status: 'upcoming',
      fundedMicro: usdc(10),
      prizePoolMicro: usdc(10),
      entrantCount: 0,
      prizes: [],
      completedAtMs: null,
      game: 'coin_flip',
    });
    expect(t.balance('creator')).toBe(0n);
    expect(t.ledger.balance(tournamentAccount(upcoming.id))).toBe(usdc(10));
    expect(t.platform.timers.size).toBe(3);
    t.ledger.transfer({
      from: EXTERNAL,
      to: agentAccount('creator'),
      amountMicro: usdc(1),
      reason: 'test',
      reference: 'test',
    });
    const active = value(t.tournaments.create(command({ prizePoolMicro: usdc(1), startsAtMs: 5, endsAtMs: 10 }), 5));
    expect(active.status).toBe('active');
    expect(t.platform.timers.size).toBe(4); // only its end
    expect(t.events.filter((event) => event.type === 'casino.tournament')).toEqual([
      { type: 'casino.tournament', atMs: 0, tournamentId: upcoming.id, status: 'upcoming' },
      { type: 'casino.tournament', atMs: 5, tournamentId: active.id, status: 'active' },
    ]);
    t.conserved();
  });

  it('bounds open tournaments per creator (409) and frees the slot when one completes', () => {
    const t = setup();
    t.register('creator');
    for (let index = 0; index < 20; index++)
      value(t.tournaments.create(command({ prizePoolMicro: 10_000n, endsAtMs: HOUR_MS + 1 + index }), 0));
    const refused = t.tournaments.create(command({ prizePoolMicro: 10_000n }), 0);
    expect(refused.ok || refused.status).toBe(409);
    t.advance(HOUR_MS + 1);
    expect(
      t.tournaments.create(
        command({ prizePoolMicro: 10_000n, startsAtMs: 2 * HOUR_MS, endsAtMs: 3 * HOUR_MS }),
        HOUR_MS + 1,
      ).ok,
    ).toBe(true);
    t.conserved();
  });
});

describe('tournament lifecycle', () => {
  it('enters, plays, ranks and pays 60/30/10 of creator pool plus entry fees, ending the hold at zero', () => {
    const t = setup();
    for (const id of ['creator', 'a1', 'a2', 'a3', 'a4', 'a5']) t.register(id);
    const created = value(t.tournaments.create(command(), 0));
    const id = created.id;
    for (const agentId of ['a1', 'a2', 'a3', 'a4']) value(t.tournaments.enter(agentId, id, 10));
    expect(t.ledger.balance(tournamentAccount(id))).toBe(usdc(7));
    expect(value(t.tournaments.details(id)).tournament).toMatchObject({
      entrantCount: 4,
      prizePoolMicro: usdc(7),
      fundedMicro: usdc(3),
    });
    expect(t.tournaments.enter('a1', id, 11)).toMatchObject({ ok: false, status: 409 });
    expect(t.tournaments.enter('a5', id, 11)).toMatchObject({ ok: false, status: 409 }); // full
    expect(t.tournaments.play(flip('a1', id, usdc(1)), 20)).toMatchObject({ ok: false, status: 409 }); // not started

    t.advance(HOUR_MS);
    expect(t.tournaments.find(id)?.status).toBe('active');
    expect(t.tournaments.play(flip('a5', id, usdc(1)), HOUR_MS)).toMatchObject({ ok: false, status: 403 });
    const wrongGame = {
      agentId: 'a1',
      tournamentId: id,
      game: dice,
      params: { direction: 'over' as const, threshold: 50 },
      paramsJson: {},
      amountMicro: usdc(1),
      clientSeed: null,
    };
    expect(t.tournaments.play(wrongGame, HOUR_MS)).toMatchObject({ ok: false, status: 400 });
    expect(t.tournaments.play(flip('a1', 'tnm_000000000000', usdc(1)), HOUR_MS)).toMatchObject({
      ok: false,
      status: 404,
    });

    const netOf = new Map<string, Micro>();
    for (let round = 0; round < 6; round++) {
      for (const agentId of ['a1', 'a2', 'a3']) {
        const played = value(
          t.tournaments.play(flip(agentId, id, 100_000n, round % 2 === 0 ? 'heads' : 'tails'), HOUR_MS + round * 10),
        );
        expect(played.bet).toMatchObject({ source: 'tournament', tournamentId: id, agentId, amountMicro: 100_000n });
        netOf.set(agentId, (netOf.get(agentId) ?? 0n) + played.bet.payoutMicro - played.bet.amountMicro);
        expect(played.entrant.scoreMicro).toBe(netOf.get(agentId));
      }
    }
    const board = value(t.tournaments.details(id)).leaderboard;
    expect(board.map((entrant) => entrant.rank)).toEqual([1, 2, 3, 4]);
    for (let index = 1; index < board.length; index++)
      expect((board[index - 1] as TournamentEntrant).scoreMicro >= (board[index] as TournamentEntrant).scoreMicro).toBe(
        true,
      );
    const before = new Map(['a1', 'a2', 'a3', 'a4', 'creator'].map((agentId) => [agentId, t.balance(agentId)]));

    t.advance(2 * HOUR_MS);
    const done = value(t.tournaments.details(id)).tournament;
    expect(done).toMatchObject({ status: 'completed', completedAtMs: 2 * HOUR_MS, creatorReturnMicro: 0n });
    const expected = [4_200_000n, 2_100_000n, 700_000n];
    expect(done.prizes).toEqual(
      board
        .slice(0, 3)
        .map((entrant, index) => ({ rank: index + 1, agentId: entrant.agentId, amountMicro: expected[index] })),
    );
    for (const [agentId, was] of before) {
      const prize = done.prizes.find((p) => p.agentId === agentId)?.amountMicro ?? 0n;
      expect(t.balance(agentId)).toBe(was + prize);
    }
    for (const agentId of ['a1', 'a2', 'a3'])
      expect(t.balance(agentId)).toBe(
        usdc(10) -
          usdc(1) +
          (netOf.get(agentId) ?? 0n) +
          (done.prizes.find((p) => p.agentId === agentId)?.amountMicro ?? 0n),
      );
    expect(t.ledger.balance(tournamentAccount(id))).toBe(0n);
    expect(t.tournaments.enter('a5', id, 2 * HOUR_MS)).toMatchObject({ ok: false, status: 409 });
    expect(t.tournaments.play(flip('a1', id, usdc(1)), 2 * HOUR_MS)).toMatchObject({ ok: false, status: 409 });
    expect(value(t.tournaments.list(2 * HOUR_MS))).toEqual([]);
    expect(
      t.events
        .filter((event) => event.type === 'casino.tournament')
        .map((event) => event.type === 'casino.tournament' && event.status),
    ).toEqual(['upcoming', 'active', 'completed']);
    t.conserved();
  });

  it('a play the bet path refuses (balance, Kelly) leaves the score and balances alone', () => {
    const t = setup();
    t.register('creator');
    t.register('a1');
    const id = value(t.tournaments.create(command({ startsAtMs: 0, entryFeeMicro: usdc(9) }), 0)).id;
    value(t.tournaments.enter('a1', id, 0));
    expect(t.tournaments.play(flip('a1', id, usdc(2)), 1)).toMatchObject({ ok: false, status: 422 });
    expect(t.tournaments.play(flip('a1', id, usdc(1)), 1)).toMatchObject({ ok: false, status: 400 }); // Kelly: 1 × 0.25 × 0.5
    expect(value(t.tournaments.details(id)).leaderboard[0]).toMatchObject({ scoreMicro: 0n, plays: 0 });
    expect(t.balance('a1')).toBe(usdc(1));
    t.conserved();
  });

  it('returns missing ranks to the creator: one entrant takes 60% plus rounding, nobody entered returns everything', () => {
    const t = setup();
    for (const id of ['creator', 'a1']) t.register(id);
    const one = value(t.tournaments.create(command({ entryFeeMicro: 0n, prizePoolMicro: 1_000_001n }), 0)).id;
    const none = value(t.tournaments.create(command({ prizePoolMicro: usdc(2) }), 0)).id;
    value(t.tournaments.enter('a1', one, 1));
    t.advance(2 * HOUR_MS);
    expect(t.tournaments.find(one)).toMatchObject({
      prizes: [{ rank: 1, agentId: 'a1', amountMicro: 600_001n }],
      creatorReturnMicro: 400_000n,
    });
    expect(t.tournaments.find(none)).toMatchObject({ prizes: [], creatorReturnMicro: usdc(2) });
    expect(t.balance('a1')).toBe(usdc(10) + 600_001n);
    expect(t.balance('creator')).toBe(usdc(10) - 1_000_001n + 400_000n);
    expect(t.ledger.balance(tournamentAccount(one))).toBe(0n);
    expect(t.ledger.balance(tournamentAccount(none))).toBe(0n);
    t.conserved();
  });

  it('lists upcoming and active by start time then id, bounded, and refuses a bad limit', () => {
    const t = setup();
    t.register('creator');
    const late = value(
      t.tournaments.create(command({ prizePoolMicro: 10_000n, startsAtMs: 3 * HOUR_MS, endsAtMs: 4 * HOUR_MS }), 0),
    );
    const early = value(
      t.tournaments.create(command({ prizePoolMicro: 10_000n, startsAtMs: 0, endsAtMs: HOUR_MS }), 0),
    );
    const middle = value(t.tournaments.create(command({ prizePoolMicro: 10_000n }), 0));
    expect(value(t.tournaments.list(0)).map((r) => r.id)).toEqual([early.id, middle.id, late.id]);
    expect(value(t.tournaments.list(0, 2)).map((r) => r.id)).toEqual([early.id, middle.id]);
    expect(value(t.tournaments.list(HOUR_MS)).map((r) => r.id)).toEqual([middle.id, late.id]); // early ended at HOUR_MS
    expect(t.tournaments.list(0, 0)).toMatchObject({ ok: false, status: 400 });
    expect(t.tournaments.details('tnm_ffffffffffff')).toMatchObject({ ok: false, status: 404 });
  });
});

describe('tournament ranking and prizes', () => {
  const entrant = (agentId: string, scoreMicro: Micro, enteredAtMs: number): TournamentEntrant => ({
    agentId,
    scoreMicro,
    enteredAtMs,
    entryFeeMicro: 0n,
    plays: 0,
    wageredMicro: 0n,
    returnedMicro: 0n,
  });

  it('ranks by score, then earlier entry, then agent id', () => {
    const ranked = rankEntrants([
      entrant('c', 5n, 3),
      entrant('b', 5n, 2),
      entrant('a', 5n, 3),
      entrant('z', 9n, 9),
      entrant('y', -1n, 0),
    ]);
    expect(ranked.map((e) => [e.rank, e.agentId])).toEqual([
      [1, 'z'],
      [2, 'b'],
      [3, 'a'],
      [4, 'c'],
      [5, 'y'],
    ]);
  });

  it('splits exactly: floors each share, the remainder to rank 1, missing ranks to the creator', () => {
    const ranked = rankEntrants([entrant('a', 3n, 0), entrant('b', 2n, 0), entrant('c', 1n, 0), entrant('d', 0n, 0)]);
    const shares = DEFAULT_CASINO_CONFIG.tournamentPrizeBps;
    expect(splitPrizes(10_000_001n, shares, ranked)).toEqual({
      prizes: [
        { rank: 1, agentId: 'a', amountMicro: 6_000_001n },
        { rank: 2, agentId: 'b', amountMicro: 3_000_000n },
        { rank: 3, agentId: 'c', amountMicro: 1_000_000n },
      ],
      creatorReturnMicro: 0n,
    });
    expect(splitPrizes(9n, shares, ranked.slice(0, 2))).toEqual({
      prizes: [
        { rank: 1, agentId: 'a', amountMicro: 7n },
        { rank: 2, agentId: 'b', amountMicro: 2n },
      ],
      creatorReturnMicro: 0n,
    });
    expect(splitPrizes(99n, shares, [])).toEqual({ prizes: [], creatorReturnMicro: 99n });
  });
});
