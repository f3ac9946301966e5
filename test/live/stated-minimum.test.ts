// The minimum bet a target states when it refuses a bet below it (src/live/stated-minimum.ts): the
// documents' `min_bet` field, number or decimal string; the deployment's words "Minimum bet is
// $0.05" (DEPLOYED.md §2.4, no field); afp's "amount must be at least 0.05". Nothing else is read
// as a minimum: a balance's "at least", a minimum not above what was sent, one beyond the limit.
import { describe, expect, it } from 'vitest';
import { STATED_MINIMUM_MAX_MICRO, statedMinimumMicro } from '../../src/live/stated-minimum.ts';
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
