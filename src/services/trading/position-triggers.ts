/**
 * Stop-loss and take-profit triggers on open perpetual positions (the deployed trading service's
 * `POST /v1/trade/stop-loss` and `/take-profit { position_id, trigger_price }`, spec/DEPLOYED.md §5;
 * afp's rules in docs/decisions/deployed-dialect.md "Deployed dialect: trading").
 *
 * Why a record of its own: a trigger is state that outlives the request that set it and acts on
 * the clock, so it is kept, evented and checked like an order (invariant
 * `trading-triggers-exact`). A position holds at most one pending trigger of each kind; setting
 * one again replaces it (the old one ends `cancelled`, cause `replaced`).
 * When it fires: prices move at tick boundaries only, so the mark can only cross a trigger at a
 * boundary; the trading tick fires every pending trigger whose mark (the mid) is at or through
 * its price at that instant — a long's stop-loss at or below, its take-profit at or above; a
 * short's the other way — in the order they were set, before liquidations run at the same tick.
 * Firing closes the whole position at the taker quote (TradingService.closePosition), so the exit
 * price is the bid or ask of that instant, not the trigger price. While the market is closed a
 * crossed trigger stays pending and fires at the first open tick. When the position ends any
 * other way (closed, liquidated) its pending triggers end `cancelled`, cause `position-ended`.
 * Lifecycle: pending → fired | cancelled, once. Limits: one pending trigger per (position, kind),
 * TRIGGERS_MAX records in all (a harness bug beyond).
 */
import { assert } from '../../core/assert.ts';
import type { PositionSide } from './trading-record.ts';

export type TriggerKind = 'stop-loss' | 'take-profit';
export const TRIGGER_KINDS: readonly TriggerKind[] = ['stop-loss', 'take-profit'];
export type TriggerStatus = 'pending' | 'fired' | 'cancelled';
export type TriggerEndCause = 'replaced' | 'position-ended';
export const TRIGGERS_MAX = 10_000_000;

export interface TriggerRecord {
  readonly id: string;
  readonly agentId: string;
  readonly positionId: string;
  readonly symbol: string;
  readonly kind: TriggerKind;
  /** The side of the position it protects. */
  readonly side: PositionSide;
  readonly triggerPrice: bigint;
  readonly status: TriggerStatus;
  readonly createdAtMs: number;
  /** The instant it fired or was cancelled; null while pending. */
  readonly endedAtMs: number | null;
  /** The mark it fired at; null unless fired. */
  readonly firedMark: bigint | null;
  readonly cause: TriggerEndCause | null;
}

type MutableTrigger = { -readonly [K in keyof TriggerRecord]: TriggerRecord[K] };

/** Whether `mark` is at or through the trigger (the firing condition). */
export function triggerCrossed(trigger: Pick<TriggerRecord, 'kind' | 'side' | 'triggerPrice'>, mark: bigint): boolean {
  const fallsTo = (trigger.kind === 'stop-loss') === (trigger.side === 'long');
  return fallsTo ? mark <= trigger.triggerPrice : mark >= trigger.triggerPrice;
}

/** The triggers: by id, and the pending ones by position (setting order is firing order). */
export class TriggerBook {
  private readonly triggers = new Map<string, MutableTrigger>();
  private readonly pending = new Map<string, MutableTrigger>();
  private readonly pendingByPosition = new Map<string, MutableTrigger[]>();
  private readonly byAgent = new Map<string, MutableTrigger[]>();

  get count(): number {
    return this.triggers.size;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  trigger(id: string): TriggerRecord | undefined {
    return this.triggers.get(id);
  }

  /** The position's pending triggers, in setting order. */
  pendingOf(positionId: string): readonly TriggerRecord[] {
    return this.pendingByPosition.get(positionId) ?? [];
  }

  pendingOfKind(positionId: string, kind: TriggerKind): TriggerRecord | undefined {
    return this.pendingOf(positionId).find((one) => one.kind === kind);
  }

  /** The agent's triggers, newest first, at most `limit`. */
  ofAgent(agentId: string, limit: number): TriggerRecord[] {
    const all = this.byAgent.get(agentId) ?? [];
    return all.slice(Math.max(0, all.length - limit)).reverse();
  }

  /** A snapshot of every pending trigger in setting order (firing may end some while iterating). */
  pendingList(): TriggerRecord[] {
    return [...this.pending.values()];
  }

  /** Adds a pending trigger (the caller has ended the one it replaces). */
  add(trigger: Omit<TriggerRecord, 'status' | 'endedAtMs' | 'firedMark' | 'cause'>): TriggerRecord {
    assert(!this.triggers.has(trigger.id), 'trigger ids are unique');
    assert(this.triggers.size < TRIGGERS_MAX, `at most ${TRIGGERS_MAX} triggers`);
    assert(
      this.pendingOfKind(trigger.positionId, trigger.kind) === undefined,
      'one pending trigger per position and kind',
    );
    const record: MutableTrigger = { ...trigger, status: 'pending', endedAtMs: null, firedMark: null, cause: null };
    this.triggers.set(record.id, record);
    this.pending.set(record.id, record);
    const list = this.pendingByPosition.get(record.positionId);
    if (list === undefined) this.pendingByPosition.set(record.positionId, [record]);
    else list.push(record);
    const ofAgent = this.byAgent.get(record.agentId);
    if (ofAgent === undefined) this.byAgent.set(record.agentId, [record]);
    else ofAgent.push(record);
    return record;
  }

  /** Ends a pending trigger: fired at `mark`, or cancelled for `cause`. Once only. */
  end(triggerId: string, atMs: number, outcome: { fired: bigint } | { cancelled: TriggerEndCause }): TriggerRecord {
    const record = this.pending.get(triggerId);
    assert(record !== undefined && record.status === 'pending', 'only a pending trigger ends, once');
    if ('fired' in outcome) {
      record.status = 'fired';
      record.firedMark = outcome.fired;
    } else {
      record.status = 'cancelled';
      record.cause = outcome.cancelled;
    }
    record.endedAtMs = atMs;
    this.pending.delete(triggerId);
    const list = this.pendingByPosition.get(record.positionId) ?? [];
    const rest = list.filter((one) => one.id !== triggerId);
    if (rest.length === 0) this.pendingByPosition.delete(record.positionId);
    else this.pendingByPosition.set(record.positionId, rest);
    return record;
  }
}
