/**
 * The trading service's happy paths of the conformance suite, written as scripts over
 * `client.trading`: quotes have their shapes (A ticker, B price: bid ≤ mid ≤ ask, funding only on
 * perpetuals); a market order fills at once with the taker fee (0.2% of the size) and a fill_qty
 * worth its size, and takes margin + fee from the balance to the micro; the position shows in A's
 * positions and B's portfolio; resting limit orders (far below the market) hold size + maker fee,
 * are listed open, and cancel (A and B) back to the balance; a spot buy shows as a holding.
 * Money: agents start with the 10.00 grant of the B registration; sizes are 1 to 5 USDC.
 */
import type { AfpClient, ApiResult } from '../../client/client.ts';
import type { TradingBody } from '../../client/trading-client.ts';
import { isLiveAmount, parseLiveAmount, toMicro } from '../../core/live-amount.ts';
import { formatDecimal } from '../../core/money.ts';
import { SetupError, type ScriptCase, type ScriptSession } from '../conformance-case.ts';

const PRICE_SCALE = 100_000_000n;

function must(answer: ApiResult<TradingBody>, label: string): TradingBody {
  if (!answer.ok) throw new Error(`${label} answered ${answer.status} ${answer.body.code}: ${answer.body.error}`);
  return answer.body;
}

/** An amount of money (A: JSON number, B: decimal string) as micro-USDC (read without loss, to the nearest micro). */
function micro(value: unknown, label: string): bigint {
  const parsed = parseLiveAmount(value);
  if (!isLiveAmount(parsed)) throw new Error(`${label}: ${JSON.stringify(value)} is not an amount (${parsed})`);
  return toMicro(parsed).micro;
}

/** A price or quantity (8 decimals; A: JSON number, B: decimal string) scaled by 10^8. */
function scaled(value: unknown, label: string): bigint {
  const text = typeof value === 'number' && Number.isFinite(value) ? value.toFixed(8) : value;
  const match = typeof text === 'string' ? /^(\d+)(?:\.(\d{1,8}))?$/.exec(text) : null;
  if (match === null) throw new Error(`${label}: ${JSON.stringify(value)} is not a price`);
  return BigInt(match[1] ?? '0') * PRICE_SCALE + BigInt((match[2] ?? '').padEnd(8, '0'));
}

/** Half a scaled price as B's decimal string (a limit far below the market: it rests). */
function halfText(price: bigint): string {
  const half = price / 2n;
  return `${half / PRICE_SCALE}.${(half % PRICE_SCALE).toString().padStart(8, '0')}`;
}

async function registered(session: ScriptSession, slot: number): Promise<AfpClient> {
  const client = session.client.withIp(session.freshIp());
  const body = await client.faucetB.register({ agent_id: session.agentId(slot) });
  if (!body.ok) throw new SetupError(`B register answered ${body.status}`);
  return client.withKey(body.body.api_key);
}

async function balanceOf(client: AfpClient): Promise<string> {
  const status = await client.faucetB.status();
  if (!status.ok) throw new Error(`B status answered ${status.status}`);
  return formatDecimal(micro(status.body.balance, 'balance'));
}

/** A body's fields, without the `_info` every answer carries. */
const keys = (body: TradingBody): string[] =>
  Object.keys(body)
    .filter((key) => key !== '_info')
    .sort();

async function quotes(session: ScriptSession): Promise<void> {
  const alice = await registered(session, 1);
  const ticker = must(await alice.trading.tickerA('BTC-PERP'), 'ticker');
  session.expectEqual('ticker: fields', keys(ticker), [
    'ask',
    'bid',
    'change_24h',
    'funding_rate',
    'mark_price',
    'next_funding_at',
    'open',
    'symbol',
    'volume_24h',
  ]);
  const [bid, mark, ask] = [
    scaled(ticker['bid'], 'bid'),
    scaled(ticker['mark_price'], 'mark'),
    scaled(ticker['ask'], 'ask'),
  ];
  session.expectEqual('ticker: 0 < bid < mark < ask', bid > 0n && bid < mark && mark < ask, true);
  session.expectEqual(
    'ticker: a perpetual has a funding rate',
    [ticker['symbol'], typeof ticker['funding_rate'], ticker['open']],
    ['BTC-PERP', 'number', true],
  );
  const spot = must(await alice.trading.priceB('BTC-USDC'), 'B price');
  session.expectEqual('B price: fields', keys(spot), [
    'ask',
    'bid',
    'change_24h',
    'funding_rate',
    'market_type',
    'mid',
    'next_funding_at',
    'open',
    'pair',
    'volume_24h',
  ]);
  session.expectEqual(
    'B price: BTC-USDC is spot first, no funding',
    [spot['pair'], spot['market_type'], spot['funding_rate'], spot['next_funding_at']],
    ['BTC-USDC', 'spot', null, null],
  );
  session.expectEqual(
    'B price: bid < mid < ask (decimal strings)',
    scaled(spot['bid'], 'bid') < scaled(spot['mid'], 'mid') && scaled(spot['mid'], 'mid') < scaled(spot['ask'], 'ask'),
    true,
  );
  const perp = must(await alice.trading.priceB('BTC-USDC', { market_type: 'perp' }), 'B price perp');
  session.expectEqual(
    'B price perp: the perpetual, its funding rate a string',
    [perp['market_type'], typeof perp['funding_rate']],
    ['perp', 'string'],
  );
  const stock = must(await alice.trading.priceB('TSLA-USDC'), 'B price TSLA');
  session.expectEqual('B price: a perpetual-only pair answers its perpetual', stock['market_type'], 'perp');
  const markets = must(await alice.trading.marketsA(), 'markets');
  const list = markets['markets'] as TradingBody[];
  session.expectEqual(
    'markets: count matches the list, 275 perpetuals',
    [markets['count'], list.filter((market) => market['type'] === 'perp').length],
    [list.length, 275],
  );
  session.expectEqual(
    'markets: BTC-PERP listed, leverage up to 10',
    list.filter((market) => market['symbol'] === 'BTC-PERP').map((market) => market['max_leverage']),
    [10],
  );
}

async function ordersAndPositions(session: ScriptSession): Promise<void> {
  const alice = await registered(session, 1);
  const order = await marketOrder(session, alice);
  await restingOrders(session, alice, order);
  await spotAndPortfolio(session, alice);
}

/** A market order filled with the taker fee, its margin and fee taken, its position shown. */
async function marketOrder(session: ScriptSession, alice: AfpClient): Promise<TradingBody> {
  const order = must(
    await alice.trading.orderA({ symbol: 'BTC-PERP', side: 'long', size: 5, leverage: 2 }),
    'A market order',
  );
  session.expectEqual(
    'A market order: filled long, taker fee 0.2% of 5',
    [order['status'], order['side'], order['type'], order['size'], order['leverage'], order['fee']],
    ['filled', 'long', 'market', 5, 2, 0.01],
  );
  const notional =
    (scaled(order['fill_qty'], 'fill_qty') * scaled(order['entry_price'], 'entry_price')) / 10_000_000_000n;
  const oneUnitMicro = scaled(order['entry_price'], 'entry_price') / 100n / PRICE_SCALE + 1n;
  session.expectEqual(
    'A market order: fill_qty × entry_price is the size (to one 10^-8 unit)',
    notional <= 5_000_000n && 5_000_000n - notional <= oneUnitMicro,
    true,
  );
  session.expectEqual('balance: 10 − margin 2.50 − fee 0.01', await balanceOf(alice), '7.49');
  const positions = must(await alice.trading.positionsA(), 'positions');
  const position = (positions['positions'] as TradingBody[])[0] ?? {};
  session.expectEqual(
    'positions: one long BTC-PERP, margin 2.50 at leverage 2',
    [
      positions['count'],
      position['symbol'],
      position['side'],
      position['margin'],
      position['leverage'],
      position['entry_price'],
    ],
    [1, 'BTC-PERP', 'long', 2.5, 2, order['entry_price']],
  );
  session.expectEqual(
    'positions: a long is liquidated below its entry',
    scaled(position['liquidation_price'], 'liquidation') < scaled(position['entry_price'], 'entry'),
    true,
  );
  return order;
}

/** Limit orders far from the market rest and hold their size and maker fee; listed, then cancelled. */
async function restingOrders(session: ScriptSession, alice: AfpClient, order: TradingBody): Promise<void> {
  const eth = must(await alice.trading.priceB('ETH-USDC', { market_type: 'perp' }), 'ETH price');
  const limitPrice = halfText(scaled(eth['mid'], 'mid'));
  const resting = must(
    await alice.trading.orderA({ symbol: 'ETH-PERP', side: 'long', size: 2, type: 'limit', price: Number(limitPrice) }),
    'A limit order',
  );
  session.expectEqual(
    'A limit order far below the market rests',
    [resting['status'], resting['fill_qty'], resting['fee']],
    ['open', null, 0],
  );
  session.expectEqual('balance: the hold is size 2 + maker fee 0.002', await balanceOf(alice), '5.488');
  const restingB = must(
    await alice.trading.orderB({
      pair: 'BTC-USDC',
      market_type: 'perp',
      side: 'buy',
      amount: '1.00',
      type: 'limit',
      price: halfText(scaled(order['entry_price'], 'entry')),
    }),
    'B limit order',
  );
  session.expectEqual(
    'B limit order rests',
    [restingB['status'], restingB['pair'], restingB['market_type']],
    ['open', 'BTC-USDC', 'perp'],
  );
  const open = must(await alice.trading.ordersB({ status: 'open' }), 'B orders open');
  session.expectEqual(
    'B orders: both resting orders, newest first',
    (open['orders'] as TradingBody[]).map((row) => row['order_id']),
    [restingB['order_id'], resting['order_id']],
  );
  const held = must(await alice.trading.portfolioB(), 'portfolio with holds');
  session.expectEqual(
    'portfolio: held for orders 2.002 + 1.001, two open orders',
    [formatDecimal(micro(held['held_for_orders'], 'held')), held['open_orders']],
    ['3.003', 2],
  );
  const cancelled = must(await alice.trading.cancelA(String(resting['order_id'])), 'A cancel');
  const cancelledB = must(await alice.trading.cancelB(String(restingB['order_id'])), 'B cancel');
  session.expectEqual(
    'cancel A and B: both cancelled',
    [cancelled['status'], cancelledB['status']],
    ['cancelled', 'cancelled'],
  );
  session.expectEqual('balance: the holds are back', await balanceOf(alice), '7.49');
  const all = must(await alice.trading.ordersB({ pair: 'ETH-USDC', market_type: 'perp' }), 'B orders of ETH perp');
  session.expectEqual(
    'B orders by pair: the cancelled ETH order only',
    (all['orders'] as TradingBody[]).map((row) => [row['order_id'], row['status']]),
    [[resting['order_id'], 'cancelled']],
  );
}

/** A spot buy, then the portfolio: balance, margin, the perpetual and the holding. */
async function spotAndPortfolio(session: ScriptSession, alice: AfpClient): Promise<void> {
  const spot = must(await alice.trading.orderB({ pair: 'ETH-USDC', side: 'buy', amount: '1.00' }), 'B spot buy');
  session.expectEqual(
    'B spot buy: filled, taker fee 0.002',
    [spot['status'], spot['market_type'], formatDecimal(micro(spot['fee'], 'fee'))],
    ['filled', 'spot', '0.002'],
  );
  const portfolio = must(await alice.trading.portfolioB(), 'portfolio');
  session.expectEqual(
    'portfolio: balance 6.488, margin 2.50, nothing held',
    [portfolio['balance'], portfolio['margin_used'], portfolio['held_for_orders'], portfolio['open_orders']].map(
      (value, index) => (index === 3 ? value : formatDecimal(micro(value, 'money'))),
    ),
    ['6.488', '2.50', '0.00', 0],
  );
  const positionB = (portfolio['positions'] as TradingBody[])[0] ?? {};
  session.expectEqual(
    'portfolio: the BTC perpetual',
    [
      (portfolio['positions'] as unknown[]).length,
      positionB['pair'],
      positionB['market_type'],
      positionB['side'],
      positionB['leverage'],
    ],
    [1, 'BTC-USDC', 'perp', 'long', 2],
  );
  const holding = (portfolio['spot'] as TradingBody[])[0] ?? {};
  session.expectEqual(
    'portfolio: the ETH holding is the spot fill',
    [(portfolio['spot'] as unknown[]).length, holding['market_type'], holding['qty']],
    [1, 'spot', spot['fill_qty']],
  );
}

export const TRADING_HAPPY_CASES: readonly ScriptCase[] = [
  {
    kind: 'script',
    name: 'trading quotes: A ticker and markets, B price of spot, perpetual and perpetual-only pairs',
    needsClock: false,
    run: quotes,
    endpoints: ['faucet.B.register', 'trading.A.ticker', 'trading.A.markets', 'trading.B.price'],
  },
  {
    kind: 'script',
    name: 'trading orders: a market order fills with its fee, positions and portfolio show it, resting limit orders hold and cancel (A and B), a spot buy',
    needsClock: false,
    run: ordersAndPositions,
    endpoints: [
      'faucet.B.register',
      'faucet.B.status',
      'trading.A.order',
      'trading.A.positions',
      'trading.A.cancel',
      'trading.B.price',
      'trading.B.order',
      'trading.B.orders',
      'trading.B.cancel',
      'trading.B.portfolio',
    ],
  },
];
