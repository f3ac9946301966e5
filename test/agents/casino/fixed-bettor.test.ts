// fixed-bettor: the same bet every `every`, funded by the scenario's starting deposit; a closure
// window answers 409 GAME_CLOSED (no bet on the game inside it) and the bettor resumes after it;
// the overdraw probe is refused 422; params are validated by the game itself.
import { describe, expect, test } from 'vitest';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { AGENTS } from '../../../agents/index.ts';

const HOUR_MS = 3_600_000;
const START_MS = Date.parse('2026-01-01T00:00:00Z');

describe('fixed-bettor', () => {
  test('bets its fixed amount on its game, waits out a closure, and its overdraw probe is refused', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: fixed
duration: 6h
populations:
  - { agent: fixed-bettor, count: 6, style: mixed, params: { game: dice, params: { direction: over, threshold: 60 }, amount: 0.25, every: 5m, closed_wait: 10m } }
  - { agent: fixed-bettor, count: 1, params: { game: coin_flip, params: { side: tails }, amount: 0.5, every: 10m, overdraw_probe: true } }
casino:
  starting_deposit: '50.00'
  closures: [{ game: dice, from: 2h, for: 1h }]
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 31 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const bets = keptEvents(record).filter((event) => event.type === 'casino.bet');
    const dice = bets.filter((bet) => bet.game === 'dice');
    expect(dice.length).toBeGreaterThan(6 * 50);
    for (const bet of dice) expect(bet.amountMicro).toBe(250_000n);
    expect(dice.filter((bet) => bet.atMs >= START_MS + 2 * HOUR_MS && bet.atMs < START_MS + 3 * HOUR_MS)).toHaveLength(
      0,
    );
    expect(dice.some((bet) => bet.atMs >= START_MS + 3 * HOUR_MS)).toBe(true);
    const diceRow = record.endpoints.find((row) => row.endpoint === 'casino.A.game.dice');
    expect(diceRow?.statuses['409']).toBeGreaterThanOrEqual(6);
    const coinRow = record.endpoints.find((row) => row.endpoint === 'casino.A.game.coin_flip');
    expect(coinRow?.statuses['422']).toBe(1);
    expect(
      keptEvents(record).filter((event) => event.type === 'casino.deposit' && event.status === 'confirmed'),
    ).toHaveLength(7);
  });

  test('its params are validated strictly, the game parameters by the game itself', () => {
    const population = (params: string): string =>
      `name: x\nduration: 1d\npopulations:\n  - { agent: fixed-bettor, count: 1, params: ${params} }\n`;
    expect(() =>
      scenarioFromTable(population('{ game: dice, params: { direction: sideways, threshold: 50 } }'), {
        agents: AGENTS,
      }),
    ).toThrow(/populations\[0\]\.params\.params: dice: /);
    expect(() =>
      scenarioFromTable(population('{ game: roulette, params: { bet_type: red, colour: blue } }'), { agents: AGENTS }),
    ).toThrow(/roulette: /);
    expect(() => scenarioFromTable(population('{ game: video_poker }'), { agents: AGENTS })).toThrow(
      /populations\[0\]\.params\.game/,
    );
    expect(() => scenarioFromTable(population('{ amount: 0 }'), { agents: AGENTS })).toThrow(/amount/);
    expect(() => scenarioFromTable(population('{ every: 10ms }'), { agents: AGENTS })).toThrow(/every/);
  });
});
