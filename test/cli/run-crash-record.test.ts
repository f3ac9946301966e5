// A run that crashes while recording (issue 69 part 5): `afp run --record FILE` writes the record
// of the run up to the crash, `complete: false` with the exchanges it holds, and says where; before,
// FILE kept the previous run's record and nothing said so. The crash is an agent whose step throws
// mid-run (a bug in an archetype), in process.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runLoadedScenario } from '../../src/cli/run-scenario.ts';
import { readScenarioFile } from '../../src/cli/scenario-file.ts';
import { EXIT } from '../../src/core/exit-codes.ts';
import { codeOf } from './ending-code.ts';
import type { AnyAgentDefinition } from '../../src/agent/agent.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-run-crash-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const SCENARIO = join(import.meta.dirname, '..', '..', 'scenarios', 'tiers-and-faults.yaml');
const STEPS_BEFORE_CRASH = 300;

test('a run that crashes writes its record so far, complete: false, with the count of the lines it holds', async () => {
  const loaded = await readScenarioFile(SCENARIO);
  if (!loaded.ok) throw new Error(loaded.message);
  let steps = 0;
  const agents: Record<string, AnyAgentDefinition> = {};
  for (const [name, definition] of Object.entries(loaded.agents))
    agents[name] = {
      ...definition,
      step: async (context) => {
        steps++;
        if (steps === STEPS_BEFORE_CRASH) throw new Error('an archetype bug');
        return definition.step(context);
      },
    };
  const file = join(DIR, 'crashed.afprec');
  writeFileSync(file, '{"previous":true}\n');
  const err: string[] = [];
  const io = { out: () => {}, err: (text: string) => void err.push(text), errIsTty: false };
  const flags = {
    file: SCENARIO,
    seed: '7',
    out: join(DIR, 'out'),
    record: file,
    defects: [],
    swarm: false,
    quiet: true,
  };
  // The crash and where its record went are the failure's message, printed by the top as the command ends.
  const code = await codeOf(
    runLoadedScenario(flags, { ...loaded, agents }, '7', io, () => {}),
    io,
  );
  expect(code).toBe(EXIT.crash);
  expect(err.join('')).toContain('an archetype bug');
  expect(err.join('')).toContain(`afp run: the record of the run up to the crash (complete: false) is in ${file}`);
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const header = JSON.parse(lines[0] ?? '') as { complete: boolean; exchanges: number; scenario: string };
  expect(header.scenario).toBe(loaded.scenario.name);
  expect(header.complete).toBe(false);
  expect(header.exchanges).toBe(lines.length - 1);
  expect(header.exchanges).toBeGreaterThan(0);
});
