// GET /kelly/history's curves: read from the bet book while the curve's capacity is within the
// book's retention (no point kept per bet), from curves of their own beyond it; either way exactly
// the points a BankrollCurve fed every settled bet would hold, oldest first, undefined for an
// agent that never bet.
import { describe, expect, test } from 'vitest';
import { IdSource } from '../../../src/core/ids.ts';
import { ZERO } from '../../../src/core/ratio.ts';
import { Rng } from '../../../src/core/rng.ts';
import { BankrollCurves } from '../../../src/services/casino/bankroll-curves.ts';
import { BetBook } from '../../../src/services/casino/bet-book.ts';
import type { BetRecord } from '../../../src/services/casino/bet-record.ts';
import { BankrollCurve } from '../../../src/services/casino/kelly/kelly-history.ts';

function bets(count: number): BetRecord[] {
  const rng = new Rng('curves');
  const ids = new IdSource(rng.fork('ids'));
  return Array.from({ length: count }, (_, index) => ({
    id: ids.next('bet_', 16),
    agentId: rng.pick(['a', 'b']),
    game: rng.pick(['dice', 'slots'] as const),
    variant: 'v',
    params: {},
    amountMicro: 10_000n,
    multiplier: ZERO,
    payoutMicro: 0n,
    won: false,
    clientSeed: 'c',
    nonce: index,
    seedHash: 'h',
    resultHash: 'r',
    detail: {},
    atMs: 1_000 + index,
    balanceAfterMicro: BigInt(rng.between(0, 1_000_000)),
    source: 'A',
    tournamentId: null,
  }));
}

describe('BankrollCurves', () => {
  for (const [retained, capacity] of [
    [50, 7],
    [50, 50],
    [5, 7],
    [1, 3],
  ] as const) {
    test(`book retains ${retained}, curve keeps ${capacity}`, () => {
      const book = new BetBook(retained);
      const curves = new BankrollCurves(book, capacity);
      const expected = new Map<string, BankrollCurve>();
      expect(curves.get('a')).toBeUndefined();
      for (const bet of bets(120)) {
        book.add(bet);
        curves.record(bet);
        const curve = expected.get(bet.agentId) ?? new BankrollCurve(capacity);
        expected.set(bet.agentId, curve);
        curve.add({ atMs: bet.atMs, bankrollMicro: bet.balanceAfterMicro, betId: bet.id, game: bet.game });
        expect(curves.get(bet.agentId)?.points()).toStrictEqual(curve.points());
      }
      for (const agentId of ['a', 'b'])
        expect(curves.get(agentId)?.points()).toStrictEqual(expected.get(agentId)?.points());
      expect(curves.get('nobody')).toBeUndefined();
    });
  }
});
