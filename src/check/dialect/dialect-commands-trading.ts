/**
 * The trading commands of `afp check --target` beyond the market order (dialect-commands-services.ts
 * holds those): the price, an order that names no leverage, limit orders (one left resting and
 * cancelled, one that crosses at once) and the positions list, each predicted from the same
 * trading model (dialect-model-services.ts) and compared.
 *   - price: a positive number; read just after an open, and when its timestamp is the open's own
 *     instant (a manual clock nothing moved since) the open's entry is judged against it
 *     (documented-rules.ts `trading.entry.price`: the documents fill at the taker quote, the
 *     deployment at its price); on a moving clock the two instants differ and nothing is judged;
 *   - leverage default: the leverage the answer shows is judged (`trading.leverage.default`), and
 *     the margin must be size / that leverage;
 *   - a resting limit (a long at half the price, a short at twice it) is listed with its limit,
 *     its cancel answers the cancelled order, then it is no longer listed and the free balance is
 *     exactly what it was before the order (nothing stays held);
 *   - a crossing limit fills at or below its limit (a long) or at or above it (a short), at once
 *     (afp) or at the next poll (the deployment polls every 30 s: a still-pending one is cancelled);
 *     its position joins the model with margin size / leverage and the fee its answer shows;
 *   - the positions list shows every position of the model with its market and margin.
 * Why one command per round trip: a resting order's hold is the target's to compute; bracketing it
 * between two exact balances keeps the model exact without predicting it.
 */
import fc from 'fast-check';
import { formatDecimal, type Micro } from '../../core/money.ts';
import type { LimitOrderView } from '../../live.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import { accepted, judged, type DialectCommandRow } from './dialect-commands.ts';
import type { DialectSystem } from './dialect-model.ts';
import { serviceCommand } from './service-command.ts';
import { POSITIONS_MAX, type DialectTradingModel } from './dialect-model-services.ts';

const USDC = 1_000_000n;
const MARKETS = ['BTC-PERP', 'ETH-PERP', 'SOL-PERP'] as const;
/** A taker fee above this share of the size (1%) is not a fee any rule names: the room a command keeps. */
const FEE_ROOM_DIVISOR = 100n;
/** How far off the price a taker quote may lie and still read as one (half of 1%). */
const SPREAD_MAX = 0.005;

const text = (micro: Micro): string => formatDecimal(micro);
const side = fc.constantFrom<'long' | 'short'>('long', 'short');
const size = fc.constantFrom(2n * USDC, 4n * USDC, 5n * USDC);

function free(trading: Readonly<DialectTradingModel>, market: string): boolean {
  return trading.positions.length < POSITIONS_MAX && !trading.positions.some((position) => position.symbol === market);
}

/** A price 6 significant digits wide (what any venue takes as a limit). */
const rounded = (price: number): number => Number(price.toPrecision(6));

async function priceOf(
  system: DialectSystem,
  label: string,
  market: string,
): Promise<{ price: number; timestampMs: number | null }> {
  const { value } = await accepted(system, `${label}: price`, 'trading.price', { symbol: market }, null);
  if (!Number.isFinite(value.price) || value.price <= 0)
    throw new CheckMismatch(`${label}: price ${value.price}, expected a positive number`);
  return value;
}

/** How an entry reads against the price of the same instant: the rule's text. */
function entryText(entry: number, price: number, sideOf: 'long' | 'short'): string {
  if (entry === price) return 'the price';
  const worse = sideOf === 'long' ? entry > price : entry < price;
  return worse && Math.abs(entry - price) <= price * SPREAD_MAX
    ? 'the taker quote'
    : `${entry} against a price of ${price}`;
}

async function readBalance(system: DialectSystem, label: string, trading: DialectTradingModel): Promise<Micro> {
  const { value } = await accepted(system, label, 'trading.balance', {}, trading.account.apiKey);
  return value.balanceMicro;
}

const priceCommand = fc.constantFrom(...MARKETS).map((market) => {
  const label = `tradePrice(${market})`;
  return serviceCommand(
    'trading',
    label,
    () => true,
    async (_trading, system) => {
      await priceOf(system, label, market);
    },
  );
});

const openDefaultCommand = fc
  .record({ market: fc.constantFrom(...MARKETS), side, sizeMicro: size })
  .map(({ market, side: sideOf, sizeMicro }) => {
    const label = `tradeOpenDefaultLeverage(${market} ${sideOf} ${text(sizeMicro)})`;
    return serviceCommand(
      'trading',
      label,
      (trading) => free(trading, market) && trading.account.balanceMicro >= sizeMicro + sizeMicro / FEE_ROOM_DIVISOR,
      async (trading, system) => {
        const { value, request } = await accepted(
          system,
          label,
          'trading.order',
          { symbol: market, side: sideOf, sizeMicro, leverage: null },
          trading.account.apiKey,
        );
        const after = await priceOf(system, label, market);
        if (value.positionId === null || value.positionId === undefined)
          throw new CheckMismatch(`${label}: the answer names no position to close`);
        const leverage = value.leverage ?? null;
        if (leverage === null || !Number.isSafeInteger(leverage) || leverage < 1)
          throw new CheckMismatch(
            `${label}: the answer shows leverage ${String(leverage)}, expected a whole number of at least 1`,
          );
        judged(system, label, 'trading.leverage.default', 'trading.order', String(leverage), request);
        const marginMicro = sizeMicro / BigInt(leverage);
        if (value.marginMicro !== null && value.marginMicro !== undefined && value.marginMicro !== marginMicro)
          throw new CheckMismatch(
            `${label}: margin ${text(value.marginMicro)}, expected size / leverage ${leverage} = ${text(marginMicro)}`,
          );
        const entry = value.entryPrice ?? null;
        // Only a price read at the open's own instant (a manual clock nothing moved since) is the one the entry met.
        if (entry !== null && after.timestampMs !== null && after.timestampMs === (value.openedAtMs ?? null)) {
          judged(system, label, 'trading.entry.price', 'trading.order', entryText(entry, after.price, sideOf), request);
        }
        if (value.feeMicro === null) trading.account.unsure = true;
        trading.account.balanceMicro -= marginMicro + (value.feeMicro ?? 0n);
        trading.positions.push({ id: value.positionId, symbol: market, marginMicro });
      },
    );
  });

function listed(orders: readonly LimitOrderView[], orderId: string): LimitOrderView | undefined {
  return orders.find((order) => order.orderId === orderId);
}

const restingLimitCommand = fc
  .record({ market: fc.constantFrom(...MARKETS), side, sizeMicro: size })
  .map(({ market, side: sideOf, sizeMicro }) => {
    const label = `tradeLimitCancel(${market} ${sideOf} ${text(sizeMicro)} ×2, resting)`;
    const leverage = 2;
    return serviceCommand(
      'trading',
      label,
      (trading) => free(trading, market) && trading.account.balanceMicro >= sizeMicro + sizeMicro / FEE_ROOM_DIVISOR,
      async (trading, system) => {
        const balance = await readBalance(system, `${label}: balance before`, trading);
        if (!trading.account.unsure && balance !== trading.account.balanceMicro)
          throw new CheckMismatch(
            `${label}: balance before ${text(balance)}, expected ${text(trading.account.balanceMicro)}`,
          );
        trading.account.balanceMicro = balance;
        trading.account.unsure = false;
        const { price } = await priceOf(system, label, market);
        const limitPrice = rounded(sideOf === 'long' ? price / 2 : price * 2);
        const placed = await accepted(
          system,
          `${label}: place at ${limitPrice}`,
          'trading.limit',
          { symbol: market, side: sideOf, sizeMicro, limitPrice, leverage },
          trading.account.apiKey,
        );
        const order = placed.value;
        if (order.status !== null)
          judged(system, label, 'trading.limit.status', 'trading.limit', order.status, placed.request);
        if (order.limitPrice !== null && order.limitPrice !== limitPrice)
          throw new CheckMismatch(`${label}: limit ${order.limitPrice}, sent ${limitPrice}`);
        const pending = listed(
          (await accepted(system, `${label}: list`, 'trading.orders', {}, trading.account.apiKey)).value.orders,
          order.orderId,
        );
        if (pending === undefined)
          throw new CheckMismatch(`${label}: the resting order ${order.orderId} is not listed`);
        if (pending.limitPrice !== null && pending.limitPrice !== limitPrice)
          throw new CheckMismatch(`${label}: listed at ${pending.limitPrice}, placed at ${limitPrice}`);
        const cancelled = await accepted(
          system,
          `${label}: cancel`,
          'trading.cancel',
          { orderId: order.orderId },
          trading.account.apiKey,
        );
        if (cancelled.value.orderId !== order.orderId)
          throw new CheckMismatch(
            `${label}: the cancel answered order ${cancelled.value.orderId}, asked ${order.orderId}`,
          );
        if (cancelled.value.status !== null)
          judged(system, label, 'trading.cancel.status', 'trading.cancel', cancelled.value.status, cancelled.request);
        if (
          listed(
            (await accepted(system, `${label}: list after the cancel`, 'trading.orders', {}, trading.account.apiKey))
              .value.orders,
            order.orderId,
          ) !== undefined
        ) {
          throw new CheckMismatch(`${label}: the cancelled order ${order.orderId} is still listed`);
        }
        const after = await readBalance(system, `${label}: balance after`, trading);
        if (after !== balance)
          throw new CheckMismatch(
            `${label}: free balance ${text(after)} after the cancel, expected ${text(balance)} as before the order (nothing stays held)`,
          );
      },
    );
  });

const crossingLimitCommand = fc
  .record({ market: fc.constantFrom(...MARKETS), side, sizeMicro: size })
  .map(({ market, side: sideOf, sizeMicro }) => {
    const label = `tradeLimitFill(${market} ${sideOf} ${text(sizeMicro)} ×2, crossing)`;
    const leverage = 2;
    const marginMicro = sizeMicro / BigInt(leverage);
    return serviceCommand(
      'trading',
      label,
      (trading) => free(trading, market) && trading.account.balanceMicro >= marginMicro + sizeMicro / FEE_ROOM_DIVISOR,
      async (trading, system) => {
        const { price } = await priceOf(system, label, market);
        // 2% through the price: any quote of the same instant crosses it.
        const limitPrice = rounded(sideOf === 'long' ? price * 1.02 : price * 0.98);
        const { value: order } = await accepted(
          system,
          `${label}: place at ${limitPrice}`,
          'trading.limit',
          { symbol: market, side: sideOf, sizeMicro, limitPrice, leverage },
          trading.account.apiKey,
        );
        if (order.fillPrice === null) {
          // Not filled yet (a target that polls): cancelled; a cancel refused means it filled meanwhile, at a price and fee unseen.
          const cancel = await system.session.call(
            'trading.cancel',
            { orderId: order.orderId },
            trading.account.apiKey,
          );
          if (cancel.kind === 'ok') return;
          trading.account.unsure = true;
        } else if (sideOf === 'long' ? order.fillPrice > limitPrice : order.fillPrice < limitPrice) {
          throw new CheckMismatch(
            `${label}: filled at ${order.fillPrice}, beyond the limit ${limitPrice} (a ${sideOf} fills at or ${sideOf === 'long' ? 'below' : 'above'} it)`,
          );
        }
        const { value } = await accepted(
          system,
          `${label}: positions`,
          'trading.positions',
          {},
          trading.account.apiKey,
        );
        const position = value.positions.find((one) => one.symbol === market);
        if (position === undefined)
          throw new CheckMismatch(`${label}: the filled order left no ${market} position in the list`);
        if (position.marginMicro !== null && position.marginMicro !== marginMicro)
          throw new CheckMismatch(
            `${label}: the position holds margin ${text(position.marginMicro)}, expected size / leverage = ${text(marginMicro)}`,
          );
        if (order.feeMicro === null) trading.account.unsure = true;
        trading.account.balanceMicro -= marginMicro + (order.fillPrice === null ? 0n : (order.feeMicro ?? 0n));
        trading.positions.push({ id: position.positionId, symbol: market, marginMicro });
      },
    );
  });

const positionsCommand = fc.constant(
  serviceCommand(
    'trading',
    'tradePositions()',
    () => true,
    async (trading, system) => {
      const { value } = await accepted(system, 'tradePositions()', 'trading.positions', {}, trading.account.apiKey);
      for (const expected of trading.positions) {
        const shown = value.positions.find((position) => position.positionId === expected.id);
        if (shown === undefined)
          throw new CheckMismatch(
            `tradePositions(): the open position ${expected.id} (${expected.symbol}) is not listed`,
          );
        if (shown.symbol !== null && shown.symbol !== expected.symbol)
          throw new CheckMismatch(
            `tradePositions(): ${expected.id} listed on ${shown.symbol}, opened on ${expected.symbol}`,
          );
        if (shown.marginMicro !== null && shown.marginMicro !== expected.marginMicro)
          throw new CheckMismatch(
            `tradePositions(): ${expected.id} holds margin ${text(shown.marginMicro)}, expected ${text(expected.marginMicro)}`,
          );
      }
      // Positions an earlier run could not close hold the base margin; without any, the list is the model's.
      if (trading.baseMarginMicro === 0n && value.positions.length !== trading.positions.length) {
        throw new CheckMismatch(
          `tradePositions(): ${value.positions.length} positions listed, expected ${trading.positions.length} (${trading.positions.map((position) => position.id).join(', ') || 'none'})`,
        );
      }
    },
  ),
);

export const TRADING_ORDER_COMMANDS: readonly DialectCommandRow[] = [
  {
    name: 'tradePrice',
    operations: ['trading.price'],
    accounts: 0,
    service: 'trading',
    weight: 1,
    arbitrary: priceCommand,
  },
  {
    name: 'tradeOpenDefaultLeverage',
    operations: ['trading.order', 'trading.price'],
    accounts: 0,
    service: 'trading',
    weight: 2,
    arbitrary: openDefaultCommand,
  },
  {
    name: 'tradeLimitCancel',
    operations: ['trading.limit', 'trading.orders', 'trading.cancel', 'trading.balance', 'trading.price'],
    accounts: 0,
    service: 'trading',
    weight: 2,
    arbitrary: restingLimitCommand,
  },
  {
    name: 'tradeLimitFill',
    operations: ['trading.limit', 'trading.cancel', 'trading.positions', 'trading.price'],
    accounts: 0,
    service: 'trading',
    weight: 2,
    arbitrary: crossingLimitCommand,
  },
  {
    name: 'tradePositions',
    operations: ['trading.positions'],
    accounts: 0,
    service: 'trading',
    weight: 2,
    arbitrary: positionsCommand,
  },
];
