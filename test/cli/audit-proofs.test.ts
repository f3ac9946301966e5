// The pieces under the audit commands: the client-side recomputation of a bet from its wire audit
// trail (every single-call game, crash rounds, and each kind of tampering named), strict parsing
// of wire answers, the defective games of the in-process simulator, the live plan's default
// variants, and which variants report.html charts.
import { describe, expect, test } from 'vitest';
import { chartedRows } from '../../src/audit/report/edge-audit-files.ts';
import { simulateHouseEdge } from '../../src/audit/edge/edge-simulation.ts';
import { defectiveGames, defectShortName } from '../../src/audit/edge/defective-games.ts';
import { clientSeedOf } from '../../src/audit/live/edge-plan.ts';
import { planStakesMicro } from '../../src/cli/audit-house-edge-live.ts';
import { verifyWireBet } from '../../src/audit/fairness/verify-wire-bet.ts';
import { parseAuditTrail, parseBetAnswer, type AuditTrail } from '../../src/audit/fairness/wire-bet.ts';
import type { AfpClient } from '../../src/client/client.ts';
import { usdc } from '../../src/core/money.ts';
import { ratioFromDecimal } from '../../src/core/ratio.ts';
import { DrawStream } from '../../src/services/casino/fair/draw-stream.ts';
import { GAMES, gameById } from '../../src/services/casino/games/index.ts';
import { inProcessSetup, type InProcessSetup } from '../client/fixtures.ts';

const BODIES: ReadonlyArray<Record<string, unknown>> = [
  { game: 'coin_flip', side: 'tails' },
  { game: 'dice', direction: 'under', threshold: 10 },
  { game: 'simple_dice', pick: 3 },
  { game: 'multiplier', target_multiplier: 3.5 },
  { game: 'roulette', bet_type: 'number', bet_value: 17 },
  { game: 'custom', win_probability: 90 },
  { game: 'blackjack', action: 'hit' },
  { game: 'crash', cash_out_at: 1.5 },
  { game: 'plinko', rows: 16, risk: 'high' },
  { game: 'slots' },
  { game: 'hilo', guess: 'higher' },
  { game: 'keno', picks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
  { game: 'scratch_card' },
  { game: 'wheel' },
  { game: 'mines', mines: 3, reveals: 5 },
  { game: 'baccarat', bet_on: 'banker' },
];

async function funded(setup: InProcessSetup): Promise<{ client: AfpClient; agentId: string }> {
  const registered = await setup.client.casino.call('casino.A.register', { body: {} });
  const agentId = registered.body['agent_id'] as string;
  const deposit = setup.platform.casino.account.simulateDeposit(
    { agentId, chain: 'base', amountMicro: usdc(500) },
    setup.clock.nowMs(),
  );
  expect(deposit.ok).toBe(true);
  setup.clock.advance(3_600_000);
  setup.platform.advanceTo(setup.clock.nowMs());
  return { client: setup.client.withKey(registered.body['api_key'] as string), agentId };
}

async function trail(client: AfpClient, betId: string): Promise<AuditTrail> {
  const answer = await client.casino.audit(betId);
  const parsed = parseAuditTrail(answer.body);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.value;
}

describe('verifyWireBet', () => {
  test('every single-call game recomputes from its audit trail; tampering is named', async () => {
    const setup = inProcessSetup();
    const { client } = await funded(setup);
    const answers = await client.casino.batch(
      BODIES.map((body) => ({ ...body, amount: body['game'] === 'slots' ? 0.1 : 0.01 })),
    );
    const results = answers.body['results'] as Array<Record<string, unknown>>;
    expect(results.map((result) => result['ok'])).toEqual(BODIES.map(() => true));
    const early = await trail(client, results[0]?.['bet_id'] as string);
    expect(early.serverSeed).toBeNull();
    expect(verifyWireBet(early.bet, early.serverSeed).problems).toEqual(['server seed not revealed after rotation']);
    await client.casino.rotate();
    for (const [index, result] of results.entries()) {
      const { bet, serverSeed } = await trail(client, result['bet_id'] as string);
      expect(verifyWireBet(bet, serverSeed), String(BODIES[index]?.['game'])).toMatchObject({ problems: [] });
      const answer = parseBetAnswer(result, bet.params);
      expect(answer.ok && verifyWireBet(answer.value, serverSeed).problems).toEqual([]);
    }
    const { bet, serverSeed } = await trail(client, results[1]?.['bet_id'] as string);
    const seed = serverSeed as string;
    const problems = (changed: Partial<typeof bet>, hex = seed): readonly string[] =>
      verifyWireBet({ ...bet, ...changed }, hex).problems;
    expect(problems({}, seed.replace(/^./, seed[0] === 'a' ? 'b' : 'a'))).toContain(
      'server seed does not hash to the commitment',
    );
    expect(problems({ resultHash: '0'.repeat(64) })).toEqual(['result hash differs from HMAC block 0']);
    expect(problems({ nonce: bet.nonce + 1 })).toContain('result hash differs from HMAC block 0');
    expect(problems({ payoutMicro: bet.payoutMicro + 1n })[0]).toMatch(
      /^paid \d+ micro, due \d+ \(amount × recomputed multiplier\)$/,
    );
    expect(problems({ multiplier: bet.multiplier + 1 })[0]).toMatch(/^multiplier: recorded /);
    expect(problems({ detail: { roll: -1 } })).toEqual(['result differs from the recomputed one']);
    expect(problems({ params: { direction: 'sideways' } })[0]).toMatch(/^parameters do not parse/);
    expect(problems({ game: 'poker' })).toEqual(["unknown game 'poker'"]);
    expect(verifyWireBet(bet, 'zz').problems).toEqual(['revealed server seed is not 64 hex characters']);
  });

  test('crash-round bets recompute from the round seed and may share its nonce', async () => {
    const setup = inProcessSetup();
    const { client } = await funded(setup);
    const ids: string[] = [];
    for (const auto of [1.01, 1.5]) {
      const answer = await client.casino.call('casino.short.crash.bet', {
        body: { amount: 0.05, auto_cash_out: auto },
      });
      expect(answer.ok, JSON.stringify(answer.body)).toBe(true);
      ids.push(answer.body['bet_id'] as string);
    }
    setup.clock.advance(3_600_000);
    setup.platform.advanceTo(setup.clock.nowMs());
    const trails = await Promise.all(ids.map((id) => trail(client, id)));
    for (const { bet, serverSeed } of trails) {
      expect(bet.variant).toBe('crash:round');
      expect(verifyWireBet(bet, serverSeed).problems).toEqual([]);
      expect(
        verifyWireBet({ ...bet, detail: { ...(bet.detail as object), crash_point: 12345 } }, serverSeed).problems[0],
      ).toMatch(/^crash point: recorded 12345/);
    }
    expect(trails[0]?.bet.seedHash).toBe(trails[1]?.bet.seedHash);
    expect(trails[0]?.bet.nonce).toBe(trails[1]?.bet.nonce);
  });
});

describe('wire parsing', () => {
  test('a missing or mistyped field is a named problem, not a crash', () => {
    expect(parseAuditTrail(null)).toEqual({ ok: false, problem: 'audit trail: the answer is not an object' });
    expect(parseAuditTrail({ proof: {}, verification: { recorded: {} } })).toMatchObject({
      ok: false,
      problem: 'audit trail: verification.server_seed is neither null nor a string',
    });
    const answer = {
      bet_id: 'bet_1',
      game: 'dice',
      amount_bet: 0.01,
      amount_won: 'x',
      payout_multiplier: 0,
      result: {},
      proof: {},
    };
    expect(parseBetAnswer(answer, {})).toEqual({ ok: false, problem: 'bet answer: amount_won is not a number' });
    expect(parseBetAnswer({ ...answer, amount_won: 0, proof: { client_seed: 'c', nonce: -1 } }, {})).toEqual({
      ok: false,
      problem: 'bet answer: nonce is not a non-negative integer',
    });
  });
});

describe('defective games (house-edge --defect)', () => {
  test('keep the faithful law and advertised edge, and play as the served defects do', () => {
    expect(defectShortName('casino-keno-8')).toBe('keno-8');
    for (const defect of ['payout-short', 'biased-draw', 'keno-8']) {
      const games = defectiveGames(defect);
      expect(games.map((game) => game.id)).toEqual(GAMES.map((game) => game.id));
      for (const [index, game] of games.entries()) {
        const variant = game.variants()[0];
        if (variant === undefined) continue;
        expect(game.distribution(variant.params)).toEqual(GAMES[index]?.distribution(variant.params));
      }
    }
    expect(() => defectiveGames('replayable-nonce')).toThrow(/defectiveGames takes one of/);
    const coin = gameById('coin_flip');
    const short = defectiveGames('payout-short').find((game) => game.id === 'coin_flip');
    const params = coin.variants()[0]?.params;
    const multipliers = Array.from({ length: 40 }, (_, nonce) => [
      coin.play(params, new DrawStream('a'.repeat(64), 'c', nonce)).multiplier,
      short?.play(params, new DrawStream('a'.repeat(64), 'c', nonce)).multiplier,
    ]);
    for (const [faithful, defective] of multipliers)
      expect(defective).toEqual(faithful?.num === 0n ? faithful : ratioFromDecimal('1.9404'));
    const biased = defectiveGames('biased-draw').find((game) => game.id === 'coin_flip');
    expect(() =>
      biased?.play(params, { uint32: () => 0, int: () => 0, fraction52: () => 0n, sample: () => [] }),
    ).toThrow(/second stream/);
    const keno = simulateHouseEdge({
      games: defectiveGames('keno-8').filter((game) => game.id === 'keno'),
      betsPerGame: 2000,
      seed: 1,
    });
    expect(keno.rows[0]?.interval.edge).toBeGreaterThan(0.5);
  });
});

describe('the live plan and the report', () => {
  test('live client seeds follow the seed; the default USDC budget is the stakes of the bets, round-robin over the plan', () => {
    expect(clientSeedOf('8', 3)).toMatch(/^afp-[0-9a-f]{12}-3$/);
    expect(clientSeedOf('8', 3)).not.toBe(clientSeedOf('9', 3));
    const plan = [10_000n, 20_000n, 50_000n].map((amountMicro, index) => ({
      game: 'dice',
      variant: `v${index}`,
      params: {},
      amountMicro,
      advertised: null,
      documentsEdge: null,
    }));
    expect(planStakesMicro(plan, 7)).toBe(3n * 10_000n + 2n * 20_000n + 2n * 50_000n);
    expect(planStakesMicro(plan, 2)).toBe(30_000n);
  });

  test('report.html charts every game first, then further variants round-robin, in table order', () => {
    const rows = simulateHouseEdge({
      games: GAMES.filter((game) => ['coin_flip', 'dice', 'keno'].includes(game.id)),
      betsPerGame: 20,
      seed: 1,
    }).rows;
    expect(chartedRows(rows, 5).map((row) => row.variant)).toEqual([
      'coin_flip:heads',
      'dice:over:50',
      'dice:over:90',
      'keno:1',
      'keno:2',
    ]);
    expect(chartedRows(rows, 100)).toHaveLength(rows.length);
  });
});
