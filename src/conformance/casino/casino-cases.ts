/**
 * The casino's rejection cases of the conformance suite, as data: for every casino row of the
 * three styles, the generic bad inputs its shape admits (wrong method, malformed JSON, a wrong
 * content type, non-object bodies, an unknown field or query parameter, a missing, unknown or
 * malformed key), then for every single-call game its invalid parameters and bad amounts, and a
 * few bodies of the other rows. Each must answer exactly its 4xx `{ error, code }` and leave the
 * caller's and counterparty's balances as they were (the runner checks). Rows whose casino mount a
 * target does not announce are skipped with that reason.
 * Non-goals: rate limits (429) and the domain refusals that need money or time (Kelly, balance,
 * closed games): those are in test/http/casino/casino-bad-input.test.ts and `afp check`.
 */
import { CASINO_ENDPOINTS, type CasinoEndpointId } from '../../client/casino-client.ts';
import type { HttpMethod, TransportRequest } from '../../client/transport.ts';
import type { CaseWorld, ExpectedRejection, RejectionCase } from '../conformance-case.ts';
import { rejectionMaker } from '../rejection-maker.ts';
import { keyRejections, type MakeRejection } from '../transport-rejections.ts';

type Body = Readonly<Record<string, unknown>>;

const BAD_REQUEST: ExpectedRejection = { status: 400, code: 'BAD_REQUEST' };

/** Path parameters that parse (the rejections come before any lookup). */
const PATH_VALUES: Readonly<Record<string, string>> = {
  id: 'tnm_000000000000',
  betId: 'bet_0000000000000000',
  seed: '0'.repeat(64),
};

/** A valid body per single-call game path, and the parameter sets each must refuse. */
export const GAME_BODIES: Readonly<Record<string, { readonly valid: Body; readonly invalid: readonly Body[] }>> = {
  'coin-flip': { valid: { side: 'heads' }, invalid: [{ side: 'edge' }, { side: 1 }, {}] },
  dice: {
    valid: { direction: 'over', threshold: 50 },
    invalid: [
      { direction: 'over', threshold: 0 },
      { direction: 'over', threshold: 100 },
      { direction: 'sideways', threshold: 50 },
      { direction: 'over', threshold: 50.5 },
      { direction: 'under', threshold: 1 },
    ],
  },
  'simple-dice': { valid: { pick: 3 }, invalid: [{ pick: 0 }, { pick: 7 }, { pick: '3' }] },
  multiplier: {
    valid: { target_multiplier: 2 },
    invalid: [
      { target_multiplier: 1 },
      { target_multiplier: 1000.01 },
      { target_multiplier: 2.001 },
      { target_multiplier: 'x' },
    ],
  },
  roulette: {
    valid: { bet_type: 'red' },
    invalid: [
      { bet_type: 'purple' },
      { bet_type: 'number' },
      { bet_type: 'number', bet_value: 37 },
      { bet_type: 'red', bet_value: 3 },
    ],
  },
  custom: {
    valid: { win_probability: 50 },
    invalid: [{ win_probability: 0 }, { win_probability: 100 }, { win_probability: 50.5 }],
  },
  blackjack: { valid: { action: 'stand' }, invalid: [{ action: 'split' }, {}] },
  crash: { valid: { cash_out_at: 2 }, invalid: [{ cash_out_at: 1 }, { cash_out_at: 100.01 }, { cash_out_at: -2 }] },
  plinko: {
    valid: { rows: 16, risk: 'high' },
    invalid: [{ rows: 10, risk: 'low' }, { rows: 16, risk: 'extreme' }, { rows: 16 }],
  },
  slots: { valid: {}, invalid: [{ lines: 3 }] },
  hilo: { valid: { guess: 'higher' }, invalid: [{ guess: 'same' }, {}] },
  keno: {
    valid: { picks: [1, 2, 3] },
    invalid: [
      { picks: [] },
      { picks: [0] },
      { picks: [81] },
      { picks: [1, 1] },
      { picks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] },
    ],
  },
  'scratch-card': { valid: {}, invalid: [{ symbols: 3 }] },
  wheel: { valid: {}, invalid: [{ segment: 1 }] },
  mines: {
    valid: { mines: 3, reveals: 2 },
    invalid: [
      { mines: 0, reveals: 1 },
      { mines: 25, reveals: 1 },
      { mines: 3, reveals: 23 },
      { mines: 3, reveals: 0 },
    ],
  },
  baccarat: { valid: { bet_on: 'banker' }, invalid: [{ bet_on: 'dragon' }, {}] },
};

const BAD_AMOUNTS: readonly unknown[] = [0, -1, '1', 1.0000001, 1e15, null, true];

/** A valid body per POST/PUT row that takes one (the unknown-field case extends it). */
function validBody(endpoint: CasinoEndpointId, world: CaseWorld): Body | null {
  if (endpoint.startsWith('casino.A.game.')) {
    const path = endpoint.slice('casino.A.game.'.length).replaceAll('_', '-');
    return { ...(GAME_BODIES[path]?.valid ?? {}), amount: 0.01 };
  }
  const bodies: Partial<Record<CasinoEndpointId, Body>> = {
    'casino.A.register': { agent_id: `${world.caller.agentId}-c` },
    'casino.A.deposit-address': { chain: 'base' },
    'casino.A.withdraw': { amount: 1, address: `0x${'ab'.repeat(20)}` },
    'casino.A.video-poker.deal': { amount: 0.01 },
    'casino.A.video-poker.draw': { nonce: 0, holds: [] },
    'casino.A.batch': { bets: [{ game: 'slots', amount: 0.1 }] },
    'casino.A.kelly.optimal': { game: 'coin_flip', side: 'heads' },
    'casino.A.kelly.config': { risk_factor: 0.25 },
    'casino.A.kelly.simulate': {
      game: 'coin_flip',
      side: 'heads',
      bankroll: 10,
      bet_amount: 1,
      num_bets: 10,
      simulations: 2,
    },
    'casino.A.fairness.verify': { bet_id: PATH_VALUES['betId'] },
    'casino.A.tournaments.create': {
      name: 'x',
      game: 'dice',
      prize_pool: 1,
      starts_at: '2030-01-01T00:00:00Z',
      ends_at: '2030-01-02T00:00:00Z',
    },
    'casino.A.tournaments.play': { direction: 'over', threshold: 50, amount: 0.01 },
    'casino.A.challenges.create': { challenged_agent_id: world.counterparty.agentId, amount: 0.01 },
    'casino.short.coinflip': { side: 'heads', amount: 0.01 },
    'casino.short.crash.bet': { amount: 0.01 },
    'casino.short.crash.cashout': { bet_id: PATH_VALUES['betId'] },
    'casino.B.bet': { game: 'dice', amount: '0.01' },
  };
  return bodies[endpoint] ?? null;
}

function requestTo(endpoint: CasinoEndpointId, extra: Partial<TransportRequest> = {}): TransportRequest {
  const row = CASINO_ENDPOINTS[endpoint];
  const path = row.path.replace(/:([A-Za-z_]+)/g, (_match, name: string) => PATH_VALUES[name] ?? 'x');
  return { mount: row.mount, method: row.method, path, ...extra };
}

const rejection = rejectionMaker<CasinoEndpointId>((endpoint, _world, extra) => requestTo(endpoint, extra));

const KEYLESS: ReadonlySet<CasinoEndpointId> = new Set(['casino.A.register', 'casino.A.gossip']);

function genericCases(endpoint: CasinoEndpointId): RejectionCase[] {
  const method = CASINO_ENDPOINTS[endpoint].method as HttpMethod;
  const cases = [
    rejection(endpoint, 'wrong method DELETE', { status: 405, code: 'BAD_REQUEST' }, () => ({ method: 'DELETE' })),
  ];
  const bodyOf = (world: CaseWorld): Body => validBody(endpoint, world) ?? {};
  if (method === 'POST' || method === 'PUT') {
    cases.push(
      rejection(endpoint, 'malformed JSON', BAD_REQUEST, () => ({
        rawBody: { text: '{"amount": ', contentType: 'application/json' },
      })),
      rejection(endpoint, 'wrong content type (text/plain)', { status: 415, code: 'BAD_REQUEST' }, () => ({
        rawBody: { text: 'amount=1', contentType: 'text/plain' },
      })),
      rejection(endpoint, 'a non-object body (an array)', BAD_REQUEST, () => ({ body: [1, 2, 3] })),
      // A play's fields are its tournament's game's: an unknown tournament answers 404 first.
      rejection(
        endpoint,
        'an unknown field',
        endpoint === 'casino.A.tournaments.play' ? { status: 404, code: 'NOT_FOUND' } : BAD_REQUEST,
        (world) => ({ body: { ...bodyOf(world), colour: 'red' } }),
      ),
    );
  } else {
    cases.push(rejection(endpoint, 'an unknown query parameter', BAD_REQUEST, () => ({ query: { colour: 'red' } })));
  }
  if (!KEYLESS.has(endpoint)) {
    const body = (world: CaseWorld): Partial<TransportRequest> => (method === 'GET' ? {} : { body: bodyOf(world) });
    const make: MakeRejection = (name, expect, extra, auth) => rejection(endpoint, name, expect, extra, auth);
    cases.push(...keyRejections(make, body, { withoutKey: true, malformedWithRequest: false }));
  }
  return cases;
}

function gameCases(): RejectionCase[] {
  return Object.entries(GAME_BODIES).flatMap(([path, bodies]) => {
    const endpoint = `casino.A.game.${path.replaceAll('-', '_')}` as CasinoEndpointId;
    return [
      ...bodies.invalid.map((params) =>
        rejection(endpoint, `parameters ${JSON.stringify(params)}`, BAD_REQUEST, () => ({
          body: { ...params, amount: 0.01 },
        })),
      ),
      ...BAD_AMOUNTS.map((amount) =>
        rejection(endpoint, `amount ${JSON.stringify(amount)}`, BAD_REQUEST, () => ({
          body: { ...bodies.valid, amount },
        })),
      ),
      rejection(endpoint, 'no amount', BAD_REQUEST, () => ({ body: { ...bodies.valid } })),
      rejection(endpoint, "a client seed with ':'", BAD_REQUEST, () => ({
        body: { ...bodies.valid, amount: 0.01, client_seed: 'a:b' },
      })),
    ];
  });
}

/** A body of `endpoint` that must be refused before anything runs. */
function refusedBody(
  endpoint: CasinoEndpointId,
  name: string,
  value: unknown,
  expect: ExpectedRejection = BAD_REQUEST,
): RejectionCase {
  return rejection(endpoint, name, expect, () => ({ body: value }));
}

/** Bodies of the other rows that must be refused before anything runs. */
function otherCases(): RejectionCase[] {
  return [...accountRowCases(), ...gameRowCases()];
}

/** Batches, withdrawals, Kelly and fairness: bodies refused. */
function accountRowCases(): RejectionCase[] {
  return [
    refusedBody('casino.A.batch', '21 bets', {
      bets: Array.from({ length: 21 }, () => ({ game: 'slots', amount: 0.1 })),
    }),
    refusedBody('casino.A.batch', 'no bets', { bets: [] }),
    refusedBody('casino.A.withdraw', 'below the minimum', { amount: 0.99, address: `0x${'ab'.repeat(20)}` }),
    refusedBody('casino.A.withdraw', 'a chain other than Base', {
      amount: 5,
      address: `0x${'ab'.repeat(20)}`,
      chain: 'ethereum',
    }),
    refusedBody('casino.A.withdraw', 'a malformed address', { amount: 5, address: '0x1234' }),
    refusedBody('casino.A.kelly.config', 'risk factor 1.01', { risk_factor: 1.01 }),
    refusedBody('casino.A.kelly.config', 'risk factor 0.09', { risk_factor: 0.09 }),
    refusedBody('casino.A.kelly.simulate', 'too many bets', {
      game: 'coin_flip',
      side: 'heads',
      bankroll: 10,
      bet_amount: 1,
      num_bets: 10_001,
      simulations: 1,
    }),
    refusedBody('casino.A.fairness.verify', 'a malformed bet id', { bet_id: 'nope' }),
    refusedBody(
      'casino.A.fairness.verify',
      'an unknown bet',
      { bet_id: PATH_VALUES['betId'] },
      { status: 404, code: 'NOT_FOUND' },
    ),
  ];
}

/** Video poker, tournaments, challenges, style B bets and crash: bodies refused. */
function gameRowCases(): RejectionCase[] {
  return [
    refusedBody(
      'casino.A.video-poker.draw',
      'a draw without its deal',
      { nonce: 0, holds: [] },
      { status: 404, code: 'NOT_FOUND' },
    ),
    refusedBody('casino.A.video-poker.draw', 'holds not cards', { nonce: 0, holds: ['ZZ'] }),
    refusedBody('casino.A.tournaments.create', 'ends before it starts', {
      name: 'x',
      game: 'dice',
      prize_pool: 1,
      starts_at: '2030-01-02T00:00:00Z',
      ends_at: '2030-01-01T00:00:00Z',
    }),
    refusedBody('casino.A.tournaments.create', 'a video-poker tournament', {
      name: 'x',
      game: 'video_poker',
      prize_pool: 1,
      starts_at: '2030-01-01T00:00:00Z',
      ends_at: '2030-01-02T00:00:00Z',
    }),
    refusedBody(
      'casino.A.challenges.create',
      'an unknown opponent',
      { challenged_agent_id: 'nobody-at-all', amount: 0.01 },
      { status: 404, code: 'NOT_FOUND' },
    ),
    refusedBody('casino.B.bet', 'a game style B does not offer', { game: 'keno', amount: '1.00' }),
    refusedBody('casino.B.bet', 'params not an object', { game: 'dice', amount: '1.00', params: [1] }),
    refusedBody('casino.B.bet', 'an unknown dice param', {
      game: 'dice',
      amount: '1.00',
      params: { target: 50, side: 'x' },
    }),
    refusedBody('casino.short.crash.bet', 'auto cash-out 100.01', { amount: 0.01, auto_cash_out: 100.01 }),
    refusedBody(
      'casino.short.crash.cashout',
      'an unknown bet',
      { bet_id: PATH_VALUES['betId'] },
      { status: 404, code: 'NOT_FOUND' },
    ),
  ];
}

export const CASINO_REJECTION_CASES: readonly RejectionCase[] = [
  ...(Object.keys(CASINO_ENDPOINTS) as CasinoEndpointId[]).flatMap(genericCases),
  ...gameCases(),
  ...otherCases(),
];
