// The minimum bet a target states when it refuses a bet below it (src/live/stated-minimum.ts): the
// documents' `min_bet` field, number or decimal string; the deployment's words "Minimum bet is
// $0.05" (DEPLOYED.md §2.4, no field); afp's "amount must be at least 0.05". Nothing else is read
// as a minimum: a balance's "at least", a minimum not above what was sent, one beyond the limit.
import { describe, expect, it } from 'vitest';
import {
  documentsMinimumMicro,
  minimumRefusal,
  STATED_MINIMUM_MAX_MICRO,
  statedMinimumMicro,
} from '../../src/live/stated-minimum.ts';
import type { Refusal } from '../../src/live/operations.ts';

const refusal = (name: string, message: string, extra: Record<string, unknown> = {}): Refusal => ({
  status: 400,
  name,
  message,
  body: { error: name, message, ...extra } as Refusal['body'],
});
const CENT = 10_000n;

describe('statedMinimumMicro', () => {
  it('reads the documents’ min_bet field, as a number or a decimal string', () => {
    expect(statedMinimumMicro(refusal('BAD_REQUEST', 'amount too small', { min_bet: 0.05 }), CENT)).toBe(50_000n);
    expect(statedMinimumMicro(refusal('BAD_REQUEST', 'amount too small', { min_bet: '0.25' }), CENT)).toBe(250_000n);
  });

  it('reads the deployment’s words and afp’s', () => {
    expect(statedMinimumMicro(refusal('minimum_bet', 'Minimum bet is $0.05'), CENT)).toBe(50_000n);
    expect(statedMinimumMicro(refusal('minimum_bet', 'minimum bet: 1'), CENT)).toBe(1_000_000n);
    expect(statedMinimumMicro(refusal('BAD_REQUEST', 'amount must be at least 0.10 for slots'), CENT)).toBe(100_000n);
  });

  it('takes the field before the words', () => {
    expect(statedMinimumMicro(refusal('BAD_REQUEST', 'Minimum bet is $0.50', { min_bet: 0.2 }), CENT)).toBe(200_000n);
  });

  it('reads nothing else as a minimum', () => {
    expect(statedMinimumMicro(refusal('insufficient_balance', 'balance must be at least 5.00'), CENT)).toBeNull();
    expect(statedMinimumMicro(refusal('kelly_limit_exceeded', 'Max bet is $0.02', { max_bet: 0.02 }), CENT)).toBeNull();
    expect(statedMinimumMicro(refusal('minimum_bet', 'Minimum bet'), CENT)).toBeNull();
    expect(statedMinimumMicro({ status: 400, name: 'x', message: 'Minimum bet is $0.05', body: [1] }, CENT)).toBe(
      50_000n,
    );
  });

  it('adopts only a minimum above what was sent, and within the limit', () => {
    expect(statedMinimumMicro(refusal('minimum_bet', 'Minimum bet is $0.01'), CENT)).toBeNull();
    expect(statedMinimumMicro(refusal('minimum_bet', 'Minimum bet is $0.005'), CENT)).toBeNull();
    expect(statedMinimumMicro(refusal('minimum_bet', 'Minimum bet is $100'), CENT)).toBe(STATED_MINIMUM_MAX_MICRO);
    expect(statedMinimumMicro(refusal('minimum_bet', 'Minimum bet is $100.01'), CENT)).toBeNull();
    expect(statedMinimumMicro(refusal('BAD_REQUEST', 'x', { min_bet: 1e9 }), CENT)).toBeNull();
    expect(statedMinimumMicro(refusal('BAD_REQUEST', 'x', { min_bet: -1 }), CENT)).toBeNull();
    expect(statedMinimumMicro(refusal('BAD_REQUEST', 'x', { min_bet: 'lots' }), CENT)).toBeNull();
  });
});

describe('minimumRefusal: a refusal named as the minimum rule, in the target’s own words', () => {
  it('reads a field named as a minimum, as the target writes it', () => {
    const worded = 'Bets below the floor are not accepted';
    expect(minimumRefusal(refusal('minimum_bet', worded, { minimum_amount: 0.05 }), CENT)).toEqual({
      kind: 'stated',
      micro: 50_000n,
    });
    expect(statedMinimumMicro(refusal('MINIMUM_BET', worded, { min: '0.25' }), CENT)).toBe(250_000n);
    expect(statedMinimumMicro(refusal('minimum-bet', worded, { minimum_usdc: 0.05000000000000001 }), CENT)).toBe(
      50_000n,
    );
    // Another refusal's `minimum` is not a minimum bet (only the documents' min_bet is read in any refusal).
    expect(statedMinimumMicro(refusal('insufficient_balance', worded, { minimum: 5 }), CENT)).toBeNull();
  });

  it('reads the one number its message writes, $ or USDC about it', () => {
    expect(statedMinimumMicro(refusal('minimum_bet', 'Bets below 0.05 USDC are not accepted'), CENT)).toBe(50_000n);
    expect(statedMinimumMicro(refusal('min_bet', 'Too small: the floor is $1.'), CENT)).toBe(1_000_000n);
    expect(statedMinimumMicro(refusal('bad_request', 'Bets below 0.05 USDC are not accepted'), CENT)).toBeNull();
  });

  it('states no amount where the message writes none, two, or only the stake: unstated', () => {
    for (const message of [
      'Bet refused: below the minimum',
      'Bet of 0.01 is below the minimum of agent ag_26dd83',
      'Bets between 0.05 and 10 only',
    ])
      expect(minimumRefusal(refusal('minimum_bet', message), CENT), message).toEqual({ kind: 'unstated' });
    expect(minimumRefusal(refusal('insufficient_balance', 'Bet refused'), CENT)).toBeNull();
  });

  it('a named refusal stating a minimum not above the stake is no minimum (the caller’s defect)', () => {
    expect(minimumRefusal(refusal('minimum_bet', 'x', { minimum_amount: 0.05 }), 50_000n)).toBeNull();
    expect(minimumRefusal(refusal('minimum_bet', 'Bets below 0.05 USDC are not accepted'), 100_000n)).toBeNull();
    // The message's one number equal to the stake may quote the bet: unstated, not a defect.
    expect(minimumRefusal(refusal('minimum_bet', 'Bets below 0.05 USDC are not accepted'), 50_000n)).toEqual({
      kind: 'unstated',
    });
  });
});

describe('documentsMinimumMicro', () => {
  it('is DEPLOYED.md’s one minimum on the deployed dialect, the game’s own in afp’s documents', () => {
    expect(documentsMinimumMicro('coin_flip', 'deployed')).toBe(10_000n);
    expect(documentsMinimumMicro('slots', 'deployed')).toBe(10_000n);
    expect(documentsMinimumMicro('coin_flip', 'A')).toBe(10_000n);
  });
});
