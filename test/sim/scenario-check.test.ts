// Semantic checks of scenario files (src/scenario/scenario-check.ts) through parseScenario with the
// real archetypes: a settlement mix that does not sum to 1, a buyer without sellers, a challenger
// alone, a referrer nobody can be — each an error with its path and line, all at once, and the
// shipped scenarios pass. `afp run` exits 2 on them before anything runs (test/cli/run.test.ts
// shows the exit path; here one child run proves the semantic errors take it).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import { parseScenario, type ScenarioError } from '../../src/scenario/scenario.ts';

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'afp-scenario-check-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function errorsOf(text: string): readonly ScenarioError[] {
  const result = parseScenario(text, {
    fileName: 'test.yaml',
    agentParams: (agent) => AGENTS[agent]?.params,
    knownAgents: AGENT_NAMES,
  });
  return result.ok ? [] : result.errors;
}

const HEAD = 'name: semantic\nduration: 1d\npopulations:\n';

describe('semantic checks', () => {
  test('escrow-buyer chances that sum to 3.6: one error at params, each value named, defaults marked', () => {
    const errors = errorsOf(
      `${HEAD}  - { agent: escrow-seller, count: 2 }\n  - agent: escrow-buyer\n    count: 3\n    params: { release: 1, refund: 1, dispute: 1, let_expire: 0.6 }\n`,
    );
    expect(errors).toEqual([
      {
        path: 'populations[1].params',
        line: 7,
        message:
          "release, refund, dispute, let_expire are the chances of one escrow's settlement and must sum to 1; they sum to 3.6 (release 1, refund 1, dispute 1, let_expire 0.6)",
      },
    ]);
    const partial = errorsOf(
      `${HEAD}  - { agent: escrow-seller, count: 2 }\n  - { agent: escrow-buyer, count: 3, params: { dispute: 0.3 } }\n`,
    );
    expect(partial[0]?.message).toContain(
      'they sum to 1.25 (release 0.6 (default), refund 0.1 (default), dispute 0.3, let_expire 0.25 (default))',
    );
  });

  test('a sum under 1 is refused too; exactly 1 passes', () => {
    expect(
      errorsOf(
        `${HEAD}  - { agent: escrow-seller, count: 2 }\n  - { agent: escrow-buyer, count: 3, params: { release: 0.2, refund: 0, dispute: 0, let_expire: 0.2 } }\n`,
      )[0]?.message,
    ).toContain('they sum to 0.4');
    expect(
      errorsOf(
        `${HEAD}  - { agent: escrow-seller, count: 2 }\n  - { agent: escrow-buyer, count: 3, params: { release: 0.2, refund: 0.2, dispute: 0.4, let_expire: 0.2 } }\n`,
      ),
    ).toEqual([]);
  });

  test('escrow buyers without sellers: an error at the agent (default counterparty) or at the key written', () => {
    expect(errorsOf(`${HEAD}  - { agent: escrow-buyer, count: 3 }\n`)).toEqual([
      {
        path: 'populations[0].agent',
        line: 4,
        message:
          "escrow-buyer needs agents of its counterparty 'escrow-seller' (the default) to receive its escrows, but the scenario has no population of agent 'escrow-seller'",
      },
    ]);
    const named = errorsOf(
      `${HEAD}  - { agent: escrow-seller, count: 2 }\n  - agent: escrow-buyer\n    count: 3\n    params:\n      counterparty: faucet-farmer\n`,
    );
    expect(named).toEqual([
      {
        path: 'populations[1].params.counterparty',
        line: 8,
        message:
          "escrow-buyer needs agents of its counterparty 'faucet-farmer' to receive its escrows, but the scenario has no population of agent 'faucet-farmer'",
      },
    ]);
    expect(errorsOf(`${HEAD}  - { agent: escrow-buyer, count: 2, params: { counterparty: escrow-buyer } }\n`)).toEqual(
      [],
    );
  });

  test('a lone challenger, and a batch bettor referred by nobody; referred 0 needs no referrer', () => {
    expect(errorsOf(`${HEAD}  - { agent: challenger, count: 1 }\n`)[0]?.message).toBe(
      "challenger needs agents of its target 'challenger' (the default) to be challenged, but the scenario has no other agent of archetype 'challenger' (a population of one never finds a peer)",
    );
    expect(
      errorsOf(`${HEAD}  - { agent: batch-bettor, count: 2, params: { referred: 0.5, referrer: kelly-bettor } }\n`)[0]
        ?.path,
    ).toBe('populations[0].params.referrer');
    expect(errorsOf(`${HEAD}  - { agent: batch-bettor, count: 1 }\n`)).toEqual([]);
  });

  test('semantic errors come with the schema errors, all at once, sorted by line', () => {
    const errors = errorsOf(
      `${HEAD}  - { agent: escrow-buyer, count: 3, params: { release: 1 } }\n  - { agent: faucet-farmer, count: 0 }\n`,
    );
    expect(errors.map((error) => [error.line, error.path])).toEqual([
      [4, 'populations[0].agent'],
      [4, 'populations[0].params'],
      [5, 'populations[1].count'],
    ]);
  });

  test('every shipped scenario passes the checks', () => {
    const files = readdirSync(join(root, 'scenarios')).filter((name) => name.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(3);
    for (const name of files) expect(errorsOf(readFileSync(join(root, 'scenarios', name), 'utf8')), name).toEqual([]);
  });

  test('afp run exits 2 on them, listing path and reason, and writes nothing', () => {
    const file = join(work, 'mix.yaml');
    writeFileSync(
      file,
      `${HEAD}  - agent: escrow-buyer\n    count: 3\n    params: { release: 1, refund: 1, dispute: 1, let_expire: 0.6 }\n`,
    );
    const ran = spawnSync(process.execPath, [join(root, 'src/cli/main.ts'), 'run', file], {
      cwd: work,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toContain(
      `${file}:4 populations[0].agent: escrow-buyer needs agents of its counterparty 'escrow-seller'`,
    );
    expect(ran.stderr).toContain(
      `${file}:6 populations[0].params: release, refund, dispute, let_expire are the chances of one escrow's settlement and must sum to 1; they sum to 3.6`,
    );
    expect(readdirSync(work).sort()).toEqual(['mix.yaml']);
  });
});
