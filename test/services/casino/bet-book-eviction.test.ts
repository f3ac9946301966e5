// BetBook's bound: an agent keeps its newest `retained` bets, oldest evicted first (gone from the
// id index, the agent's list and `all()`), `count` keeps every bet ever added, "since" queries
// see only retained bets — across many compactions of the amortised eviction.
import { describe, expect, test } from 'vitest';
import { ratio } from '../../../src/core/ratio.ts';
import { BetBook } from '../../../src/services/casino/bet-book.ts';
import type { BetRecord } from '../../../src/services/casino/bet-record.ts';

function bet(agentId: string, index: number): BetRecord {
  return {
    id: `bet_${agentId}_${index}`,
    agentId,
    game: 'coin_flip',
    variant: 'coin_flip:heads',
    params: { side: 'heads' },
    amountMicro: 10_000n,
    multiplier: ratio(0),
    payoutMicro: 0n,
    won: false,
    clientSeed: 'c',
    nonce: index % 1000,
    seedHash: 'h',
    resultHash: 'r',
    detail: {},
    atMs: index,
    balanceAfterMicro: 0n,
    source: 'A',
    tournamentId: null,
  };
}

describe('BetBook eviction', () => {
  test('keeps exactly the newest bets per agent through many compactions', () => {
    const book = new BetBook(5);
    for (let index = 0; index < 37; index++) {
      book.add(bet('a', index));
      if (index % 3 === 0) book.add(bet('b', index));
      const retained = book.ofAgent('a').map((kept) => kept.atMs);
      expect(retained).toEqual(
        Array.from({ length: Math.min(5, index + 1) }, (_, offset) => Math.max(0, index - 4) + offset),
      );
    }
    expect(book.count).toBe(37 + 13);
    expect(book.get('bet_a_31')).toBeUndefined();
    expect(book.get('bet_a_32')?.atMs).toBe(32);
    expect([...book.all()].map((kept) => kept.id)).toEqual([
      ...[32, 33, 34, 35, 36].map((index) => `bet_a_${index}`),
      ...[24, 27, 30, 33, 36].map((index) => `bet_b_${index}`),
    ]);
    expect(book.ofAgentSince('a', 34).map((kept) => kept.atMs)).toEqual([34, 35, 36]);
  });
});
