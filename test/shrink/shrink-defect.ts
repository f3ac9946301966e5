/**
 * One deliberate defect shrunk and checked: the shrunk scenario is at least ten times smaller
 * (agents) than the shipped one, names its seed, and when parsed and run again fails the same
 * invariant first. Shared by the two "every defect" test files (split so they run in parallel).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import { shrinkRun } from '../../src/shrink/shrink-run.ts';
import { runSimulationWith } from '../../src/sim/runner.ts';
import { parseScenario } from '../../src/scenario/scenario.ts';
import { DEFECT_SHRINK_RUNS, type DefectCase } from './defect-cases.ts';

export async function expectShrinks(row: DefectCase): Promise<void> {
  const text = readFileSync(row.scenario, 'utf8');
  const seed = /^seed:\s*['"]?([^'"\s#]+)/m.exec(text)?.[1] ?? '1';
  const result = await shrinkRun({
    text,
    fileName: row.scenario,
    seed,
    defects: [row.defect],
    maxRuns: DEFECT_SHRINK_RUNS,
  });
  if (result.kind !== 'shrunk') throw new Error(`${row.defect} on ${row.scenario} (seed ${seed}): ${result.kind}`);
  expect(result.invariant, row.defect).toBe(row.invariant);
  expect(
    result.shrunk.agents * 10,
    `${row.defect}: ${result.original.agents} -> ${result.shrunk.agents} agents`,
  ).toBeLessThanOrEqual(result.original.agents);

  const parsed = parseScenario(result.text, {
    fileName: 'shrunk.yaml',
    agentParams: (name) => AGENTS[name]?.params,
    knownAgents: AGENT_NAMES,
  });
  if (!parsed.ok) throw new Error(`${row.defect}: the shrunk file does not parse: ${JSON.stringify(parsed.errors)}`);
  const again = await runSimulationWith(parsed.scenario, { agents: AGENTS, seed, defects: [row.defect] });
  expect(again.failure?.invariant, `${row.defect}: the shrunk file run again`).toBe(row.invariant);
}
