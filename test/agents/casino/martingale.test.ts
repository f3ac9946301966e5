// martingale: doubles after a loss, back to base after a win; a doubled stake above the Kelly
// limit is refused 400 with max_bet and the gambler resets to base — never a violation.
import { describe, expect, test } from 'vitest';
import type { DomainEvent } from '../../../src/services/shared/events.ts';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { AGENTS } from '../../../agents/index.ts';

type Bet = Extract<DomainEvent, { type: 'casino.bet' }>;

describe('martingale', () => {
  test('doubles after each loss, resets after a win or a Kelly refusal', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: martingales
duration: 12h
populations:
  - { agent: martingale, count: 6, style: mixed, params: { game: dice, params: { direction: over, threshold: 80 }, base: 0.05, max_doublings: 12, every: 1m } }
casino: { starting_deposit: '40.00' }
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 41 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const byAgent = new Map<string, Bet[]>();
    for (const event of keptEvents(record))
      if (event.type === 'casino.bet') byAgent.set(event.agentId, [...(byAgent.get(event.agentId) ?? []), event]);
    let doubled = 0;
    let resets = 0;
    for (const bets of byAgent.values()) {
      for (let index = 1; index < bets.length; index++) {
        const previous = bets[index - 1] as Bet;
        const next = bets[index] as Bet;
        if (previous.payoutMicro > previous.amountMicro) expect(next.amountMicro).toBe(50_000n);
        else if (next.amountMicro === previous.amountMicro * 2n) doubled++;
        else {
          expect(next.amountMicro).toBe(50_000n); // a refusal in between reset it
          resets++;
        }
      }
    }
    expect(doubled).toBeGreaterThan(100);
    expect(resets).toBeGreaterThan(0);
    const dice = record.endpoints.find((row) => row.endpoint === 'casino.A.game.dice');
    expect(dice?.statuses['400']).toBeGreaterThan(0);
    expect(dice?.statuses['400']).toBe(resets);
  });

  test('its doubling cap is bounded', () => {
    expect(() =>
      scenarioFromTable(
        'name: x\nduration: 1d\npopulations:\n  - { agent: martingale, count: 1, params: { max_doublings: 31 } }\n',
        { agents: AGENTS },
      ),
    ).toThrow(/max_doublings/);
  });
});
