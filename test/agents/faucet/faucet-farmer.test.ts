// faucet-farmer alone for a day: claims about daily, some attempts early (refused), no violation.
import { describe, expect, test } from 'vitest';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { AGENTS } from '../../../agents/index.ts';

describe('faucet-farmer', () => {
  test('runs alone for two days without a violation; early attempts are refused with FAUCET_CLAIMED', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: farmers
duration: 2d
populations:
  - { agent: faucet-farmer, count: 40, style: mixed, params: { early_claim: 0.5, repeat_a_claim: 0.3 } }
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 11 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const claims = record.endpoints.find((row) => row.endpoint === 'faucet.B.claim');
    expect(claims?.statuses['200']).toBeGreaterThan(30);
    expect(claims?.statuses['409']).toBeGreaterThan(5);
    const claimsA = record.endpoints.find((row) => row.endpoint === 'faucet.A.claim');
    expect(claimsA?.statuses['200']).toBeGreaterThan(5);
    expect(claimsA?.statuses['409']).toBeGreaterThan(0);
    const perAgent = new Map<string, number>();
    for (const event of keptEvents(record))
      if (event.type === 'faucet.claimed' && event.style === 'B')
        perAgent.set(event.agentId, (perAgent.get(event.agentId) ?? 0) + 1);
    for (const count of perAgent.values()) expect(count).toBeLessThanOrEqual(2);
  });

  test('its params are validated strictly, with durations and probabilities', () => {
    expect(() =>
      scenarioFromTable(
        'name: x\nduration: 1d\npopulations:\n  - { agent: faucet-farmer, count: 1, params: { early_claim: 1.5 } }\n',
        { agents: AGENTS },
      ),
    ).toThrow(/populations\[0\]\.params\.early_claim/);
    expect(() =>
      scenarioFromTable(
        'name: x\nduration: 1d\npopulations:\n  - { agent: faucet-farmer, count: 1, params: { claim_every: 24 } }\n',
        { agents: AGENTS },
      ),
    ).toThrow(/claim_every/);
    expect(() =>
      scenarioFromTable(
        'name: x\nduration: 1d\npopulations:\n  - { agent: faucet-farmer, count: 1, params: { colour: red } }\n',
        { agents: AGENTS },
      ),
    ).toThrow(/unknown key 'colour'/);
  });
});
