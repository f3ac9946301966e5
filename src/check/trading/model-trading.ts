/**
 * The trading part of the reference model of `afp check`: its state (orders, netted positions,
 * spot holdings, the target's closures, the price oracle) and the arithmetic every trading rule
 * shares, written from the wire contract (spec/platform.md "Trading", NOTES.md, docs/decisions/trading.md
 * "## Trading"). The rules live one concept a file beside it: orders and cancels
 * (model-orders.ts), perpetual fills and margins (model-positions.ts), spot (model-spot.ts), the
 * views (model-views.ts), and what time does (model-trading-time.ts: funding, liquidation and
 * limit fills at their exact ticks, from the prices of model-prices.ts).
 * Fixed point: prices and quantities carry 8 decimals; notional = qty × price / 10^10 micro-USDC;
 * margins and fees round up, PnL down (the house never pays a fraction).
 * Non-goals: the 50-open-order cap (a run never reaches it), weekend closures (no check market
 * is a stock or an index), funding_paid (the views do not show it exactly), the house and
 * insurance balances (not on the wire; the model keeps the shortfall it books to insurance).
 */
import type { Micro } from '../../core/money.ts';
import type { CheckModel, CheckStyle } from '../check-model.ts';
import { eq, type Matcher } from '../expectation.ts';
import { payFeeShares } from '../model-referral.ts';
import { TRADING_MARKETS, type ModelHolding, type ModelOrder, type ModelPosition } from './trading-state.ts';
import type { PositionSide } from '../../services/trading/trading-record.ts';

/** Prices and quantities carry 8 decimals; notional = qty × price / 10^10 micro-USDC. */
const SCALE = 100_000_000n;
export const NOTIONAL_DIVISOR = 10_000_000_000n;

/** Whether the market accepts orders at `nowMs`: outside every closure window of it (or of `*`). */
export function marketOpen(model: Readonly<CheckModel>, market: number, nowMs: number): boolean {
  const symbol = TRADING_MARKETS[market]?.symbol;
  return !model.trading.closures.some(
    (closure) =>
      (closure.symbol === '*' || closure.symbol === symbol) && nowMs >= closure.fromMs && nowMs < closure.untilMs,
  );
}

/** An 8-decimal price or quantity from the wire (a decimal string, or an A number); null when malformed. */
export function parseScaled(value: unknown): bigint | null {
  const textValue = typeof value === 'number' ? String(value) : value;
  if (typeof textValue !== 'string') return null;
  const match = /^(-?)(\d{1,15})(?:\.(\d{1,8}))?$/.exec(textValue);
  if (match === null) return null;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const magnitude = BigInt(whole) * SCALE + BigInt(fraction.padEnd(8, '0'));
  return sign === '-' ? -magnitude : magnitude;
}

/** The wire's text of an 8-decimal value: at least 2 and at most 8 decimals (95000.00, 0.00650123). */
export function scaledText(value: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  let fraction = (magnitude % SCALE).toString().padStart(8, '0');
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${negative ? '-' : ''}${magnitude / SCALE}.${fraction}`;
}

/** A price or quantity as its style shows it: A a JSON number, B a decimal string. */
export function scaledMatcher(style: CheckStyle, value: bigint | null): Matcher {
  if (value === null) return eq(null);
  return style === 'A' ? eq(Number(scaledText(value))) : eq(scaledText(value));
}

export function floorDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return quotient * denominator !== numerator && numerator < 0n ? quotient - 1n : quotient;
}

export function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return quotient * denominator !== numerator && numerator > 0n ? quotient + 1n : quotient;
}

export const modelQtyFor = (amountMicro: Micro, price: bigint): bigint => (amountMicro * NOTIONAL_DIVISOR) / price;
export const modelMarginFor = (amountMicro: Micro, leverage: number): Micro => ceilDiv(amountMicro, BigInt(leverage));
export const pnlOf = (side: PositionSide, qty: bigint, entry: bigint, price: bigint): Micro =>
  floorDiv(qty * (side === 'long' ? price - entry : entry - price), NOTIONAL_DIVISOR);

export function positionOf(model: Readonly<CheckModel>, slot: number, market: number): ModelPosition | undefined {
  return model.trading.positions.find((position) => position.slot === slot && position.market === market);
}

export function openOrdersOf(model: Readonly<CheckModel>, slot: number): ModelOrder[] {
  return model.trading.orders.filter((order) => order.slot === slot && order.status === 'open');
}

/** The money a slot has in trading besides its balance: margins of its positions and holds of its open orders. */
export function tradingMoney(model: Readonly<CheckModel>, slot: number): { marginMicro: Micro; heldMicro: Micro } {
  const marginMicro = model.trading.positions
    .filter((position) => position.slot === slot)
    .reduce((sum, position) => sum + position.marginMicro, 0n);
  const heldMicro = openOrdersOf(model, slot).reduce((sum, order) => sum + order.holdMicro, 0n);
  return { marginMicro, heldMicro };
}

/** A fee: out of the payer's balance, 20% (down) of it to the payer's referrer's payable, half and a quarter of that to the next two up. */
export function chargeFee(model: CheckModel, slot: number, feeMicro: Micro): void {
  const agent = model.agents[slot];
  if (agent === undefined || feeMicro === 0n) return;
  agent.balanceMicro -= feeMicro;
  model.feeIncomeMicro += feeMicro;
  payFeeShares(model, { payerSlot: slot, feeMicro: feeMicro, levelOneBps: model.config.trading.referralShareBps });
}

export function holdingOf(model: Readonly<CheckModel>, slot: number, market: number): ModelHolding | undefined {
  return model.trading.holdings.find((holding) => holding.slot === slot && holding.market === market);
}

/** Slots with anything open in trading (what a tick or a funding instant can move). */
export function tradingSlots(model: Readonly<CheckModel>): number[] {
  const slots = new Set<number>();
  for (const position of model.trading.positions) slots.add(position.slot);
  for (const order of model.trading.orders) if (order.status === 'open') slots.add(order.slot);
  return [...slots].sort((a, b) => a - b);
}
