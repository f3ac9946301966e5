// The property archetype: its params are validated strictly (every error with its path), its
// actions come from afp check's command table through fast-check seeded by the agent's own stream
// (same scenario and seed, same digest), an explicit list replays the drawn one exactly, and a run
// among scripted populations holds every invariant.
import { describe, expect, test } from 'vitest';
import { actionCommand, agentActions, propertyParams, servicesOf } from '../../../src/check/property-actions.ts';
import { Rng } from '../../../src/core/rng.ts';
import { renderReports } from '../../../src/report/write-reports.ts';
import { REPORT_NAMES } from '../../../src/report/report-names.ts';
import { AGENTS } from '../../../agents/index.ts';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';

const ALL_REPORTS = REPORT_NAMES.filter((name) => name !== 'html');

async function digestOf(text: string, seed: number): Promise<{ digest: string; requests: number; held: boolean }> {
  const record = await runScenarioWith(scenarioFromTable(text, { agents: AGENTS }), { seed, agents: AGENTS });
  return {
    digest: renderReports(record, ALL_REPORTS).digest,
    requests: record.totals.requests,
    held: record.outcome === 'completed' && record.invariants.every((result) => result.violations === 0),
  };
}

function scenario(params: string, count = 3): string {
  return `name: property\nduration: 1d\npopulations:\n  - { agent: faucet-farmer, count: 2 }\n  - { agent: property, count: ${count}, style: mixed, params: ${params} }\n`;
}

describe('property archetype', () => {
  test('its params are validated strictly: every error with its path', () => {
    let message = '';
    try {
      scenarioFromTable(
        'name: x\nduration: 1d\npopulations:\n  - agent: property\n    count: 1\n    params: { services: [escrow, casino, stocks, wallet, escrow], max_actions: 0, colour: red }\n',
        { agents: AGENTS },
      );
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/populations\[0\]\.params\.services\[2\]/);
    expect(message).not.toMatch(/services\[3\]/); // wallet is a property service (the simulator lends the mint door)
    expect(message).toMatch(/services\[4\].*escrow is listed twice/);
    expect(message).toMatch(/populations\[0\]\.params\.max_actions.*at least 1/);
    expect(message).toMatch(/unknown key 'colour'/);
    expect(() =>
      scenarioFromTable(scenario('{ max_actions: 1001 }'), { agents: AGENTS }).populations.map(
        (population) => population.params,
      ),
    ).toThrow(/max_actions.*at most 1000/);
    expect(() => scenarioFromTable(scenario('{ max_actions: 2, actions: [1, 2, 3] }'), { agents: AGENTS })).toThrow(
      /params\.actions.*3 actions are more than max_actions \(2\)/,
    );
    expect(() => scenarioFromTable(scenario('{ actions: [-1, 1.5] }'), { agents: AGENTS })).toThrow(
      /actions\[0\][\s\S]*actions\[1\]/,
    );
    const defaults = propertyParams.parse({});
    expect(defaults).toEqual({ services: ['faucet', 'escrow', 'casino', 'domains', 'trading'], max_actions: 100 });
  });

  test('actions are drawn by fast-check from the agent stream: the same for the same stream, else different', () => {
    const params = propertyParams.parse({ services: ['escrow', 'casino'], max_actions: 40 });
    const stream = (name: string): Rng => new Rng('7').fork('agents').fork(name);
    const first = agentActions(params, stream('property-0'));
    expect(agentActions(params, stream('property-0'))).toEqual(first);
    expect(agentActions(params, stream('property-1'))).not.toEqual(first);
    expect(first.length).toBeGreaterThanOrEqual(20);
    expect(first.length).toBeLessThanOrEqual(40);
    const labels = first.map((action) => actionCommand(servicesOf(params), action).label);
    expect(labels).toEqual(first.map((action) => actionCommand(servicesOf(params), action).label));
    expect(labels.some((label) => /escrow/i.test(label))).toBe(true);
    expect(labels.some((label) => /bet|batch|tournament|challenge|seed/i.test(label))).toBe(true);
    expect(labels.some((label) => /domain|order|position/i.test(label))).toBe(false);
  });

  test('among scripted agents every invariant holds; same seed, same digest; another seed, another', async () => {
    const text = scenario('{ services: [faucet, escrow, casino, domains, trading], max_actions: 80 }');
    const one = await digestOf(text, 3);
    expect(one.held).toBe(true);
    expect(one.requests).toBeGreaterThan(100);
    expect((await digestOf(text, 3)).digest).toBe(one.digest);
    expect((await digestOf(text, 4)).digest).not.toBe(one.digest);
  });

  test('the run’s fault windows and game closures are outages in the model, not differences', async () => {
    // Before, an answer of a scheduled outage (`afp run --swarm` draws them) was reported as the
    // platform differing from the model ("expected 400 BAD_REQUEST, got 503"), and a composite
    // command whose escrow met one crashed the run ("precondition broken, no caller").
    const text = [
      'name: property-outages',
      'duration: 1d',
      'populations:',
      '  - { agent: faucet-farmer, count: 2 }',
      '  - { agent: property, count: 6, style: mixed, params: { services: [faucet, escrow, casino, domains, trading, wallet], max_actions: 120 } }',
      'faults:',
      '  - { service: escrow, from: 20m, for: 3h, answer: 503 }',
      '  - { service: casino, from: 1h, for: 2h, answer: 500 }',
      '  - { service: trading, from: 30m, for: 4h, answer: 503 }',
      '  - { service: wallet, from: 2h, for: 3h, answer: 503 }',
      '  - { service: faucet, from: 90m, for: 1h, answer: 503 }',
      '  - { service: domains, from: 3h, for: 2h, answer: 500 }',
      'casino:',
      '  closures:',
      '    - { game: coin_flip, from: 10m, for: 6h }',
      '    - { game: dice, from: 5h, for: 6h }',
      '',
    ].join('\n');
    const record = await runScenarioWith(scenarioFromTable(text, { agents: AGENTS }), { seed: 11, agents: AGENTS });
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants)
      expect({ name: result.name, violations: result.violations }).toEqual({ name: result.name, violations: 0 });
  });

  test('wallet rows: the agent funds its own wallets through the lent mint door, none from wallet.starting_funds', async () => {
    const text = scenario('{ services: [wallet], max_actions: 150 }', 6);
    const eventsOf = async (scenarioText: string): Promise<{ types: string[]; text: string; held: boolean }> => {
      const record = await runScenarioWith(scenarioFromTable(scenarioText, { agents: AGENTS }), {
        seed: 2,
        agents: AGENTS,
      });
      const events = renderReports(record, ['events']).files.find((file) => file.file === 'events.jsonl')?.text ?? '';
      const lines = events.split('\n').filter((line) => line.length > 0);
      return {
        types: lines.map((line) => String((JSON.parse(line) as { type: unknown }).type)),
        text: events,
        held: record.outcome === 'completed' && record.invariants.every((result) => result.violations === 0),
      };
    };
    const own = await eventsOf(text);
    expect(own.held).toBe(true);
    for (const type of ['wallet.created', 'wallet.minted', 'wallet.sent'])
      expect(own.types.filter((seen) => seen === type).length, type).toBeGreaterThan(0);
    // With starting funds in the scenario the run is the same, event for event: none reach its wallets.
    const funded = await eventsOf(`${text}wallet:\n  starting_funds:\n    - { chain: base, amount: '1' }\n`);
    expect(funded.text).toBe(own.text);
  });

  test('an explicit action list replays the drawn one byte for byte', async () => {
    const params = propertyParams.parse({ services: ['faucet', 'escrow', 'casino'], max_actions: 60 });
    const drawn = agentActions(params, new Rng('5').fork('agents').fork('property-0'));
    const base = '{ services: [faucet, escrow, casino], max_actions: 60';
    const drawnRun = await digestOf(scenario(`${base} }`, 1), 5);
    const written = await digestOf(scenario(`${base}, actions: [${drawn.join(', ')}] }`, 1), 5);
    expect(written.digest).toBe(drawnRun.digest);
    const shorter = await digestOf(scenario(`${base}, actions: [${drawn.slice(0, 5).join(', ')}] }`, 1), 5);
    expect(shorter.requests).toBeLessThan(drawnRun.requests);
  });
});
