// scenarios/million.yaml (issue 19): a million agents for a virtual day. The full run is a manual
// figure (about 4 minutes and 3.5 GB at peak on 2 cores; `/usr/bin/time -v npx afp run scenarios/million.yaml` for
// its peak RSS); here the same file, every population scaled down 1/1000, runs clean with every
// invariant, so the scenario and its archetypes' parameters stay valid in the suite cheaply.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { scenarioFromTable } from '../../src/agent/load-scenario.ts';
import { runSimulationWith } from '../../src/sim/runner.ts';
import { AGENTS } from '../../agents/index.ts';

const SCALE_DOWN = 1_000;

describe('scenarios/million.yaml', () => {
  const scenario = scenarioFromTable(readFileSync('scenarios/million.yaml', 'utf8'), { agents: AGENTS });

  test('names a million agents for one virtual day', () => {
    expect(scenario.populations.reduce((sum, population) => sum + population.count, 0)).toBe(1_000_000);
    expect(scenario.durationMs).toBe(86_400_000);
  });

  test('scaled down 1/1000, runs clean with every invariant checked', async () => {
    const small = {
      ...scenario,
      populations: scenario.populations.map((population) => ({
        ...population,
        count: Math.max(1, Math.round(population.count / SCALE_DOWN)),
      })),
    };
    const { record, failure, limit } = await runSimulationWith(small, { agents: AGENTS, seed: scenario.seed });
    expect(failure === null ? null : `${failure.invariant}: ${failure.violation.message}`).toBeNull();
    expect(limit).toBeNull();
    expect(record.outcome).toBe('completed');
    expect(record.agents.length).toBe(small.populations.reduce((sum, population) => sum + population.count, 0));
    expect(record.invariants.map((result) => result.name)).toEqual(expect.arrayContaining([...scenario.invariants]));
    expect(record.totals.requests).toBeGreaterThan(record.agents.length);
  });
});
