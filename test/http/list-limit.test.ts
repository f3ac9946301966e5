// platform.md Limits rule 7, "list calls accept limit up to 100", over every list call of the
// documents' styles (src/http/list-call.ts and the rows with a limit of their own), in process.
// For each row of LIST_ROWS, with items arranged so each list has some: without limit the answer
// is the row's own; limit=1 keeps at most one item of each list (the first, or the last of an
// oldest-first curve) and `count` counts what is kept; limit=100 is accepted; 0, 101 and 'abc' are
// 400s naming limit that leave the answer as it was. A second test classifies every GET row of
// styles A, B and short, so a new list row cannot miss the rule silently.
import { beforeAll, describe, expect, test } from 'vitest';
import type { ApiResponse } from '../../src/http/dispatcher.ts';
import type { Mount } from '../../src/http/route.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { addAgent } from '../fixtures/agents.ts';
import { casinoWorld, type CasinoWorld } from './casino/casino-world.ts';

interface ListRow {
  readonly id: string;
  readonly mount: Mount;
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly caller?: 'alice' | 'rita';
  /** The list fields `limit` cuts, each on its own. */
  readonly items: readonly string[];
  /** Whether the body's `count` counts the items kept. */
  readonly count?: boolean;
  readonly keep?: 'last';
}

const LIST_ROWS: readonly ListRow[] = [
  { id: 'casino.A.challenges.list', mount: 'casino', path: '/api/v1/challenges', items: ['incoming', 'outgoing'] },
  { id: 'casino.A.fairness.seeds', mount: 'casino', path: '/api/v1/fairness/seeds', items: ['seeds'], count: true },
  { id: 'casino.A.games', mount: 'casino', path: '/api/v1/games', items: ['games'], count: true },
  {
    id: 'casino.A.kelly.history',
    mount: 'casino',
    path: '/api/v1/kelly/history',
    items: ['history'],
    count: true,
    keep: 'last',
  },
  {
    id: 'casino.A.stats.leaderboard',
    mount: 'casino',
    path: '/api/v1/stats/leaderboard',
    items: ['overall_leaderboard', 'biggest_wins'],
  },
  {
    id: 'casino.short.leaderboard',
    mount: 'casino',
    path: '/api/v1/leaderboard',
    items: ['overall_leaderboard', 'biggest_wins'],
  },
  { id: 'casino.B.games', mount: 'api', path: '/casino-api/games', items: ['games'] },
  { id: 'domains.A.domains', mount: 'domains', path: '/api/v1/domains', items: ['domains'], count: true },
  {
    id: 'domains.A.dns.list',
    mount: 'domains',
    path: '/api/v1/dns',
    query: { domain: 'alice.xyz' },
    items: ['records'],
    count: true,
  },
  { id: 'domains.B.domains', mount: 'api', path: '/domains-api/domains', items: ['domains'], count: true },
  { id: 'faucet.B.referrals', mount: 'api', path: '/referrals', caller: 'rita', items: ['referred_agents'] },
  { id: 'trading.A.markets', mount: 'trading', path: '/api/v1/markets', items: ['markets'], count: true },
  { id: 'trading.A.positions', mount: 'trading', path: '/api/v1/positions', items: ['positions'], count: true },
  { id: 'trading.B.portfolio', mount: 'api', path: '/trading-api/portfolio', items: ['positions', 'spot'] },
];

/** GET rows with a limit of their own (default and bound in the row or its service). */
const OWN_LIMIT = [
  'casino.A.deposits',
  'casino.A.ledger',
  'casino.A.tournaments.list',
  'casino.A.withdrawals',
  'casino.B.history',
  'escrow.A.list',
  'escrow.B.list',
  'faucet.B.agents',
  'trading.B.orders',
  'wallet.A.transactions',
  'wallet.B.transactions',
  'wallet.primary.transactions',
];

/** GET rows that answer one resource, a map or a fixed catalogue, not a list of items. */
const NOT_LISTS = [
  'casino.A.balance', // the account; its recent_activity is a fixed 10 (its own limit 1..5: balance-recent-limit)
  'casino.A.fairness.audit',
  'casino.A.fairness.seed-hash',
  'casino.A.gossip',
  'casino.A.kelly.limits', // a map by game variant
  'casino.A.referral.code',
  'casino.A.referral.stats',
  'casino.A.stats.me',
  'casino.A.stats.session',
  'casino.A.supported-chains', // the chain catalogue of the account
  'casino.A.tournaments.get',
  'casino.B.stats',
  'casino.B.verify',
  'casino.short.provably-fair',
  'domains.A.check',
  'domains.A.valuation',
  'domains.B.lookup',
  'escrow.A.get',
  'escrow.B.get',
  'faucet.A.agent',
  'faucet.A.status',
  'faucet.B.status',
  'trading.A.ticker',
  'trading.B.price',
  'wallet.A.addresses',
  'wallet.A.balance',
  'wallet.B.address',
  'wallet.B.balance',
  'wallet.B.tx',
  'wallet.primary.balance',
  'wallet.primary.chains', // the chain catalogue
  'wallet.primary.deposit-address',
  'wallet.primary.gossip',
  'wallet.primary.referral-code',
  'wallet.primary.referral-stats',
  'wallet.primary.swap-quote',
  'wallet.primary.swap-status',
];

const AT_MS = Date.UTC(2026, 0, 1, 1);

let world: CasinoWorld;
let ritaKey: string;

beforeAll(() => {
  world = casinoWorld();
  ritaKey = world.keys.rita;
  addAgent(world.platform, 'carol', { referrerId: 'rita', createdAtMs: world.nowMs() });
  const ok = (response: ApiResponse): void => {
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  };
  ok(world.call('domains', 'POST', '/api/v1/register', { body: { domain: 'alice.xyz' } }));
  ok(world.call('domains', 'POST', '/api/v1/register', { body: { domain: 'alice-two.xyz' } }));
  ok(
    world.call('domains', 'POST', '/api/v1/dns', {
      body: {
        domain: 'alice.xyz',
        records: [
          { type: 'A', name: '@', value: '192.0.2.10', ttl: 300 },
          { type: 'TXT', name: '_dmarc', value: 'v=DMARC1; p=none' },
        ],
      },
    }),
  );
  for (const symbol of ['BTC-PERP', 'ETH-PERP'])
    ok(
      world.call('trading', 'POST', '/api/v1/orders', {
        body: { symbol, side: 'long', size: 20, leverage: 5, type: 'market' },
      }),
    );
  for (const pair of ['BTC-USDC', 'ETH-USDC'])
    ok(
      world.call('api', 'POST', '/trading-api/order', {
        body: { pair, side: 'buy', amount: '10.00', type: 'market', market_type: 'spot' },
      }),
    );
  for (const key of [world.keys.alice, world.keys.alice, world.keys.bob])
    ok(world.a('POST', '/games/dice', { key, body: { direction: 'over', threshold: 50, amount: 0.1 } }));
  ok(world.a('POST', '/fairness/rotate'));
  for (const amount of [0.5, 0.6]) ok(world.a('POST', '/challenges', { body: { challenged_agent_id: 'bob', amount } }));
});

function get(row: ListRow, limit?: string): ApiResponse {
  const query = limit === undefined ? { ...row.query } : { ...row.query, limit };
  const key = row.caller === 'rita' ? ritaKey : undefined;
  return world.call(row.mount, 'GET', row.path, { query, atMs: AT_MS, ...(key === undefined ? {} : { key }) });
}

/** The row's own answer with each list cut to `limit` and `count` counting what is kept. */
function cutTo(row: ListRow, body: Record<string, unknown>, limit: number): Record<string, unknown> {
  const expected: Record<string, unknown> = { ...body };
  let kept = 0;
  for (const field of row.items) {
    const list = body[field] as unknown[];
    const cut = row.keep === 'last' ? list.slice(Math.max(0, list.length - limit)) : list.slice(0, limit);
    expected[field] = cut;
    kept += cut.length;
  }
  if (row.count === true) expected['count'] = kept;
  return expected;
}

describe('list calls take limit 1..100 (platform.md Limits 7)', () => {
  test.each(LIST_ROWS.map((row) => [row.id, row] as const))('%s', (_id, row) => {
    const own = get(row);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const body = own.body as Record<string, unknown>;
    const longest = Math.max(...row.items.map((field) => (body[field] as unknown[]).length));
    expect(longest, 'a list with two items or more, so that limit=1 cuts').toBeGreaterThanOrEqual(2);

    for (const limit of [1, 100]) {
      const limited = get(row, String(limit));
      expect(limited.status, JSON.stringify(limited.body)).toBe(200);
      expect(limited.body).toEqual(cutTo(row, body, limit));
    }
    for (const bad of ['0', '101', 'abc']) {
      const refused = get(row, bad);
      expect(refused.status).toBe(400);
      expect((refused.body as Record<string, unknown>)['error']).toMatch(/^limit must be/);
    }
    expect(get(row).body, 'refused calls change nothing').toEqual(body);
  });
});

test('every GET row of styles A, B and short is a list call, has its own limit, or is not a list', () => {
  const classified = [...LIST_ROWS.map((row) => row.id), ...OWN_LIMIT, ...NOT_LISTS].sort();
  const rows = ALL_ROUTES.filter((route) => route.method === 'GET' && route.style !== 'deployed')
    .map((route) => route.id)
    .sort();
  expect(classified).toEqual(rows);
});
