// The plan and ETA the live house-edge audit prints before its first bet (src/audit/live/edge-eta.ts):
// the calls the bets take (batches of 20 and, where single bets have their own pace, a share of the
// bets alone; video-poker hands; a rotation per phase of 200),
// the limits it paces under, and the time those limits give — exact arithmetic on the pacing slots
// LiveSession keeps (60 s / N + 1 ms per call).
import { describe, expect, test } from 'vitest';
import { groupBets, sentAlone, singleBetShare } from '../../../src/audit/live/edge-calls.ts';
import { auditEta } from '../../../src/audit/live/edge-eta.ts';
import { planVariants } from '../../../src/audit/live/edge-plan.ts';
import { AFP_SCHEME } from '../../../src/audit/fairness/afp-scheme.ts';

const DEPLOYED_LIMITS = {
  'casino.bet': { perMinute: 60 },
  'casino.deal': { perMinute: 60 },
  'casino.draw': { perMinute: 60 },
  'casino.batch': { perMinute: 10 },
};

describe('the live house-edge plan and ETA', () => {
  test('2,000 coin flips at 60 single bets and 10 batches of 20 a minute: both paces at once, about 9 minutes', () => {
    const eta = auditEta({
      plan: planVariants(AFP_SCHEME, ['coin_flip']),
      bets: 2_000,
      batched: true,
      limits: DEPLOYED_LIMITS,
      maxSeconds: 3_600,
    });
    // Singles take 45 of the 60 a minute (room for video poker's deal and draw): 45 / (45 + 200) of the bets.
    expect(singleBetShare(DEPLOYED_LIMITS)).toBe(45 / 245);
    expect(eta.calls).toEqual({
      'casino.balance': 2,
      'casino.rotate': 10,
      'casino.seeds': 10,
      'casino.batch': 90,
      'casino.bet': 367,
    });
    expect((eta.calls['casino.bet'] ?? 0) + 20 * 90).toBeGreaterThanOrEqual(2_000);
    // Each phase of 200: 9 batches (9 × 6,001 ms) outlast its 36 or 37 singles (× 1,001 ms).
    expect(eta.pacedMs).toBe(90 * 6_001);
    expect(eta.slowest).toBe('casino.batch');
    expect(eta.lines).toEqual([
      'plan: 2000 bets, 2000 per game variant (1 variants) · paced under casino.batch 10/min, casino.bet 60/min',
      'plan: 90 casino.batch, 367 casino.bet, 10 casino.rotate, 10 casino.seeds (batches of up to 20)',
      'eta: about 9.0 minutes (casino.batch at 10/min paces it most)',
    ]);
    // Batches alone (no pace for single bets): 100 batches, 10 minutes.
    const batchesOnly = auditEta({
      plan: planVariants(AFP_SCHEME, ['coin_flip']),
      bets: 2_000,
      batched: true,
      limits: { 'casino.batch': { perMinute: 10 } },
      maxSeconds: 3_600,
    });
    expect([batchesOnly.calls['casino.batch'], batchesOnly.calls['casino.bet'], batchesOnly.pacedMs]).toEqual([
      100,
      undefined,
      100 * 6_001,
    ]);
  });

  test('bets sent alone are spread evenly; batches fill past them in index order', () => {
    const alone = Array.from({ length: 20 }, (_, index) => index).filter((index) => sentAlone(index, 0.25));
    expect(alone).toEqual([3, 7, 11, 15, 19]);
    expect(groupBets(0, 12, (index) => index % 4 === 3)).toEqual([[0, 1, 2, 4, 5, 6, 8, 9, 10], [3], [7], [11]]);
    expect(groupBets(0, 45, () => false).map((group) => group.length)).toEqual([20, 20, 5]);
  });

  test('without a batch every bet is a single call: 2,000 at 60 a minute is about 33 minutes, and a 10-minute budget ends it first', () => {
    const eta = auditEta({
      plan: planVariants(AFP_SCHEME, ['coin_flip', 'dice']),
      bets: 2_000,
      batched: false,
      limits: DEPLOYED_LIMITS,
      maxSeconds: 600,
    });
    expect(eta.calls['casino.bet']).toBe(2_000);
    expect(eta.pacedMs).toBe(2_000 * 1_001);
    expect(eta.lines[0]).toBe('plan: 2000 bets, 500 per game variant (4 variants) · paced under casino.bet 60/min');
    expect(eta.lines.slice(2)).toEqual([
      'eta: about 33.4 minutes (casino.bet at 60/min paces it most)',
      'eta: the time budget (10.0 minutes) ends the betting first; raise --max-minutes or lower --bets to place them all',
    ]);
  });

  test('video poker is a deal and a draw, never in a batch; unequal shares are a range; no limits is no ETA', () => {
    const plan = planVariants(AFP_SCHEME, ['video_poker', 'coin_flip']);
    const eta = auditEta({ plan, bets: 101, batched: true, limits: DEPLOYED_LIMITS, maxSeconds: 3_600 });
    const hands = Array.from({ length: 101 }, (_, index) => plan[index % plan.length]?.game).filter(
      (game) => game === 'video_poker',
    ).length;
    expect([eta.calls['casino.deal'], eta.calls['casino.draw']]).toEqual([hands, hands]);
    expect(eta.lines[0]).toBe(
      'plan: 101 bets, 50–51 per game variant (2 variants) · paced under casino.batch 10/min, casino.bet 60/min, casino.deal 60/min, casino.draw 60/min',
    );
    expect(eta.lines[2]).toBe('eta: about 50 s (casino.deal at 60/min paces it most)');
    // The deployment counts bet, deal and draw in one bucket: paced as one, the plan says so, and the
    // hands' 102 calls (and the bets sent alone) queue behind each other.
    const shared = { perMinute: 60, bucket: 'games' };
    const bucketed = auditEta({
      plan,
      bets: 101,
      batched: true,
      limits: { ...DEPLOYED_LIMITS, 'casino.bet': shared, 'casino.deal': shared, 'casino.draw': shared },
      maxSeconds: 3_600,
    });
    expect(bucketed.lines[0]).toBe(
      'plan: 101 bets, 50–51 per game variant (2 variants) · paced under casino.batch 10/min, casino.bet + casino.deal + casino.draw 60/min together (bucket games)',
    );
    // 50 hands (a deal and a draw each) and 9 coin flips alone: 109 calls 1,001 ms apart (apart, 50 s).
    expect([hands, bucketed.calls['casino.bet']]).toEqual([50, 9]);
    expect(bucketed.pacedMs).toBe(109 * 1_001);
    expect(bucketed.lines[2]).toBe('eta: about 1.8 minutes (bucket games at 60/min paces it most)');
    const free = auditEta({ plan, bets: 101, batched: true, limits: {}, maxSeconds: 60 });
    expect(free.slowest).toBeNull();
    expect(free.lines.at(-1)).toBe('eta: not paced: as fast as the target answers');
  });
});
