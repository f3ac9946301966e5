// Outcomes a target draws itself (src/replay/drawn-outcomes.ts): across dialects the roll is the
// target's own, so a replay holds what must hold whatever the draw: the stake, a bound bet id, a
// batch's placed bets, and the payout against the target's own result.
import { describe, expect, test } from 'vitest';
import type { LiveBet, OperationResult } from '../../src/live/operations.ts';
import { Bindings } from '../../src/replay/bindings.ts';
import { compareDrawn, payoutOffResult } from '../../src/replay/drawn-outcomes.ts';

function bet(overrides: Partial<LiveBet> = {}): LiveBet {
  return {
    betId: 'bet_live',
    game: 'dice',
    amountMicro: 1_000_000n,
    paidMicro: 0n,
    multiplier: 1.96,
    won: false,
    result: { roll: 12 },
    clientSeed: 'seed',
    nonce: 3,
    seedHash: 'hash',
    resultHash: 'result',
    balanceAfterMicro: 9_000_000n,
    ...overrides,
  };
}

describe('the payout against the target’s own result', () => {
  test('a lost bet credits nothing, whatever multiplier it shows (a deployment shows the one placed)', () => {
    expect(payoutOffResult(bet({ won: false, paidMicro: 0n, multiplier: 1.96 }), '')).toBeNull();
    expect(payoutOffResult(bet({ won: false, paidMicro: 10_000n }), '')).toMatchObject({
      kind: 'money',
      field: 'paidMicro',
      seen: '0.01',
    });
  });

  test('a won bet credits its stake times its multiplier, to the places the answer rounds to', () => {
    expect(payoutOffResult(bet({ won: true, paidMicro: 1_960_000n }), '')).toBeNull();
    // Shown to 2 places (the deployment's amount_won): 1.9650 may read 1.97 or 1.96.
    const rounded = bet({ won: true, amountMicro: 1_002_551n, multiplier: 1.96, paidPlaces: 2 });
    expect(payoutOffResult({ ...rounded, paidMicro: 1_970_000n }, '')).toBeNull();
    expect(payoutOffResult({ ...rounded, paidMicro: 1_940_000n }, '')).not.toBeNull();
    // 1% short (the casino-payout-short defect) on an exact answer.
    expect(payoutOffResult(bet({ won: true, paidMicro: 1_940_400n }), 'bet.')).toMatchObject({
      field: 'bet.paidMicro',
      expected: '1.00 × 1.96',
    });
  });

  test('an answer that does not say whether it won, or what it paid, is not judged', () => {
    expect(payoutOffResult(bet({ won: null, paidMicro: 5n }), '')).toBeNull();
    expect(payoutOffResult(bet({ won: true, paidMicro: null }), '')).toBeNull();
  });
});

describe('what holds across draws', () => {
  test('a bet: the id is bound, the stake compared, the roll never', () => {
    const bindings = new Bindings();
    const recorded = bet({ betId: 'bet_recorded', won: true, paidMicro: 1_960_000n, result: { roll: 90 } });
    expect(compareDrawn('casino.bet', recorded, bet(), bindings)).toEqual([]);
    expect(bindings.live('bet_recorded')).toBe('bet_live');
    const other = compareDrawn(
      'casino.bet',
      bet({ betId: 'bet_2', amountMicro: 2_000_000n }),
      bet({ betId: 'b2' }),
      bindings,
    );
    expect(other.map((difference) => difference.field)).toEqual(['amountMicro']);
  });

  test('a batch: its length and which bets were placed; a refused element against a placed one is a difference', () => {
    const refusal = { status: 400, name: 'kelly_limit_exceeded', message: '', body: null };
    const recorded: OperationResult<'casino.batch'> = {
      results: [bet({ betId: 'r1' }), bet({ betId: 'r2' })],
      summary: null,
      balanceAfterMicro: null,
    };
    const live: OperationResult<'casino.batch'> = {
      results: [bet({ betId: 'l1' }), refusal],
      summary: null,
      balanceAfterMicro: null,
    };
    const differences = compareDrawn('casino.batch', recorded, live, new Bindings());
    expect(differences.map((difference) => [difference.field, difference.seen])).toEqual([
      ['results[1].accepted', '400 kelly_limit_exceeded'],
    ]);
  });

  test('a verification the target fails on its own bet is a difference; a hidden seed is not', () => {
    expect(compareDrawn('casino.verify', { verified: true }, { verified: false }, new Bindings())).toHaveLength(1);
    expect(compareDrawn('casino.verify', { verified: true }, { verified: null }, new Bindings())).toEqual([]);
  });
});
