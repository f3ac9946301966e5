// bad-input-sender: every row of its table answers the expected 4xx with {error, code} on a
// fresh platform, and a day of it changes no balance and trips no check.
import { describe, expect, test } from 'vitest';
import { AfpClient } from '../../../src/client/client.ts';
import { inProcessTransport } from '../../../src/client/in-process.ts';
import { VirtualClock } from '../../../src/core/clock.ts';
import { Dispatcher } from '../../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { BAD_INPUT_CASES } from '../../../src/agent/bad-input-cases.ts';
import { scenarioFromTable } from '../../../src/agent/load-scenario.ts';
import { runScenarioWith } from '../../../src/sim/runner.ts';
import { keptEvents } from '../../fixtures/kept-events.ts';
import { AGENTS } from '../../../agents/index.ts';

const START_MS = Date.parse('2026-01-01T00:00:00Z');

describe('bad-input-sender', () => {
  test('each bad-input case answers its expected 4xx with {error, code} and moves no money', async () => {
    const platform = new Platform({ seed: 'bad', startMs: START_MS });
    const clock = new VirtualClock(START_MS);
    const client = new AfpClient(
      inProcessTransport({ dispatcher: new Dispatcher(platform, ALL_ROUTES), clock, checkJsonRoundTrip: true }),
    );
    const sender = await client.withIp('2001:db8::1').faucetB.register({ agent_id: 'sender' });
    const seller = await client.withIp('2001:db8::2').faucetB.register({ agent_id: 'seller' });
    expect(sender.ok && seller.ok).toBe(true);
    const keyed = client.withKey(sender.ok ? sender.body.api_key : '').withIp('2001:db8::1');
    const transfersBefore = platform.ledger.transfers;
    const names = new Set<string>();
    for (const badCase of BAD_INPUT_CASES) {
      expect(names.has(badCase.name), badCase.name).toBe(false);
      names.add(badCase.name);
      clock.advance(1_000);
      const response = await keyed.raw(badCase.build({ agentId: 'sender', counterparty: 'seller' }));
      const body = response.body as { error?: unknown; code?: unknown };
      expect([badCase.name, response.status]).toEqual([badCase.name, badCase.expect]);
      expect(typeof body.error, badCase.name).toBe('string');
      expect(typeof body.code, badCase.name).toBe('string');
    }
    expect(platform.ledger.transfers).toBe(transfersBefore);
    expect(platform.agents.size).toBe(2);
    expect(BAD_INPUT_CASES.length).toBeGreaterThan(40);
  });

  test('runs alone for a day: all its bad requests answer 4xx and its balance never moves', async () => {
    const exchanges: { path: string; status: number }[] = [];
    const record = await runScenarioWith(
      scenarioFromTable(
        `
name: bad-input
duration: 1d
populations:
  - { agent: bad-input-sender, count: 2, style: B, params: { every: 30m, per_wake: 20 } }
`,
        { agents: AGENTS },
      ),
      {
        agents: AGENTS,
        seed: 51,
        recorder: {
          onExchange: (exchange) =>
            exchanges.push({
              path: `${exchange.request.method} ${exchange.request.path}`,
              status: exchange.response.status,
            }),
        },
      },
    );
    expect(record.outcome).toBe('completed');
    for (const result of record.invariants) expect(result.violations, result.name).toBe(0);
    const bad = exchanges.filter(
      (exchange) => exchange.path !== 'GET /api/v1/faucet/status' && exchange.path !== 'POST /register',
    );
    expect(bad.length).toBeGreaterThan(1_000);
    for (const exchange of bad)
      expect(exchange.status >= 400 && exchange.status < 500, `${exchange.path} ${exchange.status}`).toBe(true);
    for (const agent of record.agents) expect(agent.balanceMicro).toBe(10_000_000n);
    expect(record.escrows).toHaveLength(0);
    expect(
      keptEvents(record)
        .filter((event) => event.type !== 'referral.paid')
        .map((event) => event.type),
    ).toEqual(['agent.registered', 'agent.registered']);
  });
});
