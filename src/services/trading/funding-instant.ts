/**
 * Funding at one instant, as the 'trading.funding' timer applies it (trading.ts; afp's rules in
 * docs/decisions/trading.md): the period that ends at the instant, at that period's quoted rate on
 * the notional at the mark. Payers (longs when the rate is positive) pay from their margin (at
 * most all of it, rounded up), receivers are paid into it (rounded down); each position's payment
 * is a transfer and a `trading.funding` event; then a position whose margin can no longer carry it
 * is liquidated. funding-spans.ts applies many instants at once with the same outcome.
 */
import type { ServiceContext } from '../shared/context.ts';
import { marketBySymbol } from './market-catalogue.ts';
import type { PriceBook } from './price-book.ts';
import { notionalMicro, scaled } from './price-scale.ts';
import type { MutablePosition } from './trading-book.ts';
import { TRADING_HOUSE, marginAccount } from './trading-record.ts';
import { assert } from '../../core/assert.ts';

export function fundInstant(
  work: {
    readonly context: ServiceContext;
    readonly prices: PriceBook;
    readonly positions: readonly MutablePosition[];
    readonly liquidateIfCrossed: (position: MutablePosition, atMs: number) => void;
  },
  atMs: number,
): void {
  const { ledger } = work.context;
  for (const position of work.positions) {
    const market = marketBySymbol(position.symbol);
    assert(market !== undefined, 'a position names a listed market');
    const rate = work.prices.fundingRatePpm(market, atMs - 1);
    const mark = work.prices.mid(market, atMs);
    const notional = notionalMicro(position.qty, mark, 'down');
    const pays = (rate > 0 && position.side === 'long') || (rate < 0 && position.side === 'short');
    const ratePpm = BigInt(Math.abs(rate));
    const account = marginAccount(position.agentId);
    let paymentMicro = 0n;
    if (pays) {
      const owed = scaled(notional, ratePpm, 1_000_000n, 'up');
      paymentMicro = owed < position.marginMicro ? owed : position.marginMicro;
      if (paymentMicro > 0n)
        ledger.transfer({
          from: account,
          to: TRADING_HOUSE,
          amountMicro: paymentMicro,
          reason: 'trading.funding',
          reference: position.id,
        });
      position.marginMicro -= paymentMicro;
      position.fundingPaidMicro += paymentMicro;
    } else if (rate !== 0) {
      const earned = scaled(notional, ratePpm, 1_000_000n, 'down');
      if (earned > 0n)
        ledger.transfer({
          from: TRADING_HOUSE,
          to: account,
          amountMicro: earned,
          reason: 'trading.funding',
          reference: position.id,
        });
      position.marginMicro += earned;
      position.fundingPaidMicro -= earned;
      paymentMicro = -earned;
    }
    work.context.emit({
      type: 'trading.funding',
      atMs,
      positionId: position.id,
      agentId: position.agentId,
      symbol: position.symbol,
      ratePpm: rate,
      paymentMicro,
    });
    work.liquidateIfCrossed(position, atMs);
  }
}
