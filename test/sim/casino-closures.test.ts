// Casino settings of a scenario: `casino.starting_deposit` and `casino.closures` parse to exact
// values; ClosureSchedule closes and reopens games at exact instants, overlapping windows of one
// game nesting; in a run, a game is refused from exactly `from` to exactly `from + for`.
import { describe, expect, test } from 'vitest';
import type { GameId } from '../../src/services/casino/games/game.ts';
import { ClosureSchedule } from '../../src/services/casino/closure-schedule.ts';
import { scenarioFromTable } from '../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../src/sim/runner.ts';
import { keptEvents } from '../fixtures/kept-events.ts';
import { AGENTS } from '../../agents/index.ts';

const START_MS = Date.parse('2026-01-01T00:00:00Z');
const MINUTE_MS = 60_000;

describe('scenario casino settings', () => {
  test('parse to micro-USDC and offsets', () => {
    const scenario = scenarioFromTable(
      `name: c\nduration: 1d\npopulations: [{ agent: fixed-bettor, count: 1 }]\ncasino:\n  starting_deposit: 12.5\n  closures:\n    - { game: dice, from: 1h, for: 30m }\n    - { game: keno, from: 0s, for: 1d }\n`,
      { agents: AGENTS },
    );
    expect(scenario.casino).toEqual({
      startingDepositMicro: 12_500_000n,
      closures: [
        { game: 'dice', fromMs: 60 * MINUTE_MS, forMs: 30 * MINUTE_MS },
        { game: 'keno', fromMs: 0, forMs: 24 * 60 * MINUTE_MS },
      ],
    });
  });
});

describe('ClosureSchedule', () => {
  test('applies changes at their instants; overlapping windows of a game nest', () => {
    const schedule = new ClosureSchedule([
      { game: 'dice', fromMs: START_MS + 10, untilMs: START_MS + 30 },
      { game: 'dice', fromMs: START_MS + 20, untilMs: START_MS + 40 },
      { game: 'crash', fromMs: START_MS + 30, untilMs: START_MS + 35 },
    ]);
    const closed = new Set<GameId>();
    const casino = {
      setGameClosed: (game: GameId, isClosed: boolean) => void (isClosed ? closed.add(game) : closed.delete(game)),
    };
    const seen: string[] = [];
    for (let next = schedule.nextMs(); next !== undefined; next = schedule.nextMs()) {
      schedule.applyDue(next, casino);
      seen.push(`${next - START_MS}:${[...closed].sort().join('+')}`);
    }
    expect(seen).toEqual(['10:dice', '20:dice', '30:crash+dice', '35:dice', '40:']);
  });
});

describe('a closure in a run', () => {
  test('refuses the game from exactly from to exactly from + for, other games untouched', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: closure
duration: 3h
populations:
  - { agent: fixed-bettor, count: 3, params: { game: crash, params: { cash_out_at: 2 }, amount: 0.05, every: 1m, closed_wait: 1m } }
  - { agent: fixed-bettor, count: 3, params: { game: coin_flip, amount: 0.05, every: 1m } }
casino: { starting_deposit: '10.00', closures: [{ game: crash, from: 1h, for: 45m }] }
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 5 },
    );
    expect(record.outcome).toBe('completed');
    const crash = keptEvents(record)
      .filter((event) => event.type === 'casino.bet' && event.game === 'crash')
      .map((event) => event.atMs - START_MS);
    const coin = keptEvents(record)
      .filter((event) => event.type === 'casino.bet' && event.game === 'coin_flip')
      .map((event) => event.atMs - START_MS);
    expect(crash.filter((atMs) => atMs >= 60 * MINUTE_MS && atMs < 105 * MINUTE_MS)).toEqual([]);
    expect(Math.max(...crash.filter((atMs) => atMs < 60 * MINUTE_MS))).toBeGreaterThan(58 * MINUTE_MS);
    expect(Math.min(...crash.filter((atMs) => atMs >= 105 * MINUTE_MS))).toBeLessThan(107 * MINUTE_MS);
    expect(coin.filter((atMs) => atMs >= 60 * MINUTE_MS && atMs < 105 * MINUTE_MS).length).toBeGreaterThan(3 * 40);
    expect(record.endpoints.find((row) => row.endpoint === 'casino.A.game.crash')?.statuses['409']).toBeGreaterThan(
      3 * 40,
    );
  });
});
