/**
 * timeline.html: every run that fails an invariant gets one (and a run that holds does not, so its
 * reports and digest stay as they were); agents are lanes with the violation's agent first and
 * highlighted, requests marks coloured by status, fault windows bands, the violation a red line;
 * the page is static (no script), bounded (lanes) and byte-stable. In headless Chromium (when the
 * browser checks run) the SVG draws at its size and shows its colours.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, test } from 'vitest';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import type { RunRecord, TracedRequest } from '../../src/report/run-record.ts';
import { renderTimelineHtml, TIMELINE_LANES_MAX } from '../../src/report/timeline-html.ts';
import { renderReports } from '../../src/report/write-reports.ts';
import { TRACE_REQUESTS_MAX, RequestTrace } from '../../src/sim/request-trace.ts';
import { runSimulationWith } from '../../src/sim/runner.ts';
import { parseScenario, type Scenario } from '../../src/scenario/scenario.ts';
import {
  CHROMIUM_SKIPPED,
  CHROMIUM_TIMEOUT_MS,
  chromiumArgs,
  decodePng,
  requireChromium,
  runChromium,
  waitForNoProcessWith,
} from './chromium.ts';
import { KeptEvents } from '../../src/report/run-events.ts';

const work = mkdtempSync(join(tmpdir(), 'afp-timeline-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// The first daily claims (after 24 h) come while the escrow is down; with mint-on-claim the first breaks conservation.
const SCENARIO = `name: timeline-demo
seed: 5
start: 2026-03-01T00:00:00Z
duration: 26h
populations:
  - agent: escrow-buyer
    count: 2
    style: B
  - agent: escrow-seller
    count: 1
    style: B
  - agent: faucet-farmer
    count: 2
    style: B
faults:
  - { service: escrow, from: 22h, for: 3h, answer: 503 }
reports: [summary, agents]
`;

function scenario(text: string): Scenario {
  const parsed = parseScenario(text, {
    fileName: 'timeline-demo.yaml',
    agentParams: (name) => AGENTS[name]?.params,
    knownAgents: AGENT_NAMES,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.scenario;
}

describe('timeline.html', () => {
  it('is written for a failing run, with lanes, status marks, the fault band and the violation', async () => {
    const result = await runSimulationWith(scenario(SCENARIO), {
      agents: AGENTS,
      seed: '5',
      defects: ['mint-on-claim'],
    });
    expect(result.failure?.invariant).toBe('conservation');
    const { files } = renderReports(result.record, ['summary', 'agents']);
    expect(files.map((file) => file.file)).toEqual(['agents.csv', 'timeline.html', 'summary.json']);
    const html = files.find((file) => file.file === 'timeline.html')?.text ?? '';
    expect(html).toContain('<h1>timeline-demo — time-line</h1>');
    expect(html).toContain('invariant failed: conservation');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('escrow answers 503');
    expect(html).toMatch(/<line [^>]*id="violation"/);
    // The violation's agent (the one whose claim minted) has the first, highlighted lane.
    const firstLane =
      /<rect x="0" y="34" width="\d+" height="16" fill="([^"]+)"\/>\n<text x="4" y="46">([^<]+)<\/text>/.exec(html);
    expect(firstLane?.[1]).toBe('#fff3c4');
    expect(result.failure?.violation.event).toContain(`"agentId":"${firstLane?.[2] ?? ''}"`);
    const lanes = [...html.matchAll(/<text x="4" y="\d+">([^<]+)<\/text>/g)].map((match) => match[1]);
    expect(lanes).toHaveLength(new Set(result.record.trace?.requests.map((request) => request.agentId)).size);
    expect(html).toContain('fill="#2e7d32"'); // 2xx marks
    expect(html).toContain('fill="#c62828"'); // the 503s of the escrow outage
    expect(renderReports(result.record, ['summary', 'agents']).files).toEqual(files);
  });

  it('is not written for a run that holds', async () => {
    const result = await runSimulationWith(scenario(SCENARIO), { agents: AGENTS, seed: '5' });
    expect(result.failure).toBeNull();
    expect(renderReports(result.record, ['summary', 'agents']).files.map((file) => file.file)).toEqual([
      'agents.csv',
      'summary.json',
    ]);
  });

  it('draws at most its lane bound and says how many agents and requests it left out', () => {
    const requests: TracedRequest[] = Array.from({ length: 100 }, (_, index) => ({
      atMs: 1_000 + index,
      agentId: `agent-${index}-<b>`,
      endpoint: 'faucet.B.claim',
      status: index % 2 === 0 ? 200 : 429,
    }));
    const record: RunRecord = {
      scenario: 'bounds',
      seed: '1',
      startMs: 0,
      endMs: 2_000,
      reproduce: 'npx afp run bounds.yaml',
      outcome: 'completed',
      agents: [],
      endpoints: [],
      escrows: [],
      events: new KeptEvents(),
      invariants: [],
      totals: {
        requests: 5_100,
        agents: 100,
        escrows: 0,
        ledgerSumMicro: 0n,
        feeIncomeMicro: 0n,
        faucetPoolMicro: 0n,
        agentBalancesMicro: 0n,
      },
      trace: { requests, dropped: 5_000 },
    };
    const html = renderTimelineHtml(record);
    expect([...html.matchAll(/<text x="4" y="\d+">/g)]).toHaveLength(TIMELINE_LANES_MAX);
    expect(html).toContain(`${100 - TIMELINE_LANES_MAX} more agents acted in this window`);
    expect(html).toContain('5,000 earlier requests are not drawn');
    expect(html).toContain('agent-0-&lt;b&gt;');
    expect(html).not.toContain('<b>');
  });

  it('keeps the last requests of a run, in order, and counts the ones before', () => {
    const trace = new RequestTrace();
    for (let index = 0; index < TRACE_REQUESTS_MAX + 5; index++)
      trace.push({ atMs: index, agentId: 'a', endpoint: 'e', status: 200 });
    const rows = trace.rows();
    expect(rows).toHaveLength(TRACE_REQUESTS_MAX);
    expect(rows[0]?.atMs).toBe(5);
    expect(rows.at(-1)?.atMs).toBe(TRACE_REQUESTS_MAX + 4);
    expect(trace.dropped).toBe(5);
  });

  test.skipIf(CHROMIUM_SKIPPED)(
    'draws in headless Chromium: the SVG at its size, with its colours',
    { timeout: 3 * CHROMIUM_TIMEOUT_MS },
    async () => {
      const chromium = requireChromium();
      const result = await runSimulationWith(scenario(SCENARIO), {
        agents: AGENTS,
        seed: '5',
        defects: ['mint-on-claim'],
      });
      const page = join(work, 'timeline.html');
      writeFileSync(page, renderTimelineHtml(result.record));
      const window = { width: 1200, height: 900 };
      const dom = await runChromium(chromium, [...chromiumArgs(work, window), '--dump-dom', `file://${page}`]);
      expect(dom.stdout).toMatch(/<svg [^>]*width="1090"/);
      const shot = join(work, 'timeline.png');
      await runChromium(chromium, [...chromiumArgs(work, window), `--screenshot=${shot}`, `file://${page}`]);
      const decoded = decodePng(readFileSync(shot));
      expect({ width: decoded.width, height: decoded.height }).toEqual(window);
      expect(decoded.colouredPixels, 'coloured pixels (marks, bands, the violation line)').toBeGreaterThan(500);
      expect(await waitForNoProcessWith(work), 'chromium processes left running').toEqual([]);
    },
  );
});
