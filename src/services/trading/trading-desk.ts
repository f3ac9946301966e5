/**
 * What the trading service hands the code that moves an order's or a position's money: its
 * context (ledger, ids, events, defects), its settings, its books and its risk limits, and the
 * one thing such a move may ask of the service's clock — a tick soon, once something is open.
 * Why a file of its own: the fills (order-fills.ts), closes (position-close.ts) and settlement (position-settlement.ts)
 * work on the service's state without being its methods; this names exactly what they may touch.
 */
import type { ServiceContext } from '../shared/context.ts';
import type { TriggerBook } from './position-triggers.ts';
import type { PriceBook } from './price-book.ts';
import type { RiskBook } from './risk-settings.ts';
import type { TradingBook } from './trading-book.ts';
import type { TradingConfig } from './trading-config.ts';

export interface TradingDesk {
  readonly context: ServiceContext;
  readonly config: TradingConfig;
  readonly book: TradingBook;
  readonly triggers: TriggerBook;
  readonly risk: RiskBook;
  readonly prices: PriceBook;
  /** After a fill opened something: the tick at the next boundary, and funding (TradingService). */
  armSoon(nowMs: number): void;
}
