/**
 * The trading service's rules as data (STYLE rule 7: defaults in one place). Spec values:
 * maker fee 0.1%, leverage 1 to 10, maintenance 0.5%, funding every 8 hours, referral 20% of
 * fees, list limit up to 100. afp's choices where the spec is silent (docs/decisions/trading.md,
 * "Trading"): taker fee 0.2%, one-minute price ticks, order size 1 to 1,000,000 USDC, at most 50
 * open limit orders per agent, house and insurance funded at genesis, weekend closure of
 * stock and index markets off by default.
 */
import { usdc, type Micro } from '../../core/money.ts';

export interface TradingConfig {
  readonly makerFeeBps: bigint;
  readonly takerFeeBps: bigint;
  readonly referralShareBps: bigint;
  readonly leverageMax: number;
  /** Maintenance margin in basis points of the entry price (0.5%). */
  readonly maintenanceBps: bigint;
  /** Prices move, limit orders fill and liquidations run at multiples of this (UTC-aligned). */
  readonly tickMs: number;
  /** Funding is applied at multiples of this since the epoch: 00, 08 and 16 UTC. */
  readonly fundingPeriodMs: number;
  readonly orderMinMicro: Micro;
  readonly orderMaxMicro: Micro;
  readonly openOrdersPerAgentMax: number;
  readonly listLimitDefault: number;
  readonly listLimitMax: number;
  /** The counterparty of every trade, funded from `external` at genesis. */
  readonly houseFundingMicro: Micro;
  /** Pays the part of a liquidated loss the margin does not cover; funded at genesis. */
  readonly insuranceFundingMicro: Micro;
  /** Stock and index perpetuals refuse orders from Saturday 00:00 to Monday 00:00 UTC. */
  readonly weekendClosure: boolean;
}

export const DEFAULT_TRADING_CONFIG: TradingConfig = {
  makerFeeBps: 10n,
  takerFeeBps: 20n,
  referralShareBps: 2000n,
  leverageMax: 10,
  maintenanceBps: 50n,
  tickMs: 60_000,
  fundingPeriodMs: 8 * 3_600_000,
  orderMinMicro: usdc(1),
  orderMaxMicro: usdc(1_000_000),
  openOrdersPerAgentMax: 50,
  listLimitDefault: 20,
  listLimitMax: 100,
  houseFundingMicro: usdc(1_000_000_000),
  insuranceFundingMicro: usdc(10_000_000),
  weekendClosure: false,
};
