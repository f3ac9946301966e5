/**
 * The money of ending a position: a close (whole or part) releases margin and settles the PnL
 * with the house — a loss from the released margin, then the balance, then insurance — and a
 * liquidation forfeits the margin to the house and insurance without touching the balance; an
 * ended position cancels its triggers. Why a file of its own: closing and liquidating are the
 * settlement side of trading, shared by fills that reduce a position, closes, triggers and funding.
 */
import { assert } from '../../core/assert.ts';
import { agentAccount } from '../../core/ledger.ts';
import type { Micro } from '../../core/money.ts';
import { pnlMicro } from './perp-math.ts';
import type { MutablePosition } from './trading-book.ts';
import type { TradingDesk } from './trading-desk.ts';
import { emitLiquidated } from './trading-events.ts';
import { TRADING_HOUSE, TRADING_INSURANCE, marginAccount, type PositionRecord } from './trading-record.ts';

/**
 * Closes `closeQty` of a position: `released` margin back to the agent with the PnL settled
 * against the house. A loss is taken from the released margin first, then from the agent's
 * balance, and only what neither covers from insurance (never below zero).
 */
export function settleClose(
  desk: TradingDesk,
  position: MutablePosition,
  close: { closeQty: bigint; released: Micro; pnl: Micro; price: bigint; reference: string; nowMs: number },
): void {
  const { ledger } = desk.context;
  const agent = agentAccount(position.agentId);
  const margin = marginAccount(position.agentId);
  const { released, pnl, reference } = close;
  if (pnl >= 0n) {
    if (released > 0n)
      ledger.transfer({
        from: margin,
        to: agent,
        amountMicro: released,
        reason: 'trading.margin.release',
        reference,
      });
    if (pnl > 0n)
      ledger.transfer({ from: TRADING_HOUSE, to: agent, amountMicro: pnl, reason: 'trading.pnl', reference });
  } else {
    const loss = -pnl;
    const fromMargin = loss < released ? loss : released;
    if (fromMargin > 0n)
      ledger.transfer({ from: margin, to: TRADING_HOUSE, amountMicro: fromMargin, reason: 'trading.pnl', reference });
    if (released > fromMargin)
      ledger.transfer({
        from: margin,
        to: agent,
        amountMicro: released - fromMargin,
        reason: 'trading.margin.release',
        reference,
      });
    const rest = loss - fromMargin;
    const balance = ledger.balance(agent);
    const fromBalance = rest < balance ? rest : balance;
    if (fromBalance > 0n)
      ledger.transfer({ from: agent, to: TRADING_HOUSE, amountMicro: fromBalance, reason: 'trading.pnl', reference });
    coverShortfall(desk, rest - fromBalance, reference);
  }
  position.qty -= close.closeQty;
  position.marginMicro -= released;
  position.realizedPnlMicro += pnl;
  desk.risk.realize(position.agentId, pnl, close.nowMs);
  if (position.qty === 0n) {
    assert(position.marginMicro === 0n, 'a closed position holds no margin');
    position.status = 'closed';
    position.closedAtMs = close.nowMs;
    position.exitPrice = close.price;
    desk.book.endPosition(position);
    endTriggers(desk, position, close.nowMs);
  }
}

/** Insurance pays the house what a loss left uncovered, as far as insurance holds. */
export function coverShortfall(desk: TradingDesk, shortfall: Micro, reference: string): Micro {
  if (shortfall <= 0n) return 0n;
  const available = desk.context.ledger.balance(TRADING_INSURANCE);
  const paid = shortfall < available ? shortfall : available;
  if (paid > 0n)
    desk.context.ledger.transfer({
      from: TRADING_INSURANCE,
      to: TRADING_HOUSE,
      amountMicro: paid,
      reason: 'trading.insurance',
      reference,
    });
  return paid;
}

/**
 * Forfeits the margin: the loss at the mark goes to the house, what remains of the margin to
 * insurance; a loss beyond the margin is paid to the house by insurance. The agent's balance is
 * not touched.
 */
export function liquidatePosition(desk: TradingDesk, position: MutablePosition, mark: bigint, atMs: number): void {
  const { ledger } = desk.context;
  const margin = marginAccount(position.agentId);
  const pnl = pnlMicro(position.side, position.qty, position.entryPrice, mark);
  const held = position.marginMicro;
  const reference = position.id;
  let shortfall = 0n;
  if (desk.context.defects.has('trading-liquidation-as-close')) {
    // The defect: settled as a voluntary close (what is left of the margin back to the agent, a loss beyond it from the balance).
    settleClose(desk, position, { closeQty: position.qty, released: held, pnl, price: mark, reference, nowMs: atMs });
    position.status = 'liquidated';
    position.liquidationMark = mark;
    emitLiquidated(desk.context, position, { mark, held, shortfall: 0n }, atMs);
    return;
  }
  if (pnl > 0n) {
    if (held > 0n)
      ledger.transfer({
        from: margin,
        to: TRADING_INSURANCE,
        amountMicro: held,
        reason: 'trading.liquidation.penalty',
        reference,
      });
    ledger.transfer({
      from: TRADING_HOUSE,
      to: TRADING_INSURANCE,
      amountMicro: pnl,
      reason: 'trading.liquidation.penalty',
      reference,
    });
  } else {
    const loss = -pnl;
    const toHouse = loss < held ? loss : held;
    if (toHouse > 0n)
      ledger.transfer({
        from: margin,
        to: TRADING_HOUSE,
        amountMicro: toHouse,
        reason: 'trading.liquidation',
        reference,
      });
    if (held > toHouse)
      ledger.transfer({
        from: margin,
        to: TRADING_INSURANCE,
        amountMicro: held - toHouse,
        reason: 'trading.liquidation.penalty',
        reference,
      });
    shortfall = loss - toHouse;
    coverShortfall(desk, shortfall, reference);
  }
  position.realizedPnlMicro -= held;
  position.marginMicro = 0n;
  position.status = 'liquidated';
  position.liquidationMark = mark;
  position.exitPrice = mark;
  position.closedAtMs = atMs;
  desk.book.endPosition(position);
  desk.risk.realize(position.agentId, -held, atMs);
  endTriggers(desk, position, atMs);
  emitLiquidated(desk.context, position, { mark, held, shortfall }, atMs);
}

/** A position that ended cancels its pending triggers. */
export function endTriggers(desk: TradingDesk, position: PositionRecord, atMs: number): void {
  for (const trigger of desk.triggers.pendingOf(position.id)) {
    desk.triggers.end(trigger.id, atMs, { cancelled: 'position-ended' });
    desk.context.emit({
      type: 'trading.trigger-cancelled',
      atMs,
      triggerId: trigger.id,
      positionId: position.id,
      agentId: position.agentId,
      cause: 'position-ended',
    });
  }
}
