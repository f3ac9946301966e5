// One valid request for every row of the route table, in an order where each succeeds, through the
// in-process dispatcher of a fixed-seed platform at fixed instants: the same answers every run.
// The OpenAPI tests hold every documented success schema to these answers, and
// scripts/gen-openapi-examples.ts takes the documents' examples from them (byte-stable). The
// deployed dialect has its own tour (`deployedOpenApiTour`) over the rows openapi-deployed.ts
// defines; both end with the answers the `default` response stands for (405, 413, 415, fault windows).
import type { Failure, JsonObject } from '../../src/core/errors.ts';
import { readJsonBody } from '../../src/http/body.ts';
import { DeployedDispatcher } from '../../src/http/deployed/deployed-dispatcher.ts';
import { Dispatcher, type ApiResponse } from '../../src/http/dispatcher.ts';
import type { Mount, Route } from '../../src/http/route.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform, type FaultWindow } from '../../src/platform/platform.ts';
import { casinoTour } from './casino/casino-world.ts';
import { domainsTour } from './domains/domains-tour.ts';
import { walletTour } from './wallet/wallet-tour.ts';
import { tradingTour } from './trading/trading-tour.ts';
import { deployedWalletTour } from './wallet/deployed-wallet-tour.ts';

export const TOUR_START_MS = Date.UTC(2026, 0, 1);

/** What was sent (path parameters already in the path) and what came back. */
export interface TourExchange {
  readonly mount: Mount;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** The API key sent, if any. */
  readonly key: string | undefined;
  readonly atMs: number;
  readonly response: ApiResponse;
}

interface SendOptions {
  key?: string;
  body?: unknown;
  query?: Record<string, string>;
  /** How far the clock moves before the request (default 1 s: rate limits refill). */
  advanceMs?: number;
  /** What the HTTP edge found wrong with the body (413, 415, malformed JSON). */
  bodyFailure?: Failure | undefined;
  /** The originating IP, as X-Forwarded-For (default 127.0.0.1). */
  ip?: string;
}

/** A fault window per service, ten days after the start: the tour ends inside it (the `default` examples). */
const FAULT_FROM_MS = TOUR_START_MS + 10 * 86_400_000;
const FAULTS: readonly FaultWindow[] = [
  { service: 'faucet', fromMs: FAULT_FROM_MS, untilMs: FAULT_FROM_MS + 3_600_000, status: 503 },
  { service: 'escrow', fromMs: FAULT_FROM_MS, untilMs: FAULT_FROM_MS + 3_600_000, status: 503 },
  { service: 'casino', fromMs: FAULT_FROM_MS, untilMs: FAULT_FROM_MS + 3_600_000, status: 500 },
];

type Exchanger = (mount: Mount, method: string, path: string, options?: SendOptions) => ApiResponse;

/** Sends through `dispatcher` at a clock moved per request, recording every exchange. */
function exchanger(
  dispatcher: Dispatcher,
  startMs: number,
  byRow: Map<string, TourExchange[]>,
  all: TourExchange[],
): { exchange: Exchanger; now: () => number } {
  let nowMs = startMs;
  const exchange: Exchanger = (mount, method, path, options = {}) => {
    nowMs += options.advanceMs ?? 1000;
    const headers: Record<string, string> = options.key === undefined ? {} : { authorization: `Bearer ${options.key}` };
    if (options.ip !== undefined) headers['x-forwarded-for'] = options.ip;
    const query = options.query ?? {};
    const request = {
      mount,
      method,
      path,
      query,
      headers,
      body: options.body,
      ip: '127.0.0.1',
      ...(options.bodyFailure === undefined ? {} : { bodyFailure: options.bodyFailure }),
    };
    const response = dispatcher.handle(request, nowMs);
    const entry: TourExchange = {
      mount,
      method,
      path,
      query,
      body: options.body,
      key: options.key,
      atMs: nowMs,
      response,
    };
    all.push(entry);
    if (response.routeId !== null) byRow.set(response.routeId, [...(byRow.get(response.routeId) ?? []), entry]);
    return response;
  };
  return { exchange, now: () => nowMs };
}

/** The edge's own failures for a form body (415) and a body one byte over the limit (413). */
function edgeFailures(platform: Platform): { unsupported: Failure | undefined; tooLarge: Failure | undefined } {
  const failureOf = (text: string, contentType: string): Failure | undefined => {
    const read = readJsonBody(text, contentType, platform.config.maxBodyBytes);
    return 'failure' in read ? read.failure : undefined;
  };
  return {
    unsupported: failureOf('agent_id=dave', 'application/x-www-form-urlencoded'),
    tooLarge: failureOf('x'.repeat(platform.config.maxBodyBytes + 1), 'application/json'),
  };
}

/** Every exchange of the tour, per row id, in the order sent (a few failures at the end, for the error examples), and the platform it left. */
export function openApiTour(): {
  readonly platform: Platform;
  readonly byRow: Map<string, TourExchange[]>;
  readonly all: TourExchange[];
} {
  const platform = new Platform({ seed: 'openapi', startMs: TOUR_START_MS, faults: FAULTS });
  const dispatcher = new Dispatcher(platform, ALL_ROUTES);
  const byRow = new Map<string, TourExchange[]>();
  const all: TourExchange[] = [];
  const { exchange, now } = exchanger(dispatcher, TOUR_START_MS, byRow, all);
  const send = (mount: Mount, method: string, path: string, options: SendOptions = {}): JsonObject =>
    exchange(mount, method, path, options).body;
  const alice = send('faucet', 'POST', '/api/v1/agents/register', { body: { agent_id: 'alice' } })['api_key'] as string;
  const bob = send('api', 'POST', '/register', {
    body: { agent_id: 'bob', referrer: 'alice', metadata: { framework: 'langchain' } },
  })['api_key'] as string;
  send('faucet', 'POST', '/api/v1/faucet/claim', { key: alice });
  send('faucet', 'GET', '/api/v1/faucet/status', { key: alice });
  send('faucet', 'GET', '/api/v1/agents/alice', { key: alice });
  send('api', 'POST', '/claim', { key: alice });
  send('api', 'GET', '/status', { key: bob });
  send('api', 'GET', '/agents', { key: bob, query: { limit: '10' } });
  send('api', 'GET', '/referrals', { key: bob });
  const createA = (): string =>
    send('escrow', 'POST', '/api/v1/escrow/create', {
      key: alice,
      body: { buyer: 'alice', seller: 'bob', amount: 0.5, currency: 'USDC', memo: 'one report' },
    })['escrow_id'] as string;
  const first = createA();
  send('escrow', 'GET', `/api/v1/escrow/${first}`, { key: alice });
  send('escrow', 'GET', '/api/v1/escrow/list', { key: alice, query: { status: 'locked', limit: '10' } });
  send('escrow', 'POST', '/api/v1/escrow/release', { key: alice, body: { escrow_id: first } });
  send('escrow', 'POST', '/api/v1/escrow/dispute', {
    key: alice,
    body: { escrow_id: createA(), reason: 'not delivered', evidence: 'https://example.com/log' },
  });
  const createB = (): string =>
    send('api', 'POST', '/escrow', {
      key: bob,
      body: {
        amount: '1.00',
        receiver: 'alice',
        description: 'a dataset',
        expires_in: 3600,
        conditions: { delivery: 'csv' },
      },
    })['escrow_id'] as string;
  const third = createB();
  send('api', 'GET', `/escrow/${third}`, { key: bob });
  send('api', 'GET', '/escrows', { key: bob, query: { role: 'sender', limit: '5' } });
  send('api', 'POST', `/escrow/${third}/release`, { key: bob });
  send('api', 'POST', `/escrow/${createB()}/refund`, { key: bob });
  send('api', 'POST', `/escrow/${createB()}/dispute`, { key: bob, body: { reason: 'not delivered' } });
  for (const agentId of ['alice', 'bob'])
    platform.ledger.transfer({
      from: 'faucet-pool',
      to: `agent:${agentId}`,
      amountMicro: 100_000_000n,
      reason: 'test.fund',
      reference: agentId,
    });
  casinoTour(
    (mount, method, path, options = {}) => ({ status: 200, body: send(mount, method, path, options) }),
    { alice, bob },
    () => now(),
  );
  domainsTour(send, { alice, bob });
  tradingTour(send, { alice, bob });
  walletTour(send, { alice, bob }, platform);
  // Failures, one per common code and service, for the error examples.
  send('api', 'POST', '/escrow', { key: bob, body: { amount: '1.00', receiver: 'alice', colour: 'blue' } });
  send('api', 'GET', '/escrows');
  send('api', 'GET', '/escrow/esc_missing', { key: bob });
  send('api', 'POST', `/escrow/${third}/release`, { key: bob });
  send('api', 'POST', '/escrow', { key: bob, body: { amount: '100000.00', receiver: 'alice' } });
  const carol = send('faucet', 'POST', '/api/v1/agents/register', { body: { agent_id: 'carol' } })['api_key'] as string;
  send('api', 'GET', `/escrow/${third}`, { key: carol });
  send('faucet', 'POST', '/api/v1/agents/register', { body: { agent_id: 'carol', colour: 'blue' } });
  send('faucet', 'POST', '/api/v1/agents/register', { body: { agent_id: 'carol' } });
  send('faucet', 'GET', '/api/v1/faucet/status');
  send('faucet', 'GET', '/api/v1/agents/bob', { key: carol });
  send('faucet', 'POST', '/api/v1/faucet/claim', { key: alice });
  send('casino', 'POST', '/api/v1/games/dice', {
    key: carol,
    body: { direction: 'over', threshold: 50, amount: 0.1, colour: 'blue' },
  });
  send('casino', 'GET', '/api/v1/auth/balance');
  send('casino', 'GET', '/api/v1/tournaments/tnm_000000000000', { key: carol });
  send('casino', 'POST', '/api/v1/games/dice', {
    key: carol,
    body: { direction: 'over', threshold: 50, amount: 5000 },
  });
  send('api', 'POST', '/domains-api/register', { key: carol, body: { domain: 'alice.xyz' } });
  // A burst at one instant until the limiter answers 429, once per service.
  for (const [mount, path] of [
    ['api', '/agents'],
    ['escrow', '/api/v1/escrow/list'],
    ['casino', '/api/v1/auth/balance'],
  ] as const) {
    let limited = false;
    for (let count = 0; count < 1_000 && !limited; count++)
      limited = exchange(mount, 'GET', path, { key: carol, advanceMs: 0 }).status === 429;
  }
  // What the `default` response stands for: a wrong method, the edge's body failures, fault windows.
  const edge = edgeFailures(platform);
  for (const [mount, path] of [
    ['faucet', '/api/v1/faucet/claim'],
    ['escrow', '/api/v1/escrow/create'],
    ['casino', '/api/v1/games/dice'],
  ] as const) {
    exchange(mount, 'DELETE', path, { key: alice, advanceMs: 60_000 });
    exchange(mount, 'POST', path, { key: alice, bodyFailure: edge.unsupported });
    exchange(mount, 'POST', path, { key: alice, bodyFailure: edge.tooLarge });
  }
  exchange('faucet', 'GET', '/api/v1/faucet/status', { key: alice, advanceMs: FAULT_FROM_MS + 60_000 - now() });
  exchange('escrow', 'GET', '/api/v1/escrow/list', { key: alice });
  exchange('casino', 'GET', '/api/v1/auth/balance', { key: alice });
  return { platform, byRow, all };
}

/**
 * The deployed dialect's tour (`afp serve --dialect deployed`): every deployed row with an OpenAPI
 * definition (src/http/openapi-deployed.ts) answered once with success, then the refusals the
 * documents show as examples, then a fault window. Same seed and instants as the documents' tour.
 */
export function deployedOpenApiTour(documentsByRow: ReadonlyMap<string, TourExchange[]> = openApiTour().byRow): {
  readonly platform: Platform;
  readonly byRow: Map<string, TourExchange[]>;
  readonly all: TourExchange[];
  readonly routes: readonly Route[];
} {
  const platform = new Platform({ seed: 'openapi', startMs: TOUR_START_MS, faults: FAULTS });
  const dispatcher = new DeployedDispatcher(platform, DEPLOYED_ROUTES);
  const byRow = new Map<string, TourExchange[]>();
  const all: TourExchange[] = [];
  const { exchange, now } = exchanger(dispatcher, TOUR_START_MS, byRow, all);
  const send = (mount: Mount, method: string, path: string, options: SendOptions = {}): JsonObject =>
    exchange(mount, method, path, options).body;
  const register = (ip: string): { id: string; key: string } => {
    const body = send('casino', 'POST', '/api/v1/auth/register', { body: {}, ip });
    return { id: body['agent_id'] as string, key: body['api_key'] as string };
  };
  const alice = register('10.0.0.1');
  const bob = register('10.0.0.2');
  send('faucet', 'POST', '/faucet/claim', { body: { agent_casino_id: alice.id }, ip: '10.0.0.1' });
  // At the claim's instant (no time passes), so the other rows' examples keep theirs.
  send('faucet', 'GET', '/faucet/stats', { advanceMs: 0 });
  const create = (amount: number, description: string): string =>
    send('escrow', 'POST', '/escrow/create', {
      key: alice.key,
      body: { amount_usd: amount, description, counterparty_agent_id: bob.id, timeout_hours: 48 },
    })['escrow_id'] as string;
  const first = create(0.5, 'one report');
  send('escrow', 'POST', `/escrow/complete/${first}`, { key: bob.key });
  send('escrow', 'GET', `/escrow/${first}`);
  send('escrow', 'POST', `/escrow/release/${first}`, { key: alice.key });
  const second = create(0.2, 'a dataset');
  send('escrow', 'POST', `/escrow/dispute/${second}`, { key: alice.key, body: { reason: 'not delivered' } });
  // The casino's single-game rows: the body style A's row was sent in the documents' tour (same names).
  platform.ledger.transfer({
    from: 'faucet-pool',
    to: `agent:${alice.id}`,
    amountMicro: 100_000_000n,
    reason: 'test.fund',
    reference: alice.id,
  });
  for (const route of DEPLOYED_ROUTES.filter((candidate) => candidate.id.startsWith('casino.deployed.game.'))) {
    const sent = (documentsByRow.get(route.id.replace('.deployed.', '.A.')) ?? []).find(
      (entry) => entry.response.status < 300,
    );
    if (sent !== undefined) send('casino', route.method, route.path, { key: alice.key, body: sent.body });
  }
  send('casino', 'GET', '/api/v1/games');
  const row = (id: string): Route => DEPLOYED_ROUTES.find((candidate) => candidate.id === id) as Route;
  for (const name of ['kelly.limits', 'kelly.history', 'stats.me', 'stats.session', 'gossip'])
    send('casino', row(`casino.deployed.${name}`).method, row(`casino.deployed.${name}`).path, { key: alice.key });
  // At the same instant (no time passes), so the other rows' examples keep theirs.
  for (const name of ['referral.code', 'referral.stats'])
    send('casino', 'GET', row(`casino.deployed.${name}`).path, { key: alice.key, advanceMs: 0 });
  send('casino', row('casino.deployed.kelly.config').method, row('casino.deployed.kelly.config').path, {
    key: alice.key,
    body: { risk_factor: 0.5 },
  });
  send('casino', 'GET', row('casino.deployed.stats.leaderboard').path, { query: { game: 'dice' } });
  const dealt = send('casino', 'POST', row('casino.deployed.video-poker.deal').path, {
    key: alice.key,
    body: { amount: 0.1, client_seed: 'vp-1' },
  });
  send('casino', 'POST', row('casino.deployed.video-poker.draw').path, {
    key: alice.key,
    body: { holds: [true, false, true, false, false], nonce: dealt['nonce'], amount: 0.1 },
  });
  send('casino', 'POST', row('casino.deployed.video-poker.draw').path, {
    key: alice.key,
    body: { holds: [], nonce: 999_999 },
  });
  const parlayPath = row('casino.deployed.game.parlay').path;
  send('casino', 'POST', parlayPath, {
    key: alice.key,
    body: {
      amount: 0.5,
      bets: [
        { game: 'coin_flip', params: { side: 'heads' } },
        { game: 'dice', params: { direction: 'under', threshold: 60, client_seed: 'leg-2' } },
      ],
    },
  });
  send('casino', 'POST', parlayPath, {
    key: alice.key,
    body: { amount: 0.5, bets: [{ game: 'roulette', params: { bet_type: 'red' } }] },
  });
  const startS = Math.floor(now() / 1000) + 60;
  const cup = send('casino', 'POST', row('casino.deployed.tournaments.create').path, {
    key: alice.key,
    body: {
      name: 'Dice cup',
      game: 'dice',
      entry_fee_usdc: 0.1,
      prize_pool_usdc: 1,
      max_agents: 10,
      starts_at: startS,
      ends_at: startS + 3600,
    },
  })['tournament_id'] as string;
  send('casino', 'POST', row('casino.deployed.tournaments.enter').path.replace(':id', cup), { key: bob.key });
  send('casino', 'GET', row('casino.deployed.tournaments.list').path, { query: { limit: '10' } });
  send('casino', 'GET', row('casino.deployed.tournaments.get').path.replace(':id', cup));
  send('casino', 'POST', row('casino.deployed.tournaments.enter').path.replace(':id', cup), { key: bob.key });
  send('casino', 'GET', row('casino.deployed.tournaments.get').path.replace(':id', 'tnm_000000000000'));
  const betId = (byRow.get('casino.deployed.game.dice')?.[0]?.response.body['bet_id'] ?? '') as string;
  const audit = row('casino.deployed.fairness.audit').path.replace(':betId', betId);
  for (const name of ['fairness.seed-hash', 'fairness.seeds'])
    send('casino', 'GET', row(`casino.deployed.${name}`).path, { key: alice.key });
  send('casino', 'GET', audit, { key: alice.key });
  send('casino', row('casino.deployed.fairness.rotate').method, row('casino.deployed.fairness.rotate').path, {
    key: alice.key,
  });
  send('casino', 'GET', audit, { key: alice.key });
  send('casino', 'GET', row('casino.deployed.fairness.seeds').path, { key: alice.key });
  send('casino', 'GET', audit, { key: bob.key });
  send('casino', 'GET', row('casino.deployed.fairness.audit').path.replace(':betId', 'bet_0000000000000000'), {
    key: alice.key,
  });
  platform.ledger.transfer({
    from: 'faucet-pool',
    to: `agent:${bob.id}`,
    amountMicro: 100_000_000n,
    reason: 'test.fund',
    reference: bob.id,
  });
  const accepted = send('casino', 'POST', '/api/v1/challenges', {
    key: alice.key,
    body: { challenged_agent_id: bob.id, game: 'coin_flip', amount: 0.5, message: 'best of one' },
  })['challenge_id'] as string;
  const declined = send('casino', 'POST', '/api/v1/challenges', {
    key: alice.key,
    body: { challenged_agent_id: bob.id, amount: 0.5 },
  })['challenge_id'] as string;
  send('casino', 'GET', '/api/v1/challenges', { key: bob.key });
  send('casino', 'POST', `/api/v1/challenges/${accepted}/accept`, { key: bob.key });
  send('casino', 'POST', `/api/v1/challenges/${declined}/decline`, { key: bob.key });
  send('casino', 'POST', `/api/v1/challenges/${accepted}/accept`, { key: bob.key });
  send('casino', 'POST', '/api/v1/challenges', {
    key: alice.key,
    body: { challenged_agent_id: alice.id, amount: 0.5 },
  });
  send('casino', 'POST', '/api/v1/challenges', {
    key: alice.key,
    body: { challenged_agent_id: 'ag_missing', amount: 0.5 },
  });
  send('casino', 'GET', '/api/v1/auth/balance', { key: alice.key });
  send('casino', 'POST', '/api/v1/auth/withdraw', {
    key: alice.key,
    body: { amount: 2, address: '0x2222222222222222222222222222222222222222' },
  });
  send('casino', 'POST', '/api/v1/auth/withdraw', {
    key: alice.key,
    body: { amount: 0.5, address: '0x2222222222222222222222222222222222222222' },
  });
  send('casino', 'POST', '/api/v1/auth/withdraw', {
    key: alice.key,
    body: { amount: 200_000, address: '0x2222222222222222222222222222222222222222' },
  });
  // The rows answered in their own shapes: batch, Kelly simulate, history, verify, tournament play.
  send('casino', 'POST', row('casino.deployed.batch').path, {
    key: alice.key,
    body: {
      bets: [
        { game: 'coin_flip', amount: 0.1, side: 'tails' },
        { game: 'dice', amount: 0.1 },
        { game: 'dice', amount: 0.001 },
      ],
    },
  });
  send('casino', 'POST', row('casino.deployed.batch').path, { key: alice.key, body: { bets: [] } });
  send('casino', 'POST', row('casino.deployed.kelly.simulate').path, {
    key: alice.key,
    body: {
      game: 'dice',
      threshold: 50,
      direction: 'over',
      bankroll: 10,
      bet_amount: 0.1,
      num_bets: 20,
      simulations: 5,
    },
  });
  send('casino', 'GET', row('casino.deployed.bets.history').path, {
    key: alice.key,
    query: { game: 'dice', limit: '5', offset: '0' },
  });
  send('casino', 'GET', row('casino.deployed.bets.history').path, { key: alice.key, query: { outcome: 'maybe' } });
  send('casino', 'POST', row('casino.deployed.fairness.verify').path, { key: alice.key, body: { bet_id: betId } });
  send('casino', 'POST', row('casino.deployed.fairness.verify').path, { key: alice.key, body: {} });
  const play = row('casino.deployed.tournaments.play').path.replace(':id', cup);
  exchange('casino', 'POST', play, {
    key: bob.key,
    body: { amount: 0.1, direction: 'over', threshold: 50 },
    advanceMs: 60_000,
  });
  send('casino', 'POST', play, { key: bob.key, body: { game: 'coin_flip', amount: 0.1, side: 'heads' } });
  send('casino', 'POST', play, { key: alice.key, body: { amount: 0.1, direction: 'over', threshold: 50 } });
  send('casino', 'POST', '/api/v1/auth/register', { body: { referral_code: 42 }, ip: '10.0.0.8' });
  send('casino', 'POST', '/api/v1/games/dice', {
    key: alice.key,
    body: { direction: 'sideways', threshold: 50, amount: 0.1 },
  });
  send('casino', 'POST', '/api/v1/games/dice', {
    key: alice.key,
    body: { direction: 'over', threshold: 50, amount: 0.001 },
  });
  send('casino', 'POST', '/api/v1/games/dice', {
    key: register('10.0.0.9').key,
    body: { direction: 'over', threshold: 50, amount: 0.1 },
  });
  send('casino', 'POST', '/api/v1/games/dice', {
    key: alice.key,
    body: { direction: 'over', threshold: 50, amount: 90 },
  });
  // Refusals, one per name the documents show.
  send('faucet', 'POST', '/faucet/claim', { body: {}, ip: '10.0.0.3' });
  send('faucet', 'POST', '/faucet/claim', { body: { agent_casino_id: 'ag_missing' }, ip: '10.0.0.4' });
  send('faucet', 'POST', '/faucet/claim', { body: { agent_casino_id: alice.id }, ip: '10.0.0.5' });
  send('faucet', 'POST', '/faucet/claim', { body: { agent_casino_id: bob.id }, ip: '10.0.0.1' });
  send('escrow', 'POST', '/escrow/create', {
    body: { amount_usd: 0.5, description: 'one report', counterparty_agent_id: bob.id },
  });
  send('escrow', 'POST', '/escrow/create', {
    key: alice.key,
    body: { amount_usd: 'ten', description: 'one report', counterparty_agent_id: bob.id },
  });
  send('escrow', 'POST', '/escrow/create', {
    key: alice.key,
    body: { amount_usd: 0.5, description: 'x', counterparty_agent_id: bob.id },
  });
  send('escrow', 'POST', '/escrow/create', { key: alice.key, body: { amount_usd: 0.5, description: 'one report' } });
  send('escrow', 'POST', '/escrow/create', {
    key: alice.key,
    body: { amount_usd: 0.5, description: 'one report', counterparty_agent_id: alice.id },
  });
  send('escrow', 'POST', '/escrow/create', {
    key: alice.key,
    body: { amount_usd: 0.5, description: 'one report', counterparty_agent_id: 'ag_missing' },
  });
  send('escrow', 'POST', '/escrow/create', {
    key: alice.key,
    body: { amount_usd: 1000, description: 'one report', counterparty_agent_id: bob.id },
  });
  send('escrow', 'POST', `/escrow/release/${second}`, { key: bob.key });
  send('escrow', 'POST', `/escrow/release/${first}`, { key: alice.key });
  send('escrow', 'POST', '/escrow/dispute/esc_missing', { key: alice.key, body: { reason: 5 } });
  send('escrow', 'GET', '/escrow/esc_missing');
  // The domains (DEPLOYED.md §7): their own agents and sk_domains_ keys, funded here through the ledger.
  const domainsAgent = (): { id: string; key: string } => {
    const body = send('domains', 'POST', '/v1/auth/register', { body: {} });
    return { id: body['agent_id'] as string, key: body['api_key'] as string };
  };
  const carol = domainsAgent();
  const dave = domainsAgent();
  platform.ledger.transfer({
    from: 'faucet-pool',
    to: `agent:${carol.id}`,
    amountMicro: 100_000_000n,
    reason: 'test.fund',
    reference: carol.id,
  });
  send('domains', 'GET', '/v1/auth/account', { key: carol.key });
  send('domains', 'GET', '/v1/domains/check', { query: { names: 'tour-name.com,tour-name.xyz' } });
  send('domains', 'GET', '/v1/domains/value', { query: { name: 'crypto.ai' } });
  const domainId = send('domains', 'POST', '/v1/domains/register', {
    key: carol.key,
    body: { domain: 'tour-name.com' },
  })['domain_id'] as string;
  send('domains', 'GET', '/v1/whois/tour-name.com');
  send('domains', 'GET', '/v1/whois/free-name.com');
  send('domains', 'GET', '/v1/domains', { key: carol.key });
  const recordId = (
    send('domains', 'POST', '/v1/dns/records', {
      key: carol.key,
      body: { domain_id: domainId, type: 'A', name: 'www', content: '192.0.2.1', ttl: 300 },
    })['record'] as JsonObject
  )['id'] as string;
  send('domains', 'GET', '/v1/dns/records', { key: carol.key, query: { domain_id: domainId } });
  const updatedId = (
    send('domains', 'PUT', `/v1/dns/records/${recordId}`, { key: carol.key, body: { content: '192.0.2.2' } })[
      'record'
    ] as JsonObject
  )['id'] as string;
  send('domains', 'GET', `/v1/domains/${domainId}`, { key: carol.key });
  send('domains', 'DELETE', `/v1/dns/records/${updatedId}`, { key: carol.key });
  send('domains', 'POST', '/v1/domains/register', { key: carol.key, body: { domain: 'tour-name.com' } });
  send('domains', 'POST', '/v1/domains/register', { key: dave.key, body: { domain: 'tour-poor.com' } });
  send('domains', 'POST', '/v1/dns/records', {
    key: carol.key,
    body: { domain_id: domainId, type: 'SRV', content: 'x' },
  });
  send('domains', 'POST', `/v1/domains/${domainId}/transfer`, {
    key: carol.key,
    body: { to_agent_id: dave.id, note: 'a gift' },
  });
  send('domains', 'GET', `/v1/domains/${domainId}`, { key: carol.key });
  const edge = edgeFailures(platform);
  exchange('escrow', 'POST', '/escrow/create', { key: alice.key, bodyFailure: edge.unsupported });
  exchange('escrow', 'POST', '/escrow/create', { key: alice.key, bodyFailure: edge.tooLarge });
  exchange('faucet', 'POST', '/faucet/claim', { bodyFailure: edge.tooLarge, ip: '10.0.0.6' });
  exchange('escrow', 'GET', `/escrow/${first}`, { advanceMs: FAULT_FROM_MS + 60_000 - now() });
  exchange('faucet', 'POST', '/faucet/claim', { body: { agent_casino_id: bob.id }, ip: '10.0.0.7' });
  exchange('casino', 'GET', '/api/v1/auth/balance', { key: alice.key });
  // Trading (base /v1 on its own address, no fault window), last so the other rows' examples keep their ids and instants: a trading agent of its own, funded, one position opened and closed, a limit order placed and cancelled.
  const trader = send('trading', 'POST', '/v1/auth/register', { body: { referral_code: 'nobody' }, ip: '10.0.0.3' });
  const traderKey = trader['api_key'] as string;
  platform.ledger.transfer({
    from: 'faucet-pool',
    to: `agent:${trader['agent_id'] as string}`,
    amountMicro: 100_000_000n,
    reason: 'test.fund',
    reference: 'trader',
  });
  send('trading', 'GET', '/v1/markets');
  send('trading', 'GET', '/v1/markets/funding-rates');
  send('trading', 'GET', '/v1/markets/BTC');
  const btcPrice = send('trading', 'GET', '/v1/markets/BTC/price')['price'] as number;
  send('trading', 'GET', '/v1/markets/NOPE');
  const position = send('trading', 'POST', '/v1/trade/open', {
    key: traderKey,
    body: { coin: 'BTC', side: 'long', size_usd: 50, leverage: 5 },
  })['position_id'] as string;
  send('trading', 'POST', '/v1/trade/open', { key: traderKey, body: { coin: 'BTC', side: 'long', size_usd: 20_000 } });
  send('trading', 'GET', '/v1/trade/positions', { key: traderKey });
  send('trading', 'GET', '/v1/trade/portfolio', { key: traderKey });
  const pending = send('trading', 'POST', '/v1/trade/limit', {
    key: traderKey,
    body: { coin: 'ETH', side: 'long', size_usd: 10, limit_price: Math.floor(btcPrice / 100) / 100 },
  })['order_id'] as string;
  send('trading', 'GET', '/v1/trade/limit-orders', { key: traderKey });
  send('trading', 'DELETE', `/v1/trade/limit-orders/${pending}`, { key: traderKey });
  send('trading', 'POST', '/v1/trade/close', { key: traderKey, body: { position_id: position } });
  send('trading', 'POST', '/v1/trade/close', { key: traderKey, body: { position_id: 'pos_0000000000000000' } });
  send('trading', 'GET', '/v1/trade/history', { key: traderKey, query: { limit: '10' } });
  // The stand-in's trading risk and domains discovery rows (trading-risk.ts, domains-discovery.ts), after every other row so their examples keep their ids and instants.
  send('trading', 'GET', '/v1/markets/BTC/orderbook', { query: { depth: '3' } });
  send('trading', 'GET', '/v1/markets/BTC/orderbook', { query: { depth: '0' } });
  const guarded = send('trading', 'POST', '/v1/trade/open', {
    key: traderKey,
    body: { coin: 'BTC', side: 'long', size_usd: 20, leverage: 2 },
  });
  const guardedId = guarded['position_id'] as string;
  const mark = guarded['current_price'] as number;
  send('trading', 'POST', '/v1/trade/stop-loss', {
    key: traderKey,
    body: { position_id: guardedId, trigger_price: Math.floor(mark * 0.8) },
  });
  send('trading', 'POST', '/v1/trade/take-profit', {
    key: traderKey,
    body: { position_id: guardedId, trigger_price: Math.ceil(mark * 1.2) },
  });
  send('trading', 'POST', '/v1/trade/stop-loss', {
    key: traderKey,
    body: { position_id: guardedId, trigger_price: Math.ceil(mark * 1.2) },
  });
  send('trading', 'POST', '/v1/trade/take-profit', {
    key: traderKey,
    body: { position_id: 'pos_0000000000000000', trigger_price: 1 },
  });
  send('trading', 'POST', '/v1/trade/check-limits', { key: traderKey });
  send('trading', 'GET', '/v1/trade/risk-settings', { key: traderKey });
  send('trading', 'POST', '/v1/trade/risk-settings', {
    key: traderKey,
    body: { max_leverage: 20, daily_loss_limit_usd: 50 },
  });
  send('trading', 'POST', '/v1/trade/risk-settings', { key: traderKey, body: { max_leverage: 51 } });
  send('domains', 'GET', '/v1/domains/search', { key: carol.key, query: { q: 'tour-name' } });
  send('domains', 'GET', '/v1/domains/search', { key: carol.key, query: { q: 'tour-name.zzz' } });
  send('domains', 'POST', '/v1/domains/bulk-check', {
    key: carol.key,
    body: { domains: ['tour-name.com', 'tour-free.xyz'] },
  });
  send('domains', 'POST', '/v1/domains/bulk-check', { key: carol.key, body: { domains: [] } });
  send('domains', 'GET', '/v1/domains/expiring', { query: { days: '365' } });
  send('domains', 'GET', '/v1/domains/expiring', { query: { days: '0' } });
  send('domains', 'GET', '/v1/domains/suggest', { query: { q: 'agent' } });
  send('domains', 'GET', '/v1/domains/portfolio-value', { query: { names: 'crypto.ai,tour-name.com' } });
  send('domains', 'GET', '/v1/domains/portfolio-value', {});
  deployedWalletTour(send, platform);
  return { platform, byRow, all, routes: DEPLOYED_ROUTES };
}

/**
 * The examples file's text: per row, the first successful request's body, query and answer; per
 * error code, the first body met. Keys sorted, so the bytes depend on the answers only.
 */
export function renderOpenApiExamples(): string {
  const documents = openApiTour();
  const deployed = deployedOpenApiTour(documents.byRow);
  const byRow = new Map([...documents.byRow, ...deployed.byRow]);
  const all = [...documents.all, ...deployed.all];
  const requests: Record<string, unknown> = {};
  const queries: Record<string, unknown> = {};
  const responses: Record<string, unknown> = {};
  for (const rowId of [...byRow.keys()].sort()) {
    const success = (byRow.get(rowId) ?? []).find((entry) => entry.response.status < 300);
    if (success === undefined) continue;
    if (success.body !== undefined) requests[rowId] = success.body;
    if (Object.keys(success.query).length > 0) queries[rowId] = success.query;
    responses[rowId] = success.response.body;
  }
  // Keyed `<service> <CODE>` by the `_info.service` of the body (the examples of a row are its
  // service's); the deployed dialect's by `<service> <error name>` (its `_info.service` is the
  // repository's name, agent-escrow...). The `default` response's, `<service> <status>`.
  const errors: Record<string, unknown> = {};
  const defaults: Record<string, unknown> = {};
  for (const entry of all) {
    const {
      code,
      error,
      _info: info,
    } = entry.response.body as { code?: unknown; error?: unknown; _info?: { service?: unknown } };
    const status = entry.response.status;
    const name = typeof code === 'string' ? code : error;
    const key = `${String(info?.service)} ${String(name)}`;
    if (DEFAULT_STATUSES.has(status)) {
      const statusKey = `${String(info?.service)} ${status}`;
      if (!(statusKey in defaults)) defaults[statusKey] = entry.response.body;
    } else if (status >= 400 && typeof name === 'string' && !(key in errors)) errors[key] = entry.response.body;
  }
  const sorted = (table: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(
      Object.keys(table)
        .sort()
        .map((key) => [key, table[key]]),
    );
  return `${JSON.stringify({ requests: sorted(requests), queries: sorted(queries), responses: sorted(responses), errors: sorted(errors), defaults: sorted(defaults) }, null, 2)}\n`;
}

/** The statuses the documents' `default` response stands for. */
const DEFAULT_STATUSES: ReadonlySet<number> = new Set([405, 413, 415, 500, 503]);
