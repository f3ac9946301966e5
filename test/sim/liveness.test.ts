/**
 * The liveness phase: after a run that held, the agents stop, the clock runs on for `liveness`,
 * and every escrow, withdrawal, tournament and challenge must have settled; one that has not is a
 * limit (exit 4) naming it. The deliberate defect `escrow-dispute-stuck` (a dispute window that
 * never closes) breaks no safety invariant — the run without a liveness phase holds — and the
 * liveness phase finds it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import { main as runEnding } from '../../src/cli/run.ts';
import { STUCK_LISTED, stuckItems, stuckMessage } from '../../src/sim/liveness.ts';
import { runSimulationWith } from '../../src/sim/runner.ts';
import { parseScenario, type Scenario } from '../../src/scenario/scenario.ts';
import { keptEvents } from '../fixtures/kept-events.ts';
import { coded } from '../cli/ending-code.ts';

const runMain = coded(runEnding);

const work = mkdtempSync(join(tmpdir(), 'afp-liveness-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Buyers dispute every escrow and never concede; the 48 h windows end after the 1-day run.
const SCENARIO = `name: liveness-demo
seed: 3
start: 2026-04-01T00:00:00Z
duration: 1d
populations:
  - agent: escrow-buyer
    count: 3
    params: { release: 0, refund: 0, dispute: 1, let_expire: 0, concede: 0, escrow_every: 3h, expires_in: 12h }
  - agent: escrow-seller
    count: 1
liveness: 3d
`;

function scenario(text: string): Scenario {
  const parsed = parseScenario(text, {
    fileName: 'liveness-demo.yaml',
    agentParams: (name) => AGENTS[name]?.params,
    knownAgents: AGENT_NAMES,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.scenario;
}

describe('liveness phase', () => {
  it('lets a healthy run settle everything: the clock runs on for the bound, no item is left', async () => {
    const parsed = scenario(SCENARIO);
    expect(parsed.livenessMs).toBe(3 * 86_400_000);
    const result = await runSimulationWith(parsed, { agents: AGENTS, seed: '3' });
    expect(result.limit).toBeNull();
    expect(result.record.outcome).toBe('completed');
    expect(result.record.endMs).toBe(parsed.startMs + parsed.durationMs + 3 * 86_400_000);
    expect(keptEvents(result.record).filter((event) => event.type === 'escrow.disputed').length).toBeGreaterThan(3);
    expect(result.record.escrows.every((escrow) => escrow.status !== 'disputed' && escrow.status !== 'locked')).toBe(
      true,
    );
  });

  it('names the stuck disputes of escrow-dispute-stuck and stops as a limit; without the phase nothing sees them', async () => {
    const stuck = await runSimulationWith(scenario(SCENARIO), {
      agents: AGENTS,
      seed: '3',
      defects: ['escrow-dispute-stuck'],
    });
    expect(stuck.record.outcome).toBe('limit-reached');
    expect(stuck.failure).toBeNull();
    const disputed = stuck.record.escrows.filter((escrow) => escrow.status === 'disputed');
    expect(disputed.length).toBeGreaterThan(3);
    expect(stuck.limit).toMatch(
      new RegExp(`^liveness: ${disputed.length} items did not settle within 3d after the run: escrow esc_`),
    );
    const firstByName = disputed
      .map((escrow) => escrow.escrowId)
      .sort()
      .slice(0, STUCK_LISTED);
    for (const id of firstByName) expect(stuck.limit).toContain(`escrow ${id} (holds `);

    const unseen = await runSimulationWith(scenario(SCENARIO.replace('liveness: 3d\n', '')), {
      agents: AGENTS,
      seed: '3',
      defects: ['escrow-dispute-stuck'],
    });
    expect(unseen.record.outcome).toBe('completed');
  });

  it('exits 4 from afp run with the stuck items, the seed and the reproduce line', async () => {
    const file = join(work, 'liveness-demo.yaml');
    writeFileSync(file, SCENARIO);
    let out = '';
    const code = await runMain([file, '--defect', 'escrow-dispute-stuck', '--out', join(work, 'out')], {
      out: (text) => (out += text),
      err: () => undefined,
      errIsTty: false,
    });
    expect(code).toBe(4);
    expect(out).toMatch(/\nlimit reached: liveness: \d+ items did not settle within 3d after the run: escrow esc_/);
    expect(out).toContain('seed: 3');
  });

  it('lists holds with money only, in account order, at most STUCK_LISTED by name', () => {
    const accounts = new Map<string, bigint>([
      ['escrow:esc_b', 5n],
      ['agent:a', 7n],
      ['escrow:esc_a', 1_000_000n],
      ['withdrawal:wd_1', 0n],
      ['challenge:ch_1', 2n],
      ['video-poker:a', 9n],
    ]);
    expect(stuckItems(accounts)).toEqual([
      { what: 'challenge', id: 'ch_1', heldMicro: 2n },
      { what: 'escrow', id: 'esc_a', heldMicro: 1_000_000n },
      { what: 'escrow', id: 'esc_b', heldMicro: 5n },
    ]);
    const many = Array.from({ length: STUCK_LISTED + 3 }, (_, index) => ({
      what: 'tournament',
      id: `t${index}`,
      heldMicro: 1n,
    }));
    const message = stuckMessage(many, '1d');
    expect(message).toMatch(
      /^liveness: 13 items did not settle within 1d after the run: tournament t0 \(holds 0\.000001 USDC\)/,
    );
    expect(message).toMatch(/, and 3 more$/);
  });
});
