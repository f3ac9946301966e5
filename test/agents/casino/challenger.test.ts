// challenger: finds opponents of its archetype in the agent directory, challenges them, and
// accepts or declines what it receives; accepted challenges pay the winner both stakes minus 2%
// (checked by the agent), holds and the house cut by casino-conservation.
import { describe, expect, test } from 'vitest';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { AGENTS } from '../../../agents/index.ts';

describe('challenger', () => {
  test('challenges others, accepts and declines, never itself', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: challengers
duration: 12h
populations:
  - { agent: challenger, count: 8, style: mixed, params: { amount: 0.40, every: 20m, accept: 0.6 } }
  - { agent: challenger, count: 2, params: { game: dice, amount: 1, every: 30m, accept: 0 } }
casino: { starting_deposit: '20.00' }
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 59 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const statuses = new Map<string, number>();
    for (const event of keptEvents(record))
      if (event.type === 'casino.challenge') statuses.set(event.status, (statuses.get(event.status) ?? 0) + 1);
    expect(statuses.get('pending')).toBeGreaterThan(100);
    expect(statuses.get('resolved')).toBeGreaterThan(30);
    expect(statuses.get('declined')).toBeGreaterThan(10);
    expect(
      record.endpoints.find((row) => row.endpoint === 'casino.A.challenges.create')?.statuses['400'],
    ).toBeUndefined();
  });
});
