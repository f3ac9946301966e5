// docs/fairness.md cannot drift from the code: its worked example is recomputed by the standalone
// script (scripts/verify-bet.ts, node:crypto only) and by the casino's own game modules, and both
// must print exactly what the page prints; its payout tables must be the modules' tables; and
// the script must agree with the modules on every game over many random bets (so the procedure
// the page publishes is the one the casino runs).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  KENO_PAYTABLE as SCRIPT_KENO,
  PLINKO_HALF_TABLES as SCRIPT_PLINKO,
  POKER_HANDS,
  POKER_PAYS,
  SCRATCH_CLASSES as SCRIPT_SCRATCH,
  SLOTS_LINES as SCRIPT_SLOTS_LINES,
  SLOTS_SYMBOLS as SCRIPT_SLOTS_SYMBOLS,
  SLOTS_WEIGHTS,
  WHEEL_SECTORS as SCRIPT_WHEEL,
  verifyBet,
  type Fraction,
} from '../../scripts/verify-bet.ts';
import type { JsonObject } from '../../src/core/errors.ts';
import { ratioText, type Ratio } from '../../src/core/ratio.ts';
import { Rng } from '../../src/core/rng.ts';
import { DrawStream } from '../../src/services/casino/fair/draw-stream.ts';
import { crashPointCents } from '../../src/services/casino/games/crash-point.ts';
import type { GameId } from '../../src/services/casino/games/game.ts';
import { GAMES, gameById } from '../../src/services/casino/games/index.ts';
import { KENO_PAYTABLE } from '../../src/services/casino/games/keno-tables.ts';
import { PLINKO_HALF_TABLES, PLINKO_RISKS, PLINKO_ROWS } from '../../src/services/casino/games/plinko-tables.ts';
import { SCRATCH_CLASSES } from '../../src/services/casino/games/scratch-card.ts';
import { SLOTS_LINES, SLOTS_REEL_WEIGHTS, SLOTS_SYMBOLS } from '../../src/services/casino/games/slots.ts';
import { HAND_CLASSES, PAY_TABLE } from '../../src/services/casino/games/video-poker-hand.ts';
import { WHEEL_SECTORS } from '../../src/services/casino/games/wheel.ts';
import { seedCommitment } from '../../src/services/casino/seed-book.ts';

const root = join(import.meta.dirname, '..', '..');
const doc = readFileSync(join(root, 'docs', 'fairness.md'), 'utf8');

const fractionText = (value: Fraction | Ratio): string =>
  value.den === 1n ? `${value.num}` : `${value.num}/${value.den}`;

/** The game module's answer for a bet: outcome, multiplier, result hash, blocks used. */
function moduleBet(
  game: string,
  params: JsonObject,
  seed: string,
  clientSeed: string,
  nonce: number,
): { detail: string; multiplier: string; resultHash: string; blocks: number } {
  const module = gameById(game as GameId);
  const parsed = module.parse(params);
  if (!parsed.ok) throw new Error(`${game} ${JSON.stringify(params)}: ${parsed.message}`);
  const draws = new DrawStream(seed, clientSeed, nonce);
  const result = module.play(parsed.value, draws);
  return {
    detail: JSON.stringify(result.detail),
    multiplier: ratioText(result.multiplier),
    resultHash: draws.firstBlockHex,
    blocks: draws.blocksUsed,
  };
}

function scriptBet(
  game: string,
  params: JsonObject,
  seed: string,
  clientSeed: string,
  nonce: number,
): { detail: string; multiplier: string; resultHash: string; blocks: number; seedHash: string } {
  const verified = verifyBet({ serverSeed: seed, clientSeed, nonce, game, params });
  return {
    detail: JSON.stringify(verified.detail),
    multiplier: fractionText(verified.multiplier),
    resultHash: verified.resultHash,
    blocks: verified.messages.length,
    seedHash: verified.serverSeedHash,
  };
}

/** The text between two HTML comment markers of the page. */
function section(name: string): string {
  const start = doc.indexOf(`<!-- ${name}:start -->`);
  const end = doc.indexOf(`<!-- ${name}:end -->`);
  expect(start, `docs/fairness.md has the ${name} markers`).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return doc.slice(start, end);
}

describe('docs/fairness.md worked example', () => {
  const inputs = Object.fromEntries(
    section('fairness-example:inputs')
      .split('\n')
      .map((line) => /^(\w+)\s+=\s+(.+)$/.exec(line.trim()))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => [match[1] as string, match[2] as string]),
  );
  const seed = inputs['server_seed'] ?? '';
  const clientSeed = inputs['client_seed'] ?? '';
  const nonce = Number(inputs['nonce']);
  const rows = section('fairness-example')
    .split('\n')
    .map((line) => /^\| (\w+) \| `(.*)` \| `(.*)` \| ([\d/]+) \|$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({
      game: match[1] as string,
      params: JSON.parse(match[2] as string) as JsonObject,
      result: match[3] as string,
      multiplier: match[4] as string,
    }));

  test('the commitment, block 0 and its words are what the page prints', () => {
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(inputs['server_seed_hash']).toBe(seedCommitment(seed));
    expect(inputs['block_0_message']).toBe(`${clientSeed}:${nonce}`);
    const draws = new DrawStream(seed, clientSeed, nonce);
    expect(inputs['block_0']).toBe(draws.firstBlockHex);
    expect(inputs['block_0_words']).toBe(Array.from({ length: 8 }, () => draws.uint32()).join(' '));
  });

  test('every row is what the script and the real game module compute, for at least the six games the page walks through', () => {
    for (const game of ['coin_flip', 'dice', 'roulette', 'keno', 'plinko', 'crash'])
      expect(rows.map((row) => row.game)).toContain(game);
    for (const row of rows) {
      const fromScript = scriptBet(row.game, row.params, seed, clientSeed, nonce);
      const fromModule = moduleBet(row.game, row.params, seed, clientSeed, nonce);
      expect({ game: row.game, result: fromScript.detail, multiplier: fromScript.multiplier }).toEqual({
        game: row.game,
        result: row.result,
        multiplier: row.multiplier,
      });
      expect({ game: row.game, result: fromModule.detail, multiplier: fromModule.multiplier }).toEqual({
        game: row.game,
        result: row.result,
        multiplier: row.multiplier,
      });
      expect(fromScript.resultHash).toBe(inputs['block_0']);
    }
  });

  test('the command of section 5 prints the example, and refuses a wrong commitment', () => {
    const base = [
      '--seed',
      seed,
      '--client-seed',
      clientSeed,
      '--nonce',
      String(nonce),
      '--game',
      'dice',
      '--params',
      '{"direction":"over","threshold":50}',
    ];
    const run = spawnSync(
      process.execPath,
      [join(root, 'scripts', 'verify-bet.ts'), ...base, '--commitment', inputs['server_seed_hash'] ?? ''],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(run.status).toBe(0);
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({
      commitment_matches: true,
      result_hash: inputs['block_0'],
      hmac_messages: [`${clientSeed}:${nonce}`],
      result: { roll: 39, win: false },
      payout_multiplier: '0',
    });
    const wrong = spawnSync(
      process.execPath,
      [join(root, 'scripts', 'verify-bet.ts'), ...base, '--commitment', '0'.repeat(64)],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(wrong.status).toBe(1);
    expect(doc).toContain(`--seed ${seed}`);
  });
});

describe("docs/fairness.md tables are the game modules' tables", () => {
  test('plinko, keno, slots, scratch card, wheel and video poker, as printed', () => {
    for (const rows of PLINKO_ROWS)
      for (const risk of PLINKO_RISKS)
        expect(doc).toContain(`| ${rows} | ${risk} | ${PLINKO_HALF_TABLES[rows][risk].join(', ')} |`);
    for (let spots = 1; spots <= 10; spots++) {
      const entries = Object.entries(KENO_PAYTABLE[spots] ?? {}).map(([hits, pays]) => `${hits} → ${pays}x`);
      expect(doc).toContain(`| ${spots} | ${entries.join(', ')} |`);
    }
    expect(doc).toContain(`| symbol | ${SLOTS_SYMBOLS.join(' | ')} |`);
    expect(doc).toContain(`| stops | ${SLOTS_REEL_WEIGHTS[0].join(' | ')} |`);
    for (const weights of SLOTS_REEL_WEIGHTS) expect(weights).toEqual(SLOTS_REEL_WEIGHTS[0]);
    expect(doc).toContain(`| class | ${SCRATCH_CLASSES.map((entry) => entry.name).join(' | ')} |`);
    expect(doc).toContain(`| weight | ${SCRATCH_CLASSES.map((entry) => entry.weight).join(' | ')} |`);
    expect(doc).toContain(`| label | ${WHEEL_SECTORS.map((entry) => entry.label).join(' | ')} |`);
    expect(doc).toContain(`| percent | ${WHEEL_SECTORS.map((entry) => entry.percent).join(' | ')} |`);
    for (const pays of PAY_TABLE) if (pays > 0) expect(doc).toContain(`**${pays}x**`);
  });

  test('the script holds the same tables', () => {
    expect(SCRIPT_PLINKO).toEqual(
      Object.fromEntries(
        PLINKO_ROWS.flatMap((rows) => PLINKO_RISKS.map((risk) => [`${rows}:${risk}`, PLINKO_HALF_TABLES[rows][risk]])),
      ),
    );
    expect(SCRIPT_KENO).toEqual(KENO_PAYTABLE);
    expect(SCRIPT_SLOTS_SYMBOLS).toEqual(SLOTS_SYMBOLS);
    expect(SLOTS_WEIGHTS).toEqual(SLOTS_REEL_WEIGHTS[0]);
    expect(SCRIPT_SLOTS_LINES.map(([name, pays]) => [name, `${pays}`])).toEqual(
      SLOTS_LINES.map((line) => [line.name, ratioText(line.multiplier)]),
    );
    expect(SCRIPT_SCRATCH.map(([name, pays, weight]) => [name, `${pays}`, weight])).toEqual(
      SCRATCH_CLASSES.map((entry) => [entry.name, ratioText(entry.multiplier), entry.weight]),
    );
    expect(SCRIPT_WHEEL.map(([label, , percent]) => [label, percent])).toEqual(
      WHEEL_SECTORS.map((entry) => [entry.label, entry.percent]),
    );
    expect(POKER_HANDS).toEqual(HAND_CLASSES);
    expect(POKER_PAYS).toEqual(PAY_TABLE);
  });
});

/** Valid random parameters of each game, as a bet records them. */
const PARAMS: Readonly<Record<GameId, (rng: Rng) => JsonObject>> = {
  coin_flip: (rng) => ({ side: rng.pick(['heads', 'tails']) }),
  dice: (rng) =>
    rng.chance(1, 2)
      ? { direction: 'over', threshold: rng.between(1, 99) }
      : { direction: 'under', threshold: rng.between(2, 99) },
  simple_dice: (rng) => ({ pick: rng.between(1, 6) }),
  multiplier: (rng) => ({ target_multiplier: rng.pick([1.01, 1.5, 2, 4.99, 1000, rng.between(101, 100_000) / 100]) }),
  roulette: (rng): JsonObject => {
    const betType = rng.pick([
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
    ]);
    return betType === 'number' ? { bet_type: betType, bet_value: rng.between(0, 36) } : { bet_type: betType };
  },
  custom: (rng) => ({ win_probability: rng.between(1, 99) }),
  blackjack: (rng) => ({ action: rng.pick(['hit', 'stand', 'double']) }),
  crash: (rng) => ({ cash_out_at: rng.pick([1.01, 1.5, 2, 3.33, 10, 100, rng.between(101, 10_000) / 100]) }),
  plinko: (rng) => ({ rows: rng.pick([8, 12, 16]), risk: rng.pick(['low', 'medium', 'high']) }),
  slots: () => ({}),
  hilo: (rng) => ({ guess: rng.pick(['higher', 'lower']) }),
  keno: (rng) => {
    const picks = new Set<number>();
    const spots = rng.between(1, 10);
    while (picks.size < spots) picks.add(rng.between(1, 80));
    return { picks: [...picks] };
  },
  scratch_card: () => ({}),
  video_poker: (rng) => ({ holds: [0, 1, 2, 3, 4].filter(() => rng.chance(1, 2)) }),
  wheel: () => ({}),
  mines: (rng) => {
    const mines = rng.between(1, 24);
    return { mines, reveals: rng.between(1, 25 - mines) };
  },
  baccarat: (rng) => ({ bet_on: rng.pick(['player', 'banker', 'tie']) }),
};

describe('scripts/verify-bet.ts and the game modules agree', () => {
  test('on every game, outcome field by field (key order included), multiplier, result hash and blocks', () => {
    const rng = new Rng('fairness-doc').fork('agreement');
    const BETS_PER_GAME = 300;
    for (const game of GAMES) {
      const outcomes = new Set<string>();
      for (let bet = 0; bet < BETS_PER_GAME; bet++) {
        const seed = rng.hex(32);
        const clientSeed = rng.chance(1, 2) ? rng.hex(8) : `agent-${rng.int(1_000)}`;
        const nonce = rng.int(1_000);
        const params = PARAMS[game.id](rng);
        const fromModule = moduleBet(game.id, params, seed, clientSeed, nonce);
        const fromScript = scriptBet(game.id, params, seed, clientSeed, nonce);
        expect({ game: game.id, params, seed, clientSeed, nonce, ...fromScript, seedHash: undefined }).toEqual({
          game: game.id,
          params,
          seed,
          clientSeed,
          nonce,
          ...fromModule,
          seedHash: undefined,
        });
        expect(fromScript.seedHash).toBe(seedCommitment(seed));
        outcomes.add(fromModule.multiplier);
      }
      // Each game shows more than one payout over the sample (losses and wins both compared).
      expect(outcomes.size, game.id).toBeGreaterThan(1);
    }
  });

  test('crash rounds: the crash point of a round\'s seed, client seed "crash", nonce 0', () => {
    const rng = new Rng('fairness-doc').fork('crash-rounds');
    for (let round = 0; round < 200; round++) {
      const seed = rng.hex(32);
      const cents = crashPointCents(new DrawStream(seed, 'crash', 0));
      const verified = verifyBet({
        serverSeed: seed,
        clientSeed: 'crash',
        nonce: 0,
        game: 'crash_round',
        params: { cashed_out_at: 1.5 },
      });
      expect(verified.detail['crash_point']).toBe(cents / 100);
      expect(fractionText(verified.multiplier)).toBe(cents >= 150 ? '3/2' : '0');
    }
  });
});
