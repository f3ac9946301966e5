// Ctrl-C on `afp check` (replay-path.ts's stop plugin, check.ts): no run starts once the stop is
// aborted, the run in flight finishes, and the result says how many runs held and that the check
// was cut short (exit 4 at the command line, never the pass a finished check is). Before, Node's
// default ended the process with nothing printed.
import { describe, expect, test } from 'vitest';
import { runCheck } from '../../src/check/run-check.ts';
import { formatResult } from '../../src/cli/check-runs.ts';
import { interruptCliChild } from '../fixtures/cli-child.ts';

describe('afp check, interrupted', () => {
  test('runCheck stops after the run in flight: the runs so far, interrupted, no failure', async () => {
    const stop = new AbortController();
    let runs = 0;
    const result = await runCheck({
      seed: 42,
      runs: 1_000,
      stop: { signal: stop.signal, pause: async () => {} },
      onRun: () => {
        runs += 1;
        if (runs === 3) stop.abort();
      },
    });
    expect(result).toMatchObject({ runs: 3, interrupted: true });
    expect(result.failure).toBeUndefined();
    expect(formatResult(result)).toContain(
      `interrupted: 3 runs held (at most 116 commands each, ${result.commandsRun} sent) before the check was cut short, so it is not a pass`,
    );
    const whole = await runCheck({
      seed: 42,
      runs: 3,
      stop: { signal: new AbortController().signal, pause: async () => {} },
    });
    expect(whole.interrupted).toBeUndefined();
  });

  test('SIGINT at the command line: the runs so far are reported, exit 4, --json says interrupted', async () => {
    const ran = await interruptCliChild(['check', '--seed', '42', '--runs', '100000', '--json'], {
      ready: ({ stderr }) => stderr.includes('seed: 42'),
      afterMs: 1_000,
      signal: 'SIGINT',
    });
    expect(ran.code, ran.stderr).toBe(4);
    expect(ran.stderr).toContain('afp check: interrupted: finishing the run in flight');
    expect(ran.stderr).toMatch(/interrupted: \d+ runs? held .* so it is not a pass/);
    expect(JSON.parse(ran.stdout)).toMatchObject({ command: 'afp check', verdict: 'liveness', interrupted: true });
  });
});
