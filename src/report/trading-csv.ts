/**
 * orders.csv and positions.csv: every trading order and every perpetual position of the run, for
 * runs that placed trading orders (`trading` in the RunRecord). Pure and byte-stable: orders by
 * creation instant then id, positions by opening instant then id (ids compared by code unit);
 * money as USDC with 6 decimals (column-format.ts), prices and quantities with 8 decimals,
 * instants as ISO 8601 UTC; empty cells where a figure does not exist (an open order's fill).
 */
import { stringify } from 'csv-stringify/sync';
import { isoTime } from '../http/render.ts';
import { formatPrice, formatQty } from '../services/trading/price-scale.ts';
import { usdcColumnText } from './column-format.ts';
import type { RunRecord, TradingOrderRow, TradingPositionRow } from './run-record.ts';

const ORDER_COLUMNS = [
  'order_id',
  'agent_id',
  'symbol',
  'market_type',
  'side',
  'type',
  'amount',
  'leverage',
  'limit_price',
  'status',
  'fill_price',
  'fill_qty',
  'fee',
  'liquidity',
  'realized_pnl',
  'created_at',
  'filled_at',
  'cancelled_at',
] as const;
const POSITION_COLUMNS = [
  'position_id',
  'agent_id',
  'symbol',
  'side',
  'status',
  'entry_price',
  'qty',
  'margin',
  'leverage',
  'funding_paid',
  'realized_pnl',
  'liquidation_mark',
  'opened_at',
  'closed_at',
] as const;

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const orNone = <T>(value: T | null, render: (value: T) => string): string => (value === null ? '' : render(value));

function csv(columns: readonly string[], rows: readonly (readonly string[])[]): string {
  return stringify(rows as string[][], { header: true, columns: [...columns], record_delimiter: '\n' });
}

function orderCells(order: TradingOrderRow): string[] {
  return [
    order.orderId,
    order.agentId,
    order.symbol,
    order.kind,
    order.side,
    order.type,
    usdcColumnText(order.amountMicro),
    String(order.leverage),
    orNone(order.limitPrice, formatPrice),
    order.status,
    orNone(order.fillPrice, formatPrice),
    orNone(order.fillQty, formatQty),
    usdcColumnText(order.feeMicro),
    order.liquidity ?? '',
    usdcColumnText(order.realizedPnlMicro),
    isoTime(order.createdAtMs),
    orNone(order.filledAtMs, isoTime),
    orNone(order.cancelledAtMs, isoTime),
  ];
}

function positionCells(position: TradingPositionRow): string[] {
  return [
    position.positionId,
    position.agentId,
    position.symbol,
    position.side,
    position.status,
    formatPrice(position.entryPrice),
    formatQty(position.qty),
    usdcColumnText(position.marginMicro),
    String(position.leverage),
    usdcColumnText(position.fundingPaidMicro),
    usdcColumnText(position.realizedPnlMicro),
    orNone(position.liquidationMark, formatPrice),
    isoTime(position.openedAtMs),
    orNone(position.closedAtMs, isoTime),
  ];
}

export function renderOrdersCsv(record: RunRecord): string {
  const sorted = [...(record.trading?.orders ?? [])].sort(
    (a, b) => a.createdAtMs - b.createdAtMs || compareText(a.orderId, b.orderId),
  );
  return csv(ORDER_COLUMNS, sorted.map(orderCells));
}

export function renderPositionsCsv(record: RunRecord): string {
  const sorted = [...(record.trading?.positions ?? [])].sort(
    (a, b) => a.openedAtMs - b.openedAtMs || compareText(a.positionId, b.positionId),
  );
  return csv(POSITION_COLUMNS, sorted.map(positionCells));
}
