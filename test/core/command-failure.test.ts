// A failure carries its exit code from where it arises (src/core/command-failure.ts): each named
// ending has the code docs/design.md's table gives its cause, a run that did not finish is no pass,
// and a report that cannot be written is a failure of its own kind (exit 2), caught as any other.
import { describe, expect, test } from 'vitest';
import {
  accountRefused,
  checkFailed,
  CommandFailure,
  crashed,
  invalidInput,
  isInvalidInput,
  PASSED,
  passed,
  thresholdFailed,
  unlessUnfinished,
  unresolvedTarget,
  unsettled,
} from '../../src/core/command-failure.ts';
import { EXIT } from '../../src/core/exit-codes.ts';
import { OutputWriteError } from '../../src/core/output-write-error.ts';

describe('endings and their codes', () => {
  test('each named failure carries the code of its cause, with its message and hint', () => {
    expect(PASSED.exitCode).toBe(EXIT.ok);
    expect(crashed().exitCode).toBe(EXIT.crash);
    expect(invalidInput().exitCode).toBe(EXIT.invalidInput);
    expect(checkFailed().exitCode).toBe(EXIT.checkFailed);
    expect(unsettled().exitCode).toBe(EXIT.liveness);
    expect(thresholdFailed().exitCode).toBe(EXIT.loadThreshold);
    const refused = invalidInput('afp run: --seed is empty', 'usage: afp run FILE');
    expect(refused).toBeInstanceOf(CommandFailure);
    expect(refused.message).toBe('afp run: --seed is empty');
    expect(refused.hint).toBe('usage: afp run FILE');
    expect(unsettled().message).toBe('');
  });

  test('a target that did not answer or would not set up the run is liveness in every command; a wrong one is input', () => {
    expect(unresolvedTarget('invalid').exitCode).toBe(EXIT.invalidInput);
    expect(unresolvedTarget('trouble', 'afp load: no answer').exitCode).toBe(EXIT.liveness);
    expect(accountRefused('invalid').exitCode).toBe(EXIT.invalidInput);
    for (const kind of ['trouble', 'deadline', 'unreachable'] as const)
      expect(accountRefused(kind).exitCode).toBe(EXIT.liveness);
  });

  test('a run that did not finish is no pass; a failed verdict stands', () => {
    expect(unlessUnfinished(PASSED, false)).toBe(PASSED);
    expect(unlessUnfinished(PASSED, true).exitCode).toBe(EXIT.liveness);
    const failed = checkFailed();
    expect(unlessUnfinished(failed, true)).toBe(failed);
    expect(passed(PASSED)).toBe(true);
    expect(passed(failed)).toBe(false);
  });

  test('invalid input is told by its ending or by its code', () => {
    expect(isInvalidInput(2)).toBe(true);
    expect(isInvalidInput(invalidInput())).toBe(true);
    expect(isInvalidInput(PASSED)).toBe(false);
  });

  test('a report that cannot be written is invalid input naming the path', () => {
    const error = new OutputWriteError('out/x.csv', Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
    expect(error).toBeInstanceOf(CommandFailure);
    expect(error.exitCode).toBe(EXIT.invalidInput);
    expect(error.message).toBe('cannot write out/x.csv: it is a directory (EISDIR)');
  });
});
