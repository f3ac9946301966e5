// End to end with the simulator: a scenario of a few agents over one virtual day, recorded through
// the runner's `recorder` option exactly as `afp run --record` does, then replayed against
// `afp serve` (127.0.0.1, ephemeral ports, manual clock at the scenario's start): same seed and
// another seed both give zero differences; the escrow-fee-2pct defect gives exit 3 naming fees.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AGENTS, AGENT_NAMES } from '../../agents/index.ts';
import { main as replayEnding } from '../../src/cli/replay.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { createRecorder } from '../../src/replay/recorder.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { startServe } from '../../src/server/listeners.ts';
import { runSimulationWith } from '../../src/sim/runner.ts';
import { parseScenario, type Scenario } from '../../src/scenario/scenario.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(replayEnding);

const SCENARIO = `name: replay-day
seed: 3
duration: 1d
populations:
  - agent: escrow-buyer
    count: 4
  - agent: escrow-seller
    count: 3
  - agent: faucet-farmer
    count: 3
    style: mixed
  - agent: bad-input-sender
    count: 1
invariants: [conservation]
reports: [summary]
`;

let directory: string;
let recordPath: string;
let scenario: Scenario;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-replay-sim-'));
  recordPath = join(directory, 'day.jsonl');
  const parsed = parseScenario(SCENARIO, {
    fileName: 'replay-day.yaml',
    agentParams: (agent) => AGENTS[agent]?.params,
    knownAgents: AGENT_NAMES,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  scenario = parsed.scenario;
  const recorder = createRecorder({ scenario: scenario.name, seed: '3', startMs: scenario.startMs });
  const result = await runSimulationWith(scenario, { agents: AGENTS, seed: '3', recorder });
  expect(result.record.outcome).toBe('completed');
  await recorder.finish(recordPath);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function replay(options: { seed: string; defects?: DefectName[]; name: string }): Promise<{
  code: number;
  diff: { sent: number; differences_total: number; differences: { endpoint: string; pointer: string }[] };
}> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: options.seed,
    port: 0,
    clockMode: 'manual',
    startMs: scenario.startMs,
    defects: options.defects ?? [],
    log: () => undefined,
  });
  const out = join(directory, options.name);
  try {
    const code = await main([recordPath, '--target', handle.urls.api as string, '--speed', 'max', '--out', out], {
      out: () => undefined,
      err: () => undefined,
    });
    return { code, diff: JSON.parse(await readFile(join(out, 'diff.json'), 'utf8')) as never };
  } finally {
    await handle.close({ forceAfterMs: 100 });
  }
}

describe('a simulated day, recorded and replayed', () => {
  test('the record holds the run: header counts, provenance to rebind', async () => {
    const lines = (await readFile(recordPath, 'utf8')).trimEnd().split('\n');
    const header = JSON.parse(lines[0] as string) as { exchanges: number; complete: boolean; seed: string };
    expect(header).toMatchObject({ complete: true, seed: '3' });
    expect(header.exchanges).toBe(lines.length - 1);
    expect(header.exchanges).toBeGreaterThan(50);
    expect(lines.slice(1).some((line) => line.includes('"from":{"seq"'))).toBe(true);
  });

  test('same seed: zero differences', async () => {
    const { code, diff } = await replay({ seed: '3', name: 'same' });
    expect(diff.differences_total, JSON.stringify(diff.differences.slice(0, 5))).toBe(0);
    expect(code).toBe(0);
  });

  test('another seed: zero differences through rebinding', async () => {
    const { code, diff } = await replay({ seed: '987654', name: 'other' });
    expect(diff.differences_total, JSON.stringify(diff.differences.slice(0, 5))).toBe(0);
    expect(code).toBe(0);
  });

  test('the escrow-fee-2pct defect: exit 3, fee differences on escrow creation', async () => {
    const { code, diff } = await replay({ seed: '3', defects: ['escrow-fee-2pct'], name: 'defect' });
    expect(code).toBe(3);
    expect(diff.differences).toContainEqual(
      expect.objectContaining({ endpoint: 'escrow.B.create', pointer: 'body/fee' }),
    );
  });
});
