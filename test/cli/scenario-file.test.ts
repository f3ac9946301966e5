// Reading a scenario file for a command (src/cli/scenario-file.ts) loads only the archetypes the
// file names (agents/archetype-loaders.ts) and hands them back as the table to run it with. What
// must hold: the table is exactly the populations' archetypes, the very definitions AGENTS holds;
// an unknown archetype is refused as before, listing every archetype; and a run with that table is
// byte for byte the run with the whole AGENTS table (same digest), the property archetype
// included, so `afp run` prints the digest it printed before it loaded archetypes lazily.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import { readScenarioFile } from '../../src/cli/scenario-file.ts';
import { digestReports } from '../../src/report/write-reports.ts';
import { runSimulationWith } from '../../src/sim/runner.ts';

const work = mkdtempSync(join(tmpdir(), 'afp-scenario-file-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MIXED = `name: lazy-table
seed: 5
duration: 6h
populations:
  - { agent: faucet-farmer, count: 4, style: mixed }
  - { agent: escrow-seller, count: 2 }
  - { agent: escrow-buyer, count: 3, params: { expires_in: 2h, escrow_every: 1h } }
  - { agent: fixed-bettor, count: 2 }
  - { agent: property, count: 2 }
  - { agent: faucet-farmer, count: 1, first: 4 }
casino: { starting_deposit: '50.00' }
`;

function scenarioFile(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

describe('readScenarioFile', () => {
  test("refuses a load threshold afp load cannot judge, in afp load's words, for every command (export k6, scenario check)", async () => {
    const load = `load: { rate: 1, duration: 2s, thresholds: { iteration_duration: ['p(95)<5000'], 'http_req_duration{status:200}': ['p(95)<100'] } }\n`;
    const read = await readScenarioFile(scenarioFile('thresholds.yaml', `${MIXED}${load}`));
    expect(read.ok).toBe(false);
    const message = read.ok ? '' : read.message;
    expect(message).toMatch(/iteration_duration: afp load does not measure iteration durations/);
    expect(message).toMatch(/http_req_duration\{status:200\}: tag 'status' cannot filter http_req_duration/);
  });

  test("gives the populations' archetypes only, once each in the order named, the very definitions of AGENTS", async () => {
    const read = await readScenarioFile(scenarioFile('mixed.yaml', MIXED));
    expect(read.ok ? [] : read.message).toEqual([]);
    if (!read.ok) return;
    expect(Object.keys(read.agents)).toEqual([
      'faucet-farmer',
      'escrow-seller',
      'escrow-buyer',
      'fixed-bettor',
      'property',
    ]);
    for (const [name, definition] of Object.entries(read.agents)) expect(definition, name).toBe(AGENTS[name]);
  });

  test('an unknown archetype is refused with its path and every archetype listed; bad params still are', async () => {
    const unknown = await readScenarioFile(
      scenarioFile('unknown.yaml', MIXED.replace('agent: fixed-bettor', 'agent: fixed-better')),
    );
    expect(unknown.ok).toBe(false);
    if (unknown.ok) return;
    expect(unknown.kind).toBe('invalid');
    expect(unknown.message).toContain(`unknown agent 'fixed-better'; known agents: ${AGENT_NAMES.join(', ')}`);
    const params = await readScenarioFile(
      scenarioFile('params.yaml', MIXED.replace('expires_in: 2h', 'expires_in: 2 hours')),
    );
    expect(params.ok).toBe(false);
    if (!params.ok)
      expect(params.message).toContain("params.yaml:7 populations[2].params.expires_in: '2 hours' is not a duration");
  });

  test('a run with the loaded table has the digest of the run with the whole AGENTS table', async () => {
    const read = await readScenarioFile(scenarioFile('digest.yaml', MIXED));
    if (!read.ok) throw new Error(read.message);
    const digestWith = async (agents: typeof AGENTS): Promise<string> => {
      const result = await runSimulationWith(read.scenario, { agents, seed: read.scenario.seed });
      expect(result.failure).toBeNull();
      return digestReports(result.record, read.scenario.reports);
    };
    expect(await digestWith(read.agents)).toBe(await digestWith(AGENTS));
  });
});
