// LiveSession through the dialects, against real listeners on loopback: a real `afp serve` spoken
// to in the documents' style A (a faithful target: no deviation at all), and a small node:http
// server answering exactly as DEPLOYED.md says the deployed casino, faucet and escrow answer
// (renamed fields read and reported as documented deviations, batch elements without `ok`, errors
// without `code` keeping the target's own names). Pacing and 429 waits run on a fake WaitClock.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { openLiveAccount } from '../../src/live/live-account.ts';
import { LiveSession, type CallDeviation } from '../../src/live/live-session.ts';
import { isRefusal } from '../../src/live/operations.ts';
import type { Target } from '../../src/live/target.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const handles: ServeHandle[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

/** Real time for the network, virtual time for waits: sleeps advance `nowMs` and are recorded. */
function fakeClock(): WaitClock & { slept: number[] } {
  let nowMs = 1_000_000;
  const slept: number[] = [];
  return {
    slept,
    nowMs: () => nowMs,
    sleep: async (ms) => {
      slept.push(ms);
      nowMs += ms;
    },
  };
}

function session(target: Target, clock: WaitClock, deviations: CallDeviation[] = []): LiveSession {
  return new LiveSession({
    target,
    clock,
    deadline: new Deadline(clock, 3600),
    onDeviation: (deviation) => deviations.push(deviation),
  });
}

function serveTarget(handle: ServeHandle): Target {
  const urls = handle.urls;
  return {
    name: 'afp serve',
    source: urls.api as string,
    afpServe: true,
    adminUrl: urls.api as string,
    services: {
      casino: { url: urls.casino as string, dialect: 'A' },
      faucet: { url: urls.faucet as string, dialect: 'A' },
      escrow: { url: urls.escrow as string, dialect: 'A' },
    },
    register: { service: 'casino' },
    funding: { method: 'admin-deposit' },
    limits: {},
    fairness: 'afp',
  };
}

describe('a faithful afp serve in the documents style A', () => {
  test('registers, funds, bets alone and in a batch, rotates and lists seeds with no deviation', async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: '3',
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      log: () => undefined,
    });
    handles.push(handle);
    const clock = fakeClock();
    const deviations: CallDeviation[] = [];
    const live = session(serveTarget(handle), clock, deviations);
    const account = await openLiveAccount({
      session: live,
      key: null,
      fundMicro: 5_000_000n,
      clock,
      deadline: new Deadline(clock, 60),
    });
    expect(account.ok).toBe(true);
    if (!account.ok) return;
    const key = account.value.apiKey;
    const bet = await live.call(
      'casino.bet',
      { game: 'dice', amountMicro: 10_000n, clientSeed: 'c1', params: { direction: 'over', threshold: 50 } },
      key,
    );
    expect(bet.kind).toBe('ok');
    if (bet.kind !== 'ok') return;
    expect(bet.value).toMatchObject({ game: 'dice', amountMicro: 10_000n, clientSeed: 'c1', nonce: 0 });
    const batch = await live.call(
      'casino.batch',
      {
        bets: [
          { game: 'coin_flip', amountMicro: 10_000n, clientSeed: 'c2', params: { side: 'heads' } },
          { game: 'dice', amountMicro: -1n, clientSeed: 'c3', params: {} },
        ],
      },
      key,
    );
    expect(batch.kind).toBe('ok');
    if (batch.kind !== 'ok') return;
    const [first, second] = batch.value.results;
    expect(first !== undefined && !isRefusal(first) && first.game === 'coin_flip').toBe(true);
    expect(second !== undefined && isRefusal(second) && second.name === 'BAD_REQUEST').toBe(true);
    expect(batch.value.summary?.total).toBe(2);
    const rotated = await live.call('casino.rotate', {}, key);
    expect(
      rotated.kind === 'ok' &&
        rotated.value.revealedSeedHash === bet.value.seedHash &&
        /^[0-9a-f]{64}$/.test(rotated.value.revealedSeed ?? ''),
    ).toBe(true);
    const seeds = await live.call('casino.seeds', {}, key);
    expect(
      seeds.kind === 'ok' &&
        seeds.value.seeds.some((seed) => seed.seedHash === bet.value.seedHash && seed.seed !== null),
    ).toBe(true);
    const refused = await live.call(
      'casino.withdraw',
      { amountMicro: 1_000_000_000n, address: `0x${'1'.repeat(40)}` },
      key,
    );
    expect(refused.kind === 'refused' && refused.refusal.name === 'INSUFFICIENT_BALANCE').toBe(true);
    // The history is style B's, on the api_url; an offset off a page boundary drops what it covers.
    const history = await live.call('casino.history', { offset: 0, limit: 200 }, key);
    expect(history.kind === 'ok' && history.value).toEqual({
      betIds: [first !== undefined && !isRefusal(first) ? first.betId : '', bet.value.betId],
      total: 2,
      hasMore: false,
    });
    const older = await live.call('casino.history', { offset: 1, limit: 1 }, key);
    expect(older.kind === 'ok' && older.value).toEqual({ betIds: [bet.value.betId], total: 2, hasMore: false });
    const trail = await live.call('casino.audit', { betId: bet.value.betId }, key);
    expect(trail.kind === 'ok' && trail.value).toMatchObject({
      params: { direction: 'over', threshold: 50 },
      revealedSeed: rotated.kind === 'ok' ? rotated.value.revealedSeed : '',
      bet: {
        betId: bet.value.betId,
        game: 'dice',
        amountMicro: 10_000n,
        nonce: 0,
        seedHash: bet.value.seedHash,
        resultHash: bet.value.resultHash,
        result: bet.value.result,
      },
    });
    expect(
      deviations.map((deviation) => `${deviation.op} ${deviation.deviation.kind} ${deviation.deviation.field}`),
    ).toEqual([]);
  });
});

// ---- a stand-in that answers as DEPLOYED.md describes the deployed services ----

function deployedAnswer(request: IncomingMessage, body: Record<string, unknown>): [number, unknown] {
  const info = {
    _info: {
      service: 'agent-casino',
      docs: 'https://casino.purpleflea.com/llms.txt',
      referral: '/api/v1/gossip',
      version: '1.0.0',
    },
  };
  const bet = (game: string, nonce: number) => ({
    bet_id: `bet_${nonce}`,
    game,
    amount_bet: 0.01,
    result: { roll: 12.34 },
    won: false,
    payout_multiplier: 0,
    amount_won: 0,
    new_balance: 9.99,
    proof: { server_seed_hash: 'a'.repeat(64), client_seed: 'c', nonce, result_hash: 'b'.repeat(64) },
    kelly: {},
  });
  if (
    request.headers.authorization === undefined &&
    request.url !== '/api/v1/auth/register' &&
    request.url !== '/faucet/claim'
  )
    return [401, { error: 'unauthorized', message: 'Missing or invalid Authorization header. Use: Bearer {api_key}' }];
  switch (`${request.method} ${request.url}`) {
    case 'POST /api/v1/auth/register':
      return [
        201,
        {
          agent_id: 'ag_0123456789ab',
          api_key: `sk_live_${'0'.repeat(48)}`,
          referral_code: 'ref_01234567',
          balance: 0,
          tier: 'free',
          risk_factor: 0.25,
          referral_commission: {},
          message: 'hi',
          next_steps: [],
          ...info,
        },
      ];
    case 'GET /api/v1/auth/balance':
      return [
        200,
        {
          agent_id: 'ag_0123456789ab',
          balance_usd: 10,
          tier: 'free',
          risk_factor: 0.25,
          lifetime: {},
          recent_activity: [],
          ...info,
        },
      ];
    case 'POST /api/v1/bets/batch':
      return [
        200,
        {
          results: [bet('dice', 0), { error: 'kelly_limit_exceeded', message: 'too big', max_bet: 0.5 }],
          summary: {
            total: 2,
            won: 0,
            lost: 1,
            errors: 1,
            total_wagered: 0,
            total_won: 0,
            net_pnl: 0,
            win_rate_pct: 0,
          },
          balance_after: 9.99,
          kelly_max_next_bet: 2.5,
          ...info,
        },
      ];
    case 'POST /api/v1/fairness/rotate':
      // DEPLOYED.md §2.7: an account with no seed yet (made at first use) has none to rotate.
      if (request.headers.authorization === 'Bearer fresh')
        return [200, { message: 'No active seed to rotate', ...info }];
      return [
        200,
        {
          message: 'rotated',
          previous_seed: { seed: 'c'.repeat(64), seed_hash: 'a'.repeat(64), bets_made: 1, note: 'verify' },
          new_seed_hash: 'd'.repeat(64),
          ...info,
        },
      ];
    case 'GET /api/v1/fairness/seeds':
      return [
        200,
        {
          seeds: [
            {
              id: 2,
              seed_hash: 'd'.repeat(64),
              seed: '[active - not yet revealed]',
              active: true,
              bets_made: 0,
              revealed_at: null,
              created_at: 'x',
            },
            {
              id: 1,
              seed_hash: 'a'.repeat(64),
              seed: 'c'.repeat(64),
              active: false,
              bets_made: 1,
              revealed_at: 'x',
              created_at: 'x',
            },
          ],
          ...info,
        },
      ];
    case 'POST /api/v1/auth/withdraw':
      return [400, { error: 'minimum_withdrawal', message: 'Minimum withdrawal is $1', ...info }];
    case 'GET /api/v1/bets/history?limit=200&offset=0':
      return [
        200,
        {
          bets: [
            {
              id: 'bet_1',
              game: 'dice',
              amount: 0.01,
              amount_won: 0,
              multiplier: 0,
              won: false,
              net: -0.01,
              verify: 'GET /api/v1/fairness/audit/bet_1',
              at: 'x',
            },
            {
              id: 'bet_0',
              game: 'coin_flip',
              amount: 0.01,
              amount_won: 0,
              multiplier: 0,
              won: false,
              net: -0.01,
              verify: 'x',
              at: 'x',
            },
          ],
          pagination: { total: 3, limit: 2, offset: 0, has_more: true },
          summary: {},
          filters: {},
          tip: 'x',
          ...info,
        },
      ];
    case 'GET /api/v1/fairness/audit/bet_0':
      return [
        200,
        {
          bet_id: 'bet_0',
          game: 'coin_flip',
          amount: 0.01,
          payout_multiplier: 0,
          won: false,
          amount_won: 0,
          result: { side_chosen: 'tails', outcome: 'heads', roll: 25.73 },
          fairness: {
            server_seed_hash: 'a'.repeat(64),
            server_seed: '[hidden until seed rotation]',
            client_seed: 'c',
            nonce: 0,
            result_hash: 'b'.repeat(64),
            seed_revealed: false,
            seed_revealed_at: null,
          },
          timestamp: 'x',
          ...info,
        },
      ];
    case 'POST /faucet/claim':
      return body['agent_casino_id'] === 'ag_0123456789ab'
        ? [
            200,
            {
              credited: 1,
              message: 'ok',
              casino_url: 'x',
              claim_id: 1,
              agent_id: 'ag_0123456789ab',
              referral_tracked: false,
            },
          ]
        : [404, { error: 'agent_not_found' }];
    default:
      return [
        404,
        {
          error: 'not_found',
          message: `${request.method} ${request.url} not found`,
          docs: '/api/v1/docs',
          openapi: '/openapi.json',
        },
      ];
  }
}

async function deployedStandIn(): Promise<string> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const [status, body] = deployedAnswer(request, text === '' ? {} : (JSON.parse(text) as Record<string, unknown>));
      response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function deployedTarget(url: string, limits: Target['limits'] = {}): Target {
  return {
    name: 'deployed stand-in',
    source: url,
    afpServe: false,
    adminUrl: null,
    services: {
      casino: { url, dialect: 'deployed' },
      faucet: { url, dialect: 'deployed' },
      escrow: { url, dialect: 'deployed' },
    },
    register: { service: 'casino' },
    funding: { method: 'faucet' },
    limits,
    fairness: 'deployed',
  };
}

describe('a target speaking the deployed dialect', () => {
  test("renamed fields are read and reported as documented deviations; batch errors keep the target's names", async () => {
    const url = await deployedStandIn();
    const clock = fakeClock();
    const deviations: CallDeviation[] = [];
    const live = session(deployedTarget(url), clock, deviations);
    const account = await openLiveAccount({
      session: live,
      key: null,
      fundMicro: 1_000_000n,
      clock,
      deadline: new Deadline(clock, 60),
    });
    expect(account).toMatchObject({ ok: true, value: { agentId: 'ag_0123456789ab' } });
    const balance = await live.call('casino.balance', {}, 'k');
    expect(balance.kind === 'ok' && balance.value.balanceMicro).toBe(10_000_000n);
    const batch = await live.call(
      'casino.batch',
      {
        bets: [
          { game: 'dice', amountMicro: 10_000n, clientSeed: 'c', params: {} },
          { game: 'dice', amountMicro: 10_000_000n, clientSeed: 'c', params: {} },
        ],
      },
      'k',
    );
    expect(batch.kind).toBe('ok');
    if (batch.kind !== 'ok') return;
    expect(
      batch.value.results.map((result) => (isRefusal(result) ? `refused ${result.name}` : `bet ${result.betId}`)),
    ).toEqual(['bet bet_0', 'refused kelly_limit_exceeded']);
    expect(batch.value.summary?.totalWageredMicro).toBe(0n);
    const rotated = await live.call('casino.rotate', {}, 'k');
    expect(rotated.kind === 'ok' && rotated.value).toEqual({
      revealedSeed: 'c'.repeat(64),
      revealedSeedHash: 'a'.repeat(64),
    });
    const seeds = await live.call('casino.seeds', {}, 'k');
    expect(seeds.kind === 'ok' && seeds.value.seeds).toEqual([
      { seedHash: 'd'.repeat(64), seed: null },
      { seedHash: 'a'.repeat(64), seed: 'c'.repeat(64) },
    ]);
    const refused = await live.call('casino.withdraw', { amountMicro: 10_000n, address: `0x${'1'.repeat(40)}` }, 'k');
    expect(refused.kind === 'refused' && refused.refusal).toMatchObject({
      status: 400,
      name: 'minimum_withdrawal',
      message: 'Minimum withdrawal is $1',
    });
    const seen = new Set(
      deviations.map(
        (deviation) =>
          `${deviation.op} ${deviation.deviation.kind} ${deviation.deviation.field}${deviation.deviation.documented ? ' (documented)' : ''}`,
      ),
    );
    expect([...seen].sort()).toEqual([
      'casino.balance renamed balance_usd (documented)',
      'casino.rotate renamed previous_seed (documented)',
      'casino.rotate renamed previous_seed.seed (documented)',
      'casino.rotate renamed previous_seed.seed_hash (documented)',
      'casino.seeds renamed seeds[0].seed (documented)',
      'casino.seeds renamed seeds[0].seed_hash (documented)',
      'casino.seeds renamed seeds[1].seed (documented)',
      'casino.seeds renamed seeds[1].seed_hash (documented)',
      'casino.withdraw error-shape code (documented)',
      'faucet.claim renamed credited (documented)',
    ]);
  });

  test('a rotation with no active seed (DEPLOYED.md §2.7): nothing revealed, and no field reported missing', async () => {
    // Before, the documented `{message: "No active seed to rotate"}` raised a minor
    // shape:casino.rotate:missing:previous_seed in every audit of an account that had not bet.
    const url = await deployedStandIn();
    const clock = fakeClock();
    const deviations: CallDeviation[] = [];
    const live = session(deployedTarget(url), clock, deviations);
    const rotated = await live.call('casino.rotate', {}, 'fresh');
    expect(rotated.kind === 'ok' && rotated.value).toEqual({ revealedSeed: null, revealedSeedHash: null });
    expect(deviations.filter((deviation) => deviation.op === 'casino.rotate')).toEqual([]);
  });

  test('the history and an audit trail as DEPLOYED.md gives them: a page of ids, the bet without parameters, the seed hidden', async () => {
    const url = await deployedStandIn();
    const clock = fakeClock();
    const deviations: CallDeviation[] = [];
    const live = session(deployedTarget(url), clock, deviations);
    const page = await live.call('casino.history', { offset: 0, limit: 500 }, 'k');
    expect(page.kind === 'ok' && page.value).toEqual({ betIds: ['bet_1', 'bet_0'], total: 3, hasMore: true });
    const trail = await live.call('casino.audit', { betId: 'bet_0' }, 'k');
    // The deployment rounds amount_won to 2 dp (a display field: DISPLAY_ROUNDING), so the bet says so.
    expect(trail.kind === 'ok' && trail.value).toEqual({
      params: null,
      revealedSeed: null,
      bet: {
        betId: 'bet_0',
        game: 'coin_flip',
        amountMicro: 10_000n,
        paidMicro: 0n,
        multiplier: 0,
        won: false,
        result: { side_chosen: 'tails', outcome: 'heads', roll: 25.73 },
        clientSeed: 'c',
        nonce: 0,
        seedHash: 'a'.repeat(64),
        resultHash: 'b'.repeat(64),
        balanceAfterMicro: null,
        paidPlaces: 2,
      },
    });
    expect(deviations.filter((deviation) => !deviation.deviation.documented)).toEqual([]);
    expect(deviations.map((deviation) => deviation.deviation.field).sort()).toEqual([
      'amount_won',
      'fairness.client_seed',
      'fairness.nonce',
      'fairness.result_hash',
      'fairness.server_seed',
      'fairness.server_seed_hash',
      'pagination.total',
      'payout_multiplier',
      'result',
    ]);
  });

  test('a target that does not speak its declared dialect: missing and unknown fields, an unreadable answer, never a crash', async () => {
    const url = await deployedStandIn();
    const clock = fakeClock();
    const deviations: CallDeviation[] = [];
    const live = session({ ...deployedTarget(url), services: { casino: { url, dialect: 'A' } } }, clock, deviations);
    const balance = await live.call('casino.balance', {}, 'k');
    expect(balance.kind).toBe('unreadable');
    expect(
      deviations.map((deviation) => [
        deviation.deviation.kind,
        deviation.deviation.field,
        deviation.deviation.required,
      ]),
    ).toEqual([
      ['missing', 'balance', true],
      ['unknown', 'balance_usd', false],
      ['unknown', 'lifetime', false],
      ['unknown', 'risk_factor', false],
      ['unknown', 'tier', false],
    ]);
    const notFound = await live.call('casino.games', {}, 'k');
    expect(notFound.kind === 'refused' && notFound.refusal.name).toBe('not_found');
    expect(deviations.at(-1)?.deviation).toMatchObject({ kind: 'error-shape', field: 'code', documented: false });
  });

  test('a limit paces calls evenly; a 429 without Retry-After is waited out and sent again', async () => {
    let calls = 0;
    const server = createServer((_request, response) => {
      calls += 1;
      const [status, body] =
        calls === 2
          ? [429, { error: 'rate_limited', message: 'Too many requests. Limit: 10 per 60s' }]
          : [200, { agent_id: 'ag_x', balance_usd: 1 }];
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const clock = fakeClock();
    const live = session(deployedTarget(url, { 'casino.balance': { perMinute: 10 } }), clock);
    for (let index = 0; index < 3; index++) expect((await live.call('casino.balance', {}, 'k')).kind).toBe('ok');
    expect(calls).toBe(4);
    // Slots 6.001 s apart: 10 in one fixed window, the 11th after its closing instant.
    expect(clock.slept).toEqual([6_001, 5_000, 1_001, 6_001]);
    expect(live.rateLimited.get('casino.balance')).toEqual({ count: 1, withRetryAfter: 0 });
  });

  test('operations in one bucket share one pace: a bet and a balance read at 10/min each are 6 s apart in all', async () => {
    const server = createServer((_request, response) => {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ agent_id: 'ag_x', balance_usd: 1 }));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const clock = fakeClock();
    const shared = { perMinute: 10, bucket: 'games' };
    const live = session(deployedTarget(url, { 'casino.balance': shared, 'casino.seeds': shared }), clock);
    await live.call('casino.balance', {}, 'k');
    await live.call('casino.seeds', {}, 'k');
    await live.call('casino.balance', {}, 'k');
    // One slot every 6.001 s across both operations (apart, each would have gone at once the first time).
    expect(clock.slept).toEqual([6_001, 6_001]);
  });

  test('a 503 with Retry-After (load shed) is waited out and sent again; a 503 without it is an answer', async () => {
    let calls = 0;
    const server = createServer((_request, response) => {
      calls += 1;
      if (calls === 1)
        response
          .writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' })
          .end(JSON.stringify({ error: 'overloaded, retry later', code: 'SERVICE_UNAVAILABLE' }));
      else if (calls === 3)
        response
          .writeHead(503, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'down', code: 'SERVICE_UNAVAILABLE' }));
      else
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ agent_id: 'ag_x', balance_usd: 1 }));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const clock = fakeClock();
    const live = session(deployedTarget(url, {}), clock);
    expect((await live.call('casino.balance', {}, 'k')).kind).toBe('ok');
    expect(calls).toBe(2);
    expect(clock.slept).toEqual([2_000]);
    expect(live.shed.get('casino.balance')).toBe(1);
    const refused = await live.call('casino.balance', {}, 'k');
    expect(refused.kind).toBe('refused');
    expect(calls).toBe(3);
    expect(live.shed.get('casino.balance')).toBe(1);
  });
});
