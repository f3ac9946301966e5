// The most bets a target's batch holds, when it refuses a larger batch (src/live/stated-batch-maximum.ts):
// the deployment's words "Maximum 20 bets per batch" (DEPLOYED.md §2.5) and afp's "bets must be an
// array of 1 to 50 bets". Nothing else is read as a maximum: a count not below what was sent, none
// at all, another refusal's numbers.
import { describe, expect, it } from 'vitest';
import type { Refusal } from '../../src/live/operations.ts';
import { statedBatchMaximum } from '../../src/live/stated-batch-maximum.ts';

const refusal = (name: string, message: string): Refusal => ({
  status: 400,
  name,
  message,
  body: { error: name, message },
});

describe('statedBatchMaximum', () => {
  it('reads the deployment’s words and afp’s', () => {
    expect(statedBatchMaximum(refusal('too_many_bets', 'Maximum 2 bets per batch'), 4)).toBe(2);
    expect(statedBatchMaximum(refusal('BAD_REQUEST', 'bets must be an array of 1 to 3 bets'), 4)).toBe(3);
    expect(statedBatchMaximum(refusal('BAD_REQUEST', 'a batch holds at most 1 bets'), 2)).toBe(1);
  });

  it('teaches nothing from a count not below the batch sent, or from other words', () => {
    expect(statedBatchMaximum(refusal('too_many_bets', 'Maximum 20 bets per batch'), 4)).toBeNull();
    expect(statedBatchMaximum(refusal('too_many_bets', 'Maximum 0 bets per batch'), 4)).toBeNull();
    expect(statedBatchMaximum(refusal('insufficient_balance', 'balance 2.00 is below 4 bets of 1.00'), 4)).toBeNull();
    expect(statedBatchMaximum(refusal('BAD_REQUEST', 'amount must be at least 0.10'), 4)).toBeNull();
  });
});

describe('statedBatchMaximum: a refusal named too_many_bets, in the target’s own words', () => {
  it('reads a whole-number field named as the maximum, else the one number of its message', () => {
    const named = (message: string, extra: Record<string, unknown> = {}): Refusal => ({
      status: 400,
      name: 'too_many_bets',
      message,
      body: { error: 'too_many_bets', message, ...extra },
    });
    expect(statedBatchMaximum(named('Batch too large', { max_bets: 2 }), 4)).toBe(2);
    expect(statedBatchMaximum(named('Batch too large', { maximum: '3' }), 4)).toBe(3);
    expect(statedBatchMaximum(named('Batches hold up to 2 elements'), 4)).toBe(2);
    expect(statedBatchMaximum(named('Batch too large', { max_bets: 2.5 }), 4)).toBeNull();
    expect(statedBatchMaximum(named('Batches hold 1 to 2 elements'), 4)).toBeNull();
    expect(statedBatchMaximum(refusal('BAD_REQUEST', 'Batches hold up to 2 elements'), 4)).toBeNull();
  });
});
