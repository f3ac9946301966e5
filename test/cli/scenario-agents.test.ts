// `afp scenario new`, `afp scenario check` and `afp agents` (src/cli/scenario.ts, src/cli/agents.ts):
// the starting scenario is valid, commented and runs; its buyer parameters are the archetype's
// defaults; check reports semantic errors with exit 2 and no run; agents lists every archetype and
// every parameter from the same metadata as the editor schema. In-process, through each command's
// io, plus one child process through afp's main table.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { AGENT_NAMES, AGENTS, ARCHETYPE_DESCRIPTIONS, ARCHETYPE_PARAMS } from '../../agents/index.ts';
import { runAgents as runAgentsEnding } from '../../src/cli/agents.ts';
import {
  nameFromFile,
  runScenarioCommand as runScenarioCommandEnding,
  starterScenarioText,
} from '../../src/cli/scenario.ts';
import { runScenarioWith } from '../../src/sim/runner.ts';
import { parseScenario } from '../../src/scenario/scenario.ts';
import { archetypeParamsJsonSchema } from '../../src/scenario/scenario-schema.ts';
import { coded } from './ending-code.ts';

const runAgents = coded(runAgentsEnding);
const runScenarioCommand = coded(runScenarioCommandEnding);

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'afp-scenario-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function capture(): { io: { out(text: string): void; err(text: string): void }; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { out: (text) => (out += text), err: (text) => (err += text) }, out: () => out, err: () => err };
}

const parse = (text: string, fileName = 'starter.yaml') =>
  parseScenario(text, { fileName, agentParams: (agent) => AGENTS[agent]?.params, knownAgents: AGENT_NAMES });

describe('afp scenario new', () => {
  test('the starting scenario is valid, commented, byte-stable, and runs with every invariant holding', async () => {
    const text = starterScenarioText('starter', AGENTS);
    expect(starterScenarioText('starter', AGENTS)).toBe(text);
    expect(text.split('\n').filter((line) => line.includes('#')).length).toBeGreaterThan(20);
    const parsed = parse(text);
    expect(parsed.ok ? [] : parsed.errors).toEqual([]);
    if (!parsed.ok) return;
    expect(parsed.scenario.name).toBe('starter');
    const record = await runScenarioWith(parsed.scenario, { agents: AGENTS, seed: parsed.scenario.seed });
    expect(record.outcome).toBe('completed');
    expect(record.escrows.length).toBeGreaterThan(0);
    for (const invariant of record.invariants) expect(invariant.violations, invariant.name).toBe(0);
  });

  test("the buyer's parameters are written out with the archetype's own defaults and descriptions", () => {
    const text = starterScenarioText('starter', AGENTS);
    const schema = archetypeParamsJsonSchema(
      ARCHETYPE_PARAMS['escrow-buyer'] as Parameters<typeof archetypeParamsJsonSchema>[0],
    );
    for (const [key, field] of Object.entries(schema['properties'] as Record<string, Record<string, unknown>>)) {
      const line = text.split('\n').find((candidate) => candidate.startsWith(`      ${key}: `));
      expect(line, key).toBeDefined();
      expect(line).toContain(`# ${field['description'] as string}`);
    }
    expect(text).toContain('      release: 0.6 ');
    expect(text).toContain('      amount_min: "0.10" ');
    expect(text).toContain('      counterparty: escrow-seller ');
  });

  test('FILE: written once, refused when it exists (exit 2) unless --force; the name comes from the file', async () => {
    const file = join(work, 'My Run.yaml');
    const first = capture();
    expect(await runScenarioCommand(['new', file], first.io)).toBe(0);
    // The command it suggests pastes as is: the name's space is quoted.
    expect(first.out()).toBe(`wrote ${file}; run it: npx afp run '${file}'\n`);
    expect(readFileSync(file, 'utf8')).toBe(starterScenarioText('my-run', AGENTS, file));
    expect(readFileSync(file, 'utf8')).toContain(`Run it: npx afp run '${file}'\n`);
    const again = capture();
    expect(await runScenarioCommand(['new', file], again.io)).toBe(2);
    expect(again.err()).toContain(`${file} exists: pass --force to replace it`);
    expect(await runScenarioCommand(['new', file, '--force', '--name', 'other'], capture().io)).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('name: other ');
    expect(nameFromFile(undefined)).toBe('starter');
    expect(nameFromFile('/x/???.yaml')).toBe('starter');
    const bad = capture();
    expect(await runScenarioCommand(['new', '--name', 'Bad Name'], bad.io)).toBe(2);
    expect(bad.err()).toContain('--name must be 1 to 64 characters');
    expect(await runScenarioCommand(['make'], capture().io)).toBe(2);
    // A directory, or a name ending in /, is no file to write (exit 2, not a crash), even with --force.
    const directory = capture();
    expect(await runScenarioCommand(['new', work, '--force'], directory.io)).toBe(2);
    expect(directory.err()).toContain(`${work}: is a directory, not a file`);
    // A name YAML would read as a number or a boolean is quoted; a folder not made yet is made.
    for (const [given, flags] of [
      ['123.yaml', []],
      ['later/deeper/t.yaml', ['--name', 'true']],
      ['e.yaml', ['--name', '1e5']],
    ] as const) {
      const path = join(work, given);
      expect(await runScenarioCommand(['new', path, ...flags], capture().io), given).toBe(0);
      const checked = capture();
      expect(await runScenarioCommand(['check', path], checked.io), checked.err()).toBe(0);
    }
    expect(readFileSync(join(work, '123.yaml'), 'utf8')).toContain('name: "123" ');
    const slash = capture();
    expect(await runScenarioCommand(['new', join(work, 'later') + '/'], slash.io)).toBe(2);
    expect(slash.err()).toContain('ends in /: it names a directory, not a file');
  });

  test('without FILE it prints the scenario; through afp main it is a command with usage', () => {
    const ran = spawnSync(process.execPath, [join(root, 'src/cli/main.ts'), 'scenario', 'new'], {
      cwd: work,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(ran.status).toBe(0);
    expect(ran.stdout).toBe(starterScenarioText('starter', AGENTS));
    const help = spawnSync(process.execPath, [join(root, 'src/cli/main.ts'), '--help'], {
      cwd: work,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(help.stdout).toMatch(/\n {2}scenario new +write a commented starting scenario/);
    expect(help.stdout).toMatch(/\n {2}agents +list the agent archetypes/);
    const own = spawnSync(process.execPath, [join(root, 'src/cli/main.ts'), 'scenario', 'new', '--help'], {
      cwd: work,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(own.status).toBe(0);
    expect(own.stdout).toContain('usage: afp scenario new [FILE] [--name NAME] [--force]');
  });
});

describe('afp scenario check', () => {
  test('a valid file: exit 0 and one line; semantic errors: exit 2 with path, line and reason', async () => {
    const good = join(work, 'good.yaml');
    writeFileSync(good, starterScenarioText('good', AGENTS));
    const ok = capture();
    expect(await runScenarioCommand(['check', good], ok.io)).toBe(0);
    expect(ok.out()).toBe(`${good}: valid (3 populations, 40 agents)\n`);
    const bad = join(work, 'bad.yaml');
    writeFileSync(
      bad,
      'name: bad\nduration: 1d\npopulations:\n  - { agent: escrow-buyer, count: 5, params: { release: 1, refund: 1, dispute: 1, let_expire: 0.6 } }\n',
    );
    const refused = capture();
    expect(await runScenarioCommand(['check', bad], refused.io)).toBe(2);
    expect(refused.err()).toContain(
      `${bad}:4 populations[0].agent: escrow-buyer needs agents of its counterparty 'escrow-seller' (the default)`,
    );
    expect(refused.err()).toContain(
      `${bad}:4 populations[0].params: release, refund, dispute, let_expire are the chances of one escrow's settlement and must sum to 1; they sum to 3.6`,
    );
    expect(existsSync(join(work, 'reports'))).toBe(false);
    expect(await runScenarioCommand(['check'], capture().io)).toBe(2);
    expect(await runScenarioCommand(['check', join(work, 'missing.yaml')], capture().io)).toBe(2);
  });
});

describe('afp agents', () => {
  test('lists every archetype with its description and every parameter with type, default and range', async () => {
    const listed = capture();
    expect(await runAgents([], listed.io)).toBe(0);
    const text = listed.out();
    for (const name of AGENT_NAMES) {
      expect(text).toContain(`${name}: ${ARCHETYPE_DESCRIPTIONS[name]}\n`);
      const properties = archetypeParamsJsonSchema(
        ARCHETYPE_PARAMS[name] as Parameters<typeof archetypeParamsJsonSchema>[0],
      )['properties'] as Record<string, unknown>;
      for (const key of Object.keys(properties)) expect(text, `${name}.${key}`).toMatch(new RegExp(`\\n  ${key} +\\S`));
    }
    expect(text).toMatch(
      /\n {2}release +number +0\.6 +0 to 1, at most 4 decimals +weight of escrows the buyer releases\n/,
    );
    expect(text).toMatch(/\n {2}escrow_every +duration +"4h" +1m to 30d +time between new escrows\n/);
    expect(text).toMatch(/\n {2}max_doublings +integer +10 +0 to 30 +the stake is at most base × 2\^max_doublings\n/);
  });

  test('NAME limits the list; --json gives the JSON Schema of each; an unknown name is exit 2 with the known ones', async () => {
    const one = capture();
    expect(await runAgents(['martingale'], one.io)).toBe(0);
    expect(one.out().startsWith('martingale: ')).toBe(true);
    expect(one.out()).not.toContain('escrow-buyer:');
    const json = capture();
    expect(await runAgents(['--json', 'escrow-buyer'], json.io)).toBe(0);
    const list = JSON.parse(json.out()) as {
      name: string;
      description: string;
      params: { properties: Record<string, Record<string, unknown>> };
    }[];
    expect(list.map((entry) => entry.name)).toEqual(['escrow-buyer']);
    expect(list[0]?.params.properties['release']).toMatchObject({ minimum: 0, maximum: 1, default: 0.6 });
    const unknown = capture();
    expect(await runAgents(['nobody'], unknown.io)).toBe(2);
    expect(unknown.err()).toContain(`unknown archetype 'nobody'; known: ${AGENT_NAMES.join(', ')}`);
    expect(await runAgents(['--bogus'], capture().io)).toBe(2);
    const help = capture();
    expect(await runAgents(['--help'], help.io)).toBe(0);
    expect(help.out()).toContain('usage: afp agents');
  });
});
