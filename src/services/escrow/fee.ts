/**
 * The escrow fee: a share of the amount in basis points, rounded UP to the micro so the house
 * never pays for a fraction (1% of 1.234567 is 0.012346). The net is what the receiver gets.
 * Invariant: 0 ≤ fee ≤ amount and fee + net = amount.
 */
import { assert } from '../../core/assert.ts';
import { basisPoints, type Micro } from '../../core/money.ts';

export interface EscrowSplit {
  readonly feeMicro: Micro;
  readonly netMicro: Micro;
}

export function escrowSplit(amountMicro: Micro, feeBps: bigint): EscrowSplit {
  assert(amountMicro > 0n, 'escrow amount is positive');
  assert(feeBps >= 0n && feeBps < 10_000n, 'escrow fee is below 100%');
  const feeMicro = basisPoints(amountMicro, feeBps, 'up');
  const netMicro = amountMicro - feeMicro;
  assert(netMicro >= 0n && feeMicro + netMicro === amountMicro, 'fee and net split the amount');
  return { feeMicro, netMicro };
}
