// kelly-bettor: sizes each bet as a fraction of the Kelly figure the casino reported for the
// balance its previous bet left — never above the limit (casino-bet-limits holds), growing and
// shrinking with the bankroll; its risk factor is set through PUT /kelly/config.
import { describe, expect, test } from 'vitest';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { AGENTS } from '../../../agents/index.ts';

describe('kelly-bettor', () => {
  test('bets a fraction of the reported max_bet, within the limit, with its own risk factor', async () => {
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: kelly
duration: 8h
populations:
  - { agent: kelly-bettor, count: 4, params: { game: coin_flip, params: { side: heads }, fraction: 0.5, risk_factor: 0.2, every: 2m } }
  - { agent: kelly-bettor, count: 3, params: { game: roulette, params: { bet_type: dozen_2 }, fraction: 1, of: suggested_bet, every: 3m } }
casino: { starting_deposit: '200.00' }
`,
        { agents: AGENTS },
      ),
      { agents: AGENTS, seed: 43 },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const coin = keptEvents(record)
      .filter((event) => event.type === 'casino.bet' && event.game === 'coin_flip')
      .map((event) => (event.type === 'casino.bet' ? event.amountMicro : 0n));
    expect(coin.length).toBeGreaterThan(4 * 200);
    // risk 0.2 × p 0.5 = 10% of the bankroll, half of it: about 5% of 200 USDC, never the minimum after the first bet.
    expect(coin.filter((amount) => amount >= 5_000_000n).length).toBeGreaterThan(coin.length / 2);
    expect(new Set(coin).size).toBeGreaterThan(100);
    expect(record.endpoints.find((row) => row.endpoint === 'casino.A.kelly.config')?.statuses['200']).toBe(4);
    expect(
      keptEvents(record).some(
        (event) => event.type === 'casino.bet' && event.game === 'roulette' && event.amountMicro > 10_000n,
      ),
    ).toBe(true);
  });
});
