/**
 * Invariant `trading-conservation`: the trading service's own books agree with the ledger, beyond
 * the platform-wide sum (conservation.ts, which counts every trading account too: margin, holds,
 * house, insurance). After every trading event, for the agent it names: its margin account holds
 * exactly the margins of its open positions, its hold account exactly the holds of its open
 * orders. Every virtual hour and at the end, for every agent, plus: the fees the orders record
 * equal the `trading.fee` transfers; the funding the positions record equals the net of the
 * `trading.funding` transfers; the money in the trading accounts equals what entered them minus
 * what left (tracked transfer by transfer); the house and insurance are never negative.
 */
import { agentAccount, type Transfer } from '../../../core/ledger.ts';
import type { Platform } from '../../../platform/platform.ts';
import {
  TRADING_HOUSE,
  TRADING_INSURANCE,
  tradingHoldAccount,
  marginAccount,
} from '../../../services/trading/trading-record.ts';
import { jsonText } from '../../json-text.ts';
import { eventViolation, type InvariantDefinition, type Violation } from '../checker.ts';

const MARGIN_PREFIX = marginAccount('');
const HOLD_PREFIX = tradingHoldAccount('');

function isTradingAccount(account: string): boolean {
  return (
    account === TRADING_HOUSE ||
    account === TRADING_INSURANCE ||
    account.startsWith(MARGIN_PREFIX) ||
    account.startsWith(HOLD_PREFIX)
  );
}

/** The first agent whose margin or hold account disagrees with the book, as a message (one pass over the open orders). */
function agentMismatch(platform: Platform, agentIds: Iterable<string>): string | null {
  const trading = platform.trading;
  const holds = new Map<string, bigint>();
  for (const order of trading.book.openOrderList())
    holds.set(order.agentId, (holds.get(order.agentId) ?? 0n) + order.holdMicro);
  for (const agentId of agentIds) {
    const margins = trading.book.openPositionsOf(agentId).reduce((sum, position) => sum + position.marginMicro, 0n);
    const margin = platform.ledger.balance(marginAccount(agentId));
    if (margin !== margins)
      return `${marginAccount(agentId)} holds ${margin} micro-USDC, its open positions' margins sum to ${margins}`;
    const held = platform.ledger.balance(tradingHoldAccount(agentId));
    const expected = holds.get(agentId) ?? 0n;
    if (held !== expected)
      return `${tradingHoldAccount(agentId)} holds ${held} micro-USDC, its open orders' holds sum to ${expected}`;
  }
  return null;
}

export const tradingConservation: InvariantDefinition = {
  name: 'trading-conservation',
  description:
    'margin and hold accounts match open positions and orders; fees and funding match their transfers; trading accounts only change by transfers',
  create({ platform }) {
    const ledger = platform.ledger;
    const config = platform.config.trading;
    let expectedInside = config.houseFundingMicro + config.insuranceFundingMicro;
    let feeTransfers = 0n;
    let fundingNet = 0n;
    const full = (atMs: number, when: string): Violation | null => {
      const violation = (message: string): Violation => ({ atMs, event: jsonText({ audit: when, atMs }), message });
      const mismatch = agentMismatch(
        platform,
        platform.agents.all().map((agent) => agent.id),
      );
      if (mismatch !== null) return violation(mismatch);
      let fees = 0n;
      for (const order of platform.trading.book.allOrders()) fees += order.feeMicro;
      if (fees !== feeTransfers)
        return violation(`orders record ${fees} micro-USDC of fees, trading.fee transfers moved ${feeTransfers}`);
      let funding = 0n;
      for (const position of platform.trading.book.allPositions()) funding += position.fundingPaidMicro;
      if (funding !== fundingNet)
        return violation(
          `positions record ${funding} micro-USDC of funding paid, trading.funding transfers net ${fundingNet}`,
        );
      let inside = 0n;
      for (const [account, balance] of ledger.accounts()) if (isTradingAccount(account)) inside += balance;
      if (inside !== expectedInside)
        return violation(`trading accounts hold ${inside} micro-USDC, transfers in and out say ${expectedInside}`);
      if (ledger.balance(TRADING_HOUSE) < 0n || ledger.balance(TRADING_INSURANCE) < 0n)
        return violation('the trading house or insurance is negative');
      return null;
    };
    return {
      onTransfer(transfer: Transfer) {
        const fromInside = isTradingAccount(transfer.from);
        const toInside = isTradingAccount(transfer.to);
        if (fromInside && !toInside) expectedInside -= transfer.amountMicro;
        if (toInside && !fromInside && transfer.reference !== 'genesis') expectedInside += transfer.amountMicro;
        if (transfer.reason === 'trading.fee') feeTransfers += transfer.amountMicro;
        if (transfer.reason === 'trading.funding')
          fundingNet += transfer.to === TRADING_HOUSE ? transfer.amountMicro : -transfer.amountMicro;
        return null;
      },
      onEvent(event) {
        if (!event.type.startsWith('trading.') || !('agentId' in event)) return null;
        const mismatch = agentMismatch(platform, [event.agentId]);
        if (mismatch === null && ledger.balance(agentAccount(event.agentId)) >= 0n) return null;
        return eventViolation(event, mismatch ?? `${agentAccount(event.agentId)} is negative after ${event.type}`);
      },
      onHour: (nowMs) => full(nowMs, 'hourly'),
      atEnd: (endMs) => full(endMs, 'end of run'),
    };
  },
};
