// afp serve --dialect deployed: the deployment's wire (spec/DEPLOYED.md) over afp's own services.
// Real listeners on loopback (port 0), real HTTP, the manual clock; the example client and the CLI
// run as child processes on Node 24.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve-flags.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { openLiveAccount } from '../../src/live/live-account.ts';
import { LiveSession, type CallDeviation } from '../../src/live/live-session.ts';
import { isRefusal } from '../../src/live/operations.ts';
import { runCliChild, type CliRun } from '../fixtures/cli-child.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { TRUST_LOOPBACK_ARGS } from '../fixtures/serve-child.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const ROOT = join(import.meta.dirname, '..', '..');
const CLIENT = join(ROOT, 'test', 'fixtures', 'deployed-example-client.mjs');
const ADDRESS = '0x' + 'ab'.repeat(20);

const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 0 });
});

interface Served {
  readonly handle: ServeHandle;
  readonly casino: string;
  readonly faucet: string;
  readonly escrow: string;
}

async function serve(defects: readonly DefectName[] = []): Promise<Served> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    seed: '7',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    defects,
    log: () => undefined,
  });
  handles.push(handle);
  return {
    handle,
    casino: handle.urls.casino as string,
    faucet: handle.urls.faucet as string,
    escrow: handle.urls.escrow as string,
  };
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown>;
}

async function call(
  method: string,
  url: string,
  options: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined || options.raw !== undefined) headers['content-type'] = 'application/json';
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

async function register(served: Served, ip = '203.0.113.1'): Promise<{ agentId: string; key: string }> {
  const answer = await call('POST', `${served.casino}/api/v1/auth/register`, {
    body: { agent_name: 'test' },
    headers: { 'x-forwarded-for': ip },
  });
  expect(answer.status).toBe(201);
  return { agentId: answer.body['agent_id'] as string, key: answer.body['api_key'] as string };
}

/** A registered agent with `amount` USDC, deposited through the admin door and confirmed. */
async function funded(served: Served, amount: string): Promise<{ agentId: string; key: string }> {
  const agent = await register(served);
  const deposit = await call('POST', `${served.casino}/_afp/casino/deposit`, {
    body: { agent_id: agent.agentId, chain: 'base', amount },
  });
  expect(deposit.status).toBe(200);
  await call('POST', `${served.casino}/_afp/clock`, { body: { to_ms: deposit.body['confirm_at_ms'] } });
  return agent;
}

const GAME_BODIES: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['coin-flip', { side: 'heads' }],
  ['dice', { direction: 'over', threshold: 50 }],
  ['multiplier', { target_multiplier: 2 }],
  ['roulette', { bet_type: 'red' }],
  ['custom', { win_probability: 50 }],
  ['blackjack', { action: 'stand' }],
  ['crash', { cash_out_at: 2 }],
  ['plinko', { rows: 8, risk: 'low' }],
  ['slots', {}],
  ['simple-dice', { pick: 3 }],
  ['hilo', { guess: 'higher' }],
  ['keno', { picks: [1, 2, 3] }],
  ['wheel', {}],
  ['scratch-card', {}],
  ['mines', { mines: 3, reveals: 3 }],
  ['baccarat', { bet_on: 'banker' }],
];
const BET_KEYS = [
  'bet_id',
  'game',
  'amount_bet',
  'result',
  'won',
  'payout_multiplier',
  'amount_won',
  'new_balance',
  'proof',
  'kelly',
  '_info',
];

describe('afp serve --dialect deployed, the published example client', () => {
  test('runs unmodified against the CLI-served stand-in and prints every step', async () => {
    const lines: string[] = [];
    const run = await runServe(
      [
        'serve',
        ...TRUST_LOOPBACK_ARGS,
        '--dialect',
        'deployed',
        '--port',
        '0',
        '--clock',
        'manual',
        '--seed',
        '4',
        '--start',
        '2025-03-01T00:00:00Z',
      ],
      async (stdout, stop) => {
        const url = (mount: string): string =>
          new RegExp(`^${mount}: (http://127\\.0\\.0\\.1:\\d+)$`, 'm').exec(stdout)?.[1] ?? 'http://invalid';
        const mounts = (await (await fetch(`${url('casino')}/_afp/mounts`)).json()) as Record<string, unknown>;
        expect(mounts).toEqual({
          dialect: 'deployed',
          mounts: {
            casino: url('casino'),
            faucet: url('faucet'),
            escrow: url('escrow'),
            trading: url('trading'),
            domains: url('domains'),
            wallet: url('wallet'),
          },
          base_urls: {
            casino: `${url('casino')}/api/v1`,
            faucet: url('faucet'),
            escrow: url('escrow'),
            trading: `${url('trading')}/v1`,
            domains: `${url('domains')}/v1`,
            wallet: `${url('wallet')}/v1`,
          },
          fairness: 'deployed',
          limits: 'deployed',
          forwarded_for: 'trusted',
        });
        const client = await runNode([CLIENT, url('casino'), url('faucet'), url('escrow')]);
        expect(client.stderr).toBe('');
        expect(client.code).toBe(0);
        lines.push(...client.stdout.trim().split('\n'));
        stop();
      },
    );
    expect(run.code).toBe(0);
    expect(
      run.stdout
        .split('\n')
        .slice(0, 6)
        .map((line) => line.split(': ')[0]),
    ).toEqual(['seed', 'casino', 'faucet', 'escrow', 'trading', 'domains']);
    expect(lines.map((line) => line.split(':')[0])).toEqual([
      'register',
      'register',
      'faucet',
      'bet',
      'escrow create',
      'escrow get',
      'escrow complete',
      'escrow release',
      'escrow get',
      'bob balance',
    ]);
    expect(lines).toContain('faucet: credited 1');
    expect(lines).toContain('escrow create: funded 0.2 commission 0.002');
    expect(lines).toContain('escrow complete: completed');
    expect(lines).toContain('escrow release: released 0.198 to bob');
    expect(lines.at(-2)).toBe('escrow get: released');
    expect(lines.at(-1)).toBe('bob balance: 0.198');
  });

  test('the client exits 1 and says why when the target is not a deployment', async () => {
    const served = await serve();
    const client = await runNode([CLIENT, `${served.casino}/nowhere`, served.faucet, served.escrow]);
    expect(client.code).toBe(1);
    expect(client.stderr).toMatch(
      /^failed: POST .*\/nowhere\/api\/v1\/auth\/register answered 404: \{"error":"not_found"/,
    );
  });

  test('a bad --dialect, or --data with deployed, exits 2 with a clear message', async () => {
    const bad = await runServe(['serve', '--dialect', 'cloud', '--port', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--dialect must be one of documents, deployed, got 'cloud'/);
    expect(parseServeArgs(['--dialect', 'deployed', '--data', 'x.db'], START_MS)).toEqual({
      errors: ["--data is not supported with --dialect deployed (its command log replays the documents' dispatcher)"],
    });
    expect(parseServeArgs(['--dialect', 'deployed', '--port', '65529'], START_MS)).toEqual({
      errors: ["--port must be 0 or 1..65528 (services use P+1..P+7), got '65529'"],
    });
    expect(parseServeArgs(['--dialect=deployed'], START_MS)).toMatchObject({ dialect: 'deployed', port: 8700 });
  });
});

describe('the deployed wire: shapes', () => {
  test('register, balance, games list, every single game, video poker, batch', async () => {
    const served = await serve();
    const agent = await funded(served, '100');
    const balance = await call('GET', `${served.casino}/api/v1/auth/balance`, { key: agent.key });
    expect(balance.body).toMatchObject({
      agent_id: agent.agentId,
      balance_usd: 100,
      tier: 'free',
      risk_factor: 0.25,
      lifetime: { total_deposited: 100, total_wagered: 0 },
    });
    expect(balance.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(
      [...balance.headers.keys()].filter((name) => name.startsWith('x-ratelimit') || name === 'retry-after'),
    ).toEqual([]);
    const games = await call('GET', `${served.casino}/api/v1/games`);
    expect(games.status).toBe(200);
    // The 17 and the parlay (DEPLOYED.md §2.13: "+ parlay").
    expect((games.body['games'] as unknown[]).length).toBe(18);
    expect(games.body['batch_endpoint']).toBe('POST /api/v1/bets/batch');
    for (const [path, params] of GAME_BODIES) {
      const bet = await call('POST', `${served.casino}/api/v1/games/${path}`, {
        key: agent.key,
        body: { amount: 0.1, ...params, agent_name: 'ignored' },
      });
      expect([path, bet.status]).toEqual([path, 200]);
      expect(Object.keys(bet.body).sort()).toEqual([...BET_KEYS].sort());
      expect(bet.body['_info']).toMatchObject({ service: 'agent-casino', version: '1.0.0' });
    }
    const deal = await call('POST', `${served.casino}/api/v1/games/video-poker/deal`, {
      key: agent.key,
      body: { client_seed: 'vp-seed' },
    });
    expect(deal.body).toMatchObject({ phase: 'deal', nonce: expect.any(Number) as number });
    expect((deal.body['cards'] as unknown[])[0]).toEqual({
      rank: expect.any(String) as string,
      suit: expect.stringMatching(/^[♠♥♦♣]$/) as string,
    });
    const draw = await call('POST', `${served.casino}/api/v1/games/video-poker/draw`, {
      key: agent.key,
      body: {
        holds: [true, false, true, false, false],
        nonce: deal.body['nonce'],
        amount: 0.01,
        client_seed: 'vp-seed',
      },
    });
    expect(draw.status).toBe(200);
    // The deployment's extras beside afp's own `result` record (the stand-in plays afp's rules).
    expect(draw.body).toMatchObject({
      game: 'video_poker',
      holds: [true, false, true, false, false],
      poker_hand: expect.any(String) as string,
    });
    expect((draw.body['final_cards'] as unknown[]).slice(0, 1)).toEqual([(deal.body['cards'] as unknown[])[0]]);
    const batch = await call('POST', `${served.casino}/api/v1/bets/batch`, {
      key: agent.key,
      body: {
        bets: [
          { game: 'coin_flip', amount: 0.01 },
          { game: 'dice', amount: 0.02 },
          { game: 'baccarat', amount: 0.01 },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(batch.body['summary']).toMatchObject({ total: 3, errors: 1, total_wagered: 0.03 });
    expect((batch.body['results'] as Array<Record<string, unknown>>)[2]).toMatchObject({
      error: 'invalid_game',
      message: expect.stringMatching(/^bets\[2\]\.game/) as string,
    });
    expect(batch.body).toHaveProperty('kelly_max_next_bet');
  });

  test('fairness, history, Kelly, stats, tournaments, challenges, gossip', async () => {
    const served = await serve();
    const agent = await funded(served, '50');
    const other = await funded(served, '50');
    const bet = await call('POST', `${served.casino}/api/v1/games/dice`, {
      key: agent.key,
      body: { amount: 0.1, direction: 'under', threshold: 40 },
    });
    const betId = bet.body['bet_id'] as string;
    const early = await call('POST', `${served.casino}/api/v1/fairness/verify`, {
      key: agent.key,
      body: { bet_id: betId },
    });
    expect(early.body).toMatchObject({ bet_id: betId, status: 'seed_not_yet_revealed' });
    expect((await call('GET', `${served.casino}/api/v1/fairness/seed-hash`, { key: agent.key })).body).toHaveProperty(
      'how_to_verify',
    );
    const rotated = await call('POST', `${served.casino}/api/v1/fairness/rotate`, { key: agent.key });
    expect(rotated.body).toMatchObject({
      previous_seed: { seed: expect.stringMatching(/^[0-9a-f]{64}$/) as string, bets_made: 1 },
      new_seed_hash: expect.any(String) as string,
    });
    const verified = await call('POST', `${served.casino}/api/v1/fairness/verify`, {
      key: agent.key,
      body: { bet_id: betId },
    });
    expect(verified.body).toMatchObject({ bet_id: betId, verified: true, proof: { hash_matches: true } });
    const bySeed = await call('POST', `${served.casino}/api/v1/fairness/verify`, {
      key: agent.key,
      body: {
        server_seed: (rotated.body['previous_seed'] as Record<string, unknown>)['seed'],
        server_seed_hash: (rotated.body['previous_seed'] as Record<string, unknown>)['seed_hash'],
        client_seed: (bet.body['proof'] as Record<string, unknown>)['client_seed'],
        nonce: 0,
      },
    });
    expect(bySeed.body).toMatchObject({
      verified: true,
      hash_matches: true,
      result_hash: (bet.body['proof'] as Record<string, unknown>)['result_hash'],
    });
    expect(
      (await call('POST', `${served.casino}/api/v1/fairness/verify`, { key: agent.key, body: {} })).body,
    ).toMatchObject({ error: 'missing_params' });
    const audit = await call('GET', `${served.casino}/api/v1/fairness/audit/${betId}`, { key: agent.key });
    expect(audit.body).toMatchObject({ bet_id: betId, fairness: { seed_revealed: true } });
    expect(await call('GET', `${served.casino}/api/v1/fairness/audit/${betId}`, { key: other.key })).toMatchObject({
      status: 403,
      body: { error: 'forbidden' },
    });
    const seeds = await call('GET', `${served.casino}/api/v1/fairness/seeds`, { key: agent.key });
    expect((seeds.body['seeds'] as Array<Record<string, unknown>>).map((seed) => [seed['id'], seed['active']])).toEqual(
      [
        [2, true],
        [1, false],
      ],
    );
    const history = await call('GET', `${served.casino}/api/v1/bets/history?limit=5&game=dice&bogus=1`, {
      key: agent.key,
    });
    expect(history.body).toMatchObject({
      bets: [{ id: betId, game: 'dice', amount: 0.1 }],
      pagination: { total: 1, limit: 5, offset: 0, has_more: false },
    });
    expect((await call('GET', `${served.casino}/api/v1/kelly/limits`, { key: agent.key })).body).toHaveProperty(
      'limits',
    );
    expect(
      (
        await call('PUT', `${served.casino}/api/v1/kelly/config`, {
          key: agent.key,
          body: { risk_factor: 0.5, note: 'x' },
        })
      ).status,
    ).toBe(200);
    expect((await call('GET', `${served.casino}/api/v1/stats/me`, { key: agent.key })).status).toBe(200);
    expect((await call('GET', `${served.casino}/api/v1/stats/leaderboard`)).status).toBe(200);
    expect((await call('GET', `${served.casino}/api/v1/gossip`)).status).toBe(200);
    const startsAt = START_MS / 1000 + 7_200;
    const created = await call('POST', `${served.casino}/api/v1/tournaments/create`, {
      key: agent.key,
      body: {
        name: 'Cup',
        game: 'coin_flip',
        entry_fee_usdc: 0,
        prize_pool_usdc: 1,
        max_agents: 10,
        starts_at: startsAt,
        ends_at: startsAt + 3_600,
      },
    });
    expect(created).toMatchObject({
      status: 201,
      body: { name: 'Cup', prize_pool: 1, starts_at: startsAt, status: 'upcoming' },
    });
    const tournamentId = created.body['tournament_id'] as string;
    expect((await call('GET', `${served.casino}/api/v1/tournaments`)).body).toMatchObject({
      tournaments: [{ id: tournamentId, agent_count: 0 }],
    });
    expect(
      (await call('POST', `${served.casino}/api/v1/tournaments/${tournamentId}/enter`, { key: other.key })).body,
    ).toMatchObject({ tournament_id: tournamentId, agent_id: other.agentId });
    expect(
      await call('POST', `${served.casino}/api/v1/tournaments/${tournamentId}/play`, {
        key: other.key,
        body: { amount: 0.01, side: 'heads' },
      }),
    ).toMatchObject({ status: 400, body: { error: 'tournament_not_active' } });
    expect((await call('GET', `${served.casino}/api/v1/tournaments/${tournamentId}`)).body).toMatchObject({
      tournament: { id: tournamentId },
      leaderboard: [{ agent_id: other.agentId }],
    });
    const challenge = await call('POST', `${served.casino}/api/v1/challenges`, {
      key: agent.key,
      body: { challenged_agent_id: other.agentId, game: 'coin_flip', amount: 0.5 },
    });
    expect(challenge).toMatchObject({
      status: 201,
      body: { challenger_id: agent.agentId, challenged_id: other.agentId, status: 'pending' },
    });
    expect((await call('GET', `${served.casino}/api/v1/challenges`, { key: other.key })).body).toMatchObject({
      incoming: [{ challenge_id: challenge.body['challenge_id'] }],
      outgoing: [],
      resolved: [],
    });
    const accepted = await call(
      'POST',
      `${served.casino}/api/v1/challenges/${challenge.body['challenge_id'] as string}/accept`,
      { key: other.key, body: { bet_type: 'red' } },
    );
    expect(accepted.body).toMatchObject({
      challenge_id: challenge.body['challenge_id'],
      house_cut: 0.02,
      payout_to_winner: 0.98,
    });
  });
});

describe('the deployed wire: errors and ignored fields', () => {
  test('401, 404, invalid_json, bet and escrow refusals in the deployment shapes; a refusal changes nothing', async () => {
    const served = await serve();
    expect(await call('GET', `${served.casino}/api/v1/auth/balance`)).toMatchObject({
      status: 401,
      body: { error: 'unauthorized', message: 'Missing or invalid Authorization header. Use: Bearer {api_key}' },
    });
    expect(await call('GET', `${served.casino}/api/v1/auth/balance`, { key: 'sk_live_nope' })).toMatchObject({
      status: 401,
      body: { error: 'unauthorized', message: 'Invalid API key' },
    });
    expect((await call('POST', `${served.escrow}/escrow/create`, { body: {} })).body).toEqual({
      error: 'unauthorized',
      _info: expect.objectContaining({ service: 'agent-escrow' }) as unknown,
    });
    expect((await call('GET', `${served.faucet}/nope`)).body).toEqual({
      error: 'not_found',
      _info: expect.objectContaining({ service: 'agent-faucet' }) as unknown,
    });
    const agent = await register(served);
    await call('POST', `${served.faucet}/faucet/claim`, { body: { agent_casino_id: agent.agentId } });
    const bad = await call('POST', `${served.casino}/api/v1/games/dice`, { key: agent.key, raw: '{"amount": 0.1,' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'invalid_json' } });
    expect(bad.body).not.toHaveProperty('code');
    expect(
      await call('POST', `${served.casino}/api/v1/games/dice`, {
        key: agent.key,
        body: { amount: 0.001, direction: 'over', threshold: 50 },
      }),
    ).toMatchObject({ status: 400, body: { error: 'minimum_bet' } });
    expect(
      await call('POST', `${served.casino}/api/v1/games/dice`, {
        key: agent.key,
        body: { amount: 0.9, direction: 'over', threshold: 50 },
      }),
    ).toMatchObject({ status: 400, body: { error: 'kelly_limit_exceeded', max_bet: expect.any(Number) as number } });
    expect(
      await call('POST', `${served.casino}/api/v1/games/dice`, {
        key: agent.key,
        body: { amount: 0.1, direction: 'sideways', threshold: 50 },
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_params' } });
    expect(
      await call('POST', `${served.casino}/api/v1/auth/withdraw`, {
        key: agent.key,
        body: { amount: 5, address: ADDRESS },
      }),
    ).toMatchObject({ status: 400, body: { error: 'insufficient_balance' } });
    expect(
      await call('POST', `${served.casino}/api/v1/auth/withdraw`, {
        key: agent.key,
        body: { amount: 0.5, address: ADDRESS },
      }),
    ).toMatchObject({ status: 400, body: { error: 'minimum_withdrawal' } });
    expect(
      await call('POST', `${served.casino}/api/v1/auth/withdraw`, {
        key: agent.key,
        body: { amount: 200_000, address: ADDRESS },
      }),
    ).toMatchObject({ status: 400, body: { error: 'maximum_withdrawal' } });
    expect(
      await call('POST', `${served.escrow}/escrow/create`, {
        key: agent.key,
        body: { amount_usd: 5, description: 'too much', counterparty_agent_id: (await register(served)).agentId },
      }),
    ).toMatchObject({ status: 402, body: { error: 'insufficient_balance' } });
    expect(
      await call('POST', `${served.escrow}/escrow/create`, {
        key: agent.key,
        body: { amount_usd: 0.5, description: 'self', counterparty_agent_id: agent.agentId },
      }),
    ).toMatchObject({ status: 400, body: { error: 'self_escrow' } });
    expect(
      await call('POST', `${served.escrow}/escrow/create`, {
        key: agent.key,
        body: { amount_usd: 0.5, description: 'ghost', counterparty_agent_id: 'ag_000000000000' },
      }),
    ).toMatchObject({ status: 404, body: { error: 'counterparty_not_found' } });
    expect(
      await call('POST', `${served.faucet}/faucet/claim`, {
        body: { agent_casino_id: agent.agentId },
        headers: { 'x-forwarded-for': '198.51.100.9' },
      }),
    ).toMatchObject({ status: 409, body: { error: 'already_claimed' } });
    expect(await call('POST', `${served.faucet}/faucet/claim`, { body: {} })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect((await call('GET', `${served.casino}/api/v1/auth/balance`, { key: agent.key })).body['balance_usd']).toBe(1);
  });

  test('GET /faucet/stats counts the claims, the agents that claimed and the money paid (DEPLOYED.md §3), no key', async () => {
    const served = await serve();
    const stats = async (): Promise<Record<string, unknown>> => {
      const { _info: _, ...body } = (await call('GET', `${served.faucet}/faucet/stats`)).body;
      return body;
    };
    expect(await stats()).toEqual({ total_claims: 0, total_agents: 0, total_value_usd: 0, avg_per_agent: 0 });
    const first = await register(served);
    const second = await register(served);
    for (const [agent, ip] of [
      [first, '198.51.100.21'],
      [second, '198.51.100.22'],
    ] as const)
      expect(
        (
          await call('POST', `${served.faucet}/faucet/claim`, {
            body: { agent_casino_id: agent.agentId },
            headers: { 'x-forwarded-for': ip },
          })
        ).status,
      ).toBe(200);
    expect(await stats()).toEqual({ total_claims: 2, total_agents: 2, total_value_usd: 2, avg_per_agent: 1 });
    // A refused claim (already claimed) changes nothing; the stats are read-only.
    await call('POST', `${served.faucet}/faucet/claim`, {
      body: { agent_casino_id: first.agentId },
      headers: { 'x-forwarded-for': '198.51.100.23' },
    });
    expect(await stats()).toEqual({ total_claims: 2, total_agents: 2, total_value_usd: 2, avg_per_agent: 1 });
    expect((await call('POST', `${served.faucet}/faucet/stats`)).status).toBe(404);
  });

  test('unknown request fields are ignored, as the deployment ignores them', async () => {
    const served = await serve();
    const agent = await register(served);
    const extras = { agent_name: 'bot', framework: 'langchain', metadata: { a: 1 } };
    expect(
      (await call('POST', `${served.faucet}/faucet/claim`, { body: { agent_casino_id: agent.agentId, ...extras } }))
        .status,
    ).toBe(200);
    expect(
      (
        await call('POST', `${served.casino}/api/v1/games/coin-flip?utm=1`, {
          key: agent.key,
          body: { side: 'tails', amount: 0.01, ...extras },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('POST', `${served.casino}/api/v1/bets/batch`, {
          key: agent.key,
          body: { bets: [{ game: 'coin_flip', amount: 0.01, ...extras }], ...extras },
        })
      ).body['summary'],
    ).toMatchObject({ total: 1, errors: 0 });
    expect(
      (await call('POST', `${served.casino}/api/v1/fairness/rotate`, { key: agent.key, body: extras })).status,
    ).toBe(200);
  });
});

describe('the deployed wire: fixed-window limits', () => {
  test('batch 10 per agent per minute, then 429 rate_limit_exceeded with reset_at; no limit headers; a new window after 60 s', async () => {
    const served = await serve();
    const agent = await funded(served, '20');
    const body = { bets: [{ game: 'coin_flip', amount: 0.01, side: 'heads' }] };
    for (let index = 0; index < 10; index++)
      expect((await call('POST', `${served.casino}/api/v1/bets/batch`, { key: agent.key, body })).status).toBe(200);
    const refused = await call('POST', `${served.casino}/api/v1/bets/batch`, { key: agent.key, body });
    expect(refused).toMatchObject({
      status: 429,
      body: { error: 'rate_limit_exceeded', message: 'Max 10 batch requests/min' },
    });
    const resetAtMs = Date.parse(refused.body['reset_at'] as string);
    expect(resetAtMs).toBeGreaterThan(START_MS);
    expect(
      [...refused.headers.keys()].filter((name) => name.startsWith('x-ratelimit') || name === 'retry-after'),
    ).toEqual([]);
    expect(
      (
        await call('POST', `${served.casino}/api/v1/games/coin-flip`, {
          key: agent.key,
          body: { side: 'heads', amount: 0.01 },
        })
      ).status,
    ).toBe(200);
    await call('POST', `${served.casino}/_afp/clock`, { body: { to_ms: resetAtMs + 1 } });
    expect((await call('POST', `${served.casino}/api/v1/bets/batch`, { key: agent.key, body })).status).toBe(200);
  });

  test('single games share one 60 per minute bucket per agent', async () => {
    const served = await serve();
    const agent = await funded(served, '20');
    for (let index = 0; index < 60; index++) {
      const [path, params] =
        index % 2 === 0 ? ['coin-flip', { side: 'heads' }] : ['dice', { direction: 'over', threshold: 50 }];
      expect(
        (
          await call('POST', `${served.casino}/api/v1/games/${path}`, {
            key: agent.key,
            body: { amount: 0.01, ...params },
            headers: { 'x-forwarded-for': `10.0.0.${index}` },
          })
        ).status,
      ).toBe(200);
    }
    expect(
      await call('POST', `${served.casino}/api/v1/games/slots`, { key: agent.key, body: { amount: 0.1 } }),
    ).toMatchObject({ status: 429, body: { error: 'rate_limit_exceeded', message: 'Max 60 game requests/min' } });
  });

  test('register 10 per IP per minute (429 rate_limited), another IP unaffected; faucet one claim per IP per 24 h', async () => {
    const served = await serve();
    for (let index = 0; index < 10; index++) await register(served, '192.0.2.7');
    const refused = await call('POST', `${served.casino}/api/v1/auth/register`, {
      body: {},
      headers: { 'x-forwarded-for': '192.0.2.7, 10.0.0.1' },
    });
    expect(refused).toMatchObject({
      status: 429,
      body: { error: 'rate_limited', message: 'Too many requests. Limit: 10 per 60s' },
    });
    const first = await register(served, '192.0.2.8');
    const second = await register(served, '192.0.2.8');
    expect(
      (await call('POST', `${served.faucet}/faucet/claim`, { body: { agent_casino_id: first.agentId } })).status,
    ).toBe(200);
    expect(
      await call('POST', `${served.faucet}/faucet/claim`, { body: { agent_casino_id: second.agentId } }),
    ).toMatchObject({ status: 429, body: { error: 'ip_rate_limited' } });
    expect(
      (
        await call('POST', `${served.faucet}/faucet/claim`, {
          body: { agent_casino_id: second.agentId },
          headers: { 'x-real-ip': '198.51.100.4' },
        })
      ).status,
    ).toBe(200);
  });
});

describe("afp's own live reading of the deployment (src/live/dialects/deployed) against the stand-in", () => {
  test('every operation reads, with only the documented deviations from the documents', async () => {
    const served = await serve(['batch-summary-zero']);
    let nowMs = 1_000_000;
    const clock: WaitClock = {
      nowMs: () => nowMs,
      sleep: async (ms) => {
        nowMs += ms;
      },
    };
    const deviations: CallDeviation[] = [];
    const live = new LiveSession({
      target: {
        name: 'afp serve --dialect deployed',
        source: served.casino,
        afpServe: true,
        adminUrl: served.casino,
        services: {
          casino: { url: served.casino, dialect: 'deployed' },
          faucet: { url: served.faucet, dialect: 'deployed' },
          escrow: { url: served.escrow, dialect: 'deployed' },
        },
        register: { service: 'casino' },
        funding: { method: 'faucet' },
        limits: {},
        fairness: 'deployed',
      },
      clock,
      deadline: new Deadline(clock, 3600),
      onDeviation: (deviation) => deviations.push(deviation),
    });
    const account = await openLiveAccount({
      session: live,
      key: null,
      fundMicro: 1_000_000n,
      clock,
      deadline: new Deadline(clock, 60),
    });
    expect(account.ok).toBe(true);
    if (!account.ok) return;
    const key = account.value.apiKey;
    const balance = await live.call('casino.balance', {}, key);
    expect(balance.kind === 'ok' && balance.value.balanceMicro).toBe(1_000_000n);
    const batch = await live.call(
      'casino.batch',
      {
        bets: [
          { game: 'dice', amountMicro: 10_000n, clientSeed: 'c', params: { direction: 'over', threshold: 50 } },
          { game: 'dice', amountMicro: 900_000n, clientSeed: 'c', params: { direction: 'over', threshold: 50 } },
        ],
      },
      key,
    );
    expect(batch.kind).toBe('ok');
    if (batch.kind !== 'ok') return;
    expect(
      batch.value.results.map((result) => (isRefusal(result) ? `refused ${result.name}` : `bet ${result.game}`)),
    ).toEqual(['bet dice', 'refused kelly_limit_exceeded']);
    expect(batch.value.summary?.totalWageredMicro).toBe(0n);
    const rotated = await live.call('casino.rotate', {}, key);
    expect(rotated.kind === 'ok' && /^[0-9a-f]{64}$/.test(rotated.value.revealedSeed ?? '')).toBe(true);
    const seeds = await live.call('casino.seeds', {}, key);
    expect(seeds.kind === 'ok' && seeds.value.seeds.map((seed) => seed.seed !== null)).toEqual([false, true]);
    const refused = await live.call('casino.withdraw', { amountMicro: 10_000n, address: `0x${'1'.repeat(40)}` }, key);
    expect(refused.kind === 'refused' && refused.refusal).toMatchObject({ status: 400, name: 'minimum_withdrawal' });
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
});

describe('deployed-style defects, observable on the wire', () => {
  test('payout-table-differs: a winning coin flip pays 2.00x (1.99x, DEPLOYED.md §2.5, without the defect)', async () => {
    for (const [defects, expected] of [
      [['payout-table-differs'], 2],
      [[], 1.99],
    ] as const) {
      const served = await serve(defects);
      const agent = await funded(served, '100');
      const multipliers = new Set<unknown>();
      for (let index = 0; index < 20; index++) {
        const bet = await call('POST', `${served.casino}/api/v1/games/coin-flip`, {
          key: agent.key,
          body: { side: 'heads', amount: 0.01 },
        });
        if (bet.body['won'] === true) multipliers.add(bet.body['payout_multiplier']);
      }
      expect([...multipliers]).toEqual([expected]);
    }
  });

  test('keno-short-draw: 80 is never drawn, and the revealed seed does not verify the bets', async () => {
    const served = await serve(['keno-short-draw']);
    const agent = await funded(served, '100');
    const drawn = new Set<number>();
    for (let index = 0; index < 40; index++) {
      const bet = await call('POST', `${served.casino}/api/v1/games/keno`, {
        key: agent.key,
        body: { picks: [80, 1], amount: 0.01 },
      });
      for (const number of (bet.body['result'] as { drawn: number[] }).drawn) drawn.add(number);
    }
    expect(Math.max(...drawn)).toBe(79);
    await call('POST', `${served.casino}/api/v1/fairness/rotate`, { key: agent.key });
    const history = await call('GET', `${served.casino}/api/v1/bets/history?limit=40`, { key: agent.key });
    const verdicts = await Promise.all(
      (history.body['bets'] as Array<{ id: string }>).map(
        async (bet) =>
          (await call('POST', `${served.casino}/api/v1/fairness/verify`, { key: agent.key, body: { bet_id: bet.id } }))
            .body['verified'],
      ),
    );
    expect(verdicts.filter((verified) => verified === false).length).toBeGreaterThan(30);
  });

  test('withdraw-no-balance-check: a withdrawal past the balance succeeds and the balance goes negative', async () => {
    const served = await serve(['withdraw-no-balance-check']);
    const agent = await register(served);
    await call('POST', `${served.faucet}/faucet/claim`, { body: { agent_casino_id: agent.agentId } });
    const withdrawal = await call('POST', `${served.casino}/api/v1/auth/withdraw`, {
      key: agent.key,
      body: { amount: 5, address: ADDRESS },
    });
    expect(withdrawal).toMatchObject({
      status: 200,
      body: { status: 'completed', amount: 5, fee: 0.5, new_balance: -4.5 },
    });
    expect(
      await call('POST', `${served.casino}/api/v1/games/coin-flip`, {
        key: agent.key,
        body: { side: 'heads', amount: 0.01 },
      }),
    ).toMatchObject({ status: 400, body: { error: 'insufficient_balance' } });
  });

  test('batch-summary-zero: total_wagered is 0 and net_pnl equals total_won', async () => {
    const served = await serve(['batch-summary-zero']);
    const agent = await funded(served, '10');
    const batch = await call('POST', `${served.casino}/api/v1/bets/batch`, {
      key: agent.key,
      body: {
        bets: [
          { game: 'coin_flip', amount: 0.1 },
          { game: 'dice', amount: 0.1 },
          { game: 'slots', amount: 0.1 },
        ],
      },
    });
    const summary = batch.body['summary'] as Record<string, number>;
    expect(summary['total_wagered']).toBe(0);
    expect(summary['net_pnl']).toBe(summary['total_won']);
    expect(batch.body['balance_after']).toBeCloseTo(10 - 0.3 + (summary['total_won'] ?? 0), 6);
  });
});

interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
}

function runNode(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
  });
}

const runServe = (
  args: readonly string[],
  onReady?: (stdout: string, stop: () => void) => Promise<void>,
): Promise<CliRun> => runCliChild(args, onReady === undefined ? {} : { onReady });
