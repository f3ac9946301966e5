// runCheck in-process: the faithful platform holds; each deliberate defect is found, shrunk to a
// short sequence that names the failing command, and replays from its printed seed and path.
import { describe, expect, it } from 'vitest';
import { runCheck, type CheckResult } from '../../src/check/run-check.ts';
import { main as checkEnding } from '../../src/cli/check.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { shellWord } from '../../src/core/shell-words.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(checkEnding);

function failureOf(result: CheckResult): NonNullable<CheckResult['failure']> {
  expect(result.ok).toBe(false);
  const failure = result.failure;
  if (failure === undefined) throw new Error('expected a failure');
  return failure;
}

describe('runCheck in-process', () => {
  it('holds against the faithful platform', async () => {
    const result = await runCheck({ seed: 1, runs: 30 });
    expect(result).toMatchObject({ ok: true, seed: 1, runs: 30, notes: [] });
    expect(result.failure).toBeUndefined();
  });

  const defects: readonly { defect: DefectName; failing: RegExp; error: RegExp }[] = [
    // fundBuyer (the domains row) creates its escrows through createEscrowB itself: the fee is caught there too.
    { defect: 'escrow-fee-2pct', failing: /^(?:createEscrow[AB]|fundBuyer)\(/, error: /body\.fee: expected/ },
    { defect: 'faucet-cooldown-23h', failing: /^(registerB|claimB)\(/, error: /next_claim: expected/ },
    {
      defect: 'escrow-release-twice',
      failing: /^release[AB]\(sender, escrow#\d\)$/,
      error: /status: expected 409 CONFLICT, got 200/,
    },
  ];

  for (const { defect, failing, error } of defects) {
    it(`finds ${defect} and shrinks it to a short sequence naming the failing command`, async () => {
      const failure = failureOf(await runCheck({ seed: 1, runs: 100, defects: [defect] }));
      expect(failure.kind).toBe('mismatch');
      expect(failure.commands.length).toBeGreaterThanOrEqual(1);
      expect(failure.commands.length).toBeLessThanOrEqual(6);
      const last = failure.commands.at(-1) ?? '';
      expect(last).toMatch(failing);
      expect(failure.error.startsWith(last)).toBe(true);
      expect(failure.error).toMatch(error);
      expect(failure.counterexample).toContain('replayPath=');
      expect(failure.reproduce).toBe(`npx afp check --seed 1 --path ${shellWord(failure.path)} --defect ${defect}`);
    });
  }

  it('replays the shrunk case from its seed and path alone', async () => {
    const first = failureOf(await runCheck({ seed: 5, runs: 100, defects: ['escrow-release-twice'] }));
    const replayed = await runCheck({ seed: 5, runs: 100, path: first.path, defects: ['escrow-release-twice'] });
    const again = failureOf(replayed);
    expect(replayed.runs).toBe(1);
    expect(again.commands).toEqual(first.commands);
    expect(again.error).toBe(first.error);
  });

  it('gives the same outcome for the same seed', async () => {
    const a = failureOf(await runCheck({ seed: 9, runs: 50, defects: ['escrow-fee-2pct'] }));
    const b = failureOf(await runCheck({ seed: 9, runs: 50, defects: ['escrow-fee-2pct'] }));
    expect(b).toEqual(a);
  });
});

describe('afp check (CLI, in-process)', () => {
  function capture(): {
    io: { out(text: string): void; err(text: string): void };
    out: () => string;
    err: () => string;
  } {
    let out = '';
    let err = '';
    return { io: { out: (text) => (out += text), err: (text) => (err += text) }, out: () => out, err: () => err };
  }

  it('prints the seed first and exits 0 when every run holds', async () => {
    const { io, out } = capture();
    expect(await main(['--seed', '3', '--runs', '10'], io)).toBe(0);
    expect(out().split('\n')[0]).toBe('seed: 3');
    expect(out()).toMatch(/^ok: 10 runs held/m);
  });

  it('exits 3 with the shrunk sequence, the seed, the path and the reproduce command', async () => {
    const { io, out } = capture();
    expect(await main(['--seed', '1', '--runs', '50', '--defect', 'faucet-cooldown-23h'], io)).toBe(3);
    const text = out();
    expect(text.split('\n')[0]).toBe('seed: 1');
    expect(text).toMatch(/^shrunk command sequence \(\d+ commands; the last one failed\):$/m);
    expect(text).toMatch(/^ {2}1\. register[AB]\(new\)$/m);
    expect(text).toMatch(/^path: \S+@\S*$/m);
    expect(text).toMatch(/^reproduce: npx afp check --seed 1 --path \S+ --defect faucet-cooldown-23h$/m);
    // The path belongs to seed 1's runs: without a seed, or with another, it is bad input (exit 2), not a crash.
    const path = /^path: (\S+)$/m.exec(text)?.[1] ?? '';
    const unseeded = capture();
    expect(await main(['--path', path, '--defect', 'faucet-cooldown-23h'], unseeded.io)).toBe(2);
    expect(unseeded.err()).toContain('--path replays a case of the runs of the seed it was reported with');
    // A path fast-check cannot follow under this seed (its commands' choices run out): exit 2, saying so.
    const foreign = '11:3:3:3:4:1:1@BABBADBCMAAKy:VVB';
    const other = capture();
    expect(await main(['--seed', '1', '--path', foreign], other.io)).toBe(2);
    expect(other.err()).toContain(`--path '${foreign}' is no case of --seed 1's runs`);
  });

  it("says the commands a run had at most; refuses the MCP doors' defects, which nothing in-process calls", async () => {
    const short = capture();
    expect(await main(['--seed', '3', '--runs', '5', '--max-commands', '1'], short.io)).toBe(0);
    expect(short.out()).toMatch(/^ok: 5 runs held \(at most 1 command each, \d+ sent\)$/m);
    const mcp = capture();
    expect(await main(['--seed', '3', '--defect', 'mcp-release-credits-nobody'], mcp.io)).toBe(2);
    expect(mcp.err()).toContain("acts on afp serve --dialect deployed's MCP doors only");
  });

  it('runs that sent no command checked nothing: FAILED with the seed, exit 4, never ok', async () => {
    // Seed 1's one run of at most one command draws no registration, so nothing is sent.
    const result = await runCheck({ seed: 1, runs: 1, maxCommands: 1 });
    expect(result).toMatchObject({ ok: true, commandsRun: 0 });
    const empty = capture();
    expect(await main(['--seed', '1', '--runs', '1', '--max-commands', '1'], empty.io)).toBe(4);
    expect(empty.out()).toMatch(/^FAILED: no command was sent in 1 run, so nothing was checked \(.*\)/m);
    expect(empty.out()).toMatch(/^seed: 1$/m);
    expect(empty.out()).not.toMatch(/^ok:/m);
    const sent = await runCheck({ seed: 3, runs: 1, maxCommands: 1 });
    expect(sent.commandsRun).toBe(1);
  });

  it('reports every invalid flag together and exits 2', async () => {
    const { io, err, out } = capture();
    expect(
      await main(['--seed', 'x', '--runs', '0', '--max-commands', '81', '--defect', 'nope', '--target', 'ftp://x'], io),
    ).toBe(2);
    expect(out()).toBe('');
    for (const needle of ['--seed', '--runs', '--max-commands', "unknown --defect 'nope'", 'must start with http'])
      expect(err()).toContain(needle);
  });
});
