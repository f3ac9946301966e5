/**
 * Perpetual arithmetic (spec/NOTES.md "Trading"): PnL = notional × (exit − entry) / entry, signed
 * by side — here qty × (exit − entry), the same number with qty = notional / entry; margin =
 * notional / leverage; liquidation price of a long `entry × (1 − 1/leverage + maintenance)`, of a
 * short `entry × (1 + 1/leverage − maintenance)`. The liquidation price is computed from the
 * position's actual margin (margin per unit = notional / leverage / qty at opening), so funding
 * that moves the margin moves the liquidation price with it.
 * Rounding always favours the house: PnL floors, margins and fees round up.
 */
import { basisPoints, type Micro } from '../../core/money.ts';
import { notionalMicro, scaled } from './price-scale.ts';
import type { PositionSide } from './trading-record.ts';

const NOTIONAL_DIVISOR = 10_000_000_000n;

/** Signed PnL of `qty` units opened at `entry`, valued at `price`, floored. */
export function pnlMicro(side: PositionSide, qty: bigint, entry: bigint, price: bigint): Micro {
  const move = side === 'long' ? price - entry : entry - price;
  return notionalMicro(qty, move, 'down');
}

export function marginFor(amountMicro: Micro, leverage: number): Micro {
  return scaled(amountMicro, 1n, BigInt(leverage), 'up');
}

export function feeFor(amountMicro: Micro, feeBps: bigint): Micro {
  return basisPoints(amountMicro, feeBps, 'up');
}

/**
 * The mark at which a position is liquidated: entry ∓ margin per unit ± maintenance × entry.
 * May be ≤ 0 for a long whose margin exceeds its notional (then it is never liquidated).
 */
export function liquidationPrice(options: {
  side: PositionSide;
  qty: bigint;
  entry: bigint;
  marginMicro: Micro;
  maintenanceBps: bigint;
}): bigint {
  const { side, qty, entry, marginMicro, maintenanceBps } = options;
  if (qty <= 0n) return 0n;
  const marginPerUnit = (marginMicro * NOTIONAL_DIVISOR) / qty;
  const maintenance = (entry * maintenanceBps) / 10_000n;
  return side === 'long' ? entry - marginPerUnit + maintenance : entry + marginPerUnit - maintenance;
}

/** Whether `mark` has reached the liquidation price (at or beyond). */
export function crossesLiquidation(side: PositionSide, mark: bigint, liquidation: bigint): boolean {
  return side === 'long' ? liquidation > 0n && mark <= liquidation : mark >= liquidation;
}

/** Quantity-weighted entry of two lots on one side, rounded to the nearest price unit. */
export function combinedEntry(qtyA: bigint, entryA: bigint, qtyB: bigint, entryB: bigint): bigint {
  const total = qtyA + qtyB;
  return (qtyA * entryA + qtyB * entryB + total / 2n) / total;
}
