// Test harness for the casino rows: a platform with funded fixture agents and an in-process
// dispatcher over every route row; each call moves time forward one second (rate limits refill).
import { addAgent } from '../../fixtures/agents.ts';
import { usdc, type Micro } from '../../../src/core/money.ts';
import { Dispatcher, type ApiResponse } from '../../../src/http/dispatcher.ts';
import type { Mount } from '../../../src/http/route.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { Platform } from '../../../src/platform/platform.ts';
import type { DefectName } from '../../../src/services/shared/context.ts';

export const START = Date.UTC(2026, 0, 1);

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  query?: Record<string, string>;
  atMs?: number;
}

export interface CasinoWorld {
  platform: Platform;
  keys: Record<'alice' | 'bob' | 'rita', string>;
  nowMs(): number;
  /** Style A and short rows, on the casino's address. */
  a(method: string, path: string, options?: CallOptions): ApiResponse;
  /** Style B rows, on the shared api address. */
  b(method: string, path: string, options?: CallOptions): ApiResponse;
  call(mount: Mount, method: string, path: string, options?: CallOptions): ApiResponse;
  balance(agentId: string): Micro;
}

export function casinoWorld(options: { defects?: DefectName[]; fundMicro?: Micro } = {}): CasinoWorld {
  const platform = new Platform({ seed: 'casino-test', startMs: START, defects: options.defects ?? [] });
  const fundMicro = options.fundMicro ?? usdc(1_000);
  const keys = {
    rita: addAgent(platform, 'rita', { createdAtMs: START }),
    alice: addAgent(platform, 'alice', { referrerId: 'rita', fundMicro, createdAtMs: START }),
    bob: addAgent(platform, 'bob', { fundMicro, createdAtMs: START }),
  };
  const dispatcher = new Dispatcher(platform, ALL_ROUTES);
  let nowMs = START;
  const call = (mount: Mount, method: string, path: string, callOptions: CallOptions = {}): ApiResponse => {
    nowMs = callOptions.atMs ?? nowMs + 1_000;
    const key = callOptions.key === undefined ? keys.alice : callOptions.key;
    const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
    return dispatcher.handle(
      { mount, method, path, query: callOptions.query ?? {}, headers, body: callOptions.body, ip: '127.0.0.1' },
      nowMs,
    );
  };
  return {
    platform,
    keys,
    nowMs: () => nowMs,
    call,
    a: (method, path, callOptions) => call('casino', method, `/api/v1${path}`, callOptions),
    b: (method, path, callOptions) => call('api', method, `/casino-api${path}`, callOptions),
    balance: (agentId) => platform.ledger.balance(`agent:${agentId}`),
  };
}

export type TourSend = (
  mount: Mount,
  method: string,
  path: string,
  options?: { key?: string; body?: unknown; query?: Record<string, string> },
) => { status: number; body: Record<string, unknown> };

/**
 * One valid request for every casino row, by two funded agents `alice` and `bob` (at least 100
 * USDC each). Returns nothing: callers record what `send` answered. Times come from `send`'s own
 * clock; `nowMs` reads it (tournament instants are relative to it).
 */
export function casinoTour(send: TourSend, keys: { alice: string; bob: string }, nowMs: () => number): void {
  const a = (
    method: string,
    path: string,
    options: { key?: string; body?: unknown; query?: Record<string, string> } = {},
  ): Record<string, unknown> => send('casino', method, `/api/v1${path}`, { key: keys.alice, ...options }).body;
  const b = (
    method: string,
    path: string,
    options: { key?: string; body?: unknown; query?: Record<string, string> } = {},
  ): Record<string, unknown> => send('api', method, `/casino-api${path}`, { key: keys.alice, ...options }).body;
  a('GET', '/games');
  const flip = a('POST', '/games/coin-flip', { body: { side: 'heads', amount: 0.1 } });
  for (const [path, body] of [
    ['/games/dice', { direction: 'over', threshold: 50, amount: 0.1 }],
    ['/games/simple-dice', { pick: 3, amount: 0.1 }],
    ['/games/multiplier', { target_multiplier: 2, amount: 0.1 }],
    ['/games/roulette', { bet_type: 'red', amount: 0.1 }],
    ['/games/custom', { win_probability: 50, amount: 0.1 }],
    ['/games/blackjack', { action: 'stand', amount: 0.1 }],
    ['/games/crash', { cash_out_at: 2, amount: 0.1 }],
    ['/games/plinko', { rows: 16, risk: 'high', amount: 0.1 }],
    ['/games/slots', { amount: 0.1 }],
    ['/games/hilo', { guess: 'higher', amount: 0.1 }],
    ['/games/keno', { picks: [1, 2, 3], amount: 0.1 }],
    ['/games/scratch-card', { amount: 0.1 }],
    ['/games/wheel', { amount: 0.1 }],
    ['/games/mines', { mines: 3, reveals: 2, amount: 0.1 }],
    ['/games/baccarat', { bet_on: 'banker', amount: 0.1 }],
  ] as const)
    a('POST', path, { body });
  const dealt = a('POST', '/games/video-poker/deal', { body: { amount: 0.1 } });
  a('POST', '/games/video-poker/draw', { body: { nonce: dealt['nonce'], holds: [0, 1] } });
  a('POST', '/bets/batch', {
    body: {
      bets: [
        { game: 'dice', direction: 'under', threshold: 30, amount: 0.1 },
        { game: 'slots', amount: 0.1 },
      ],
    },
  });
  a('GET', '/kelly/limits');
  a('POST', '/kelly/optimal', { body: { game: 'coin_flip', side: 'heads' } });
  a('PUT', '/kelly/config', { body: { risk_factor: 0.5 } });
  a('GET', '/kelly/history');
  a('POST', '/kelly/simulate', {
    body: { game: 'coin_flip', side: 'heads', bankroll: 100, bet_amount: 1, num_bets: 100, simulations: 10 },
  });
  a('GET', '/fairness/seed-hash');
  a('POST', '/fairness/rotate');
  a('POST', '/fairness/verify', { body: { bet_id: flip['bet_id'] } });
  a('GET', `/fairness/audit/${String(flip['bet_id'])}`);
  a('GET', '/fairness/seeds');
  a('GET', '/stats/me');
  a('GET', '/stats/session');
  a('GET', '/stats/leaderboard', { query: { game: 'dice' } });
  send('casino', 'GET', '/api/v1/gossip');
  a('GET', '/auth/referral/code');
  a('GET', '/auth/referral/stats');
  a('GET', '/auth/balance');
  a('POST', '/auth/deposit-address', { body: { chain: 'base' } });
  a('GET', '/auth/supported-chains');
  a('POST', '/auth/withdraw', { body: { amount: 2, address: `0x${'ab'.repeat(20)}` } });
  a('GET', '/auth/withdrawals');
  a('GET', '/auth/deposits');
  a('GET', '/auth/ledger');
  send('casino', 'POST', '/api/v1/auth/register', { body: {} });
  const startsAt = new Date(nowMs() + 2_000).toISOString();
  const endsAt = new Date(nowMs() + 3_600_000).toISOString();
  const tournament = a('POST', '/tournaments/create', {
    body: {
      name: 'Tour',
      game: 'dice',
      entry_fee: 1,
      prize_pool: 10,
      max_agents: 10,
      starts_at: startsAt,
      ends_at: endsAt,
    },
  });
  const tournamentId = String(tournament['tournament_id']);
  a('GET', '/tournaments');
  a('GET', `/tournaments/${tournamentId}`);
  a('POST', `/tournaments/${tournamentId}/enter`, { key: keys.bob });
  a('POST', `/tournaments/${tournamentId}/play`, {
    key: keys.bob,
    body: { direction: 'over', threshold: 50, amount: 0.1 },
  });
  const accepted = a('POST', '/challenges', { body: { challenged_agent_id: 'bob', amount: 0.5 } });
  const declined = a('POST', '/challenges', { body: { challenged_agent_id: 'bob', game: 'dice', amount: 0.5 } });
  a('GET', '/challenges', { key: keys.bob });
  a('POST', `/challenges/${String(accepted['challenge_id'])}/accept`, { key: keys.bob });
  a('POST', `/challenges/${String(declined['challenge_id'])}/decline`, { key: keys.bob });
  a('POST', '/games/coinflip', { body: { side: 'tails', amount: 0.1, currency: 'USDC' } });
  const crashBet = a('POST', '/games/crash/bet', { body: { amount: 0.1 } });
  const takeOffMs = nowMs() + 10_000;
  a('GET', `/games/provably-fair/${String(crashBet['bet_id'])}`);
  a('GET', '/leaderboard');
  const betB = b('POST', '/bet', { body: { game: 'dice', amount: '0.10', params: { target: 50, over: true } } });
  b('GET', '/history', { query: { limit: '5' } });
  b('GET', `/verify/${String(betB['seed'])}`, { query: { nonce: String(betB['nonce']) } });
  b('GET', '/games');
  b('GET', '/stats');
  // The round takes off 10 s after the bet; cash out on the first second of its flight.
  while (nowMs() + 1_000 < takeOffMs) a('GET', '/fairness/seed-hash');
  a('POST', '/games/crash/cashout', { body: { bet_id: crashBet['bet_id'] } });
}
