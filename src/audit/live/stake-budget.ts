/**
 * The live house-edge audit's stakes budget (`afp audit house-edge --target … --usdc X`): the stake
 * of every bet is reserved before the bet is sent, so concurrent calls never pass the budget
 * together, and given back when the target refuses the bet: a refused bet stakes nothing. Why:
 * refused bets stayed charged, and a target whose minimum is above the documents' spent a 0.50
 * budget on refusals (2 of 40 bets placed, 0.10 staked; 0 placed with a funded key at 16 calls in
 * flight) where 10 bets at its minimum fit.
 * Invariants: 0 ≤ held ≤ limit; a release gives back no more than was reserved (an assertion: a bug).
 * Non-goals: what a placed bet really staked (the answers' `amount_bet`, edge-audit.ts counts it).
 */
import { assert } from '../../core/assert.ts';
import type { Micro } from '../../core/money.ts';

export class StakeBudget {
  readonly limitMicro: Micro;
  private heldMicro: Micro = 0n;

  constructor(limitMicro: Micro) {
    assert(limitMicro >= 0n, 'a stakes budget is not negative');
    this.limitMicro = limitMicro;
  }

  /** The stakes reserved for bets sent and not refused. */
  get held(): Micro {
    return this.heldMicro;
  }

  /** Reserves `amountMicro` (≥ 0); false, reserving nothing, when it would pass the limit. */
  reserve(amountMicro: Micro): boolean {
    assert(amountMicro >= 0n, 'a reservation is not negative');
    if (this.heldMicro + amountMicro > this.limitMicro) return false;
    this.heldMicro += amountMicro;
    return true;
  }

  /** Gives back the stake of a bet the target refused (or one never sent). */
  release(amountMicro: Micro): void {
    assert(amountMicro >= 0n && amountMicro <= this.heldMicro, 'a release gives back only what was reserved');
    this.heldMicro -= amountMicro;
  }
}
