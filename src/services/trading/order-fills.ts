/**
 * An order's checks and its fills: a spot buy or sell against the house, a perpetual fill that
 * opens, adds to, reduces, closes or flips a position (planned in full before anything moves),
 * the fee, and the hold a resting limit order keeps until it fills or is cancelled. Why a file of
 * its own: what a fill moves is one concept; when orders fill is the service's (trading.ts).
 */
import { assert } from '../../core/assert.ts';
import { fail, type Failure } from '../../core/errors.ts';
import { FEE_INCOME, agentAccount } from '../../core/ledger.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import { accrueFeeShares } from '../shared/referral-programme.ts';
import type { Market } from './market-catalogue.ts';
import { combinedEntry, feeFor, marginFor, pnlMicro } from './perp-math.ts';
import { notionalMicro, qtyFor, scaled } from './price-scale.ts';
import { settleClose } from './position-settlement.ts';
import type { MutableOrder, MutablePosition } from './trading-book.ts';
import type { TradingDesk } from './trading-desk.ts';
import {
  TRADING_HOUSE,
  tradingHoldAccount,
  marginAccount,
  type PlaceOrderCommand,
  type PositionSide,
} from './trading-record.ts';

export function checkPlaceOrder(desk: TradingDesk, command: PlaceOrderCommand, market: Market): Failure | null {
  const config = desk.config;
  if (command.amountMicro < config.orderMinMicro || command.amountMicro > config.orderMaxMicro) {
    return fail(
      'BAD_REQUEST',
      `amount must be between ${formatDecimal(config.orderMinMicro)} and ${formatDecimal(config.orderMaxMicro)} USDC`,
    );
  }
  const leverageMax = Math.min(config.leverageMax, market.maxLeverage);
  if (!Number.isSafeInteger(command.leverage) || command.leverage < 1 || command.leverage > leverageMax) {
    return fail(
      'BAD_REQUEST',
      market.kind === 'spot'
        ? 'leverage applies to perpetuals only (spot is 1)'
        : `leverage must be a whole number from 1 to ${leverageMax}`,
    );
  }
  if (command.type === 'limit' && (command.limitPrice === null || command.limitPrice <= 0n))
    return fail('BAD_REQUEST', 'a limit order needs a positive price');
  if (command.type === 'market' && command.limitPrice !== null)
    return fail('BAD_REQUEST', 'price is only for limit orders');
  return null;
}

export function newOrder(desk: TradingDesk, command: PlaceOrderCommand, market: Market, nowMs: number): MutableOrder {
  return {
    id: desk.context.ids.next('ord_', 16),
    agentId: command.agentId,
    symbol: market.symbol,
    kind: market.kind,
    side: command.side,
    type: command.type,
    amountMicro: command.amountMicro,
    leverage: command.leverage,
    limitPrice: command.limitPrice,
    status: 'open',
    fillPrice: null,
    fillQty: null,
    feeMicro: 0n,
    liquidity: null,
    holdMicro: 0n,
    holdQty: 0n,
    realizedPnlMicro: 0n,
    createdAtMs: nowMs,
    filledAtMs: null,
    cancelledAtMs: null,
  };
}

/** Fills `order` at `price` now; a Failure (nothing moved) when the agent cannot afford it. */
export function fillOrder(
  desk: TradingDesk,
  order: MutableOrder,
  market: Market,
  price: bigint,
  liquidity: 'maker' | 'taker',
  nowMs: number,
): Failure | null {
  const feeBps = liquidity === 'maker' ? desk.config.makerFeeBps : desk.config.takerFeeBps;
  const unpaid = liquidity === 'taker' && desk.context.defects.has('trading-fee-unpaid');
  const fee = unpaid ? 0n : feeFor(order.amountMicro, feeBps);
  const refused = market.kind === 'spot' ? fillSpot(desk, order, price, fee) : fillPerp(desk, order, price, fee, nowMs);
  if (refused !== null) return refused;
  order.fillPrice = price;
  order.liquidity = liquidity;
  order.filledAtMs = nowMs;
  if (order.status === 'open' && desk.book.order(order.id) !== undefined) desk.book.closeOrder(order, 'filled');
  else order.status = 'filled';
  accrueFeeShares(desk.context, {
    service: 'trading',
    payerId: order.agentId,
    feeMicro: order.feeMicro,
    reference: order.id,
  });
  return null;
}

export function fillSpot(desk: TradingDesk, order: MutableOrder, price: bigint, fee: Micro): Failure | null {
  const { ledger } = desk.context;
  const agent = agentAccount(order.agentId);
  const holding = desk.book.holding(order.agentId, order.symbol);
  if (order.side === 'buy') {
    const qty = qtyFor(order.amountMicro, price);
    if (qty <= 0n) return fail('BAD_REQUEST', 'amount buys nothing at this price');
    const balance = ledger.balance(agent);
    if (balance < order.amountMicro + fee) return insufficient(balance, order.amountMicro + fee);
    ledger.transfer({
      from: agent,
      to: TRADING_HOUSE,
      amountMicro: order.amountMicro,
      reason: 'trading.spot.buy',
      reference: order.id,
    });
    chargeOrderFee(desk, order, fee);
    holding.qty += qty;
    holding.costMicro += order.amountMicro;
    order.fillQty = qty;
    return null;
  }
  const qty = scaled(order.amountMicro, 10_000_000_000n, price, 'up');
  const free = holding.qty - holding.reservedQty;
  if (free < qty) return fail('INSUFFICIENT_BALANCE', `holding of ${order.symbol} is too small for this sell`);
  ledger.transfer({
    from: TRADING_HOUSE,
    to: agent,
    amountMicro: order.amountMicro,
    reason: 'trading.spot.sell',
    reference: order.id,
  });
  chargeOrderFee(desk, order, fee);
  holding.costMicro -= scaled(holding.costMicro, qty, holding.qty, 'down');
  holding.qty -= qty;
  order.fillQty = qty;
  return null;
}

/**
 * A perpetual fill: opens or adds to the agent's position on the order's side, or reduces,
 * closes or flips a position on the other side. Planned in full before anything moves.
 */
export function fillPerp(
  desk: TradingDesk,
  order: MutableOrder,
  price: bigint,
  fee: Micro,
  nowMs: number,
): Failure | null {
  const { ledger } = desk.context;
  const agent = agentAccount(order.agentId);
  const side: PositionSide = order.side === 'buy' ? 'long' : 'short';
  const qty = qtyFor(order.amountMicro, price);
  if (qty <= 0n) return fail('BAD_REQUEST', 'amount buys nothing at this price');
  const position = desk.book.openPosition(order.agentId, order.symbol);
  const balance = ledger.balance(agent);
  if (position === undefined || position.side === side) {
    const margin = marginFor(order.amountMicro, order.leverage);
    if (balance < margin + fee) return insufficient(balance, margin + fee);
    openOrAdd(desk, order, { side, qty, price, margin, position, nowMs });
    chargeOrderFee(desk, order, fee);
    order.fillQty = qty;
    return null;
  }
  const closeQty = qty < position.qty ? qty : position.qty;
  const remainingQty = qty - closeQty;
  const released =
    closeQty === position.qty ? position.marginMicro : scaled(position.marginMicro, closeQty, position.qty, 'down');
  const pnl = pnlMicro(position.side, closeQty, position.entryPrice, price);
  const remainderMargin = remainingQty > 0n ? marginFor(notionalMicro(remainingQty, price, 'up'), order.leverage) : 0n;
  if (remainingQty > 0n && balance + released + pnl < remainderMargin + fee)
    return insufficient(balance + released + pnl, remainderMargin + fee);
  settleClose(desk, position, { closeQty, released, pnl, price, reference: order.id, nowMs });
  order.realizedPnlMicro = pnl;
  if (remainingQty > 0n)
    openOrAdd(desk, order, { side, qty: remainingQty, price, margin: remainderMargin, position: undefined, nowMs });
  const available = ledger.balance(agent);
  chargeOrderFee(desk, order, fee < available ? fee : available);
  order.fillQty = qty;
  return null;
}

export function openOrAdd(
  desk: TradingDesk,
  order: MutableOrder,
  lot: {
    side: PositionSide;
    qty: bigint;
    price: bigint;
    margin: Micro;
    position: MutablePosition | undefined;
    nowMs: number;
  },
): void {
  desk.context.ledger.transfer({
    from: agentAccount(order.agentId),
    to: marginAccount(order.agentId),
    amountMicro: lot.margin,
    reason: 'trading.margin',
    reference: order.id,
  });
  const position = lot.position;
  if (position !== undefined) {
    position.entryPrice = combinedEntry(position.qty, position.entryPrice, lot.qty, lot.price);
    position.qty += lot.qty;
    position.openedQty += lot.qty;
    position.marginMicro += lot.margin;
    position.leverage = order.leverage;
    return;
  }
  desk.book.addPosition({
    id: desk.context.ids.next('pos_', 16),
    agentId: order.agentId,
    symbol: order.symbol,
    side: lot.side,
    qty: lot.qty,
    entryPrice: lot.price,
    marginMicro: lot.margin,
    leverage: order.leverage,
    status: 'open',
    openedAtMs: lot.nowMs,
    closedAtMs: null,
    fundingPaidMicro: 0n,
    realizedPnlMicro: 0n,
    liquidationMark: null,
    openedQty: lot.qty,
    exitPrice: null,
  });
  desk.armSoon(lot.nowMs);
}

export function chargeOrderFee(desk: TradingDesk, order: MutableOrder, fee: Micro): void {
  if (fee > 0n)
    desk.context.ledger.transfer({
      from: agentAccount(order.agentId),
      to: FEE_INCOME,
      amountMicro: fee,
      reason: 'trading.fee',
      reference: order.id,
    });
  order.feeMicro = fee;
}

/** Holds a resting limit order's funds (or base units); a Failure when it cannot. */
export function holdFunds(desk: TradingDesk, order: MutableOrder, market: Market): Failure | null {
  assert(order.limitPrice !== null, 'a resting order has a limit');
  const fee = feeFor(order.amountMicro, desk.config.makerFeeBps);
  if (market.kind === 'spot' && order.side === 'sell') {
    const holding = desk.book.holding(order.agentId, order.symbol);
    const qty = scaled(order.amountMicro, 10_000_000_000n, order.limitPrice, 'up');
    if (holding.qty - holding.reservedQty < qty)
      return fail('INSUFFICIENT_BALANCE', `holding of ${order.symbol} is too small for this sell`);
    holding.reservedQty += qty;
    order.holdQty = qty;
    return null;
  }
  const needed = (market.kind === 'spot' ? order.amountMicro : marginFor(order.amountMicro, order.leverage)) + fee;
  const balance = desk.context.ledger.balance(agentAccount(order.agentId));
  if (balance < needed) return insufficient(balance, needed);
  desk.context.ledger.transfer({
    from: agentAccount(order.agentId),
    to: tradingHoldAccount(order.agentId),
    amountMicro: needed,
    reason: 'trading.hold',
    reference: order.id,
  });
  order.holdMicro = needed;
  return null;
}

/** Returns a resting order's hold to the agent. */
export function releaseOrderHold(desk: TradingDesk, order: MutableOrder): void {
  if (order.holdMicro > 0n)
    desk.context.ledger.transfer({
      from: tradingHoldAccount(order.agentId),
      to: agentAccount(order.agentId),
      amountMicro: order.holdMicro,
      reason: 'trading.hold.release',
      reference: order.id,
    });
  if (order.holdQty > 0n) desk.book.holding(order.agentId, order.symbol).reservedQty -= order.holdQty;
  order.holdMicro = 0n;
  order.holdQty = 0n;
}

export function insufficient(balanceMicro: Micro, neededMicro: Micro): Failure {
  return fail(
    'INSUFFICIENT_BALANCE',
    `balance ${formatDecimal(balanceMicro < 0n ? 0n : balanceMicro)} is below the ${formatDecimal(neededMicro)} this order needs`,
  );
}
