/**
 * The deployed trading service's account and market rows (spec/DEPLOYED.md §5, base /v1 on its own
 * address, port 3003):
 *   POST /v1/auth/register { referral_code?, wallet_agent_id?, hl_wallet_address?, hl_signing_key? }
 *        → 201 { agent_id, api_key (`sk_trade_`), referral_code, tier, deposit_address, hl_wallet, balance_usd };
 *   GET  /v1/markets, /v1/markets/funding-rates, /v1/markets/:coin, /v1/markets/:coin/price
 *        (public; unknown coin 404 `market_not_found`).
 * Registration creates one afp agent (afp's one platform, one balance): its key is afp's key with
 * the deployment's `sk_trade_` prefix (src/http/deployed/service-keys.ts), accepted on the
 * trading address only with that prefix (deployed dispatcher). An unknown referral code is
 * ignored, the Hyperliquid wallet fields are read and not kept (afp trades against its own house).
 */
import { isFailure, succeed, type JsonObject } from '../../../core/errors.ts';
import { MARKETS, type Market } from '../../../services/trading/market-catalogue.ts';
import type { Registration } from '../../../services/faucet/faucet.ts';
import { deployedFailure } from '../../deployed/deployed-errors.ts';
import { serviceKeyOf } from '../../deployed/service-keys.ts';
import { isoTime, moneyA } from '../../render.ts';
import type { Route } from '../../route.ts';
import { deployedRoute } from './deployed-row.ts';
import { optionalString } from '../../validate.ts';
import { registerAgent } from '../faucet/register-agent.ts';
import { coinOf, marketDetail, marketOfCoin, marketRow, priceNumber } from './trading-view.ts';

const REGISTER_TEXT_FIELDS = ['referral_code', 'wallet_agent_id', 'hl_wallet_address', 'hl_signing_key'];
const PERPS: readonly Market[] = MARKETS.filter((market) => market.kind === 'perp');

function fieldsOf(body: unknown): Record<string, unknown> {
  return (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
}

const register = deployedRoute<{ agentId: string; referrer: string | undefined }, Registration>({
  id: 'trading.deployed.register',
  service: 'trading',
  style: 'deployed',
  auth: 'none',
  summary: 'Create a trading agent ({ referral_code? }): its sk_trade_ key, shown once.',
  parse: (input, context) => {
    const fields = fieldsOf(input.body);
    for (const name of REGISTER_TEXT_FIELDS) {
      const value = optionalString(fields[name], name, 256);
      if (isFailure(value)) return deployedFailure(400, 'invalid_request', value.message);
    }
    const code = fields['referral_code'];
    const referrer = typeof code === 'string' && context.platform.agents.resolve(code) !== undefined ? code : undefined;
    return { agentId: context.platform.context.ids.next('ag_', 12), referrer };
  },
  run: (context, command) => registerAgent(context, command.agentId, command.referrer),
  successStatus: 201,
  render: (registration) => ({
    agent_id: registration.agent.id,
    api_key: serviceKeyOf('trading', registration.apiKey),
    referral_code: registration.agent.referralCode,
    tier: registration.agent.tier,
    deposit_address: registration.agent.address,
    hl_wallet: null,
    balance_usd: moneyA(registration.balanceMicro),
    created_at: isoTime(registration.agent.createdAtMs),
    message: 'Trading agent registered. Keep your api_key: it is shown once.',
    next_steps: [
      'Deposit USDC to deposit_address',
      'List the markets: GET /v1/markets',
      'Open a position: POST /v1/trade/open { coin, side, size_usd, leverage? }',
    ],
  }),
});

const markets = deployedRoute<null, readonly Market[]>({
  id: 'trading.deployed.markets',
  service: 'trading',
  style: 'deployed',
  auth: 'none',
  summary: 'Every perpetual market with its price (public).',
  parse: () => null,
  run: () => succeed(PERPS),
  successStatus: 200,
  render: (list, context) => ({
    markets: list.map((market) => marketRow(market, context.platform.trading.quote(market, context.nowMs))),
    count: list.length,
  }),
});

const fundingRates = deployedRoute<null, readonly Market[]>({
  id: 'trading.deployed.funding-rates',
  service: 'trading',
  style: 'deployed',
  auth: 'none',
  summary: 'The current 8-hour funding rate of every perpetual (public).',
  parse: () => null,
  run: () => succeed(PERPS),
  successStatus: 200,
  render: (list, context) => ({
    funding_rates: list.map((market) => {
      const quote = context.platform.trading.quote(market, context.nowMs);
      return {
        coin: coinOf(market),
        funding_rate: marketRow(market, quote)['funding_rate'] ?? null,
        next_funding_at: quote.nextFundingAtMs === null ? null : isoTime(quote.nextFundingAtMs),
      };
    }),
    interval_hours: 8,
  }),
});

function coinRow(
  id: string,
  summary: string,
  render: (market: Market, body: JsonObject, nowMs: number) => JsonObject,
): Route {
  return deployedRoute<string, Market>({
    id,
    service: 'trading',
    style: 'deployed',
    auth: 'none',
    summary,
    parse: (input) => input.params['coin'] ?? '',
    run: (_context, coin) => {
      const market = marketOfCoin(coin);
      return market === undefined
        ? deployedFailure(404, 'market_not_found', `Market ${coin.slice(0, 64)} not found`)
        : succeed(market);
    },
    successStatus: 200,
    render: (market, context) =>
      render(market, marketDetail(market, context.platform.trading.quote(market, context.nowMs)), context.nowMs),
  });
}

const market = coinRow(
  'trading.deployed.market',
  'One market: price, bid, ask, funding (public).',
  (_market, body) => body,
);
const price = coinRow('trading.deployed.price', "One market's price (public).", (one, body, nowMs) => ({
  coin: coinOf(one),
  ticker: one.symbol,
  price: body['price'] ?? priceNumber(0n),
  timestamp: nowMs,
}));

export const deployedTradingMarketRoutes: readonly Route[] = [register, markets, fundingRates, market, price];
