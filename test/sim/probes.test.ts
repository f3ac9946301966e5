/**
 * Coverage probes: each is hit by exactly the answers or events it names, and a run's counts land
 * in its record and summary.json in the table's order. A faulted scenario hits the fault probes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import { renderReports } from '../../src/report/write-reports.ts';
import { PROBES, ProbeCounter } from '../../src/sim/probes.ts';
import { runSimulationWith } from '../../src/sim/runner.ts';
import { parseScenario } from '../../src/scenario/scenario.ts';

const hitsOf = (counter: ProbeCounter): Record<string, number> =>
  Object.fromEntries(
    counter
      .counts()
      .filter((probe) => probe.hits > 0)
      .map((probe) => [probe.name, probe.hits]),
  );

describe('coverage probes', () => {
  it('count the answers they name', () => {
    const counter = new ProbeCounter();
    counter.onExchange('faucet.B.claim', 429, 'RATE_LIMITED', false);
    counter.onExchange('faucet.A.claim', 400, 'FAUCET_CLAIMED', false);
    counter.onExchange('escrow.B.create', 503, 'SERVICE_UNAVAILABLE', true);
    counter.onExchange('escrow.B.create', 503, 'SERVICE_UNAVAILABLE', false); // not a fault's answer
    counter.onExchange('casino.A.game.dice', 409, 'GAME_CLOSED', false);
    counter.onExchange('escrow.B.release', 409, 'CONFLICT', false);
    counter.onExchange('casino.A.withdraw', 422, 'INSUFFICIENT_BALANCE', false);
    counter.onExchange(null, 200, undefined, false);
    expect(hitsOf(counter)).toEqual({
      'rate-limited': 1,
      'rate-limited-claim': 1,
      'claim-refused': 1,
      'bad-input': 1,
      'answered-by-fault': 1,
      'game-closed': 1,
      conflict: 1,
      'insufficient-balance': 1,
    });
  });

  it('count the events they name; a withdrawal counts as reviewed only after it waited', () => {
    const counter = new ProbeCounter();
    counter.onEvent({ type: 'escrow.disputed', atMs: 1, escrowId: 'e', byAgentId: 'a', windowEndsAtMs: 2 }, true);
    counter.onEvent(
      { type: 'escrow.refunded', atMs: 2, escrowId: 'e', amountMicro: 1n, cause: 'dispute-window' },
      false,
    );
    counter.onEvent({ type: 'escrow.refunded', atMs: 2, escrowId: 'f', amountMicro: 1n, cause: 'sender' }, false);
    counter.onEvent({ type: 'escrow.expired', atMs: 3, escrowId: 'g', amountMicro: 1n, expiresAtMs: 3 }, false);
    counter.onEvent(
      {
        type: 'casino.withdrawal',
        atMs: 4,
        withdrawalId: 'w1',
        agentId: 'a',
        amountMicro: 1n,
        feeMicro: 0n,
        status: 'completed',
      },
      false,
    );
    counter.onEvent(
      {
        type: 'casino.withdrawal',
        atMs: 4,
        withdrawalId: 'w2',
        agentId: 'a',
        amountMicro: 1n,
        feeMicro: 0n,
        status: 'pending_review',
      },
      false,
    );
    counter.onEvent(
      {
        type: 'casino.withdrawal',
        atMs: 5,
        withdrawalId: 'w2',
        agentId: 'a',
        amountMicro: 1n,
        feeMicro: 0n,
        status: 'completed',
      },
      false,
    );
    counter.onEvent({ type: 'casino.challenge', atMs: 6, challengeId: 'c', status: 'expired', winnerId: null }, false);
    expect(hitsOf(counter)).toEqual({
      'dispute-opened': 1,
      'dispute-during-fault': 1,
      'dispute-window-closed': 1,
      'escrow-expired': 1,
      'withdrawal-reviewed': 1,
      'challenge-expired': 1,
    });
    expect(counter.counts().map((probe) => probe.name)).toEqual(PROBES.map((probe) => probe.name));
  });

  it("land in a run's summary.json: a faulted scenario hits its fault and escrow probes", async () => {
    const text = readFileSync('scenarios/tiers-and-faults.yaml', 'utf8');
    const parsed = parseScenario(text, {
      fileName: 'tiers-and-faults.yaml',
      agentParams: (name) => AGENTS[name]?.params,
      knownAgents: AGENT_NAMES,
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const result = await runSimulationWith(parsed.scenario, { agents: AGENTS, seed: parsed.scenario.seed });
    const summary = JSON.parse(renderReports(result.record, ['summary']).files[0]?.text ?? '{}') as {
      probes: Record<string, number>;
    };
    expect(Object.keys(summary.probes)).toEqual(PROBES.map((probe) => probe.name));
    for (const probe of ['answered-by-fault', 'escrow-expired', 'escrow-released', 'dispute-opened', 'claim-refused'])
      expect(summary.probes[probe], probe).toBeGreaterThan(0);
    expect(summary.probes['casino-bet']).toBe(0);
  });
});
