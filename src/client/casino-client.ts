/**
 * CasinoClient: the casino's endpoints over the same Transport as AfpClient — every row of the
 * three styles by its route id (the table below, taken from the generated endpoint-table.ts),
 * with a few named calls the agents, audits and checks use. Answers are plain JSON objects:
 * callers read the fields they need (the wire shapes are in src/http/routes/casino/casino-*.ts and
 * docs/endpoints.md). Identity comes from the AfpClient that made it.
 */
import { endpointsOf } from './endpoints.ts';
import type { ApiResult, CallInput } from './call.ts';
import { ServiceClient } from './service-client.ts';

/** The casino rows of the route table (generated: src/client/endpoint-table.ts). */
export const CASINO_ENDPOINTS = endpointsOf('casino');

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

export class CasinoClient extends ServiceClient<CasinoCall> {
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
