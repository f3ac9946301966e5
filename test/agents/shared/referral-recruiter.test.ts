// The referral recruiter in a small tree (the shape of scenarios/referral-tree.yaml): recruiters
// register under recruiters, pay trading, domain, escrow and casino fees and check their own
// stats. The run completes with referral-levels and the casino's levels checked after every
// operation and none broken, the same seed gives the same digest and referrals.csv bytes, the tree
// is deep enough that level-3 referrers earn, and every service's column has earnings; with the
// level-2 defect the run fails on referral-levels.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AGENTS } from '../../../agents/index.ts';
import { renderReports } from '../../../src/report/write-reports.ts';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';

const TREE = `
name: referral-tree-small
seed: 5
duration: 1d
populations:
  - { agent: referral-recruiter, count: 30, style: mixed, params: { referred: 0.9, every: 1h, amount: 5 } }
casino: { starting_deposit: '200.00' }
invariants: [conservation, no-negative-balance, referral-levels, casino-referral-levels, domains-fees, escrow-settles-once, error-shape]
reports: [summary, agents, endpoints, events, referrals]
`;

describe('referral recruiter', () => {
  test('grows a tree, pays fees on every service, clean and byte-stable', async () => {
    const scenario = scenarioFromTable(TREE, { agents: AGENTS });
    const first = await runScenarioWith(scenario, { seed: 5, agents: AGENTS });
    const second = await runScenarioWith(scenario, { seed: 5, agents: AGENTS });
    expect(first.outcome).toBe('completed');
    for (const result of first.invariants)
      expect({ name: result.name, violations: result.violations, first: result.first }).toEqual({
        name: result.name,
        violations: 0,
        first: null,
      });
    expect(first.invariants.find((result) => result.name === 'referral-levels')?.checks).toBeGreaterThan(100);
    const a = renderReports(first, scenario.reports);
    const b = renderReports(second, scenario.reports);
    expect(a.digest).toBe(b.digest);
    const csv = a.files.find((file) => file.file === 'referrals.csv')?.text ?? '';
    expect(csv).toBe(b.files.find((file) => file.file === 'referrals.csv')?.text);
    const [header, ...rows] = csv.trimEnd().split('\n');
    expect(header).toBe('referrer,level,referred_agents,faucet,escrow,trading,domains,casino,wallet,total');
    const cells = rows.map((row) => row.split(','));
    expect(new Set(cells.map((row) => row[1]))).toEqual(new Set(['1', '2', '3']));
    // Columns escrow, trading, domains, casino: each has some earnings.
    for (const column of [4, 5, 6, 7])
      expect(
        cells.some((row) => Number(row[column]) > 0),
        header?.split(',')[column],
      ).toBe(true);
    // Each row's total is the sum of its service columns (exact, in micro-USDC).
    for (const row of cells) {
      const micro = (text: string | undefined): bigint => BigInt((text ?? '0').replace('.', ''));
      expect(row.slice(3, 9).reduce((sum, text) => sum + micro(text), 0n)).toBe(micro(row[9]));
    }
  });

  test('the level-2 defect fails the run on referral-levels', async () => {
    const scenario = scenarioFromTable(TREE, { agents: AGENTS });
    const result = await runScenarioWith(scenario, {
      seed: 5,
      agents: AGENTS,
      defects: ['referral-level2-full-share'],
    });
    expect(result.outcome).toBe('invariant-failed');
    expect(result.invariants.find((entry) => entry.violations > 0)?.name).toBe('referral-levels');
  });

  test('scenarios/referral-tree.yaml loads', () => {
    const text = readFileSync(join(import.meta.dirname, '..', '..', '..', 'scenarios', 'referral-tree.yaml'), 'utf8');
    const scenario = scenarioFromTable(text, { agents: AGENTS });
    expect(scenario.name).toBe('referral-tree');
    expect(scenario.reports).toContain('referrals');
    expect(scenario.invariants).toContain('referral-levels');
  });
});
