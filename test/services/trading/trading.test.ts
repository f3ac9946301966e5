// TradingService: spot and perpetual fills with exact fees, margins and PnL; limit orders resting
// with a hold and filling at their limit when the quote crosses; cancel rules; bad input and
// MARKET_CLOSED changing nothing; liquidation by a price shock with the shortfall from insurance;
// funding at exactly 00/08/16 UTC; referral 20% of fees; and a property test over random order
// sequences keeping every money invariant.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FEE_INCOME, agentAccount, referralAccount } from '../../../src/core/ledger.ts';
import { basisPoints, usdc } from '../../../src/core/money.ts';
import { marketBySymbol } from '../../../src/services/trading/market-catalogue.ts';
import { notionalMicro, qtyFor } from '../../../src/services/trading/price-scale.ts';
import {
  TRADING_HOUSE,
  TRADING_INSURANCE,
  marginAccount,
  tradingHoldAccount,
} from '../../../src/services/trading/trading-record.ts';
import { HOUR, MINUTE, START, failed, ok, tradingWorld } from './trading-world.ts';

const BTC = marketBySymbol('BTC-PERP');
const BTC_SPOT = marketBySymbol('BTC-USDC');
if (BTC === undefined || BTC_SPOT === undefined) throw new Error('catalogue lists BTC');

describe('spot orders', () => {
  test('a market buy pays amount and the 0.2% taker fee, holds the base; 20% of the fee goes to the referrer', () => {
    const world = tradingWorld();
    const before = world.balance(agentAccount('alice'));
    const order = ok(world.order({ symbol: 'BTC-USDC', amountMicro: usdc(1000) }));
    const quote = world.platform.trading.quote(BTC_SPOT, world.nowMs);
    expect(order.status).toBe('filled');
    expect(order.fillPrice).toBe(quote.ask);
    expect(order.feeMicro).toBe(usdc(2));
    expect(order.fillQty).toBe(qtyFor(usdc(1000), quote.ask));
    expect(world.balance(agentAccount('alice'))).toBe(before - usdc(1002));
    expect(world.balance(referralAccount('rita'))).toBe(basisPoints(usdc(2), 2000n, 'down'));
    expect(world.balance(FEE_INCOME)).toBe(usdc(2) - basisPoints(usdc(2), 2000n, 'down'));
    expect(world.platform.trading.book.holdingsOf('alice')[0]?.qty).toBe(order.fillQty);
    world.checkMoney();
  });

  test('a sell needs the base: without a holding it is refused (422) and nothing moves', () => {
    const world = tradingWorld();
    const accounts = new Map(world.platform.ledger.accounts());
    expect(failed(world.order({ symbol: 'BTC-USDC', side: 'sell' })).code).toBe('INSUFFICIENT_BALANCE');
    expect(new Map(world.platform.ledger.accounts())).toEqual(accounts);
    ok(world.order({ symbol: 'BTC-USDC', amountMicro: usdc(500) }));
    const sold = ok(world.order({ symbol: 'BTC-USDC', side: 'sell', amountMicro: usdc(200) }));
    expect(sold.status).toBe('filled');
    world.checkMoney();
  });

  test('a buy beyond the balance is refused with 422', () => {
    const world = tradingWorld({}, { alice: usdc(50) });
    expect(failed(world.order({ symbol: 'ETH-USDC', amountMicro: usdc(50) })).code).toBe('INSUFFICIENT_BALANCE');
    expect(world.platform.trading.book.orderCount).toBe(0);
  });
});

describe('perpetual orders', () => {
  test('a 5x long moves amount/5 to margin plus the taker fee; closing settles the PnL with the house', () => {
    const world = tradingWorld();
    const open = ok(world.order({ amountMicro: usdc(1000), leverage: 5 }));
    expect(world.balance(marginAccount('alice'))).toBe(usdc(200));
    expect(world.balance(agentAccount('alice'))).toBe(usdc(10_000) - usdc(200) - usdc(2));
    const position = world.platform.trading.book.openPosition('alice', 'BTC-PERP');
    expect(position?.side).toBe('long');
    expect(position?.entryPrice).toBe(open.fillPrice);
    const view = world.platform.trading.view(position!, world.nowMs);
    // Spec formula: entry × (1 − 1/leverage + 0.5%), within one part per million (qty rounds down).
    const expectedLiq = open.fillPrice! - (open.fillPrice! * 20n) / 100n + (open.fillPrice! * 50n) / 10_000n;
    const gap = view.liquidationPrice - expectedLiq;
    expect(gap < 0n ? -gap : gap).toBeLessThanOrEqual(expectedLiq / 1_000_000n);
    const laterMs = world.at(START + 6 * HOUR);
    const closing = ok(
      world.order(
        {
          side: 'sell',
          amountMicro: notionalMicro(position!.qty, world.platform.trading.quote(BTC, laterMs).bid, 'up'),
        },
        laterMs,
      ),
    );
    expect(closing.status).toBe('filled');
    expect(world.platform.trading.book.openPosition('alice', 'BTC-PERP')).toBeUndefined();
    expect(world.balance(marginAccount('alice'))).toBe(0n);
    expect(position?.status).toBe('closed');
    expect(closing.realizedPnlMicro).toBe(position!.realizedPnlMicro);
    world.checkMoney();
  });

  test('an opposite order larger than the position flips it', () => {
    const world = tradingWorld();
    ok(world.order({ amountMicro: usdc(100), leverage: 2 }));
    ok(world.order({ side: 'sell', amountMicro: usdc(300), leverage: 3 }));
    const position = world.platform.trading.book.openPosition('alice', 'BTC-PERP');
    expect(position?.side).toBe('short');
    expect(position?.leverage).toBe(3);
    world.checkMoney();
  });

  test('bad input: leverage outside 1..10, a limit without price, a market order with one, unknown market, amounts out of range', () => {
    const world = tradingWorld();
    for (const leverage of [0, 11, 2.5]) expect(failed(world.order({ leverage })).code).toBe('BAD_REQUEST');
    expect(failed(world.order({ type: 'limit' })).code).toBe('BAD_REQUEST');
    expect(failed(world.order({ limitPrice: 100n })).code).toBe('BAD_REQUEST');
    expect(failed(world.order({ symbol: 'NOPE-PERP' })).code).toBe('BAD_REQUEST');
    expect(failed(world.order({ symbol: 'BTC-USDC', leverage: 2 })).code).toBe('BAD_REQUEST');
    expect(failed(world.order({ amountMicro: 999_999n })).code).toBe('BAD_REQUEST');
    expect(failed(world.order({ amountMicro: usdc(1_000_001) })).code).toBe('BAD_REQUEST');
    expect(world.platform.trading.book.orderCount).toBe(0);
    world.checkMoney();
  });

  test('a closed market refuses orders with MARKET_CLOSED and only inside its window', () => {
    const world = tradingWorld({
      trading: { closures: [{ symbol: 'ETH-PERP', fromMs: START + HOUR, untilMs: START + 2 * HOUR }] },
    });
    expect(failed(world.order({ symbol: 'ETH-PERP' }, START + HOUR)).code).toBe('MARKET_CLOSED');
    ok(world.order({ symbol: 'BTC-PERP' }, START + HOUR + 1));
    ok(world.order({ symbol: 'ETH-PERP' }, START + 2 * HOUR));
  });
});

describe('limit orders', () => {
  test('a resting buy holds margin + maker fee and fills at its limit when the ask crosses', () => {
    const world = tradingWorld();
    const trading = world.platform.trading;
    const mid = trading.quote(BTC, START).mid;
    // Find a limit the path crosses within two days.
    let limit = 0n;
    for (let tick = 1; tick < 2 * 1440 && limit === 0n; tick++) {
      const quote = trading.quote(BTC, START + tick * MINUTE);
      if (quote.ask < (mid * 99n) / 100n) limit = (mid * 99n) / 100n;
    }
    expect(limit).toBeGreaterThan(0n);
    const order = ok(
      world.order({ type: 'limit', limitPrice: limit, amountMicro: usdc(1000), leverage: 4 }, START + 1000),
    );
    expect(order.status).toBe('open');
    expect(world.balance(tradingHoldAccount('alice'))).toBe(usdc(250) + usdc(1));
    world.at(START + 2 * 1440 * MINUTE);
    expect(order.status).toBe('filled');
    expect(order.fillPrice).toBe(limit);
    expect(order.liquidity).toBe('maker');
    expect(order.feeMicro).toBe(usdc(1));
    expect(world.balance(tradingHoldAccount('alice'))).toBe(0n);
    expect(world.events.some((event) => event.type === 'trading.filled' && event.orderId === order.id)).toBe(true);
    world.checkMoney();
  });

  test('cancel returns the cancelled order and the hold; twice is 409, another agent 403, unknown 404', () => {
    const world = tradingWorld();
    const mid = world.platform.trading.quote(BTC, START).mid;
    const order = ok(world.order({ type: 'limit', limitPrice: mid / 2n, amountMicro: usdc(100) }));
    const balance = world.balance(agentAccount('alice'));
    expect(failed(world.platform.trading.cancel({ agentId: 'bob', orderId: order.id }, world.nowMs)).code).toBe(
      'FORBIDDEN',
    );
    expect(failed(world.platform.trading.cancel({ agentId: 'alice', orderId: 'ord_missing' }, world.nowMs)).code).toBe(
      'NOT_FOUND',
    );
    const cancelled = ok(world.platform.trading.cancel({ agentId: 'alice', orderId: order.id }, world.nowMs));
    expect(cancelled.status).toBe('cancelled');
    expect(world.balance(agentAccount('alice'))).toBe(balance + usdc(100) + basisPoints(usdc(100), 10n, 'up'));
    expect(failed(world.platform.trading.cancel({ agentId: 'alice', orderId: order.id }, world.nowMs)).code).toBe(
      'CONFLICT',
    );
    world.checkMoney();
  });

  test('lists newest first with status and market filters and a limit', () => {
    const world = tradingWorld();
    const mid = world.platform.trading.quote(BTC, START).mid;
    const first = ok(world.order({}));
    const resting = ok(world.order({ type: 'limit', limitPrice: mid / 2n }));
    const eth = ok(world.order({ symbol: 'ETH-PERP' }));
    const list = (status: 'open' | 'filled' | null, symbol: string | null, limit = 20): string[] =>
      ok(
        world.platform.trading.list({ agentId: 'alice', status, symbols: symbol === null ? null : [symbol], limit }),
      ).map((order) => order.id);
    expect(list(null, null)).toEqual([eth.id, resting.id, first.id]);
    expect(list('open', null)).toEqual([resting.id]);
    expect(list('filled', 'BTC-PERP')).toEqual([first.id]);
    expect(list(null, null, 1)).toEqual([eth.id]);
    expect(
      failed(world.platform.trading.list({ agentId: 'alice', status: null, symbols: null, limit: 101 })).code,
    ).toBe('BAD_REQUEST');
  });
});

describe('liquidation and funding', () => {
  test('a -30% shock liquidates a 10x long at the next tick: margin forfeited, shortfall paid by insurance, balance untouched', () => {
    const shockMs = START + 2 * HOUR + 30 * 1000;
    const world = tradingWorld({ trading: { shocks: [{ base: 'BTC', atMs: shockMs, moveBps: -3000 }] } });
    ok(world.order({ amountMicro: usdc(5000), leverage: 10 }, START + HOUR));
    const balance = world.balance(agentAccount('alice'));
    const insurance = world.balance(TRADING_INSURANCE);
    world.at(START + 2 * HOUR + MINUTE - 1);
    expect(world.platform.trading.book.openPositionCount).toBe(1);
    world.at(START + 2 * HOUR + MINUTE);
    const liquidated = world.events.find((event) => event.type === 'trading.liquidated');
    expect(liquidated?.atMs).toBe(START + 2 * HOUR + MINUTE);
    expect(world.platform.trading.book.openPositionCount).toBe(0);
    expect(world.balance(agentAccount('alice'))).toBe(balance);
    expect(world.balance(marginAccount('alice'))).toBe(0n);
    expect(liquidated?.type === 'trading.liquidated' && liquidated.shortfallMicro > 0n).toBe(true);
    expect(world.balance(TRADING_INSURANCE)).toBeLessThan(insurance);
    world.checkMoney();
  });

  test('funding runs at exactly 00, 08 and 16 UTC while a position is open, and stops after', () => {
    const world = tradingWorld();
    ok(world.order({ amountMicro: usdc(1000), leverage: 2 }, START + 5 * HOUR));
    world.at(START + 30 * HOUR);
    const instants = world.events.filter((event) => event.type === 'trading.funding').map((event) => event.atMs);
    expect(instants).toEqual([START + 8 * HOUR, START + 16 * HOUR, START + 24 * HOUR]);
    const position = world.platform.trading.book.openPosition('alice', 'BTC-PERP')!;
    expect(position.fundingPaidMicro).not.toBe(0n);
    world.checkMoney();
  });

  test('no trading, no trading timers', () => {
    const world = tradingWorld();
    world.at(START + 3 * 24 * HOUR);
    expect(world.events.filter((event) => event.type.startsWith('trading.'))).toEqual([]);
    expect(world.balance(TRADING_HOUSE)).toBe(world.platform.config.trading.houseFundingMicro);
  });
});

describe('property: money invariants over random order sequences', () => {
  const SYMBOLS = ['BTC-PERP', 'ETH-PERP', 'kPEPE-PERP', 'GOLD-PERP', 'BTC-USDC', 'SOL-USDC'] as const;
  const step = fc.record({
    agent: fc.constantFrom('alice', 'bob'),
    symbol: fc.constantFrom(...SYMBOLS),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    limitOffsetBps: fc.option(fc.integer({ min: -300, max: 300 }), { nil: null }),
    amount: fc.integer({ min: 1, max: 4000 }),
    leverage: fc.integer({ min: 1, max: 10 }),
    waitMinutes: fc.integer({ min: 0, max: 600 }),
    cancel: fc.boolean(),
  });
  test('ledger sums to zero, nothing negative, margin and hold accounts match the book', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), fc.integer({ min: -6000, max: 3000 }), (steps, shockBps) => {
        const world = tradingWorld(
          { trading: { shocks: [{ base: 'BTC', atMs: START + 5 * HOUR, moveBps: shockBps }] } },
          { alice: usdc(3000), bob: usdc(3000) },
        );
        let nowMs = START;
        for (const drawn of steps) {
          nowMs += drawn.waitMinutes * MINUTE + 1000;
          world.at(nowMs);
          const market = marketBySymbol(drawn.symbol)!;
          const mid = world.platform.trading.quote(market, nowMs).mid;
          const limitPrice =
            drawn.limitOffsetBps === null ? null : (mid * BigInt(10_000 + drawn.limitOffsetBps)) / 10_000n;
          const outcome = world.platform.trading.place(
            {
              agentId: drawn.agent,
              symbol: drawn.symbol,
              side: drawn.side,
              type: limitPrice === null ? 'market' : 'limit',
              amountMicro: usdc(drawn.amount),
              leverage: market.kind === 'spot' ? 1 : drawn.leverage,
              limitPrice,
            },
            nowMs,
          );
          if (outcome.ok && outcome.value.status === 'open' && drawn.cancel)
            ok(world.platform.trading.cancel({ agentId: drawn.agent, orderId: outcome.value.id }, nowMs));
          if (!outcome.ok) expect(['INSUFFICIENT_BALANCE', 'BAD_REQUEST']).toContain(outcome.code);
          world.checkMoney();
        }
        world.at(nowMs + 2 * 24 * HOUR);
        world.checkMoney();
      }),
      { numRuns: 40 },
    );
  });
});
