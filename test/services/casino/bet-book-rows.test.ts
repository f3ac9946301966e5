// BetBook keeps bets as rows (agent-bets.ts) and finds them through a lazily filled id table
// (bet-id-index.ts); every read must give back exactly the records added, as a plain reference
// book (a Map by id and an array per agent) would: same fields, same values, same order, through
// eviction, ring growth and wrap-around, interleaved lookups, shared shapes and multipliers, ids
// that are not hex, amounts beyond 64 bits and result hashes kept as bytes or as text. Also the
// id words (bet-id-index.ts) and the draw's HMAC key given as bytes (fair/draw-stream.ts).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { IdSource } from '../../../src/core/ids.ts';
import { ratio, ZERO, type Ratio } from '../../../src/core/ratio.ts';
import { Rng } from '../../../src/core/rng.ts';
import { BetBook } from '../../../src/services/casino/bet-book.ts';
import { betIdOfWords, BetIdIndex, readIdWords, type IdWords } from '../../../src/services/casino/bet-id-index.ts';
import type { BetRecord, BetSource } from '../../../src/services/casino/bet-record.ts';
import { DrawStream } from '../../../src/services/casino/fair/draw-stream.ts';
import type { GameId } from '../../../src/services/casino/games/game.ts';

/** The book as it was: records kept as given, oldest evicted first. */
class ReferenceBook {
  readonly byId = new Map<string, BetRecord>();
  readonly byAgent = new Map<string, BetRecord[]>();
  private readonly retained: number;
  constructor(retained: number) {
    this.retained = retained;
  }
  add(bet: BetRecord): void {
    this.byId.set(bet.id, bet);
    const list = this.byAgent.get(bet.agentId) ?? [];
    this.byAgent.set(bet.agentId, list);
    list.push(bet);
    if (list.length > this.retained) this.byId.delete((list.shift() as BetRecord).id);
  }
}

const GAMES: readonly GameId[] = ['dice', 'coin_flip', 'keno'];
const SOURCES: readonly BetSource[] = ['A', 'B', 'short', 'batch', 'tournament', 'video-poker'];
const MULTIPLIERS: readonly Ratio[] = [ZERO, ratio(196, 100), ratio(98, 10), ratio(1)];
const HUGE = 2n ** 70n;

interface Made {
  readonly bet: BetRecord;
  readonly bytes: Uint8Array | null;
}

function maker(seed: string): (agentId: string, atMs: number) => Made {
  const rng = new Rng(seed);
  const ids = new IdSource(rng.fork('ids'));
  let index = 0;
  return (agentId, atMs) => {
    index += 1;
    const hexId = rng.chance(9, 10);
    const id = hexId ? ids.next('bet_', 16) : `bet_other_${index}`;
    const digest = createHash('sha256').update(`${seed}:${index}`).digest();
    const asBytes = rng.chance(1, 2);
    const game = rng.pick(GAMES);
    const amountMicro = rng.chance(1, 20) ? HUGE + BigInt(index) : BigInt(rng.between(10_000, 5_000_000));
    const multiplier = rng.pick(MULTIPLIERS);
    const payoutMicro = (amountMicro * multiplier.num) / multiplier.den;
    const bet: BetRecord = {
      id,
      agentId,
      game,
      variant: `${game}:${rng.between(1, 3)}`,
      params: rng.chance(1, 3)
        ? { side: rng.pick(['heads', 'tails']) }
        : { direction: 'over', threshold: rng.between(40, 42), picks: [1, 2] },
      amountMicro,
      multiplier,
      payoutMicro,
      won: payoutMicro > amountMicro,
      clientSeed: rng.pick(['seed-a', 'seed-b']),
      nonce: rng.between(0, 999),
      seedHash: rng.pick(['h1', 'h2']),
      resultHash: asBytes ? digest.toString('hex') : `text-${index}`,
      detail: { roll: rng.between(1, 100), nested: rng.chance(1, 4) ? [1, { a: 2 }] : null },
      atMs,
      balanceAfterMicro: rng.chance(1, 20) ? -HUGE - BigInt(index) : BigInt(rng.between(0, 4_000_000_000)) * 2n - 5n,
      source: rng.pick(SOURCES),
      tournamentId: rng.chance(1, 5) ? `tnm_${rng.between(1, 3)}` : null,
    };
    return { bet, bytes: asBytes ? new Uint8Array(digest) : null };
  };
}

function expectSameBook(book: BetBook, reference: ReferenceBook, agents: readonly string[]): void {
  for (const agentId of agents) {
    const list = reference.byAgent.get(agentId) ?? [];
    expect(book.ofAgent(agentId)).toStrictEqual(list);
    const fromMs = list[Math.floor(list.length / 2)]?.atMs ?? 0;
    expect(book.ofAgentSince(agentId, fromMs)).toStrictEqual(list.filter((bet) => bet.atMs >= fromMs));
    const page = book.newest(agentId, { limit: 3, skip: 2, game: 'dice', fromMs: null });
    const dice = list.filter((bet) => bet.game === 'dice').reverse();
    expect(page).toStrictEqual({ bets: dice.slice(2, 5), total: dice.length });
    expect(book.bankrollPoints(agentId, 4)).toStrictEqual(
      list.length === 0
        ? undefined
        : list
            .slice(-4)
            .map((bet) => ({ atMs: bet.atMs, bankrollMicro: bet.balanceAfterMicro, betId: bet.id, game: bet.game })),
    );
    const probe = list[0];
    if (probe !== undefined)
      expect(book.findByDraw(agentId, probe.seedHash, probe.nonce)).toStrictEqual(
        list.find((bet) => bet.seedHash === probe.seedHash && bet.nonce === probe.nonce),
      );
  }
  // Agents in first-bet order (the reference map's insertion order).
  expect([...book.all()]).toStrictEqual([...reference.byAgent.values()].flat());
}

describe('BetBook rows', () => {
  test('reads back exactly what a plain book holds, through eviction, growth and lookups', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer(),
        (retained, bets, seed) => {
          const book = new BetBook(retained);
          const reference = new ReferenceBook(retained);
          const make = maker(String(seed));
          const rng = new Rng(`order-${seed}`);
          const agents = ['a', 'b', 'c'];
          const clock = new Map<string, number>();
          const evicted: string[] = [];
          for (let index = 0; index < bets; index++) {
            const agentId = rng.pick(agents);
            const atMs = (clock.get(agentId) ?? 1_767_225_600_000) + rng.between(0, 2);
            clock.set(agentId, atMs);
            const { bet, bytes } = make(agentId, atMs);
            const before = reference.byAgent.get(agentId)?.[0];
            book.addTo(book.agentBets(agentId), bet, bytes);
            reference.add(bet);
            if (before !== undefined && !reference.byId.has(before.id)) evicted.push(before.id);
            if (rng.chance(1, 7)) {
              const known = [...reference.byId.values()];
              const wanted = rng.pick(known);
              expect(book.get(wanted.id)).toStrictEqual(wanted);
              const gone = evicted[evicted.length - 1];
              if (gone !== undefined) expect(book.get(gone)).toBeUndefined();
            }
          }
          expect(book.count).toBe(bets);
          for (const [id, bet] of reference.byId) expect(book.get(id)).toStrictEqual(bet);
          for (const id of evicted) expect(book.get(id)).toBeUndefined();
          expect(book.get('bet_0000000000000000')).toBeUndefined();
          expect(book.get('bet_ABCDEF0123456789')).toBeUndefined();
          expectSameBook(book, reference, agents);
        },
      ),
      { seed: 20_260_121, numRuns: 150 },
    );
  });

  test('records are rebuilt as fresh objects; repeating fields share one stored value', () => {
    const book = new BetBook(10);
    const make = maker('shapes');
    const first = { ...make('a', 1).bet, params: { direction: 'over', threshold: 50 } };
    const second = {
      ...make('a', 2).bet,
      game: first.game,
      clientSeed: first.clientSeed,
      seedHash: first.seedHash,
      source: first.source,
      tournamentId: first.tournamentId,
      params: { ...first.params },
      variant: `${first.game}:${first.variant.split(':')[1] ?? ''}`,
      multiplier: ratio(first.multiplier.num, first.multiplier.den),
    };
    book.add(first);
    book.add(second);
    const [one, two] = book.ofAgent('a');
    expect(one).toStrictEqual(first);
    expect(two).toStrictEqual(second);
    expect(one).not.toBe(first);
    expect(two?.params).toBe(one?.params);
    expect(two?.multiplier).toBe(one?.multiplier);
  });

  test('a repeated id is a bug, caught when the ids enter the table', () => {
    const book = new BetBook(10);
    const { bet } = maker('dup')('a', 1);
    book.add(bet);
    book.add({ ...bet, atMs: 2 });
    expect(() => book.get(bet.id)).toThrow(/unique/);
  });
});

describe('bet ids as words', () => {
  test('betIdOfWords writes what IdSource.next writes for the same draws; readIdWords reads them back', () => {
    const text = new IdSource(new Rng('w'));
    const words = new IdSource(new Rng('w'));
    const read: IdWords = { high: 0, low: 0 };
    for (let index = 0; index < 2_000; index++) {
      const expected = text.next('bet_', 16);
      const high = words.word();
      const low = words.word();
      expect(betIdOfWords(high, low)).toBe(expected);
      expect(readIdWords(expected, read)).toBe(true);
      expect(read).toEqual({ high, low });
    }
    for (const other of [
      'bet_',
      'bet_0123456789abcdeg',
      'bet_0123456789ABCDEF',
      'BET_0123456789abcdef',
      'bet_0123456789abcdef0',
      `bet_${'\u0130'.repeat(16)}`,
    ]) {
      expect(readIdWords(other, read)).toBe(false);
    }
  });

  test('the id table agrees with a Map through adds and backward-shift deletions', () => {
    const rng = new Rng('table');
    const index = new BetIdIndex();
    const reference = new Map<string, number>();
    const found = { agent: 0, sequence: 0 };
    const read: IdWords = { high: 0, low: 0 };
    for (let step = 0; step < 6_000; step++) {
      // Few distinct low bits: long probe runs, so deletions must shift members back correctly.
      const id = betIdOfWords(rng.int(64), rng.int(4_096) * 0x1_0000);
      readIdWords(id, read);
      if (reference.has(id) && rng.chance(1, 2)) {
        index.deleteWords(read.high, read.low);
        reference.delete(id);
      } else {
        expect(index.addWords(read.high, read.low, step % 7, step)).toBe(!reference.has(id));
        if (!reference.has(id)) reference.set(id, step);
      }
      if (step % 491 === 0) {
        for (const [known, sequence] of reference) {
          expect(index.find(known, found)).toBe(true);
          expect(found).toEqual({ agent: sequence % 7, sequence });
        }
      }
    }
    expect(index.size).toBe(reference.size);
  });
});

describe('DrawStream keys', () => {
  test('the seed text and its UTF-8 bytes key the same HMAC blocks', () => {
    const seedHex = createHash('sha256').update('seed').digest('hex');
    for (let nonce = 0; nonce < 50; nonce++) {
      const byText = new DrawStream(seedHex, 'client', nonce);
      const byBytes = new DrawStream(seedHex, 'client', nonce, Buffer.from(seedHex, 'utf8'));
      expect(byBytes.firstBlockHex).toBe(byText.firstBlockHex);
      expect(Buffer.from(byBytes.firstBlock).toString('hex')).toBe(byText.firstBlockHex);
      for (let word = 0; word < 20; word++) expect(byBytes.uint32()).toBe(byText.uint32());
    }
  });
});
