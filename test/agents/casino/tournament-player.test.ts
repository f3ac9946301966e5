// tournament-player: creates tournaments (pool from its balance), enters open ones, plays them
// while active and reads the completed result; every hold and prize is checked by the casino
// invariants, and the agent's own checks hold.
import { describe, expect, test } from 'vitest';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { AGENTS } from '../../../agents/index.ts';

describe('tournament-player', () => {
  test('creates, enters, plays and completes tournaments', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: tournaments
duration: 10h
populations:
  - { agent: tournament-player, count: 10, style: mixed, params: { game: dice, params: { direction: under, threshold: 40 }, plays: 8, every: 5m, length: 1h, create: 0.4, max_agents: 6 } }
casino: { starting_deposit: '30.00' }
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 53 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const tournaments = keptEvents(record).filter((event) => event.type === 'casino.tournament');
    const completed = new Set(
      tournaments.filter((event) => event.status === 'completed').map((event) => event.tournamentId),
    );
    expect(completed.size).toBeGreaterThan(3);
    const plays = keptEvents(record).filter((event) => event.type === 'casino.bet' && event.source === 'tournament');
    expect(plays.length).toBeGreaterThan(200);
    const entered = record.endpoints.find((row) => row.endpoint === 'casino.A.tournaments.enter');
    expect(entered?.statuses['200']).toBeGreaterThan(10);
    expect(
      record.endpoints.find((row) => row.endpoint === 'casino.A.tournaments.get')?.statuses['200'],
    ).toBeGreaterThan(5);
  });
});
