// The command table (src/cli/commands.ts) is well formed, and the defaults its definitions show
// (in --help and the README) are the values the commands use: a default changed in one place and
// not the other fails here.
import { describe, expect, test } from 'vitest';
import { helpText, usageLine } from '../../src/cli/command-definition.ts';
import { COMMANDS } from '../../src/cli/command-modules.ts';
import { definitionOf } from '../../src/cli/commands.ts';
import {
  BETS_DEFAULT,
  CONCURRENCY_DEFAULT,
  LIVE_BETS_DEFAULT,
  MAX_SECONDS_DEFAULT,
} from '../../src/cli/audit-house-edge.ts';
import { MAX_COMMANDS } from '../../src/check/command-table.ts';
import { RUNS_DEFAULT } from '../../src/check/options.ts';
import { AUTOCANNON_LIMITS } from '../../src/load/autocannon-engine.ts';
import { FAIRNESS_BETS_DEFAULT } from '../../src/audit/options.ts';
import { PROBE_TIMEOUT_MS } from '../../src/live/probe/probe-url.ts';
import { DEFAULT_FAIL_ON } from '../../src/report/findings/fail-on.ts';
import { CHECKPOINT_EVERY_COMMANDS } from '../../src/server/checkpoints.ts';
import { DEFAULT_PORT } from '../../src/server/listeners.ts';
import { SHED_DEFAULTS } from '../../src/server/load-shedder.ts';

const defaultOf = (path: readonly string[], name: string): string | undefined =>
  definitionOf(...path).flags.find((flag) => flag.name === name)?.default;

describe('the command table', () => {
  test('paths are unique; within a command, long and short flag names are unique and help is not redefined', () => {
    const paths = COMMANDS.map((row) => row.definition.path.join(' '));
    expect(new Set(paths).size).toBe(paths.length);
    for (const { definition } of COMMANDS) {
      const names = definition.flags.map((flag) => flag.name);
      const shorts = definition.flags.flatMap((flag) => (flag.short === undefined ? [] : [flag.short]));
      expect(new Set(names).size, definition.path.join(' ')).toBe(names.length);
      expect(new Set(shorts).size, definition.path.join(' ')).toBe(shorts.length);
      expect(names).not.toContain('help');
      expect(shorts).not.toContain('h');
      expect(definition.summary.length, definition.path.join(' ')).toBeLessThanOrEqual(100);
      // A verdict's JSON fields need the flag; a listing (afp agents) has --json without a verdict object.
      if (definition.json !== undefined)
        expect(names, `${definition.path.join(' ')}: --json fields without the flag`).toContain('json');
    }
  });

  test('the commands that print a verdict all take --json', () => {
    for (const path of [
      ['run'],
      ['check'],
      ['replay'],
      ['audit', 'house-edge'],
      ['audit', 'money'],
      ['audit', 'fairness'],
      ['load'],
      ['target', 'probe'],
    ]) {
      expect(
        definitionOf(...path).flags.map((flag) => flag.name),
        path.join(' '),
      ).toContain('json');
    }
  });

  test('usage and help are generated from the definition', () => {
    const probe = definitionOf('target', 'probe');
    expect(usageLine(probe)).toBe(
      'afp target probe URL... [--out FILE] [--force] [--timeout-ms N] [--max-seconds S] [--max-body-mb MB] [--json]',
    );
    expect(helpText(probe)).toContain('  -h, --help ');
    expect(helpText(probe)).toMatch(/^exit codes: 0 ok · 1 crash \(a bug\) · 2 invalid input · 4 liveness/m);
  });

  test('the defaults shown are the values used', () => {
    expect(defaultOf(['serve'], 'port')).toBe(String(DEFAULT_PORT));
    expect(defaultOf(['serve'], 'checkpoint-every')).toBe(String(CHECKPOINT_EVERY_COMMANDS));
    expect(defaultOf(['serve'], 'max-in-flight')).toBe(String(SHED_DEFAULTS.maxInFlight));
    expect(defaultOf(['serve'], 'max-event-loop-delay-ms')).toBe(String(SHED_DEFAULTS.maxEventLoopDelayMs));
    expect(defaultOf(['check'], 'runs')).toBe(String(RUNS_DEFAULT));
    expect(defaultOf(['check'], 'max-commands')).toBe(String(MAX_COMMANDS));
    expect(defaultOf(['audit', 'house-edge'], 'bets')).toBe(`${BETS_DEFAULT} in-process, ${LIVE_BETS_DEFAULT} live`);
    expect(defaultOf(['audit', 'house-edge'], 'max-seconds')).toBe(String(MAX_SECONDS_DEFAULT));
    expect(defaultOf(['audit', 'house-edge'], 'concurrency')).toBe(String(CONCURRENCY_DEFAULT));
    expect(defaultOf(['audit', 'fairness'], 'max-bets')).toBe(String(FAIRNESS_BETS_DEFAULT));
    expect(defaultOf(['audit', 'money'], 'fail-on')).toBe(DEFAULT_FAIL_ON);
    expect(defaultOf(['target', 'probe'], 'timeout-ms')).toBe(String(PROBE_TIMEOUT_MS));
    expect(defaultOf(['load'], 'connections')).toBe(String(AUTOCANNON_LIMITS.connections.default));
    expect(defaultOf(['load'], 'timeout')).toBe(`${AUTOCANNON_LIMITS.timeoutMs.default / 1000}s`);
  });
});
