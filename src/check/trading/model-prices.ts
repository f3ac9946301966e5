/**
 * The check's price oracle: the mid, bid, ask and funding rate the target's seeded price process
 * gives a market at an instant. It is the service's own price code (PriceBook over price-path.ts),
 * the one piece of the trading service the model reads, and for prices only: fills, funding and
 * liquidation are the model's own arithmetic (model-positions.ts, model-funding.ts,
 * model-liquidation.ts, model-limit-book.ts). Why reuse it: a price is a pure function of
 * (seed, asset, tick, shocks) by design (docs/decisions/trading.md "Trading"), so a copy of its 13 octaves
 * would only repeat the code it checks against; what the check verifies is what the service does
 * with a price, not the price. The seed and shocks come from the in-process platform or from
 * GET /_afp/platform (`seed`, `trading_shocks`) of `afp serve`. The mid is the book's, with the
 * path's log from a PathCursor (path-cursor.ts: logPpmAt's log, tested equal at every tick), as
 * the model looks at every tick while a position is open.
 */
import { assert } from '../../core/assert.ts';
import { marketBySymbol, type Market } from '../../services/trading/market-catalogue.ts';
import { PathCursor } from '../../services/trading/path-cursor.ts';
import { PriceBook } from '../../services/trading/price-book.ts';
import type { TradingConfig } from '../../services/trading/trading-config.ts';
import type { PriceShock } from '../../services/trading/trading-record.ts';
import { TRADING_MARKETS, type PriceOracle } from './trading-state.ts';

export function priceOracle(options: {
  seed: string;
  config: TradingConfig;
  shocks: readonly PriceShock[];
}): PriceOracle {
  const book = new PriceBook({ seed: options.seed, config: options.config, shocks: options.shocks });
  const markets: Market[] = TRADING_MARKETS.map((market) => {
    const listed = marketBySymbol(market.symbol);
    assert(listed !== undefined, `the check trades listed markets (${market.symbol})`);
    return listed;
  });
  const marketOf = (index: number): Market => {
    const market = markets[index];
    assert(market !== undefined, `market index ${index} is a check market`);
    return market;
  };
  // The model looks at every tick while a position is open: a cursor per market (path-cursor.ts)
  // steps the path at the cost of the knots that change, the same log as the book's own mid.
  // The latest tick's mid per market is kept, as the book does: every open position asks for it.
  const cursors = markets.map((market) => new PathCursor(book.seedHash, market));
  const latest = markets.map(() => ({ tick: -1, mid: 0n }));
  const mid = (market: number, atMs: number): bigint => {
    const tick = book.tickOf(atMs);
    const cursor = cursors[market];
    const remembered = latest[market];
    assert(cursor !== undefined && remembered !== undefined, `market index ${market} is a check market`);
    if (remembered.tick !== tick) {
      remembered.mid = book.midOfLog(marketOf(market), cursor.at(tick), tick);
      remembered.tick = tick;
    }
    return remembered.mid;
  };
  return {
    mid,
    // The book's bid and ask around the mid above: book.quote would also look 24 hours back for
    // its change, which sends the book's own cursor back and forth at every tick (all 13 octaves'
    // knots hashed twice: 60% of the path's cost in a check with open orders).
    quote: (market, atMs) => {
      const at = mid(market, atMs);
      return { ...book.bidAsk(marketOf(market), at), mid: at };
    },
    fundingRatePpm: (market, atMs) => book.fundingRatePpm(marketOf(market), atMs),
  };
}
