/**
 * Shared moves of the trading archetypes (agents/trading/*): reading a quote and the agent's open
 * positions, placing an order and reading the answer into one of a few outcomes, cancelling, in
 * the agent's own style (A: symbol, long/short, size as numbers; B: pair + market_type, decimal
 * strings). Prices are read exactly (bigint, 8 decimals) — no float decides anything.
 *
 * An answer outside the documented ones is a broken rule the agent reports (context.report): an
 * order answered 201 without its fields or with a fee other than the rule's, a refusal with a
 * status or code the service never gives for it. Expected refusals are outcomes: MARKET_CLOSED
 * (409), INSUFFICIENT_BALANCE (422), a rate limit (429) or a scheduled outage (5xx).
 */
import { isFailure } from '../core/errors.ts';
import { basisPoints, type Micro } from '../core/money.ts';
import { parsePrice } from '../http/routes/trading/trading-parse.ts';
import { marketBySymbol, type MarketKind } from '../services/trading/market-catalogue.ts';
import { DEFAULT_TRADING_CONFIG } from '../services/trading/trading-config.ts';
import { z } from 'zod';
import type { AgentContext } from './agent.ts';
import { expectedRefusal, moneyIn, moneyOut, reportUnexpected } from './agent-kit.ts';

/** Whether the venue lists a market of this kind for the asset (`BTC` perp: BTC-PERP; spot: BTC-USDC). */
export function listsMarket(base: string, kind: MarketKind): boolean {
  return marketBySymbol(`${base}-${kind === 'perp' ? 'PERP' : 'USDC'}`) !== undefined;
}

/**
 * An archetype's asset parameter: one the venue lists a perpetual of (every spot base has one too).
 * Why at parse time: an unlisted asset made every quote a 404 and the run fail agent-assertions,
 * where a wrong parameter is a scenario error (exit 2, with its path and line).
 */
export function perpAsset(): z.ZodString {
  return z
    .string()
    .regex(/^[A-Za-z0-9]{1,16}$/)
    .refine((base) => listsMarket(base, 'perp'), 'an asset the venue lists a perpetual of (BTC, ETH, kPEPE, GOLD...)');
}

export interface TradingQuote {
  readonly mid: bigint;
  readonly bid: bigint;
  readonly ask: bigint;
  /** Per 8 hours in parts per million; null for spot. */
  readonly fundingPpm: number | null;
}

export interface OpenPosition {
  readonly base: string;
  readonly side: 'long' | 'short';
  /** Notional at entry, micro-USDC. */
  readonly sizeMicro: Micro;
  /** Base units, 8 decimals (0 when the answer had none). */
  readonly qty: bigint;
  readonly unrealizedMicro: Micro;
}

export type OrderOutcome =
  | { readonly kind: 'filled'; readonly orderId: string; readonly feeMicro: Micro }
  | { readonly kind: 'open'; readonly orderId: string }
  | { readonly kind: 'closed' }
  | { readonly kind: 'broke' }
  | { readonly kind: 'refused' };

export interface OrderPlan {
  readonly base: string;
  readonly kind: MarketKind;
  readonly side: 'buy' | 'sell';
  readonly amountMicro: Micro;
  readonly leverage: number;
  /** Limit price (8 decimals); null = market order. */
  readonly limitPrice: bigint | null;
}

function priceOf(value: unknown): bigint | null {
  const parsed = parsePrice(value, 'price', 'number-or-decimal-string');
  return isFailure(parsed) ? null : parsed;
}

/**
 * The smallest order amount (micro-USDC) whose quantity at `price` (amount / price, rounded down
 * to the unit) covers `qty`: what closes a position exactly, where an order of the opening amount
 * would leave a remainder or flip to a dust position on the other side once the price moved.
 */
export function closingAmount(qty: bigint, price: bigint): Micro {
  let amountMicro = (qty * price + 9_999_999_999n) / 10_000_000_000n;
  while ((amountMicro * 10_000_000_000n) / price < qty) amountMicro += 1n;
  return amountMicro;
}

/** `12345.67000000`-style text of a fixed-point price (8 decimals), for requests. */
export function priceText(price: bigint): string {
  const whole = price / 100_000_000n;
  const fraction = (price % 100_000_000n).toString().padStart(8, '0');
  return `${whole}.${fraction}`;
}

function fundingOf(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'number' ? value.toFixed(6) : String(value);
  const match = /^(-?)(\d+)\.(\d{1,6})/.exec(text);
  if (match === null) return null;
  const ppm = Number(match[2]) * 1_000_000 + Number((match[3] ?? '').padEnd(6, '0'));
  return match[1] === '-' ? -ppm : ppm;
}

export async function readQuote(
  context: AgentContext<unknown>,
  base: string,
  kind: MarketKind,
): Promise<TradingQuote | null> {
  const result =
    context.style === 'A'
      ? await context.client.trading.tickerA(`${base}-${kind === 'perp' ? 'PERP' : 'USDC'}`)
      : await context.client.trading.priceB(`${base}-USDC`, { market_type: kind });
  if (!result.ok) {
    if (!expectedRefusal(context, result, 'trading'))
      reportUnexpected(context, `quote of ${base} ${kind}`, result, '200');
    return null;
  }
  const mid = priceOf(context.style === 'A' ? result.body['mark_price'] : result.body['mid']);
  const bid = priceOf(result.body['bid']);
  const ask = priceOf(result.body['ask']);
  if (mid === null || bid === null || ask === null || bid > mid || mid > ask) {
    context.report(`quote of ${base} ${kind} is not a valid bid ≤ mid ≤ ask`, result.body);
    return null;
  }
  return { mid, bid, ask, fundingPpm: fundingOf(result.body['funding_rate']) };
}

export async function readPositions(context: AgentContext<unknown>): Promise<OpenPosition[] | null> {
  const result =
    context.style === 'A' ? await context.client.trading.positionsA() : await context.client.trading.portfolioB();
  if (!result.ok) {
    if (!expectedRefusal(context, result, 'trading'))
      reportUnexpected(context, 'reading open positions', result, '200');
    return null;
  }
  const rows = result.body['positions'];
  if (!Array.isArray(rows)) {
    context.report('positions answered without a positions list', result.body);
    return null;
  }
  return (rows as Record<string, unknown>[]).map((row) => {
    const name = String(context.style === 'A' ? row['symbol'] : row['pair']);
    return {
      base: name.replace(/-(PERP|USDC)$/, ''),
      side: row['side'] === 'short' ? 'short' : 'long',
      sizeMicro: moneyIn(context.style === 'A' ? row['size'] : row['amount']) ?? 0n,
      qty: priceOf(row['qty']) ?? 0n,
      unrealizedMicro: moneyIn(row['unrealized_pnl']) ?? 0n,
    };
  });
}

function orderBody(context: AgentContext<unknown>, plan: OrderPlan): Record<string, unknown> {
  const type = plan.limitPrice === null ? 'market' : 'limit';
  if (context.style === 'A') {
    const side = plan.kind === 'perp' ? (plan.side === 'buy' ? 'long' : 'short') : plan.side;
    const body: Record<string, unknown> = {
      symbol: `${plan.base}-${plan.kind === 'perp' ? 'PERP' : 'USDC'}`,
      side,
      size: moneyOut('A', plan.amountMicro),
      type,
    };
    if (plan.kind === 'perp') body['leverage'] = plan.leverage;
    if (plan.limitPrice !== null) body['price'] = Number(priceText(plan.limitPrice));
    return body;
  }
  const body: Record<string, unknown> = {
    pair: `${plan.base}-USDC`,
    side: plan.side,
    amount: moneyOut('B', plan.amountMicro),
    type,
    market_type: plan.kind,
  };
  if (plan.kind === 'perp') body['leverage'] = plan.leverage;
  if (plan.limitPrice !== null) body['price'] = priceText(plan.limitPrice);
  return body;
}

/**
 * Places an order and checks the answer: a filled market order's fee is the taker fee of its
 * amount (0.2%, rounded up to the micro), an open order has no fee yet.
 */
export async function placeOrder(context: AgentContext<unknown>, plan: OrderPlan): Promise<OrderOutcome> {
  const body = orderBody(context, plan);
  const result =
    context.style === 'A' ? await context.client.trading.orderA(body) : await context.client.trading.orderB(body);
  if (!result.ok) {
    if (result.status === 409 && result.body.code === 'MARKET_CLOSED') return { kind: 'closed' };
    if (result.status === 422 && result.body.code === 'INSUFFICIENT_BALANCE') return { kind: 'broke' };
    if (!expectedRefusal(context, result, 'trading'))
      reportUnexpected(context, `order ${JSON.stringify(body)}`, result, '201');
    return { kind: 'refused' };
  }
  const orderId = result.body['order_id'];
  const status = result.body['status'];
  const feeMicro = moneyIn(result.body['fee']);
  if (typeof orderId !== 'string' || feeMicro === null || (status !== 'filled' && status !== 'open')) {
    context.report('an order was answered 201 without its id, status or fee', result.body);
    return { kind: 'refused' };
  }
  if (status === 'open') return { kind: 'open', orderId };
  if (plan.limitPrice === null) {
    const expected = basisPoints(plan.amountMicro, DEFAULT_TRADING_CONFIG.takerFeeBps, 'up');
    if (feeMicro !== expected)
      context.report(
        `a market order of ${plan.amountMicro} micro paid fee ${feeMicro}, the taker rule says ${expected}`,
        result.body,
      );
  }
  return { kind: 'filled', orderId, feeMicro };
}

/** Cancels an order; 409 (it filled meanwhile) is an answer, not a fault. Returns whether it was cancelled. */
export async function cancelOrder(context: AgentContext<unknown>, orderId: string): Promise<boolean> {
  const result =
    context.style === 'A'
      ? await context.client.trading.cancelA(orderId)
      : await context.client.trading.cancelB(orderId);
  if (result.ok) {
    if (result.body['status'] !== 'cancelled')
      context.report(`cancel of ${orderId} answered status ${String(result.body['status'])}`, result.body);
    return true;
  }
  if (result.status !== 409 && !expectedRefusal(context, result, 'trading'))
    reportUnexpected(context, `cancel of own order ${orderId}`, result, '200 or 409');
  return false;
}

/** `price × (10,000 + bps) / 10,000`, for limit prices around a mid. */
export function offsetPrice(price: bigint, bps: number): bigint {
  return (price * BigInt(10_000 + bps)) / 10_000n;
}
