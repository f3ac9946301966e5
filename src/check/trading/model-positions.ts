/**
 * Perpetual positions in the check model: a fill at a price (a market order at the quote when
 * placed, a resting limit at its limit at a tick) opens, adds to, reduces, closes or flips the
 * agent's netted position, and the margin and PnL move with it; the liquidation price and the
 * unrealized PnL the views show.
 * Rules (docs/decisions/trading.md "Trading"): qty = size / price, rounded down to 8 decimals; an opening
 * or adding fill debits margin = size / leverage (up) plus the fee; an opposite fill releases
 * margin pro rata (down) with the PnL (qty × move, down): a loss is taken from the released margin,
 * then from the balance as far as it holds; the fee as far as the balance then holds; a flip opens
 * the remainder at the order's leverage (its margin on its notional at the price, rounded up).
 * Liquidation price: entry ∓ margin per unit ± entry × maintenance, at least 0.
 * A plan is computed on the model as it is and changes nothing until `apply` runs.
 */
import { assert } from '../../core/assert.ts';
import type { Micro } from '../../core/money.ts';
import type { CheckModel } from '../check-model.ts';
import {
  ceilDiv,
  chargeFee,
  modelMarginFor,
  NOTIONAL_DIVISOR,
  pnlOf,
  positionOf,
  modelQtyFor,
} from './model-trading.ts';
import type { ModelPosition } from './trading-state.ts';
import type { OrderSide, PositionSide } from '../../services/trading/trading-record.ts';

export interface PerpFillInput {
  readonly slot: number;
  readonly market: number;
  readonly side: OrderSide;
  readonly amountMicro: Micro;
  readonly leverage: number;
  readonly price: bigint;
  /** The fee the fill owes (taker or maker); a reducing fill charges it as far as the balance holds. */
  readonly feeMicro: Micro;
}

export type PerpPlan =
  | { readonly kind: 'fill'; readonly qty: bigint; readonly feeMicro: Micro; readonly pnlMicro: Micro; apply(): void }
  | { readonly kind: 'refused'; readonly status: 400 | 422 };

/** A fill that realises no PnL and pays its whole fee: a perpetual fill that opens or adds, any spot fill. */
export function unrealizedFill(qty: bigint, feeMicro: Micro, apply: () => void): PerpPlan {
  return { kind: 'fill', qty, feeMicro, pnlMicro: 0n, apply };
}

/** What a perpetual fill does at `fill.price`, or why it is refused (400: buys nothing; 422: funds). */
export function planPerpFill(model: CheckModel, fill: PerpFillInput): PerpPlan {
  const agent = model.agents[fill.slot];
  assert(agent !== undefined, `a fill is an agent's (a${fill.slot})`);
  const qty = modelQtyFor(fill.amountMicro, fill.price);
  if (qty <= 0n) return { kind: 'refused', status: 400 };
  const side: PositionSide = fill.side === 'buy' ? 'long' : 'short';
  const position = positionOf(model, fill.slot, fill.market);
  const lot = { slot: fill.slot, market: fill.market, side, price: fill.price, leverage: fill.leverage };
  if (position === undefined || position.side === side) {
    const marginMicro = modelMarginFor(fill.amountMicro, fill.leverage);
    if (agent.balanceMicro < marginMicro + fill.feeMicro) return { kind: 'refused', status: 422 };
    return unrealizedFill(qty, fill.feeMicro, () => {
      agent.balanceMicro -= marginMicro;
      openOrAdd(model, { ...lot, qty, marginMicro, position });
      chargeFee(model, fill.slot, fill.feeMicro);
    });
  }
  const closeQty = qty < position.qty ? qty : position.qty;
  const remainingQty = qty - closeQty;
  const released = closeQty === position.qty ? position.marginMicro : (position.marginMicro * closeQty) / position.qty;
  const pnl = pnlOf(position.side, closeQty, position.entry, fill.price);
  const remainderMargin =
    remainingQty > 0n ? modelMarginFor(ceilDiv(remainingQty * fill.price, NOTIONAL_DIVISOR), fill.leverage) : 0n;
  if (remainingQty > 0n && agent.balanceMicro + released + pnl < remainderMargin + fill.feeMicro)
    return { kind: 'refused', status: 422 };
  // The settlement, planned on copies: the fee is what the balance holds after it, at most the fee.
  let balance = agent.balanceMicro;
  if (pnl >= 0n) balance += released + pnl;
  else {
    const loss = -pnl;
    const fromMargin = loss < released ? loss : released;
    balance += released - fromMargin;
    const rest = loss - fromMargin;
    balance -= rest < balance ? rest : balance;
  }
  balance -= remainderMargin;
  const charged = fill.feeMicro < balance ? fill.feeMicro : balance;
  return {
    kind: 'fill',
    qty,
    feeMicro: charged,
    pnlMicro: pnl,
    apply: () => {
      agent.balanceMicro = balance;
      position.qty -= closeQty;
      position.marginMicro -= released;
      if (position.qty === 0n) model.trading.positions = model.trading.positions.filter((open) => open !== position);
      if (remainingQty > 0n)
        openOrAdd(model, { ...lot, qty: remainingQty, marginMicro: remainderMargin, position: undefined });
      chargeFee(model, fill.slot, charged);
    },
  };
}

function openOrAdd(
  model: CheckModel,
  lot: {
    slot: number;
    market: number;
    side: PositionSide;
    qty: bigint;
    price: bigint;
    marginMicro: Micro;
    leverage: number;
    position: ModelPosition | undefined;
  },
): void {
  const position = lot.position;
  if (position === undefined) {
    model.trading.positions.push({
      slot: lot.slot,
      market: lot.market,
      side: lot.side,
      qty: lot.qty,
      entry: lot.price,
      marginMicro: lot.marginMicro,
      leverage: lot.leverage,
    });
    return;
  }
  const total = position.qty + lot.qty;
  position.entry = (position.qty * position.entry + lot.qty * lot.price + total / 2n) / total;
  position.qty = total;
  position.marginMicro += lot.marginMicro;
  position.leverage = lot.leverage;
}

/** The liquidation price the wire shows: entry ∓ margin per unit ± maintenance × entry, at least 0. */
export function liquidationPriceOf(model: Readonly<CheckModel>, position: ModelPosition): bigint {
  const marginPerUnit = (position.marginMicro * NOTIONAL_DIVISOR) / position.qty;
  const maintenance = (position.entry * model.config.trading.maintenanceBps) / 10_000n;
  const price =
    position.side === 'long'
      ? position.entry - marginPerUnit + maintenance
      : position.entry + marginPerUnit - maintenance;
  return price > 0n ? price : 0n;
}

export function unrealizedOf(position: ModelPosition, mark: bigint): Micro {
  return pnlOf(position.side, position.qty, position.entry, mark);
}
