// The simulator end to end on small scenarios: determinism (same seed → same digest and the same
// bytes; another seed → another digest), per-agent streams (adding agents renames nobody),
// the run's stopping rules (first violation, limits), and timers at their exact instants.
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { AGENTS } from '../../agents/index.ts';
import { renderReports } from '../../src/report/write-reports.ts';
import { defineAgent } from '../../src/agent/agent.ts';
import { SimulationCrash } from '../../src/sim/run-stopped.ts';
import { scenarioFromTable } from '../../src/agent/load-scenario.ts';
import { runScenarioWith, runSimulationWith } from '../../src/sim/runner.ts';
import { keptEvents } from '../fixtures/kept-events.ts';

const SMALL = `
name: small
seed: 5
duration: 2d
populations:
  - { agent: faucet-farmer, count: 20, style: mixed }
  - { agent: escrow-seller, count: 10, style: mixed, params: { check_every: 2h, dispute: 0.05 } }
  - { agent: escrow-buyer, count: 17, style: mixed, params: { expires_in: 3h, escrow_every: 2h } }
  - { agent: rate-limit-abuser, count: 1, params: { burst: 350, every: 6h } }
  - { agent: bad-input-sender, count: 2, params: { every: 3h } }
`;

const ALL_REPORTS = ['summary', 'agents', 'endpoints', 'escrows', 'events'] as const;

describe('runScenario', () => {
  test('the same scenario and seed give the same digest and byte-identical reports; another seed does not', async () => {
    const scenario = scenarioFromTable(SMALL, { agents: AGENTS });
    const first = await runScenarioWith(scenario, { agents: AGENTS, seed: 5 });
    const second = await runScenarioWith(scenario, { agents: AGENTS, seed: 5 });
    const other = await runScenarioWith(scenario, { agents: AGENTS, seed: 6 });
    expect(first.outcome).toBe('completed');
    expect(first.agents).toHaveLength(50);
    expect(first.totals.requests).toBeGreaterThan(1_000);
    expect(first.totals.escrows).toBeGreaterThan(20);
    expect(first.totals.ledgerSumMicro).toBe(0n);
    for (const result of first.invariants) expect(result.violations, result.name).toBe(0);
    const a = renderReports(first, ALL_REPORTS);
    const b = renderReports(second, ALL_REPORTS);
    expect(a.files.map((file) => file.file)).toEqual([
      'agents.csv',
      'endpoints.csv',
      'escrows.csv',
      'events.jsonl',
      'summary.json',
    ]);
    expect(b.files).toEqual(a.files);
    expect(b.digest).toBe(a.digest);
    expect(renderReports(other, ALL_REPORTS).digest).not.toBe(a.digest);
  });

  test('agent ids come from per-agent streams: adding agents renames nobody', async () => {
    const base = scenarioFromTable(SMALL.replace('count: 20', 'count: 3'), { agents: AGENTS });
    const more = scenarioFromTable(SMALL.replace('count: 20', 'count: 4').replace('count: 17', 'count: 18'), {
      agents: AGENTS,
    });
    const [small, large] = await Promise.all([
      runScenarioWith({ ...base, durationMs: 60_000 }, { agents: AGENTS, seed: 9 }),
      runScenarioWith({ ...more, durationMs: 60_000 }, { agents: AGENTS, seed: 9 }),
    ]);
    const names = (record: typeof small) => new Map(record.agents.map((agent) => [agent.agentId, agent.displayName]));
    const smallNames = names(small);
    const largeNames = names(large);
    for (const [agentId, displayName] of smallNames) expect(largeNames.get(agentId), agentId).toBe(displayName);
    expect(largeNames.size).toBe(smallNames.size + 2);
    expect([...smallNames.keys()][0]).toMatch(/^faucet-farmer-0-[0-9a-f]{4}$/);
  });

  test('escrows left to expire expire at exactly expires_at, refunded in full, before any request then', async () => {
    const scenario = scenarioFromTable(
      `
name: expiry
duration: 1d
populations:
  - { agent: escrow-seller, count: 3 }
  - { agent: escrow-buyer, count: 6, params: { release: 0, refund: 0, dispute: 0, let_expire: 1, expires_in: 90m, escrow_every: 1h } }
`,
      { agents: AGENTS },
    );
    const record = await runScenarioWith(scenario, { agents: AGENTS, seed: 3 });
    expect(record.outcome).toBe('completed');
    const expired = keptEvents(record).filter((event) => event.type === 'escrow.expired');
    expect(expired.length).toBeGreaterThan(20);
    for (const event of expired) expect(event.atMs).toBe(event.expiresAtMs);
    const open = record.escrows.filter((escrow) => escrow.status === 'locked');
    for (const escrow of open) expect(escrow.expiresAtMs).toBeGreaterThan(record.endMs);
    for (const escrow of record.escrows.filter((row) => row.status === 'expired'))
      expect(escrow.settledAtMs).toBe(escrow.expiresAtMs);
  });

  test('a deliberate defect stops the run at the first violation, with the violating event', async () => {
    const scenario = scenarioFromTable(SMALL, { agents: AGENTS });
    const result = await runSimulationWith(scenario, { agents: AGENTS, seed: 5, defects: ['mint-on-claim'] });
    expect(result.record.outcome).toBe('invariant-failed');
    expect(result.failure?.invariant).toBe('conservation');
    expect(result.failure?.violation.event).toContain('"type":"faucet.claimed"');
    expect(result.record.reproduce).toBe('npx afp run scenarios/small.yaml --seed 5 --defect mint-on-claim');
    expect(result.record.endMs).toBeLessThan(scenario.startMs + scenario.durationMs);
  });

  test('a scenario request limit ends the run as limit-reached', async () => {
    const scenario = scenarioFromTable(`${SMALL}limits: { max_requests: 500 }\n`, { agents: AGENTS });
    const result = await runSimulationWith(scenario, { agents: AGENTS, seed: 5 });
    expect(result.record.outcome).toBe('limit-reached');
    expect(result.limit).toContain('max_requests (500)');
    expect(result.record.totals.requests).toBe(500);
    expect(result.failure).toBeNull();
  });

  test('progress is reported in steps of about 1% of virtual time, ending at 1', async () => {
    const fractions: number[] = [];
    await runScenarioWith(
      { ...scenarioFromTable(SMALL, { agents: AGENTS }), durationMs: 6 * 3_600_000 },
      { agents: AGENTS, seed: 5, onProgress: (fraction) => fractions.push(fraction) },
    );
    expect(fractions.length).toBeGreaterThan(50);
    expect(fractions.length).toBeLessThanOrEqual(102);
    expect(fractions.at(-1)).toBe(1);
    for (let index = 1; index < fractions.length; index++)
      expect(fractions[index]).toBeGreaterThanOrEqual(fractions[index - 1] as number);
  });

  test('the recorder sees every exchange, in order, attributed to its agent', async () => {
    const seen: { atMs: number; agentId: string | null; status: number }[] = [];
    const record = await runScenarioWith(
      { ...scenarioFromTable(SMALL, { agents: AGENTS }), durationMs: 3_600_000 },
      {
        agents: AGENTS,
        seed: 5,
        recorder: {
          onExchange: (exchange) =>
            seen.push({ atMs: exchange.atMs, agentId: exchange.agentId, status: exchange.response.status }),
        },
      },
    );
    expect(seen).toHaveLength(record.totals.requests);
    for (let index = 1; index < seen.length; index++)
      expect((seen[index] as { atMs: number }).atMs).toBeGreaterThanOrEqual((seen[index - 1] as { atMs: number }).atMs);
    const perAgent = new Map<string, number>();
    for (const exchange of seen) perAgent.set(exchange.agentId ?? '', (perAgent.get(exchange.agentId ?? '') ?? 0) + 1);
    for (const agent of record.agents) expect(perAgent.get(agent.agentId) ?? 0, agent.agentId).toBe(agent.requests);
  });

  test('an agent that throws (a bug) ends the run with a crash naming the agent and the instant', async () => {
    const broken = defineAgent<Record<string, never>>({
      name: 'broken',
      description: 'throws on its first step',
      params: z.strictObject({}),
      setup: () => Promise.resolve(),
      step: () => Promise.reject(new Error('boom')),
    });
    const agents = { ...AGENTS, broken };
    const scenario = scenarioFromTable('name: crash\nduration: 1h\npopulations:\n  - { agent: broken, count: 1 }\n', {
      agents,
    });
    const run = runScenarioWith(scenario, { seed: 1, agents });
    await expect(run).rejects.toBeInstanceOf(SimulationCrash);
    await expect(run).rejects.toThrow(/agent broken-0-[0-9a-f]{4} at 2026-01-01T00:[0-9:.]+Z: Error: boom/);
  });

  test('an agent that asks to wake at once is a bug (no zero-time loops)', async () => {
    const spinning = defineAgent<Record<string, never>>({
      name: 'spinning',
      description: 'wakes again immediately',
      params: z.strictObject({}),
      setup: () => Promise.resolve(),
      step: () => Promise.resolve({ wakeInMs: 0 }),
    });
    const agents = { spinning };
    const scenario = scenarioFromTable('name: spin\nduration: 1h\npopulations:\n  - { agent: spinning, count: 1 }\n', {
      agents,
    });
    await expect(runScenarioWith(scenario, { seed: 1, agents })).rejects.toThrow(/wakes at least 1 ms later/);
  });
});
