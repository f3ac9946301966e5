// --fail-on: parsing (default major, every severity and none, a bad value a clear message) and the
// exit code it gives a list of findings (3 when one reaches the threshold, never with none).
import { describe, expect, test } from 'vitest';
import { EXIT } from '../../../src/core/exit-codes.ts';
import { SEVERITIES, type Severity } from '../../../src/report/findings/finding.ts';
import { findingsEnding, parseFailOn } from '../../../src/report/findings/fail-on.ts';

describe('parseFailOn', () => {
  test('absent is major; every severity and none are accepted', () => {
    expect(parseFailOn(undefined)).toEqual({ ok: true, value: 'major' });
    for (const value of [...SEVERITIES, 'none'] as const) expect(parseFailOn(value)).toEqual({ ok: true, value });
    expect(parseFailOn(' minor ')).toEqual({ ok: true, value: 'minor' });
  });

  test('a bad value is a message naming what it got and every accepted value', () => {
    for (const bad of ['', 'MAJOR', 'high', 'major,critical']) {
      expect(parseFailOn(bad)).toEqual({
        ok: false,
        message: `--fail-on must be one of info, minor, major, critical, none (got ${JSON.stringify(bad)})`,
      });
    }
  });
});

describe('findingsEnding', () => {
  const of = (...severities: Severity[]): { severity: Severity }[] => severities.map((severity) => ({ severity }));

  test('3 when a finding reaches the threshold, 0 otherwise', () => {
    expect(findingsEnding(of('info', 'minor'), 'major').exitCode).toBe(EXIT.ok);
    expect(findingsEnding(of('info', 'major'), 'major').exitCode).toBe(EXIT.checkFailed);
    expect(findingsEnding(of('critical'), 'major').exitCode).toBe(EXIT.checkFailed);
    expect(findingsEnding(of('info'), 'info').exitCode).toBe(EXIT.checkFailed);
    expect(findingsEnding(of('major'), 'critical').exitCode).toBe(EXIT.ok);
    expect(findingsEnding([], 'info').exitCode).toBe(EXIT.ok);
  });

  test('none never fails', () => {
    expect(findingsEnding(of('critical', 'critical'), 'none').exitCode).toBe(EXIT.ok);
  });
});
