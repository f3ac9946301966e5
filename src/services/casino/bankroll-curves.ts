/**
 * BankrollCurves: every agent's bankroll curve for GET /kelly/history, one point per settled bet
 * (time, balance after, bet id, game), the newest `capacity` of them (CasinoConfig
 * `kellyHistoryMax`), oldest first.
 *
 * Those points are exactly the fields of the agent's newest bets, which the bet book retains
 * anyway (10,000 per agent, far more than the curve's 500): while the capacity is within the
 * book's retention, a curve is read from the book and settling a bet records nothing here (a point
 * object per bet, kept for 500 bets, was a tenth of the bet path's garbage-collection work). A
 * capacity above the retention (a scenario may set up to 100,000) keeps its own BankrollCurve per
 * agent, as before. Either way `get(agentId)` is undefined for an agent that never bet.
 */
import { assert } from '../../core/assert.ts';
import type { BetBook } from './bet-book.ts';
import type { BetRecord } from './bet-record.ts';
import { BankrollCurve, type BankrollPoint } from './kelly/kelly-history.ts';

export interface BankrollCurveView {
  /** The points, oldest first. */
  points(): BankrollPoint[];
}

export class BankrollCurves {
  private readonly bets: BetBook;
  private readonly capacity: number;
  /** Own curves, only when the book retains fewer bets than the capacity. */
  private readonly curves: Map<string, BankrollCurve> | null;

  constructor(bets: BetBook, capacity: number) {
    assert(Number.isSafeInteger(capacity) && capacity >= 1, 'a bankroll curve keeps at least one point');
    this.bets = bets;
    this.capacity = capacity;
    this.curves = capacity <= bets.retained ? null : new Map();
  }

  /** Called for every settled bet, after the bet book has it. */
  record(bet: BetRecord): void {
    if (this.curves === null) return;
    let curve = this.curves.get(bet.agentId);
    if (curve === undefined) {
      curve = new BankrollCurve(this.capacity);
      this.curves.set(bet.agentId, curve);
    }
    curve.add({ atMs: bet.atMs, bankrollMicro: bet.balanceAfterMicro, betId: bet.id, game: bet.game });
  }

  get(agentId: string): BankrollCurveView | undefined {
    if (this.curves !== null) return this.curves.get(agentId);
    const points = this.bets.bankrollPoints(agentId, this.capacity);
    return points === undefined ? undefined : { points: () => [...points] };
  }
}
