// fairness-checker: rotates after k bets and verifies every bet — by POST /fairness/verify and by
// recomputing it from its audit trail. The faithful casino passes; a biased draw is caught by the
// agent itself (agent-assertions) even with casino-bets-verify switched off.
import { describe, expect, test } from 'vitest';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith, runSimulationWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { AGENTS } from '../../../agents/index.ts';

const SCENARIO = `
name: fairness
duration: 4h
populations:
  - { agent: fairness-checker, count: 3, tier: pro, params: { game: mines, params: { mines: 3, reveals: 2 }, rotate_after: 12, every: 1m } }
  - { agent: fairness-checker, count: 2, tier: pro, style: mixed, params: { game: keno, params: { picks: [1, 7, 22, 40] }, rotate_after: 7, every: 2m } }
casino: { starting_deposit: '10.00' }
`;

describe('fairness-checker', () => {
  test('rotates after k bets and every bet verifies, by the casino and by its own recomputation', async () => {
    const record = await runScenarioWith(scenarioFromTable(SCENARIO, { agents: AGENTS }), { agents: AGENTS, seed: 61 });
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const rotations = keptEvents(record).filter((event) => event.type === 'casino.seed-rotated').length;
    expect(rotations).toBeGreaterThan(3 * 15);
    const audits = record.endpoints.find((row) => row.endpoint === 'casino.A.fairness.audit');
    const verifies = record.endpoints.find((row) => row.endpoint === 'casino.A.fairness.verify');
    expect(audits?.statuses['200']).toBeGreaterThan(500);
    // One verify per audited bet, plus one "not yet revealed" per cycle started (at most 5 still open).
    const early = (verifies?.statuses['200'] ?? 0) - (audits?.statuses['200'] ?? 0);
    expect(early).toBeGreaterThanOrEqual(rotations);
    expect(early).toBeLessThanOrEqual(rotations + 5);
  });

  test('catches a biased draw by itself', async () => {
    const scenario = scenarioFromTable(`${SCENARIO}invariants: [conservation]\n`, { agents: AGENTS });
    const result = await runSimulationWith(scenario, { agents: AGENTS, seed: 61, defects: ['casino-biased-draw'] });
    expect(result.record.outcome).toBe('invariant-failed');
    expect(result.failure?.invariant).toBe('agent-assertions');
    expect(result.failure?.violation.message).toMatch(/does not verify bet|does not recompute from its audit trail/);
  });
});
