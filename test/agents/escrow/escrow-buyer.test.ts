// escrow-buyer: alone (buyers paying each other) and with sellers, every settlement of its mix
// happens and no invariant or agent check fails.
import { describe, expect, test } from 'vitest';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { AGENTS } from '../../../agents/index.ts';

describe('escrow-buyer', () => {
  test("runs alone for a day (buyers as each other's counterparties) without a violation", async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: buyers
duration: 1d
populations:
  - { agent: escrow-buyer, count: 30, style: mixed, params: { counterparty: escrow-buyer, expires_in: 2h, escrow_every: 1h, retry_release: 0.3 } }
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 21 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const statuses = new Set(record.escrows.map((escrow) => escrow.status));
    for (const status of ['released', 'refunded', 'expired']) expect(statuses.has(status), status).toBe(true);
    expect(keptEvents(record).some((event) => event.type === 'escrow.disputed')).toBe(true);
    const releases = [...record.endpoints.filter((row) => row.endpoint.endsWith('.release'))];
    expect(releases.reduce((sum, row) => sum + (row.statuses['409'] ?? 0), 0)).toBeGreaterThan(0);
  });

  test('with sellers over three days, disputes settle at the end of their window', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: market
duration: 3d
populations:
  - { agent: escrow-seller, count: 8, params: { dispute: 0.1 } }
  - { agent: escrow-buyer, count: 20, style: mixed, params: { release: 0.2, refund: 0.2, dispute: 0.4, let_expire: 0.2, expires_in: 4h, escrow_every: 3h } }
platform: { dispute_outcome: release }
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 22 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const disputed = keptEvents(record).filter((event) => event.type === 'escrow.disputed').length;
    expect(disputed).toBeGreaterThan(5);
  });
});
