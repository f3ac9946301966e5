// A payout shown rounded (the deployment's amount_won, 2 dp: src/audit/fairness/shown-payout.ts):
// the credit is stake × the written multiplier and must be the rule's due; the shown figure only
// has to agree with the credit within its rounding. So 0.01 × 1.96 shown as 0.02 is paid right,
// while a multiplier of 2.00 where the rule says 1.96 is a wrong payout even though 0.02 is also
// what 1.96 rounds to; a multiplier written to 6 decimals is not a wrong payout.
import { describe, expect, test } from 'vitest';
import { ratio } from '../../../src/core/ratio.ts';
import { shownPayoutCheck } from '../../../src/audit/fairness/shown-payout.ts';
import type { SchemeBet } from '../../../src/audit/fairness/scheme.ts';

function bet(amountMicro: bigint, paidMicro: bigint | null, multiplier: number | null): SchemeBet {
  return {
    betId: 'bet_1',
    game: 'coin_flip',
    params: {},
    amountMicro,
    paidMicro,
    multiplier,
    result: {},
    clientSeed: 'c',
    nonce: 0,
    seedHash: 'a'.repeat(64),
    resultHash: 'b'.repeat(64),
    paidPlaces: 2,
  };
}

describe('shownPayoutCheck', () => {
  const rule = ratio(196n, 100n);

  test('0.01 × 1.96 shown as 0.02 (2 dp) is paid right; a loss shows 0', () => {
    expect(shownPayoutCheck(bet(10_000n, 20_000n, 1.96), rule, 2)).toEqual({ status: 'ok', dueMicro: 20_000n });
    expect(shownPayoutCheck(bet(10_000n, 0n, 0), ratio(0n), 2).status).toBe('ok');
  });

  test('a multiplier of 2 where the rule says 1.96 is a wrong payout, though the shown 0.02 rounds either', () => {
    const verdict = shownPayoutCheck(bet(10_000n, 20_000n, 2), rule, 2);
    expect(verdict).toMatchObject({
      status: 'failed',
      detail: "credited 0.02 (amount × payout_multiplier 2), due 0.0196 (amount × the rule's multiplier)",
    });
  });

  test('a shown figure beyond half a cent of the credit is a wrong payout', () => {
    expect(shownPayoutCheck(bet(10_000n, 30_000n, 1.96), rule, 2)).toMatchObject({
      status: 'failed',
      detail: 'shows 0.03 paid, the credit is 0.0196 (the answer rounds it to 2 decimals)',
    });
  });

  test("a multiplier written to 6 decimals (the rule's ratio is not a finite decimal) is no wrong payout", () => {
    const third = ratio(10n, 3n);
    expect(shownPayoutCheck(bet(1_000_000n, 3_330_000n, 3.333333), third, 2).status).toBe('ok');
  });
});
