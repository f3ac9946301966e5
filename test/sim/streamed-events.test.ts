/**
 * Events streamed to disk as they happen (src/sim/streamed-events.ts) give the reports exactly what
 * kept events give: the same events.jsonl bytes, the same time-line window, the same digest (also
 * when only the digest is computed, as a sweep does) — for a shipped scenario, for a failing run's
 * time-line, and for a window whose start the request trace has moved past thousands of events
 * (the kept tail and the forgotten instants).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { TIMELINE_EVENTS_MAX } from '../../src/report/timeline-html.ts';
import { KeptEvents } from '../../src/report/run-events.ts';
import { digestReports, renderReports } from '../../src/report/write-reports.ts';
import type { DomainEvent } from '../../src/services/shared/events.ts';
import { scenarioFromTable } from '../../src/agent/load-scenario.ts';
import { runSimulationWith } from '../../src/sim/runner.ts';
import { StreamedEvents } from '../../src/sim/streamed-events.ts';
import { AGENTS } from '../../agents/index.ts';

const ALL_REPORTS = ['summary', 'agents', 'endpoints', 'escrows', 'events'] as const;

// The first daily claims (after 24 h) come while the escrow is down; with mint-on-claim the first
// breaks conservation, after the trace has let its oldest requests go.
const FAILING = `name: streamed-timeline
seed: 5
start: 2026-03-01T00:00:00Z
duration: 26h
populations:
  - { agent: escrow-buyer, count: 100, style: B }
  - { agent: escrow-seller, count: 50, style: B }
  - { agent: faucet-farmer, count: 100, style: B }
faults:
  - { service: escrow, from: 22h, for: 3h, answer: 503 }
reports: [summary, events]
`;

function claim(index: number, atMs: number): DomainEvent {
  return {
    type: 'faucet.claimed',
    atMs,
    agentId: `agent-${index}-ü`,
    style: 'B',
    amountMicro: BigInt(index) * 1_000n,
    nextClaimAtMs: atMs + 86_400_000,
  };
}

function textOf(chunks: Iterable<string | Uint8Array>): string {
  return Buffer.concat(
    [...chunks].map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)),
  ).toString('utf8');
}

describe('StreamedEvents', () => {
  test('the file, the count and every window match kept events, with instants forgotten as the trace moves', () => {
    const streamed = new StreamedEvents({ tailMax: TIMELINE_EVENTS_MAX });
    const kept = new KeptEvents();
    const total = TIMELINE_EVENTS_MAX * 3 + 17;
    for (let index = 0; index < total; index++) {
      const event = claim(index, 1_000 + Math.floor(index / 3));
      streamed.push(event);
      kept.push(event);
      if (index % 500 === 0) streamed.forgetBefore(1_000 + Math.floor(index / 6));
    }
    streamed.finish();
    expect(streamed.count).toBe(total);
    expect(streamed.kept).toBeNull();
    expect(textOf(streamed.jsonlChunks())).toBe(textOf(kept.jsonlChunks()));
    const lastForgotten = 1_000 + Math.floor((Math.floor((total - 1) / 500) * 500) / 6);
    for (const fromMs of [lastForgotten, lastForgotten + 700, 1_000 + Math.floor(total / 3) - 10, 1_000 + total]) {
      for (const max of [TIMELINE_EVENTS_MAX, 100])
        expect(streamed.window(fromMs, 1_000_000, max)).toEqual(kept.window(fromMs, 1_000_000, max));
    }
    expect(() => streamed.window(lastForgotten - 1, 1_000_000, 10)).toThrow();
    streamed.dispose();
  });

  test('a shipped scenario streamed writes the same reports and digest as kept, and keeps no event list', async () => {
    const scenario = scenarioFromTable(readFileSync('scenarios/tiers-and-faults.yaml', 'utf8'), { agents: AGENTS });
    const kept = await runSimulationWith(scenario, { agents: AGENTS, seed: scenario.seed });
    const streamed = await runSimulationWith(scenario, { agents: AGENTS, seed: scenario.seed, streamEvents: true });
    expect(streamed.record.events.kept).toBeNull();
    expect(streamed.record.events.count).toBe(kept.record.events.count);
    expect(kept.record.events.count).toBeGreaterThan(0);
    const keptReports = renderReports(kept.record, ALL_REPORTS);
    expect(renderReports(streamed.record, ALL_REPORTS)).toEqual(keptReports);
    expect(digestReports(streamed.record, ALL_REPORTS)).toBe(keptReports.digest);
    expect(digestReports(kept.record, ALL_REPORTS)).toBe(keptReports.digest);
    streamed.record.events.dispose();
  });

  test('a failing run streamed draws the same time-line as kept, its window past its first requests', async () => {
    const scenario = scenarioFromTable(FAILING, { agents: AGENTS });
    const kept = await runSimulationWith(scenario, { agents: AGENTS, seed: '5', defects: ['mint-on-claim'] });
    const streamed = await runSimulationWith(scenario, {
      agents: AGENTS,
      seed: '5',
      defects: ['mint-on-claim'],
      streamEvents: true,
    });
    expect(kept.record.outcome).toBe('invariant-failed');
    expect(kept.record.trace?.dropped).toBeGreaterThan(0);
    const keptReports = renderReports(kept.record, ['summary', 'events']);
    expect(keptReports.files.map((file) => file.file)).toContain('timeline.html');
    expect(renderReports(streamed.record, ['summary', 'events'])).toEqual(keptReports);
    streamed.record.events.dispose();
  });

  test('dispose removes the temporary file', () => {
    const streamed = new StreamedEvents({ tailMax: 4 });
    streamed.push(claim(1, 1_000));
    streamed.finish();
    const path = (streamed as unknown as { path: string }).path;
    expect(existsSync(path)).toBe(true);
    streamed.dispose();
    expect(existsSync(path)).toBe(false);
  });
});
