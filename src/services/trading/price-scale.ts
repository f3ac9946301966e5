/**
 * Fixed-point scales of the trading service. Prices carry 8 decimals (a forex or meme-token price
 * needs more than money's 6) and quantities of base asset carry 8 decimals; money stays micro-USDC.
 * notional (micro) = qty × price / 10^10, rounded in the named direction; nothing is a float.
 */
import { assert } from '../../core/assert.ts';
import type { Micro, Rounding } from '../../core/money.ts';

export const PRICE_DECIMALS = 8;
export const PRICE_ONE = 100_000_000n;
export const QTY_DECIMALS = 8;
export const QTY_ONE = 100_000_000n;
/** QTY_ONE × PRICE_ONE / MICRO_PER_USDC. */
const NOTIONAL_DIVISOR = 10_000_000_000n;

function divide(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  assert(denominator > 0n, 'divisor is positive');
  const quotient = numerator / denominator;
  const exact = quotient * denominator === numerator;
  if (exact) return quotient;
  // bigint division truncates toward zero: step to the floor or the ceiling as named.
  if (rounding === 'down') return numerator < 0n ? quotient - 1n : quotient;
  return numerator > 0n ? quotient + 1n : quotient;
}

/** Micro-USDC value of `qty` units at `price` (either sign of qty). */
export function notionalMicro(qty: bigint, price: bigint, rounding: Rounding): Micro {
  return divide(qty * price, NOTIONAL_DIVISOR, rounding);
}

/** Units of base bought by `amountMicro` at `price`, rounded down. */
export function qtyFor(amountMicro: Micro, price: bigint): bigint {
  assert(amountMicro >= 0n && price > 0n, 'quantity of a non-negative amount at a positive price');
  return (amountMicro * NOTIONAL_DIVISOR) / price;
}

/** `a × b / c` rounded as named (c > 0). */
export function scaled(a: bigint, b: bigint, c: bigint, rounding: Rounding): bigint {
  return divide(a * b, c, rounding);
}

/** Fixed-point text with at least 2 and at most `decimals` decimals: 95000.00, 0.00650123. */
export function formatFixed(value: bigint, decimals: number): string {
  const one = 10n ** BigInt(decimals);
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  let fraction = (magnitude % one).toString().padStart(decimals, '0');
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${negative ? '-' : ''}${magnitude / one}.${fraction}`;
}

export const formatPrice = (price: bigint): string => formatFixed(price, PRICE_DECIMALS);
export const formatQty = (qty: bigint): string => formatFixed(qty, QTY_DECIMALS);
