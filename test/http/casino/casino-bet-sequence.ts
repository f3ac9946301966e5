// A seeded sequence of casino requests that exercises the bet path end to end (parse, placeBet,
// Kelly check, settle, render) on every row that places or shows bets: the casino tour, then
// single bets on all 16 single-call games with valid and invalid parameters and amounts (Kelly
// refusals, unknown fields, bad client seeds), style B bets, batches, risk-factor changes,
// rotations (and more than 1,000 nonces for one agent), verifications and audits.
// Its answers (status + body text) are pinned by digests in casino-bet-answers.test.ts, so an
// optimisation of the hot path cannot change a byte of any answer.
import { Rng } from '../../../src/core/rng.ts';
import type { DefectName } from '../../../src/services/shared/context.ts';
import { casinoTour, casinoWorld, type CasinoWorld } from './casino-world.ts';

export const SEQUENCE_STEPS = 2_000;

type Body = Record<string, unknown>;

const ROULETTE_TYPES = [
  'number',
  'red',
  'black',
  'odd',
  'even',
  'high',
  'low',
  'dozen_1',
  'dozen_2',
  'dozen_3',
  'column_1',
  'column_2',
  'column_3',
  'zero',
];

/** Game path → a parameter generator (sometimes out of range: those answers are pinned too). */
const SINGLE_GAMES: ReadonlyArray<readonly [string, (rng: Rng) => Body]> = [
  ['coin-flip', (rng) => ({ side: rng.pick(['heads', 'tails', 'edge']) })],
  ['dice', (rng) => ({ direction: rng.pick(['over', 'under']), threshold: rng.between(0, 100) })],
  ['simple-dice', (rng) => ({ pick: rng.between(0, 7) })],
  ['multiplier', (rng) => ({ target_multiplier: rng.pick([1, 1.01, 1.5, 2, 3.33, 10, 99.99, 1000, 1001, 2.001]) })],
  [
    'roulette',
    (rng) => {
      const betType = rng.pick(ROULETTE_TYPES);
      return betType === 'number' ? { bet_type: betType, bet_value: rng.between(-1, 37) } : { bet_type: betType };
    },
  ],
  ['custom', (rng) => ({ win_probability: rng.between(0, 100) })],
  ['blackjack', (rng) => ({ action: rng.pick(['hit', 'stand', 'double', 'split']) })],
  ['crash', (rng) => ({ cash_out_at: rng.pick([1, 1.01, 1.5, 2, 7.77, 100, 100.01]) })],
  ['plinko', (rng) => ({ rows: rng.pick([8, 12, 16, 10]), risk: rng.pick(['low', 'medium', 'high']) })],
  ['slots', () => ({})],
  ['hilo', (rng) => ({ guess: rng.pick(['higher', 'lower', 'same']) })],
  ['keno', (rng) => ({ picks: kenoPicks(rng) })],
  ['scratch-card', () => ({})],
  ['wheel', () => ({})],
  [
    'mines',
    (rng) => {
      const mines = rng.between(0, 25);
      return { mines, reveals: rng.between(0, 26 - mines) };
    },
  ],
  ['baccarat', (rng) => ({ bet_on: rng.pick(['player', 'banker', 'tie', 'dragon']) })],
];

function kenoPicks(rng: Rng): number[] {
  const count = rng.between(0, 11);
  const picks = new Set<number>();
  while (picks.size < count) picks.add(rng.between(1, 80));
  const list = [...picks];
  if (rng.chance(1, 20) && list.length > 0) list.push(list[0] as number);
  return list;
}

const AMOUNTS_A: readonly unknown[] = [0.01, 0.05, 0.1, 0.25, 1, 2.5];
/** Large (Kelly refusals, insufficient balance) and invalid amounts, one bet in eight. */
const AMOUNTS_ODD_A: readonly unknown[] = [10, 60, 400, 5000, 0.001, 0.0000001, 0, -1, '1'];

function amountA(rng: Rng): unknown {
  return rng.chance(1, 8) ? rng.pick(AMOUNTS_ODD_A) : rng.pick(AMOUNTS_A);
}

function clientSeed(rng: Rng): Body {
  const roll = rng.int(10);
  if (roll < 4) return {};
  if (roll === 9) return { client_seed: rng.pick(['has:colon', '', 'x'.repeat(65), 42]) };
  return { client_seed: `seed-${rng.int(1_000_000)}` };
}

function singleBet(rng: Rng): { path: string; body: Body } {
  const [path, params] = rng.pick(SINGLE_GAMES);
  const body: Body = { ...params(rng), amount: amountA(rng), ...clientSeed(rng) };
  if (rng.chance(1, 40)) body['extra'] = true;
  if (rng.chance(1, 60)) delete body['amount'];
  return { path, body };
}

function betB(rng: Rng): Body {
  const game = rng.pick(['dice', 'slots', 'roulette', 'blackjack', 'coinflip', 'keno']);
  const params: Body =
    game === 'dice'
      ? { target: rng.between(1, 99), over: rng.chance(1, 2) }
      : game === 'roulette'
        ? { bet: rng.chance(1, 3) ? rng.between(0, 36) : rng.pick(['red', 'black', 'odd', 'dozen_2']) }
        : game === 'blackjack'
          ? { action: rng.pick(['hit', 'stand', 'double']) }
          : game === 'coinflip'
            ? { side: rng.pick(['heads', 'tails']) }
            : {};
  return { game, amount: rng.pick(['0.01', '0.10', 0.5, '1', '25.000001', '3.5']), params, ...clientSeed(rng) };
}

export interface SequenceAnswer {
  readonly step: string;
  readonly status: number;
  readonly text: string;
}

/** Runs the sequence on a fresh casino world and returns every answer in order. */
export function runBetSequence(options: { seed: string; defects?: DefectName[] }): SequenceAnswer[] {
  const world = casinoWorld({ defects: options.defects ?? [] });
  const answers: SequenceAnswer[] = [];
  const note = (step: string, response: { status: number; body: unknown }): Record<string, unknown> => {
    answers.push({ step, status: response.status, text: JSON.stringify(response.body) });
    return response.body as Record<string, unknown>;
  };
  casinoTour(
    (mount, method, path, callOptions) => {
      const response = world.call(mount, method, path, callOptions);
      note(`tour ${method} ${path}`, response);
      return { status: response.status, body: response.body };
    },
    world.keys,
    () => world.nowMs(),
  );
  const rng = new Rng(options.seed).fork('casino-bet-sequence');
  const betIds: string[] = [];
  for (let step = 0; step < SEQUENCE_STEPS; step++) randomStep(world, rng, betIds, note);
  return answers;
}

type Note = (step: string, response: { status: number; body: unknown }) => Record<string, unknown>;

function randomStep(world: CasinoWorld, rng: Rng, betIds: string[], note: Note): void {
  const key = rng.chance(3, 4) ? world.keys.alice : world.keys.bob;
  const kind = rng.int(100);
  if (kind < 62) {
    const { path, body } = singleBet(rng);
    const answer = note(`A ${path}`, world.a('POST', `/games/${path}`, { key, body }));
    if (typeof answer['bet_id'] === 'string') betIds.push(answer['bet_id']);
  } else if (kind < 76) {
    note('B bet', world.b('POST', '/bet', { key, body: betB(rng) }));
  } else if (kind < 82) {
    const bets = Array.from({ length: rng.between(1, 4) }, () => {
      const { path, body } = singleBet(rng);
      return { game: path.replaceAll('-', '_'), ...body };
    });
    note('batch', world.a('POST', '/bets/batch', { key, body: { bets } }));
  } else if (kind < 86) {
    note(
      'kelly config',
      world.a('PUT', '/kelly/config', { key, body: { risk_factor: rng.pick([0.1, 0.25, 0.33, 0.5, 1, 0.05]) } }),
    );
  } else if (kind < 88) {
    note('rotate', world.a('POST', '/fairness/rotate', { key }));
  } else if (kind < 94 && betIds.length > 0) {
    note('verify', world.a('POST', '/fairness/verify', { key, body: { bet_id: rng.pick(betIds) } }));
  } else if (kind < 97 && betIds.length > 0) {
    const betId = rng.chance(1, 6) ? 'bet_0000000000000000' : rng.pick(betIds);
    note('audit', world.a('GET', `/fairness/audit/${betId}`, { key }));
  } else {
    note('kelly limits', world.a('GET', '/kelly/limits', { key }));
  }
}
