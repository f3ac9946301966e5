/**
 * The world of a long clock move (issue 43: "a 100-year move with open limit orders, positions,
 * escrows, domains, tournaments and pending chain transactions"), for the bench's travel part
 * (century-phase.ts) and the time-travel tests (test/server/time-travel-world.ts re-exports it):
 * over HTTP to any served platform (in-process listeners or an `afp serve` child), two casino
 * agents funded by simulated deposits (deposit confirmation timers), and one of each other timer —
 * an escrow that expires in 1 h, a disputed escrow (its dispute window), a tournament that ends in
 * 2 h, a challenge that expires in 24 h, a crash round, a withdrawal above 1,000 USDC under review
 * for 24 h (the referral sweep runs daily on its own); then, on an in-process platform, open
 * trading (`openTrading`: resting limits near and far, positions of 1x to 10x, a stop-loss) and a
 * domain. An answer other than the one expected throws, naming the step.
 */
import { FAUCET_POOL, agentAccount } from '../src/core/ledger.ts';
import { usdc } from '../src/core/money.ts';
import type { Platform } from '../src/platform/platform.ts';
import { marketBySymbol } from '../src/services/trading/market-catalogue.ts';

export type Answer = { status: number; body: Record<string, unknown> };

export interface Target {
  send(mount: string, method: string, path: string, options?: { body?: unknown; key?: string }): Promise<Answer>;
  admin(path: string, body?: unknown): Promise<Answer>;
  nowMs(): Promise<number>;
  digest(): Promise<string>;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** A Target over the mounts' URLs. */
export function urlTarget(urls: Readonly<Record<string, string | undefined>>): Target {
  const send = async (
    mount: string,
    method: string,
    path: string,
    options: { body?: unknown; key?: string } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
    const init: RequestInit = { method, headers };
    if (options.body !== undefined) init.body = JSON.stringify(options.body);
    const response = await fetch(`${urls[mount] ?? ''}${path}`, init);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return {
    send,
    admin: (path, body) => send('api', 'POST', `/_afp/${path}`, body === undefined ? {} : { body }),
    nowMs: async () => Number((await send('api', 'GET', '/_afp/clock')).body['now_ms']),
    digest: async () => String((await send('api', 'GET', '/_afp/digest')).body['digest']),
  };
}

export interface World {
  readonly alice: string;
  readonly bob: string;
  readonly escrowId: string;
  readonly tournamentId: string;
  readonly challengeId: string;
  readonly disputedId: string;
}

export async function buildWorld(target: Target): Promise<World> {
  const register = async (agentId: string): Promise<string> => {
    const answer = await target.send('casino', 'POST', '/api/v1/auth/register', { body: { agent_id: agentId } });
    expectStatus(answer, 'register', (status) => status === 201);
    return String(answer.body['api_key']);
  };
  const alice = await register('alice');
  const bob = await register('bob');
  for (const agentId of ['alice', 'bob'])
    expectStatus(
      await target.admin('casino/deposit', { agent_id: agentId, chain: 'solana', amount: '2000' }),
      'deposit',
      (status) => status === 200,
    );
  await target.admin('clock', { advance_ms: 2 * 60_000 });
  const escrow = await target.send('api', 'POST', '/escrow', {
    key: alice,
    body: { amount: '4.00', receiver: 'bob', expires_in: 3_600 },
  });
  expectStatus(escrow, 'escrow');
  const nowMs = await target.nowMs();
  const body = {
    name: 'Tour',
    game: 'dice',
    entry_fee: 1,
    prize_pool: 10,
    max_agents: 10,
    starts_at: new Date(nowMs).toISOString(),
    ends_at: new Date(nowMs + 2 * HOUR_MS).toISOString(),
  };
  const tournament = await target.send('casino', 'POST', '/api/v1/tournaments/create', { key: alice, body });
  expectStatus(tournament, 'tournament');
  const tournamentId = String(tournament.body['tournament_id']);
  expectStatus(await target.send('casino', 'POST', `/api/v1/tournaments/${tournamentId}/enter`, { key: bob }), 'enter');
  const play = await target.send('casino', 'POST', `/api/v1/tournaments/${tournamentId}/play`, {
    key: bob,
    body: { direction: 'over', threshold: 50, amount: 1 },
  });
  expectStatus(play, 'play');
  const challenge = await target.send('casino', 'POST', '/api/v1/challenges', {
    key: alice,
    body: { challenged_agent_id: 'bob', amount: 2 },
  });
  expectStatus(challenge, 'challenge');
  const disputed = await target.send('api', 'POST', '/escrow', {
    key: alice,
    body: { amount: '3.00', receiver: 'bob', expires_in: 7_200 },
  });
  const disputedId = String(disputed.body['escrow_id']);
  expectStatus(
    await target.send('api', 'POST', `/escrow/${disputedId}/dispute`, { key: bob, body: { reason: 'not delivered' } }),
    'dispute',
  );
  expectStatus(
    await target.send('casino', 'POST', '/api/v1/games/crash/bet', {
      key: bob,
      body: { amount: 1, auto_cash_out: 1.5 },
    }),
    'crash bet',
    (status) => status === 200,
  );
  const withdrawal = await target.send('casino', 'POST', '/api/v1/auth/withdraw', {
    key: bob,
    body: { amount: 1_200, address: `0x${'ab'.repeat(20)}` },
  });
  expectStatus(withdrawal, 'withdrawal');
  return {
    alice,
    bob,
    escrowId: String(escrow.body['escrow_id']),
    tournamentId,
    challengeId: String(challenge.body['challenge_id']),
    disputedId,
  };
}

/** Throws unless `answer`'s status is what `step` expects (default: a 2xx). */
function expectStatus(answer: Answer, step: string, ok: (status: number) => boolean = (status) => status < 300): void {
  if (!ok(answer.status))
    throw new Error(`century world: ${step} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
}

/**
 * Open trading straight on the served platform at `nowMs` (it must stand there): a funded
 * trader (`agentId`) with resting limits near and far, positions of 1x to 10x, a stop-loss, and a domain.
 * The caller registered the trader (its agent record); it is funded here from the faucet pool.
 */
export function openTrading(platform: Platform, nowMs: number, agentId = 'trader'): void {
  platform.ledger.transfer({
    from: FAUCET_POOL,
    to: agentAccount(agentId),
    amountMicro: usdc(100_000),
    reason: 'bench.fund',
    reference: agentId,
  });
  const place = (symbol: string, side: 'buy' | 'sell', leverage: number, limitBps: number | null): void => {
    const market = marketBySymbol(symbol);
    if (market === undefined) throw new Error(symbol);
    const mid = platform.trading.prices.mid(market, nowMs);
    const limitPrice = limitBps === null ? null : (mid * BigInt(10_000 + limitBps)) / 10_000n;
    const placed = platform.trading.place(
      {
        agentId,
        symbol,
        side,
        type: limitPrice === null ? 'market' : 'limit',
        amountMicro: usdc(500),
        leverage,
        limitPrice,
      },
      nowMs,
    );
    if (!placed.ok) throw new Error(`century world: ${symbol} ${side}: ${placed.message}`);
  };
  place('BTC-PERP', 'buy', 2, -300);
  place('ETH-PERP', 'sell', 1, 500);
  place('SOL-PERP', 'buy', 1, -5_000);
  place('DOGE-PERP', 'buy', 10, null);
  place('XRP-PERP', 'sell', 1, null);
  place('ADA-PERP', 'buy', 3, null);
  const position = platform.trading.book.openPositionList().find((one) => one.symbol === 'ADA-PERP');
  if (position === undefined) throw new Error('century world: no ADA position');
  const trigger = platform.trading.setTrigger(
    { agentId, positionId: position.id, kind: 'stop-loss', triggerPrice: (position.entryPrice * 95n) / 100n },
    nowMs,
  );
  if (!trigger.ok) throw new Error(`century world: stop-loss: ${trigger.message}`);
  const domain = platform.domains.register(
    { callerId: agentId, domain: 'century-test.dev', years: 1, resolver: null },
    nowMs,
  );
  if (!domain.ok) throw new Error(`century world: domain: ${domain.message}`);
}
