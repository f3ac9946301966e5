/**
 * The deployed dialect's wire, written once (spec/DEPLOYED.md): every endpoint of the six deployed
 * services by a stable name, with its service (which is also its mount: each service on its own
 * address), method and path pattern (`:name` parameters). Both sides read it: the stand-in's rows
 * (src/http/routes/deployed/, served by `afp serve --dialect deployed`) take their method and path
 * from it, and the live client's deployed operations (src/live/dialects/deployed/) build their
 * requests from it (`deployedPath` fills the parameters), so the two cannot drift.
 * Why one table and not the rows: the live client may not import the stand-in's rows, and a
 * deployment serves endpoints the stand-in does not (`served: false`: named by probes and answers).
 * A name is `<service>.deployed.<operation>`, the id of the stand-in's row that serves it.
 * The rule that no other file in src/ writes these paths: test/tooling/deployed-wire-literals.test.ts.
 * Non-goals: the doors every deployed service answers alike at its root (/ping, /gossip, /mcp,
 * /llms.txt, /.well-known/purpleflea.json, §1.3), which are no one service's endpoint.
 */
import { assert } from '../../core/assert.ts';
import type { ServiceName } from '../../platform/platform.ts';
import type { HttpMethod } from '../route.ts';

export interface DeployedEndpoint {
  /** The service, which is also the mount: each deployed service is on its own address. */
  readonly service: ServiceName;
  readonly method: HttpMethod;
  /** Path pattern with `:name` parameters, as the route rows write it. */
  readonly path: string;
  /** false: the deployment serves it, the stand-in does not (absent: both do). */
  readonly served?: false;
}

export const DEPLOYED_WIRE = {
  // casino: its own address, base /api/v1 (DEPLOYED.md §2)
  'casino.deployed.register': { service: 'casino', method: 'POST', path: '/api/v1/auth/register' },
  'casino.deployed.balance': { service: 'casino', method: 'GET', path: '/api/v1/auth/balance' },
  'casino.deployed.withdraw': { service: 'casino', method: 'POST', path: '/api/v1/auth/withdraw' },
  'casino.deployed.games': { service: 'casino', method: 'GET', path: '/api/v1/games' },
  'casino.deployed.game.coin_flip': { service: 'casino', method: 'POST', path: '/api/v1/games/coin-flip' },
  'casino.deployed.game.dice': { service: 'casino', method: 'POST', path: '/api/v1/games/dice' },
  'casino.deployed.game.simple_dice': { service: 'casino', method: 'POST', path: '/api/v1/games/simple-dice' },
  'casino.deployed.game.multiplier': { service: 'casino', method: 'POST', path: '/api/v1/games/multiplier' },
  'casino.deployed.game.roulette': { service: 'casino', method: 'POST', path: '/api/v1/games/roulette' },
  'casino.deployed.game.custom': { service: 'casino', method: 'POST', path: '/api/v1/games/custom' },
  'casino.deployed.game.blackjack': { service: 'casino', method: 'POST', path: '/api/v1/games/blackjack' },
  'casino.deployed.game.crash': { service: 'casino', method: 'POST', path: '/api/v1/games/crash' },
  'casino.deployed.game.plinko': { service: 'casino', method: 'POST', path: '/api/v1/games/plinko' },
  'casino.deployed.game.slots': { service: 'casino', method: 'POST', path: '/api/v1/games/slots' },
  'casino.deployed.game.hilo': { service: 'casino', method: 'POST', path: '/api/v1/games/hilo' },
  'casino.deployed.game.keno': { service: 'casino', method: 'POST', path: '/api/v1/games/keno' },
  'casino.deployed.game.scratch_card': { service: 'casino', method: 'POST', path: '/api/v1/games/scratch-card' },
  'casino.deployed.game.wheel': { service: 'casino', method: 'POST', path: '/api/v1/games/wheel' },
  'casino.deployed.game.mines': { service: 'casino', method: 'POST', path: '/api/v1/games/mines' },
  'casino.deployed.game.baccarat': { service: 'casino', method: 'POST', path: '/api/v1/games/baccarat' },
  'casino.deployed.video-poker.deal': { service: 'casino', method: 'POST', path: '/api/v1/games/video-poker/deal' },
  'casino.deployed.video-poker.draw': { service: 'casino', method: 'POST', path: '/api/v1/games/video-poker/draw' },
  'casino.deployed.game.parlay': { service: 'casino', method: 'POST', path: '/api/v1/games/parlay' },
  'casino.deployed.batch': { service: 'casino', method: 'POST', path: '/api/v1/bets/batch' },
  'casino.deployed.fairness.seed-hash': { service: 'casino', method: 'GET', path: '/api/v1/fairness/seed-hash' },
  'casino.deployed.fairness.verify': { service: 'casino', method: 'POST', path: '/api/v1/fairness/verify' },
  'casino.deployed.fairness.audit': { service: 'casino', method: 'GET', path: '/api/v1/fairness/audit/:betId' },
  'casino.deployed.fairness.rotate': { service: 'casino', method: 'POST', path: '/api/v1/fairness/rotate' },
  'casino.deployed.fairness.seeds': { service: 'casino', method: 'GET', path: '/api/v1/fairness/seeds' },
  'casino.deployed.kelly.limits': { service: 'casino', method: 'GET', path: '/api/v1/kelly/limits' },
  'casino.deployed.kelly.config': { service: 'casino', method: 'PUT', path: '/api/v1/kelly/config' },
  'casino.deployed.kelly.history': { service: 'casino', method: 'GET', path: '/api/v1/kelly/history' },
  'casino.deployed.kelly.simulate': { service: 'casino', method: 'POST', path: '/api/v1/kelly/simulate' },
  'casino.deployed.referral.code': { service: 'casino', method: 'GET', path: '/api/v1/auth/referral/code' },
  'casino.deployed.referral.stats': { service: 'casino', method: 'GET', path: '/api/v1/auth/referral/stats' },
  'casino.deployed.stats.me': { service: 'casino', method: 'GET', path: '/api/v1/stats/me' },
  'casino.deployed.stats.session': { service: 'casino', method: 'GET', path: '/api/v1/stats/session' },
  'casino.deployed.stats.leaderboard': { service: 'casino', method: 'GET', path: '/api/v1/stats/leaderboard' },
  'casino.deployed.gossip': { service: 'casino', method: 'GET', path: '/api/v1/gossip' },
  'casino.deployed.bets.history': { service: 'casino', method: 'GET', path: '/api/v1/bets/history' },
  'casino.deployed.tournaments.create': { service: 'casino', method: 'POST', path: '/api/v1/tournaments/create' },
  'casino.deployed.tournaments.list': { service: 'casino', method: 'GET', path: '/api/v1/tournaments' },
  'casino.deployed.tournaments.get': { service: 'casino', method: 'GET', path: '/api/v1/tournaments/:id' },
  'casino.deployed.tournaments.enter': { service: 'casino', method: 'POST', path: '/api/v1/tournaments/:id/enter' },
  'casino.deployed.tournaments.play': { service: 'casino', method: 'POST', path: '/api/v1/tournaments/:id/play' },
  'casino.deployed.challenges.create': { service: 'casino', method: 'POST', path: '/api/v1/challenges' },
  'casino.deployed.challenges.list': { service: 'casino', method: 'GET', path: '/api/v1/challenges' },
  'casino.deployed.challenges.accept': { service: 'casino', method: 'POST', path: '/api/v1/challenges/:id/accept' },
  'casino.deployed.challenges.decline': { service: 'casino', method: 'POST', path: '/api/v1/challenges/:id/decline' },
  'casino.deployed.challenges.open': {
    service: 'casino',
    method: 'GET',
    path: '/api/v1/challenges/open',
    served: false,
  },
  'casino.deployed.achievements.catalogue': {
    service: 'casino',
    method: 'GET',
    path: '/api/v1/achievements/catalogue',
    served: false,
  },
  'casino.deployed.daily': { service: 'casino', method: 'GET', path: '/api/v1/daily', served: false },
  'casino.deployed.daily.claim': { service: 'casino', method: 'POST', path: '/api/v1/daily/claim', served: false },
  'casino.deployed.docs': { service: 'casino', method: 'GET', path: '/api/v1/docs', served: false },
  // faucet: root paths on its own address (§3)
  'faucet.deployed.claim': { service: 'faucet', method: 'POST', path: '/faucet/claim' },
  'faucet.deployed.stats': { service: 'faucet', method: 'GET', path: '/faucet/stats' },
  // escrow: root paths on its own address (§4)
  'escrow.deployed.create': { service: 'escrow', method: 'POST', path: '/escrow/create' },
  'escrow.deployed.complete': { service: 'escrow', method: 'POST', path: '/escrow/complete/:id' },
  'escrow.deployed.release': { service: 'escrow', method: 'POST', path: '/escrow/release/:id' },
  'escrow.deployed.dispute': { service: 'escrow', method: 'POST', path: '/escrow/dispute/:id' },
  'escrow.deployed.get': { service: 'escrow', method: 'GET', path: '/escrow/:id' },
  'escrow.deployed.stats': { service: 'escrow', method: 'GET', path: '/escrow/stats', served: false },
  // trading: its own address, base /v1 (§5)
  'trading.deployed.register': { service: 'trading', method: 'POST', path: '/v1/auth/register' },
  'trading.deployed.markets': { service: 'trading', method: 'GET', path: '/v1/markets' },
  'trading.deployed.funding-rates': { service: 'trading', method: 'GET', path: '/v1/markets/funding-rates' },
  'trading.deployed.market': { service: 'trading', method: 'GET', path: '/v1/markets/:coin' },
  'trading.deployed.price': { service: 'trading', method: 'GET', path: '/v1/markets/:coin/price' },
  'trading.deployed.open': { service: 'trading', method: 'POST', path: '/v1/trade/open' },
  'trading.deployed.close': { service: 'trading', method: 'POST', path: '/v1/trade/close' },
  'trading.deployed.limit': { service: 'trading', method: 'POST', path: '/v1/trade/limit' },
  'trading.deployed.limit-orders': { service: 'trading', method: 'GET', path: '/v1/trade/limit-orders' },
  'trading.deployed.limit-cancel': { service: 'trading', method: 'DELETE', path: '/v1/trade/limit-orders/:id' },
  'trading.deployed.positions': { service: 'trading', method: 'GET', path: '/v1/trade/positions' },
  'trading.deployed.history': { service: 'trading', method: 'GET', path: '/v1/trade/history' },
  'trading.deployed.portfolio': { service: 'trading', method: 'GET', path: '/v1/trade/portfolio' },
  'trading.deployed.stop-loss': { service: 'trading', method: 'POST', path: '/v1/trade/stop-loss' },
  'trading.deployed.take-profit': { service: 'trading', method: 'POST', path: '/v1/trade/take-profit' },
  'trading.deployed.check-limits': { service: 'trading', method: 'POST', path: '/v1/trade/check-limits' },
  'trading.deployed.risk-settings': { service: 'trading', method: 'GET', path: '/v1/trade/risk-settings' },
  'trading.deployed.risk-settings.set': { service: 'trading', method: 'POST', path: '/v1/trade/risk-settings' },
  'trading.deployed.orderbook': { service: 'trading', method: 'GET', path: '/v1/markets/:coin/orderbook' },
  'trading.deployed.gossip': { service: 'trading', method: 'GET', path: '/v1/gossip', served: false },
  // domains: its own address, base /v1 (§7)
  'domains.deployed.register': { service: 'domains', method: 'POST', path: '/v1/auth/register' },
  'domains.deployed.account': { service: 'domains', method: 'GET', path: '/v1/auth/account' },
  'domains.deployed.check': { service: 'domains', method: 'GET', path: '/v1/domains/check' },
  'domains.deployed.value': { service: 'domains', method: 'GET', path: '/v1/domains/value' },
  'domains.deployed.whois': { service: 'domains', method: 'GET', path: '/v1/whois/:name' },
  'domains.deployed.register-domain': { service: 'domains', method: 'POST', path: '/v1/domains/register' },
  'domains.deployed.list': { service: 'domains', method: 'GET', path: '/v1/domains' },
  'domains.deployed.get': { service: 'domains', method: 'GET', path: '/v1/domains/:id' },
  'domains.deployed.dns.add': { service: 'domains', method: 'POST', path: '/v1/dns/records' },
  'domains.deployed.dns.list': { service: 'domains', method: 'GET', path: '/v1/dns/records' },
  'domains.deployed.dns.update': { service: 'domains', method: 'PUT', path: '/v1/dns/records/:recordId' },
  'domains.deployed.dns.delete': { service: 'domains', method: 'DELETE', path: '/v1/dns/records/:recordId' },
  'domains.deployed.transfer': { service: 'domains', method: 'POST', path: '/v1/domains/:id/transfer' },
  'domains.deployed.search': { service: 'domains', method: 'GET', path: '/v1/domains/search' },
  'domains.deployed.bulk-check': { service: 'domains', method: 'POST', path: '/v1/domains/bulk-check' },
  'domains.deployed.expiring': { service: 'domains', method: 'GET', path: '/v1/domains/expiring' },
  'domains.deployed.suggest': { service: 'domains', method: 'GET', path: '/v1/domains/suggest' },
  'domains.deployed.portfolio-value': { service: 'domains', method: 'GET', path: '/v1/domains/portfolio-value' },
  'domains.deployed.gossip': { service: 'domains', method: 'GET', path: '/v1/gossip', served: false },
  'domains.deployed.docs': { service: 'domains', method: 'GET', path: '/v1/docs', served: false },
  // wallet (public-wallet): its own address, base /v1 (§6)
  'wallet.deployed.register': { service: 'wallet', method: 'POST', path: '/v1/auth/register' },
  'wallet.deployed.create': { service: 'wallet', method: 'POST', path: '/v1/wallet/create' },
  'wallet.deployed.balance': { service: 'wallet', method: 'GET', path: '/v1/wallet/balance/:address' },
  'wallet.deployed.transactions': { service: 'wallet', method: 'GET', path: '/v1/wallet/transactions/:address' },
  'wallet.deployed.deposit-address': { service: 'wallet', method: 'GET', path: '/v1/wallet/deposit-address' },
  'wallet.deployed.chains': { service: 'wallet', method: 'GET', path: '/v1/wallet/chains' },
  'wallet.deployed.gossip': { service: 'wallet', method: 'GET', path: '/v1/gossip' },
  'wallet.deployed.referral-code': { service: 'wallet', method: 'GET', path: '/v1/referral/code' },
  'wallet.deployed.referral-stats': { service: 'wallet', method: 'GET', path: '/v1/referral/stats' },
  'wallet.deployed.referral-withdraw': { service: 'wallet', method: 'POST', path: '/v1/referral/withdraw' },
  'wallet.deployed.send': { service: 'wallet', method: 'POST', path: '/v1/wallet/send' },
  'wallet.deployed.swap-quote': { service: 'wallet', method: 'GET', path: '/v1/wallet/swap/quote' },
  'wallet.deployed.swap': { service: 'wallet', method: 'POST', path: '/v1/wallet/swap' },
  'wallet.deployed.swap-status': { service: 'wallet', method: 'GET', path: '/v1/wallet/swap/status/:orderId' },
} as const satisfies Readonly<Record<string, DeployedEndpoint>>;

export type DeployedEndpointName = keyof typeof DEPLOYED_WIRE;

const ENDPOINTS: ReadonlyMap<string, DeployedEndpoint> = new Map(Object.entries(DEPLOYED_WIRE));

/** The endpoint of `name`, when the table has one (a route id of another dialect has none). */
export function deployedEndpointOf(name: string): DeployedEndpoint | undefined {
  return ENDPOINTS.get(name);
}

/** The endpoint of `name`. */
export function deployedEndpoint(name: DeployedEndpointName): DeployedEndpoint {
  return DEPLOYED_WIRE[name];
}

/**
 * The request path of `name` with its `:name` parameters filled from `params`, each URL-encoded
 * as one segment. A missing or unknown parameter is a bug of the caller.
 */
export function deployedPath(name: DeployedEndpointName, params: Readonly<Record<string, string>> = {}): string {
  const used = new Set<string>();
  const path = DEPLOYED_WIRE[name].path.replace(/:([A-Za-z]+)/g, (_match, key: string) => {
    const value = params[key];
    assert(value !== undefined, `the deployed path of ${name} needs its parameter ${key}`);
    used.add(key);
    return encodeURIComponent(value);
  });
  for (const key of Object.keys(params)) assert(used.has(key), `the deployed path of ${name} has no parameter ${key}`);
  return path;
}

/** The path pattern of `name` as OpenAPI writes it: `/escrow/release/{id}`. */
export function deployedBracedPath(name: DeployedEndpointName): string {
  return DEPLOYED_WIRE[name].path.replace(/:([A-Za-z]+)/g, '{$1}');
}
