// escrow-seller: alone it finds nothing to receive and breaks nothing; beside buyers it lists,
// reads and disputes what it receives.
import { describe, expect, test } from 'vitest';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { AGENTS } from '../../../agents/index.ts';

describe('escrow-seller', () => {
  test('runs alone for a day without a violation', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: sellers
duration: 1d
populations:
  - { agent: escrow-seller, count: 10, style: mixed }
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 31 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const lists = record.endpoints.filter((row) => row.endpoint.endsWith('.list'));
    expect(lists.reduce((sum, row) => sum + row.calls, 0)).toBeGreaterThan(50);
  });

  test('beside buyers it disputes some incoming escrows, which then settle', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: sellers-and-buyers
duration: 3d
populations:
  - { agent: escrow-seller, count: 5, style: mixed, params: { check_every: 1h, dispute: 0.3, view: 0.5 } }
  - { agent: escrow-buyer, count: 10, params: { release: 0, refund: 0, dispute: 0, let_expire: 1, expires_in: 12h } }
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 32 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const disputes = keptEvents(record).filter((event) => event.type === 'escrow.disputed');
    expect(disputes.length).toBeGreaterThan(3);
    expect(disputes.every((event) => event.byAgentId.startsWith('escrow-seller-'))).toBe(true);
    expect(
      keptEvents(record).some((event) => event.type === 'escrow.refunded' && event.cause === 'dispute-window'),
    ).toBe(true);
  });
});
