// The casino's referral commission in afp's own platform follows the documents (platform.md §6,
// casino.md "Referral"): referrers earn 10%, 5% and 2.5% of the referred agent's NET losses, so
// commission accrues only as the agent's cumulative net loss rises above its previous high. A
// per-losing-stake rule (the deployment's, DEPLOYED.md §2.9) pays on every lost bet even when the
// agent is ahead; this test plays a seeded run of coin flips where the two rules differ and checks
// every level against the high-water mark recomputed from the bets themselves.
import { describe, expect, test } from 'vitest';
import { usdc, type Micro } from '../../../src/core/money.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { coinFlip } from '../../../src/services/casino/games/coin-flip.ts';
import { addAgent } from '../../fixtures/agents.ts';

const START_MS = Date.parse('2026-01-01T00:00:00Z');
const LEVELS_BPS = [1_000n, 500n, 250n] as const;

describe('casino referral on net losses', () => {
  test('three levels are paid on the high-water mark of net losses, never per losing stake', () => {
    const platform = new Platform({ seed: 'referral-net-losses', startMs: START_MS });
    addAgent(platform, 'r3', { createdAtMs: START_MS });
    addAgent(platform, 'r2', { referrerId: 'r3', createdAtMs: START_MS });
    addAgent(platform, 'r1', { referrerId: 'r2', createdAtMs: START_MS });
    addAgent(platform, 'a', { referrerId: 'r1', fundMicro: usdc(1_000), createdAtMs: START_MS });
    let netLossMicro: Micro = 0n;
    let highWaterMicro: Micro = 0n;
    let lostStakesMicro: Micro = 0n;
    let recoveredAfterLoss = false;
    for (let index = 0; index < 60; index++) {
      const placed = platform.casino.bet(
        {
          agentId: 'a',
          game: coinFlip,
          params: { side: 'heads' },
          paramsJson: { side: 'heads' },
          amountMicro: usdc(1),
          clientSeed: null,
          source: 'A',
        },
        START_MS + index,
      );
      if (!placed.ok) throw new Error(JSON.stringify(placed));
      const { amountMicro, payoutMicro } = placed.value;
      netLossMicro += amountMicro - payoutMicro;
      if (payoutMicro === 0n) lostStakesMicro += amountMicro;
      else if (highWaterMicro > 0n) recoveredAfterLoss = true;
      if (netLossMicro > highWaterMicro) highWaterMicro = netLossMicro;
    }
    // The seeded run has wins after losses, so the two rules must differ for the test to mean anything.
    expect(recoveredAfterLoss).toBe(true);
    expect(highWaterMicro).toBeLessThan(lostStakesMicro);
    const referrers = ['r1', 'r2', 'r3'];
    referrers.forEach((referrer, level) => {
      const earned = platform.casino.state.commissions.earnedBy(referrer);
      const dueMicro = (highWaterMicro * LEVELS_BPS[level]!) / 10_000n;
      expect(earned[level], `${referrer} at level ${level + 1}`).toBe(dueMicro);
      expect(earned[level]!).toBeLessThan((lostStakesMicro * LEVELS_BPS[level]!) / 10_000n);
    });
  });
});
