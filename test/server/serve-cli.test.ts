// The real `afp serve` command, spawned as a child process on Node 24: prints the seed, one line
// per mount and `ready`, answers, and exits 0 on SIGTERM after draining. Bad flags exit 2.
import { describe, expect, test } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve-flags.ts';
import { SHED_DEFAULTS } from '../../src/server/load-shedder.ts';
import { runCliChild, type CliRun } from '../fixtures/cli-child.ts';

const runCli = (
  args: readonly string[],
  onReady?: (stdout: string, kill: () => void) => Promise<void>,
): Promise<CliRun> => runCliChild(args, { timeoutMs: 20_000, ...(onReady === undefined ? {} : { onReady }) });

describe('afp serve (CLI)', () => {
  test('prints seed, mounts and ready; answers; exits 0 on SIGTERM', async () => {
    let answered: unknown;
    const run = await runCli(
      ['serve', '--port', '0', '--clock', 'manual', '--seed', '5', '--start', '2025-03-01T00:00:00Z'],
      async (stdout, kill) => {
        const api = /^api: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1];
        const response = await fetch(`${api ?? 'http://invalid'}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"agent_id":"cli-agent"}',
        });
        answered = { status: response.status, body: await response.json() };
        kill();
      },
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe('seed: 5');
    expect(lines.slice(1, 4).map((line) => line.split(': ')[0])).toEqual(['api', 'faucet', 'escrow']);
    expect(lines.at(-1)).toBe('ready');
    expect(answered).toMatchObject({
      status: 201,
      body: { agent_id: 'cli-agent', next_claim: '2025-03-02T00:00:00.000Z' },
    });
  });

  test('bad flags and unknown defects exit 2 with usage and the valid names', async () => {
    const bad = await runCli(['serve', '--port', 'x', '--clock', 'sometimes', '--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown flag --bogus/);
    expect(bad.stderr).toMatch(/--port must be/);
    expect(bad.stderr).toMatch(/--clock must be wall or manual/);
    expect(bad.stderr).toMatch(/usage: afp serve/);
    const defect = await runCli(['serve', '--port', '0', '--defect', 'mint-on-claim', '--defect', 'gremlins']);
    expect(defect.code).toBe(2);
    expect(defect.stderr).toMatch(
      /unknown --defect 'gremlins'; valid: mint-on-claim, escrow-fee-2pct, faucet-cooldown-23h, escrow-release-twice/,
    );
    // A defect the documents dialect never reaches (it acts on the deployed /mcp) was silently inert.
    const inert = await runCli(['serve', '--port', '0', '--defect', 'mcp-release-credits-nobody']);
    expect(inert.code).toBe(2);
    expect(inert.stderr).toContain(
      "--defect mcp-release-credits-nobody acts on afp serve --dialect deployed's MCP doors only: it needs --dialect deployed",
    );
  });
});

describe('parseServeArgs', () => {
  const nowMs = Date.parse('2025-06-01T00:00:00Z');

  test('defaults, repeated --defect, --start with a manual clock', () => {
    expect(parseServeArgs([], nowMs)).toEqual({
      port: 8700,
      seed: '1',
      clockMode: 'wall',
      startMs: undefined,
      defects: [],
      shed: SHED_DEFAULTS,
    });
    expect(
      parseServeArgs(
        [
          '--defect',
          'mint-on-claim',
          '--defect=escrow-fee-2pct',
          '--port=0',
          '--clock',
          'manual',
          '--start',
          '2025-01-01',
        ],
        nowMs,
      ),
    ).toEqual({
      port: 0,
      seed: '1',
      clockMode: 'manual',
      startMs: Date.parse('2025-01-01T00:00:00Z'),
      defects: ['mint-on-claim', 'escrow-fee-2pct'],
      shed: SHED_DEFAULTS,
    });
  });

  test('overload bounds: whole numbers within their limits, 0 disables', () => {
    expect(parseServeArgs(['--max-in-flight', '16', '--max-event-loop-delay-ms=0'], nowMs)).toMatchObject({
      shed: { maxInFlight: 16, maxEventLoopDelayMs: 0 },
    });
    expect(parseServeArgs(['--max-in-flight', '-1', '--max-event-loop-delay-ms', '1e3'], nowMs)).toEqual({
      errors: [
        "--max-in-flight must be a whole number 0..1000000, got '-1'",
        "--max-event-loop-delay-ms must be a whole number 0..600000, got '1e3'",
      ],
    });
  });

  test('every error is reported at once', () => {
    const parsed = parseServeArgs(
      ['--port', '65534', '--seed', '-3', '--start', '2025-01-01', 'extra', '--defect'],
      nowMs,
    );
    expect(parsed).toEqual({
      errors: [
        '--defect needs a value',
        "unexpected argument 'extra'",
        "--port must be 0 or 1..65529 (services use P+1..P+6), got '65534'",
        "--seed must be a non-negative whole number, got '-3'",
        '--start in the past needs --clock manual (the wall clock only moves forward)',
      ],
    });
    expect(parseServeArgs(['--start', '1 Jan 2025'], nowMs)).toEqual({
      errors: ["--start must be an ISO 8601 date or date-time, got '1 Jan 2025'"],
    });
  });
});
