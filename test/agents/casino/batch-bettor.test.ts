// batch-bettor: batches of up to 20 bets cycling through its mix (every entry gets the same
// number of bets, ±1 per agent), summaries checked by the agent, referral chains at registration
// (the referral invariant checks every commission), closures refusing only the closed game.
import { describe, expect, test } from 'vitest';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { AGENTS } from '../../../agents/index.ts';

describe('batch-bettor', () => {
  test("every amount of its mix is within the games' bets", () => {
    expect(() =>
      scenarioFromTable(
        'name: x\nduration: 1d\npopulations:\n  - { agent: batch-bettor, count: 1, params: { mix: [{ game: slots }] } }\n',
        { agents: AGENTS },
      ),
    ).toThrow(/mix\[0\]: slots takes bets of 0.10 to 1000.00, not 0.01/);
  });

  test('cycles its mix evenly, 20 bets a batch; referred agents pay commissions up their chain', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: batches
duration: 6h
populations:
  - agent: batch-bettor
    count: 12
    tier: pro
    style: mixed
    params:
      amount: 0.10
      every: 2m
      size: 7
      referred: 0.8
      mix: [{ game: coin_flip, params: { side: tails } }, { game: crash, params: { cash_out_at: 3 } }, { game: slots }]
casino:
  starting_deposit: '25.00'
  closures: [{ game: slots, from: 1h, for: 30m }]
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 47 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const perAgentGame = new Map<string, number>();
    for (const event of keptEvents(record))
      if (event.type === 'casino.bet')
        perAgentGame.set(
          `${event.agentId}|${event.game}`,
          (perAgentGame.get(`${event.agentId}|${event.game}`) ?? 0) + 1,
        );
    const batch = record.endpoints.find((row) => row.endpoint === 'casino.A.batch');
    expect(batch?.statuses['200']).toBeGreaterThan(12 * 150);
    for (const agent of record.agents) {
      const coin = perAgentGame.get(`${agent.agentId}|coin_flip`) ?? 0;
      const crash = perAgentGame.get(`${agent.agentId}|crash`) ?? 0;
      expect(coin).toBeGreaterThan(300);
      // Sent evenly (±1); a few crash bets are refused over the Kelly limit before the deposit lands.
      expect(Math.abs(coin - crash)).toBeLessThanOrEqual(4);
      expect(perAgentGame.get(`${agent.agentId}|slots`) ?? 0).toBeLessThan(coin);
    }
    const referred = keptEvents(record).filter(
      (event) => event.type === 'agent.registered' && event.referrerId !== null,
    );
    expect(referred.length).toBeGreaterThan(4);
    expect(record.invariants.find((result) => result.name === 'casino-referral-levels')?.checks).toBeGreaterThan(
      10_000,
    );
  });
});
