/**
 * The positions a replay's recorded agents hold, as far as their market orders say, to tell the
 * documents' way of closing a position apart from opening one. The documents have no close: an
 * agent closes by an order on the other side (afp nets positions per agent and market). A
 * deployment refuses that order (an open on the other side of a held coin, DEPLOYED.md §5: close
 * it first) and closes by `POST /v1/trade/close {position_id}`. So where the target offers
 * `trading.close`, a recorded order on the other side that filled exactly the agent's recorded
 * quantity on that market (the sum of its same-side fills: the agents close by quantity,
 * agent/trading-kit.ts `closingAmount`) is replayed as the close of the live position the replay
 * opened for it. Quantities are the recorded answers' `fill_qty` (both styles), in 1e-8 units.
 * Followed: accepted recorded orders only (a refused one moved nothing); an opposite fill of
 * another quantity (a reduce or a flip in the documents) ends the following of that market.
 * Resized: such a target has no order that reduces or flips a position, so a recorded reduce or
 * flip is asked as the close of the live position and an order for what remains (`resizing`; the
 * rest's notional is the recorded order's, pro rata to the quantities), at the target's price.
 * Where no live position is known it cannot be asked: it is not sent, and every later order of
 * that agent on that market is not sent either, since the live position is no longer the recording's.
 * Limits: at most HELD_MAX (agent, market) pairs followed or left; beyond, an order is not followed.
 */
import type { Micro } from '../core/money.ts';
import type { OperationInput, OperationResult, ReadOutcome } from '../live.ts';

const HELD_MAX = 100_000;

export interface HeldPosition {
  readonly agent: string;
  readonly symbol: string;
  readonly side: 'long' | 'short';
  /** The recorded quantity, in units of 1e-8 (QTY_DECIMALS). */
  readonly qty: bigint;
  /** The position the replay opened on the target (its order's answer named it); null when none did. */
  readonly livePositionId: string | null;
}

type Order = OperationInput<'trading.order'>;

/** A reduce or flip asked of a target that keeps positions apart: close `held`, then order `rest`. */
export interface Resize {
  readonly held: HeldPosition;
  /** What the recorded order leaves open: its side, quantity (1e-8 units) and notional (the order's, pro rata). */
  readonly rest: { readonly side: 'long' | 'short'; readonly qty: bigint; readonly sizeMicro: Micro };
}

const QTY_DECIMALS = 8;

/** A recorded answer's `fill_qty` (a JSON number in style A, a decimal string in B) in 1e-8 units; null when absent or not a quantity. */
export function fillQtyOf(body: unknown): bigint | null {
  const value =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)['fill_qty']
      : undefined;
  const text =
    typeof value === 'number' && Number.isFinite(value) && value >= 0
      ? value.toFixed(QTY_DECIMALS)
      : typeof value === 'string'
        ? value
        : null;
  const match = text === null ? null : /^(\d{1,20})(?:\.(\d{1,8}))?$/.exec(text);
  if (match === null) return null;
  return BigInt(match[1] as string) * 10n ** BigInt(QTY_DECIMALS) + BigInt((match[2] ?? '').padEnd(QTY_DECIMALS, '0'));
}

export class ReplayPositions {
  private readonly held = new Map<string, HeldPosition>();
  /** (agent, market) pairs whose live position left the recording's by a reduce or flip not sent, with that seq. */
  private readonly left = new Map<string, number>();

  private static key(agent: string, symbol: string): string {
    return `${agent}\n${symbol}`;
  }

  /** The held position `order` closes (the other side, a recorded fill of its whole quantity, a live position to close), or null. */
  closing(agent: string | null, order: Order, recordedBody: unknown): HeldPosition | null {
    if (agent === null) return null;
    const held = this.held.get(ReplayPositions.key(agent, order.symbol));
    return held !== undefined &&
      held.side !== order.side &&
      held.qty === fillQtyOf(recordedBody) &&
      held.livePositionId !== null
      ? held
      : null;
  }

  /**
   * Where the target keeps positions apart: a recorded reduce or flip of a held position with a live
   * one, as that position's close and an order for what remains (`Resize`); or why `order` cannot
   * be asked (such an order where no live position is known, or any order on a market left so); or
   * null, an order sent as it is. A reduce or flip without a live position leaves the market, from `seq` on.
   */
  resizing(agent: string | null, order: Order, recordedBody: unknown, seq: number): Resize | string | null {
    if (agent === null) return null;
    const key = ReplayPositions.key(agent, order.symbol);
    const since = this.left.get(key);
    if (since !== undefined)
      return `the agent's ${order.symbol} position on the target left the recording's at seq ${since} (a reduce or flip not replayed)`;
    const held = this.held.get(key);
    const qty = fillQtyOf(recordedBody);
    if (held === undefined || held.side === order.side || qty === null || qty === 0n || qty === held.qty) return null;
    const flip = qty > held.qty;
    if (held.livePositionId !== null) {
      const restQty = flip ? qty - held.qty : held.qty - qty;
      return {
        held,
        rest: { side: flip ? order.side : held.side, qty: restQty, sizeMicro: (order.sizeMicro * restQty) / qty },
      };
    }
    this.held.delete(key);
    if (this.left.size < HELD_MAX) this.left.set(key, seq);
    return `a ${flip ? 'flip' : 'reduce'} of a netted ${held.side} position (the documents' way) whose live position the replay does not know: the target closes a position whole by its id (trading.close, DEPLOYED.md §5) and has no order that reduces or flips one`;
  }

  /** The order for what a reduce or flip left, replayed after the close: the market's position is that order's. */
  reopened(agent: string | null, order: Order, qty: bigint, live: ReadOutcome<OperationResult<'trading.order'>>): void {
    if (agent === null) return;
    const key = ReplayPositions.key(agent, order.symbol);
    this.held.delete(key);
    const liveId = live.kind === 'ok' ? (live.value.positionId ?? null) : null;
    if (liveId === null || this.held.size >= HELD_MAX) return;
    this.held.set(key, { agent, symbol: order.symbol, side: order.side, qty, livePositionId: liveId });
  }

  /** A replayed market order: the recording's position grows on its side, or is no longer followed. */
  ordered(
    agent: string | null,
    order: Order,
    recorded: { outcome: ReadOutcome<unknown>; body: unknown },
    live: ReadOutcome<OperationResult<'trading.order'>>,
  ): void {
    const qty = fillQtyOf(recorded.body);
    if (agent === null || recorded.outcome.kind !== 'ok' || qty === null) return;
    const key = ReplayPositions.key(agent, order.symbol);
    const held = this.held.get(key);
    if (held !== undefined && held.side !== order.side) {
      this.held.delete(key);
      return;
    }
    if (held === undefined && this.held.size >= HELD_MAX) return;
    const liveId = live.kind === 'ok' ? (live.value.positionId ?? null) : null;
    this.held.set(key, {
      agent,
      symbol: order.symbol,
      side: order.side,
      qty: (held?.qty ?? 0n) + qty,
      livePositionId: liveId ?? held?.livePositionId ?? null,
    });
  }

  /** A replayed close: the market is flat for the agent again. */
  closed(position: HeldPosition): void {
    this.held.delete(ReplayPositions.key(position.agent, position.symbol));
  }
}
