/**
 * CasinoClient: the casino's endpoints over the same Transport as AfpClient — every row of the
 * three styles by its route id (the table below, checked against the server's rows by a test),
 * with a few named calls the agents, audits and checks use. Answers are plain JSON objects:
 * callers read the fields they need (the wire shapes are in src/http/routes/casino/casino-*.ts and
 * docs/endpoints.md). Identity comes from the AfpClient that made it.
 */
import type { HttpMethod, Mount } from '../http/route.ts';
import type { ApiResult, CallInput } from './client.ts';

export interface CasinoEndpointRow {
  readonly mount: Mount;
  readonly method: HttpMethod;
  readonly path: string;
}

export const CASINO_ENDPOINTS = {
  'casino.A.register': { mount: 'casino', method: 'POST', path: '/api/v1/auth/register' },
  'casino.A.balance': { mount: 'casino', method: 'GET', path: '/api/v1/auth/balance' },
  'casino.A.deposit-address': { mount: 'casino', method: 'POST', path: '/api/v1/auth/deposit-address' },
  'casino.A.withdraw': { mount: 'casino', method: 'POST', path: '/api/v1/auth/withdraw' },
  'casino.A.supported-chains': { mount: 'casino', method: 'GET', path: '/api/v1/auth/supported-chains' },
  'casino.A.deposits': { mount: 'casino', method: 'GET', path: '/api/v1/auth/deposits' },
  'casino.A.ledger': { mount: 'casino', method: 'GET', path: '/api/v1/auth/ledger' },
  'casino.A.withdrawals': { mount: 'casino', method: 'GET', path: '/api/v1/auth/withdrawals' },
  'casino.A.games': { mount: 'casino', method: 'GET', path: '/api/v1/games' },
  'casino.A.game.coin_flip': { mount: 'casino', method: 'POST', path: '/api/v1/games/coin-flip' },
  'casino.A.game.dice': { mount: 'casino', method: 'POST', path: '/api/v1/games/dice' },
  'casino.A.game.simple_dice': { mount: 'casino', method: 'POST', path: '/api/v1/games/simple-dice' },
  'casino.A.game.multiplier': { mount: 'casino', method: 'POST', path: '/api/v1/games/multiplier' },
  'casino.A.game.roulette': { mount: 'casino', method: 'POST', path: '/api/v1/games/roulette' },
  'casino.A.game.custom': { mount: 'casino', method: 'POST', path: '/api/v1/games/custom' },
  'casino.A.game.blackjack': { mount: 'casino', method: 'POST', path: '/api/v1/games/blackjack' },
  'casino.A.game.crash': { mount: 'casino', method: 'POST', path: '/api/v1/games/crash' },
  'casino.A.game.plinko': { mount: 'casino', method: 'POST', path: '/api/v1/games/plinko' },
  'casino.A.game.slots': { mount: 'casino', method: 'POST', path: '/api/v1/games/slots' },
  'casino.A.game.hilo': { mount: 'casino', method: 'POST', path: '/api/v1/games/hilo' },
  'casino.A.game.keno': { mount: 'casino', method: 'POST', path: '/api/v1/games/keno' },
  'casino.A.game.scratch_card': { mount: 'casino', method: 'POST', path: '/api/v1/games/scratch-card' },
  'casino.A.game.wheel': { mount: 'casino', method: 'POST', path: '/api/v1/games/wheel' },
  'casino.A.game.mines': { mount: 'casino', method: 'POST', path: '/api/v1/games/mines' },
  'casino.A.game.baccarat': { mount: 'casino', method: 'POST', path: '/api/v1/games/baccarat' },
  'casino.A.batch': { mount: 'casino', method: 'POST', path: '/api/v1/bets/batch' },
  'casino.A.video-poker.deal': { mount: 'casino', method: 'POST', path: '/api/v1/games/video-poker/deal' },
  'casino.A.video-poker.draw': { mount: 'casino', method: 'POST', path: '/api/v1/games/video-poker/draw' },
  'casino.A.kelly.limits': { mount: 'casino', method: 'GET', path: '/api/v1/kelly/limits' },
  'casino.A.kelly.optimal': { mount: 'casino', method: 'POST', path: '/api/v1/kelly/optimal' },
  'casino.A.kelly.config': { mount: 'casino', method: 'PUT', path: '/api/v1/kelly/config' },
  'casino.A.kelly.history': { mount: 'casino', method: 'GET', path: '/api/v1/kelly/history' },
  'casino.A.kelly.simulate': { mount: 'casino', method: 'POST', path: '/api/v1/kelly/simulate' },
  'casino.A.fairness.seed-hash': { mount: 'casino', method: 'GET', path: '/api/v1/fairness/seed-hash' },
  'casino.A.fairness.verify': { mount: 'casino', method: 'POST', path: '/api/v1/fairness/verify' },
  'casino.A.fairness.audit': { mount: 'casino', method: 'GET', path: '/api/v1/fairness/audit/:betId' },
  'casino.A.fairness.rotate': { mount: 'casino', method: 'POST', path: '/api/v1/fairness/rotate' },
  'casino.A.fairness.seeds': { mount: 'casino', method: 'GET', path: '/api/v1/fairness/seeds' },
  'casino.A.stats.me': { mount: 'casino', method: 'GET', path: '/api/v1/stats/me' },
  'casino.A.stats.session': { mount: 'casino', method: 'GET', path: '/api/v1/stats/session' },
  'casino.A.stats.leaderboard': { mount: 'casino', method: 'GET', path: '/api/v1/stats/leaderboard' },
  'casino.A.tournaments.create': { mount: 'casino', method: 'POST', path: '/api/v1/tournaments/create' },
  'casino.A.tournaments.list': { mount: 'casino', method: 'GET', path: '/api/v1/tournaments' },
  'casino.A.tournaments.get': { mount: 'casino', method: 'GET', path: '/api/v1/tournaments/:id' },
  'casino.A.tournaments.enter': { mount: 'casino', method: 'POST', path: '/api/v1/tournaments/:id/enter' },
  'casino.A.tournaments.play': { mount: 'casino', method: 'POST', path: '/api/v1/tournaments/:id/play' },
  'casino.A.challenges.create': { mount: 'casino', method: 'POST', path: '/api/v1/challenges' },
  'casino.A.challenges.list': { mount: 'casino', method: 'GET', path: '/api/v1/challenges' },
  'casino.A.challenges.accept': { mount: 'casino', method: 'POST', path: '/api/v1/challenges/:id/accept' },
  'casino.A.challenges.decline': { mount: 'casino', method: 'POST', path: '/api/v1/challenges/:id/decline' },
  'casino.A.gossip': { mount: 'casino', method: 'GET', path: '/api/v1/gossip' },
  'casino.A.referral.code': { mount: 'casino', method: 'GET', path: '/api/v1/auth/referral/code' },
  'casino.A.referral.stats': { mount: 'casino', method: 'GET', path: '/api/v1/auth/referral/stats' },
  'casino.short.coinflip': { mount: 'casino', method: 'POST', path: '/api/v1/games/coinflip' },
  'casino.short.crash.bet': { mount: 'casino', method: 'POST', path: '/api/v1/games/crash/bet' },
  'casino.short.crash.cashout': { mount: 'casino', method: 'POST', path: '/api/v1/games/crash/cashout' },
  'casino.short.provably-fair': { mount: 'casino', method: 'GET', path: '/api/v1/games/provably-fair/:id' },
  'casino.short.leaderboard': { mount: 'casino', method: 'GET', path: '/api/v1/leaderboard' },
  'casino.B.bet': { mount: 'api', method: 'POST', path: '/casino-api/bet' },
  'casino.B.history': { mount: 'api', method: 'GET', path: '/casino-api/history' },
  'casino.B.verify': { mount: 'api', method: 'GET', path: '/casino-api/verify/:seed' },
  'casino.B.games': { mount: 'api', method: 'GET', path: '/casino-api/games' },
  'casino.B.stats': { mount: 'api', method: 'GET', path: '/casino-api/stats' },
} as const satisfies Record<string, CasinoEndpointRow>;

export type CasinoEndpointId = keyof typeof CASINO_ENDPOINTS;
export type CasinoBody = Record<string, unknown>;
export type CasinoCall = (endpoint: CasinoEndpointId, input: CallInput) => Promise<ApiResult<CasinoBody>>;

/**
 * The endpoint of a style A game path, "coin-flip" → `casino.A.game.coin_flip`; the table's own
 * paths are named once and remembered (a bettor names its game on every bet), any other path is
 * named each time (the map stays as small as the table).
 */
const GAME_ENDPOINTS = new Map<string, CasinoEndpointId>();

function gameEndpoint(gamePath: string): CasinoEndpointId {
  const known = GAME_ENDPOINTS.get(gamePath);
  if (known !== undefined) return known;
  const endpoint = `casino.A.game.${gamePath.replaceAll('-', '_')}` as CasinoEndpointId;
  if (Object.hasOwn(CASINO_ENDPOINTS, endpoint)) GAME_ENDPOINTS.set(gamePath, endpoint);
  return endpoint;
}

export class CasinoClient {
  readonly call: CasinoCall;

  constructor(call: CasinoCall) {
    this.call = call;
  }

  /** A style A single-game bet: `path` is the game's path ("coin-flip", "dice"…). */
  play(gamePath: string, body: CasinoBody): Promise<ApiResult<CasinoBody>> {
    return this.call(gameEndpoint(gamePath), { body });
  }

  batch(bets: readonly CasinoBody[]): Promise<ApiResult<CasinoBody>> {
    return this.call('casino.A.batch', { body: { bets } });
  }

  betB(body: CasinoBody): Promise<ApiResult<CasinoBody>> {
    return this.call('casino.B.bet', { body });
  }

  /** A style A withdrawal of `amount` USDC (a JSON number, as the route reads it) to a Base `address`. */
  withdraw(amount: number, address: string): Promise<ApiResult<CasinoBody>> {
    return this.call('casino.A.withdraw', { body: { amount, address } });
  }

  rotate(): Promise<ApiResult<CasinoBody>> {
    return this.call('casino.A.fairness.rotate', {});
  }

  seeds(): Promise<ApiResult<CasinoBody>> {
    return this.call('casino.A.fairness.seeds', {});
  }

  verify(betId: string): Promise<ApiResult<CasinoBody>> {
    return this.call('casino.A.fairness.verify', { body: { bet_id: betId } });
  }

  audit(betId: string): Promise<ApiResult<CasinoBody>> {
    return this.call('casino.A.fairness.audit', { params: { betId } });
  }

  historyB(query: Readonly<Record<string, string | number>> = {}): Promise<ApiResult<CasinoBody>> {
    return this.call('casino.B.history', { query });
  }

  kellyLimits(): Promise<ApiResult<CasinoBody>> {
    return this.call('casino.A.kelly.limits', {});
  }

  balance(): Promise<ApiResult<CasinoBody>> {
    return this.call('casino.A.balance', {});
  }
}
