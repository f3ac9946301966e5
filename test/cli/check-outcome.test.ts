// How `afp check` ends when its sequences held but findings reach --fail-on: the verdict says
// FAILED with those findings, the seed and a reproduce command that carries --fail-on; --json's
// failure is of kind `findings` (it said `ok:` beside exit 3, failure null, no --fail-on). Pure.
import { describe, expect, test } from 'vitest';
import { checkReproduceCommand } from '../../src/check/dialect/run-dialect-check.ts';
import type { CheckResult } from '../../src/check/run-check.ts';
import { checkRecordFields, formatOutcome } from '../../src/cli/check-outcome.ts';
import { reportChecks, reportFailure } from '../../src/cli/check-reports.ts';

const REPRODUCE = checkReproduceCommand({ targetSpec: 'T.yaml', seed: 3, runs: 10, failOn: 'minor' }, null);

const HELD: CheckResult = {
  ok: true,
  seed: 3,
  runs: 10,
  commandsRun: 137,
  shrinks: 0,
  target: 'afp-serve (T.yaml) through its dialects',
  notes: [],
  reproduce: REPRODUCE,
};

describe('afp check verdict', () => {
  test('the reproduce command carries --fail-on when it is not the default, and not otherwise', () => {
    expect(REPRODUCE).toBe('npx afp check --target T.yaml --seed 3 --runs 10 --fail-on minor');
    expect(checkReproduceCommand({ targetSpec: 'T.yaml', seed: 3, runs: 10, failOn: 'major' }, null)).toBe(
      'npx afp check --target T.yaml --seed 3 --runs 10',
    );
  });

  test('findings at --fail-on: FAILED naming them, the seed and the reproduce command; never ok', () => {
    const verdict = { failOn: 'minor', failing: [{ id: 'rule:escrow:fee' }] };
    const text = formatOutcome(['target: t'], HELD, 40, verdict);
    expect(text).toBe(
      [
        'target: t',
        'FAILED: 1 finding at --fail-on minor or above: rule:escrow:fee (10 runs held the model, at most 40 commands each)',
        'seed: 3',
        `reproduce: ${REPRODUCE}`,
        '',
      ].join('\n'),
    );
    expect(checkRecordFields(HELD, verdict)).toMatchObject({
      failure: { kind: 'findings', findings: ['rule:escrow:fee'], path: null },
      reproduce: REPRODUCE,
    });
  });

  test('no finding at --fail-on: ok, failure null', () => {
    const verdict = { failOn: 'major', failing: [] };
    expect(formatOutcome([], HELD, 40, verdict)).toBe('ok: 10 runs held (at most 40 commands each, 137 sent)\n');
    expect(checkRecordFields(HELD, verdict)['failure']).toBeNull();
    expect(checkRecordFields(HELD, verdict)['commands_run']).toBe(137);
    expect(formatOutcome([], { ...HELD, runs: 1, commandsRun: 3 }, 40)).toBe(
      'ok: 1 run held (at most 40 commands each, 3 sent)\n',
    );
  });

  test('runs that held but sent no command checked nothing: FAILED with the seed, never ok; the reports fail it', () => {
    const empty: CheckResult = { ...HELD, runs: 2, commandsRun: 0 };
    const text = formatOutcome(['target: t'], empty, 40);
    expect(text).toMatch(
      /^target: t\nFAILED: no command was sent in 2 runs, so nothing was checked \(.*\); run more --runs or another --seed\nseed: 3\n$/,
    );
    expect(text).not.toContain('ok:');
    expect(checkRecordFields(empty)).toMatchObject({
      commands_run: 0,
      failure: { kind: 'nothing-sent', commands: [] },
    });
    expect(reportChecks(empty, [])[0]?.status).toBe('fail');
    expect(reportFailure(empty)?.summary).toMatch(/^the check could not run: no command was sent in 2 runs/);
    // Interrupted before any command: said as interrupted, not as nothing sent.
    expect(formatOutcome([], { ...empty, interrupted: true }, 40)).toMatch(/^interrupted: 2 runs held/);
  });

  test("the report's test case of an in-process check: the sequences, pass or fail with the reproduce command", () => {
    expect(reportChecks({ ...HELD, target: 'in-process' }, [])).toEqual([
      {
        name: 'model-based sequences (10 runs, seed 3)',
        group: 'check',
        status: 'pass',
        findingIds: [],
        detail: '10 runs held against in-process',
      },
    ]);
    const failure = {
      kind: 'mismatch' as const,
      counterexample: '',
      commands: [],
      seed: 3,
      path: '1:2@',
      error: 'boom',
      reproduce: 'npx afp check --seed 3 --path 1:2@',
    };
    expect(reportChecks({ ...HELD, ok: false, failure }, [])[0]).toMatchObject({
      status: 'fail',
      detail: 'boom — reproduce: npx afp check --seed 3 --path 1:2@',
    });
  });

  test('the reports carry the failure the exit code gives: the mismatch with its first failure, reproduce and curl; cut short; none when held', () => {
    const failed: CheckResult = {
      ...HELD,
      ok: false,
      failure: {
        kind: 'mismatch',
        counterexample: 'batch(a0) /*replayPath="A"*/',
        commands: ['batch(a0)'],
        seed: 3,
        path: '0:1@A',
        error: 'batch(a0): 40.12, expected 40.11',
        firstError:
          'escrowRelease(escrow#2): the counterparty balance after the release of escrow e1: 0.09, expected 0.10',
        reproduce: 'npx afp check --target T.yaml --seed 3 --path 0:1@A',
        request: { method: 'POST', url: 'http://127.0.0.1:1/api/v1/bets/batch', body: { bets: [] }, auth: true },
      },
    };
    expect(reportFailure(failed)).toEqual({
      summary:
        'an answer differs from the model: batch(a0): 40.12, expected 40.11 (first failure, before shrinking: escrowRelease(escrow#2): the counterparty balance after the release of escrow e1: 0.09, expected 0.10)',
      reproduce: 'npx afp check --target T.yaml --seed 3 --path 0:1@A',
      request:
        "curl -sS -X POST 'http://127.0.0.1:1/api/v1/bets/batch' -H 'Content-Type: application/json' -H \"Authorization: Bearer $AFP_KEY\" --data '{\"bets\":[]}'",
    });
    expect(formatOutcome([], failed, 40)).toContain(
      "curl: curl -sS -X POST 'http://127.0.0.1:1/api/v1/bets/batch' -H 'Content-Type: application/json' -H \"Authorization: Bearer $AFP_KEY\"",
    );
    expect(reportFailure({ ...HELD, interrupted: true })).toEqual({
      summary: 'interrupted: 10 runs held before the check was cut short, so it is not a pass',
      reproduce: REPRODUCE,
    });
    expect(reportFailure(HELD)).toBeNull();
  });
});
