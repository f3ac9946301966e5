// rate-limit-abuser: bursts far beyond its tier; the platform refuses the excess with 429s,
// accepts at most the tier's bucket per burst, and every header stays consistent.
import { describe, expect, test } from 'vitest';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { AGENTS } from '../../../agents/index.ts';

describe('rate-limit-abuser', () => {
  test('runs alone for a day: free-tier bursts are cut at 300, the rest answer 429', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: abuse
duration: 1d
populations:
  - { agent: rate-limit-abuser, count: 1, params: { burst: 400, every: 6h } }
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 41 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const [abuser] = record.agents;
    expect(abuser?.requests).toBe(1 + 4 * 400);
    expect(abuser?.rateLimited).toBe(4 * 100);
  });

  test('a pro abuser on a style-B endpoint is cut by the service row, not the tier', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: abuse-b
duration: 1d
populations:
  - { agent: rate-limit-abuser, count: 1, tier: pro, params: { burst: 100, every: 12h, target: escrow.B.list } }
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 42 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    expect(record.agents[0]?.tier).toBe('pro');
    const list = record.endpoints.find((row) => row.endpoint === 'escrow.B.list');
    expect(list?.statuses['200']).toBe(2 * 80);
    expect(list?.statuses['429']).toBe(2 * 20);
  });
});
