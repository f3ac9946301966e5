// runCheck with the casino's commands, in-process: the faithful casino holds over many seeds and a
// scripted journey through every casino command family; each deliberate casino defect is found,
// shrunk to a short sequence that names the failing command, and replays from its seed and path.
import { describe, expect, it } from 'vitest';
import { inProcessTarget } from '../../../src/check/in-process-target.ts';
import { runCheck, type CheckResult } from '../../../src/check/run-check.ts';
import { main as checkEnding } from '../../../src/cli/check.ts';
import type { DefectName } from '../../../src/services/shared/context.ts';
import { shellWord } from '../../../src/core/shell-words.ts';
import { casinoJourney, runJourney } from './casino-journey.ts';
import { coded } from '../../cli/ending-code.ts';

const main = coded(checkEnding);

function failureOf(result: CheckResult): NonNullable<CheckResult['failure']> {
  expect(result.ok).toBe(false);
  const failure = result.failure;
  if (failure === undefined) throw new Error('expected a failure');
  return failure;
}

describe('the casino check against the faithful casino', () => {
  it('holds over many seeds', async () => {
    for (const seed of [11, 12, 13, 14, 15, 16, 17, 18]) {
      const result = await runCheck({ seed, runs: 80 });
      expect(result.failure?.error, `seed ${seed}`).toBeUndefined();
      expect(result.ok).toBe(true);
    }
    // Long: since the trading rows joined the table, runs hold open positions, and the in-process
    // platform ticks them every simulated minute through long advance-time steps (7 s → 27–42 s here).
    // 600 s is a bound on a hang, not a budget: CPU-bound, it took 255 s on a 2-core machine at load 14.
  }, 600_000);

  it('holds through a scripted journey: challenges, rotations, a tournament with prizes, a deposit and a reviewed withdrawal', async () => {
    const run = await inProcessTarget({ seed: 3 }).newRun();
    expect(await runJourney(run, casinoJourney({ deposits: true }))).toEqual([]);
    const casino = run.model.casino;
    expect(casino.challenges.map((challenge) => challenge.status)).toEqual(['resolved', 'resolved', 'declined']);
    expect(casino.challenges.every((challenge) => challenge.draw === null || challenge.draw.seed.revealed)).toBe(true);
    const tournament = casino.tournaments[0];
    expect(tournament?.completedAtMs).toBe(tournament?.endsAtMs);
    expect(tournament?.prizes.map((prize) => prize.amountMicro)).toEqual([1_500_000n, 750_000n, 250_000n]);
    expect(
      casino.withdrawals.map((withdrawal) => withdrawal.completedAtMs !== null && withdrawal.reviewEndsAtMs !== null),
    ).toEqual([true]);
    expect(casino.bets.filter((bet) => bet.seed.revealed).length).toBeGreaterThanOrEqual(4);
  });
});

describe('the casino check finds every deliberate casino defect', () => {
  const defects: readonly { defect: DefectName; failing: RegExp; error: RegExp }[] = [
    {
      defect: 'casino-payout-short',
      failing: /^(betA|betB|batch|playTournament)\(/,
      error: /(payout_multiplier|payout): expected .*multiplier/,
    },
    {
      defect: 'casino-biased-draw',
      failing: /^rotate\(a\d\)$/,
      error: /then replaying the revealed seed.*the revealed seed gives/,
    },
    {
      defect: 'casino-replayable-nonce',
      failing: /^(betA|betB|batch|playTournament)\(/,
      error: /nonce: expected [1-9]\d*, got \d+/,
    },
    {
      defect: 'casino-skip-balance-check',
      failing: /^(betA|betB|batch|playTournament|withdraw)\(/,
      error: /(status: expected (422 INSUFFICIENT_BALANCE|400 BAD_REQUEST), got 200|ok: expected false, got true)/,
    },
    {
      defect: 'casino-keno-8',
      failing: /^(betA|batch)\(.*keno/,
      error: /expected 20 distinct numbers from 1 to 80 drawn/,
    },
  ];

  for (const { defect, failing, error } of defects) {
    it(`finds ${defect} and shrinks it to a short sequence naming the failing command`, async () => {
      const failure = failureOf(await runCheck({ seed: 1, runs: 200, defects: [defect] }));
      expect(failure.kind).toBe('mismatch');
      expect(failure.commands.length).toBeLessThanOrEqual(6);
      const last = failure.commands.at(-1) ?? '';
      expect(last).toMatch(failing);
      expect(failure.error.startsWith(last)).toBe(true);
      expect(failure.error).toMatch(error);
      expect(failure.reproduce).toBe(`npx afp check --seed 1 --path ${shellWord(failure.path)} --defect ${defect}`);
    });
  }

  it('replays a shrunk casino failure from its seed and path alone', async () => {
    const first = failureOf(await runCheck({ seed: 2, runs: 200, defects: ['casino-biased-draw'] }));
    const replayed = await runCheck({ seed: 2, runs: 200, path: first.path, defects: ['casino-biased-draw'] });
    expect(replayed.runs).toBe(1);
    expect(failureOf(replayed).commands).toEqual(first.commands);
  });

  it('exits 3 from the CLI with the shrunk sequence and the reproduce command', async () => {
    let out = '';
    const code = await main(['--seed', '4', '--runs', '200', '--defect', 'casino-keno-8'], {
      out: (text) => (out += text),
      err: () => undefined,
    });
    expect(code).toBe(3);
    expect(out.split('\n')[0]).toBe('seed: 4');
    expect(out).toMatch(/^ {2}\d\. betA\(a\d, keno \[[\d,]+\]/m);
    expect(out).toMatch(/^reproduce: npx afp check --seed 4 --path \S+ --defect casino-keno-8$/m);
  });
});
