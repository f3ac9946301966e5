/**
 * GET /kelly/history: an agent's bankroll curve, one point per settled bet (the balance after
 * it), bounded to the most recent `capacity` points (CasinoConfig `kellyHistoryMax`, 500).
 *
 * BankrollCurve is a fixed-size ring: adding a point beyond the capacity drops the oldest, so
 * memory per agent is bounded however long a run bets. The service owns one curve per agent
 * and adds a point on every settled bet; the answer is
 *   { history: [{ at (ISO 8601), bankroll (number), bet_id, game }], count }
 * oldest first, count = history.length. (The real platform answers a ledger-based
 * `{ agent_id, data_points, bankroll_curve }`; afp's curve is per bet, docs/decisions/casino.md.)
 * Invariants: points are kept in the order added; atMs never decreases (asserted: the clock
 * is monotonic, so a decrease is a bug).
 */
import { assert } from '../../../core/assert.ts';
import type { JsonObject } from '../../../core/errors.ts';
import { toNumber, type Micro } from '../../../core/money.ts';

export interface BankrollPoint {
  readonly atMs: number;
  readonly bankrollMicro: Micro;
  readonly betId: string;
  readonly game: string;
}

export const KELLY_HISTORY_CAPACITY_MAX = 100_000;

export class BankrollCurve {
  readonly capacity: number;
  private readonly ring: BankrollPoint[] = [];
  /** Index of the oldest point once the ring is full. */
  private start = 0;

  constructor(capacity: number) {
    assert(
      Number.isSafeInteger(capacity) && capacity >= 1 && capacity <= KELLY_HISTORY_CAPACITY_MAX,
      'curve capacity in [1, 100,000]',
    );
    this.capacity = capacity;
  }

  get size(): number {
    return this.ring.length;
  }

  add(point: BankrollPoint): void {
    const last = this.last();
    assert(last === undefined || point.atMs >= last.atMs, 'bankroll points arrive in time order');
    if (this.ring.length < this.capacity) {
      this.ring.push(point);
      return;
    }
    this.ring[this.start] = point;
    this.start = (this.start + 1) % this.capacity;
  }

  last(): BankrollPoint | undefined {
    if (this.ring.length === 0) return undefined;
    const index =
      this.ring.length < this.capacity ? this.ring.length - 1 : (this.start + this.capacity - 1) % this.capacity;
    return this.ring[index];
  }

  /** The points, oldest first. */
  points(): BankrollPoint[] {
    if (this.ring.length < this.capacity) return [...this.ring];
    return [...this.ring.slice(this.start), ...this.ring.slice(0, this.start)];
  }
}

export function kellyHistoryView(points: readonly BankrollPoint[]): JsonObject {
  return {
    history: points.map((point) => ({
      at: new Date(point.atMs).toISOString(),
      bankroll: toNumber(point.bankrollMicro),
      bet_id: point.betId,
      game: point.game,
    })),
    count: points.length,
  };
}
