// The domains archetypes in a small, time-compressed rush (the shape of scenarios/domain-rush.yaml):
// squatters race for a few names, flippers sell to each other, DNS managers keep records. The run
// completes with every domains invariant checked and none broken, the same seed gives the same
// digest and domains.csv bytes, and the run really exercised races, sales, DNS, expiry and release.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AGENTS } from '../../../agents/index.ts';
import { renderReports } from '../../../src/report/write-reports.ts';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';

const RUSH = `
name: domain-rush-small
seed: 11
duration: 60d
populations:
  - { agent: domain-squatter, count: 30, style: mixed, params: { every: 12h, pool: 6, tld: xyz, renew: 0.3 } }
  - { agent: domain-flipper, count: 6, style: mixed, params: { every: 1d, names: 2, markup: 1.2, budget: 60, buy: 0.6 } }
  - { agent: dns-manager, count: 4, style: mixed, params: { every: 1d } }
casino: { starting_deposit: '200.00' }
platform: { domain_year: 10d, domain_grace: 2d }
invariants: [conservation, no-negative-balance, domains-one-owner, domains-expiry-exact, domains-fees, rate-limit-headers, error-shape]
reports: [summary, agents, endpoints, domains, events]
`;

describe('domain rush', () => {
  test('completes clean, byte-stable, and exercises every domains rule', async () => {
    const scenario = scenarioFromTable(RUSH, { agents: AGENTS });
    const first = await runScenarioWith(scenario, { seed: 11, agents: AGENTS });
    const second = await runScenarioWith(scenario, { seed: 11, agents: AGENTS });
    expect(first.outcome).toBe('completed');
    for (const result of first.invariants)
      expect({ name: result.name, violations: result.violations, first: result.first }).toEqual({
        name: result.name,
        violations: 0,
        first: null,
      });
    expect(first.invariants.map((result) => result.name)).toEqual(
      expect.arrayContaining(['domains-one-owner', 'domains-expiry-exact', 'domains-fees', 'agent-assertions']),
    );
    const a = renderReports(first, scenario.reports);
    const b = renderReports(second, scenario.reports);
    expect(a.digest).toBe(b.digest);
    const csv = a.files.find((file) => file.file === 'domains.csv');
    expect(csv?.text).toBe(b.files.find((file) => file.file === 'domains.csv')?.text);
    const lines = (csv?.text ?? '').trimEnd().split('\n');
    expect(lines[0]).toBe(
      'domain_id,domain,registrant,owner,status,registered_at,expires_at,years,renewals,transfers,sales,fees,sales_total',
    );
    const types = new Set(keptEvents(first).map((event) => event.type));
    for (const type of [
      'domains.registered',
      'domains.renewed',
      'domains.offered',
      'domains.transferred',
      'domains.expired',
      'domains.released',
    ])
      expect(types, type).toContain(type);
    // Squatters raced: some registrations were refused with 409.
    const register = first.endpoints.filter(
      (row) => row.endpoint === 'domains.A.register' || row.endpoint === 'domains.B.register',
    );
    expect(register.some((row) => (row.statuses['409'] ?? 0) > 0)).toBe(true);
    // A released name was registered again (a second row of the same name).
    const names = lines.slice(1).map((line) => line.split(',')[1]);
    expect(new Set(names).size).toBeLessThan(names.length);
    expect(first.endpoints.some((row) => row.endpoint === 'domains.A.dns' && (row.statuses['200'] ?? 0) > 0)).toBe(
      true,
    );
  });

  test('scenarios/domain-rush.yaml loads', () => {
    const text = readFileSync(join(import.meta.dirname, '..', '..', '..', 'scenarios', 'domain-rush.yaml'), 'utf8');
    const scenario = scenarioFromTable(text, { agents: AGENTS });
    expect(scenario.name).toBe('domain-rush');
    expect(scenario.reports).toContain('domains');
    expect(scenario.platform).toMatchObject({ domainYearMs: 60 * 86_400_000, domainGraceMs: 7 * 86_400_000 });
  });
});
