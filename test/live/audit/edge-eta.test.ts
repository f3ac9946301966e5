// The plan and ETA the live house-edge audit prints before its first bet (src/live/audit/edge-eta.ts):
// the calls the bets take (batches of 20, single bets, video-poker hands, a rotation per phase of 200),
// the limits it paces under, and the time those limits give — exact arithmetic on the pacing slots
// LiveSession keeps (60 s / N + 1 ms per call).
import { describe, expect, test } from 'vitest';
import { auditEta } from '../../../src/live/audit/edge-eta.ts';
import { planVariants } from '../../../src/live/audit/edge-plan.ts';
import { AFP_SCHEME } from '../../../src/live/fairness/afp-scheme.ts';

const DEPLOYED_LIMITS = { 'casino.bet': { perMinute: 60 }, 'casino.deal': { perMinute: 60 }, 'casino.draw': { perMinute: 60 }, 'casino.batch': { perMinute: 10 } };

describe('the live house-edge plan and ETA', () => {
  test('2,000 coin flips in batches of 20 at 10 batches a minute: 100 batches, 10 phases, about 10 minutes', () => {
    const eta = auditEta({ plan: planVariants(AFP_SCHEME, ['coin_flip']), bets: 2_000, batched: true, limits: DEPLOYED_LIMITS, maxSeconds: 3_600 });
    expect(eta.calls).toEqual({ 'casino.balance': 2, 'casino.rotate': 10, 'casino.seeds': 10, 'casino.batch': 100 });
    expect(eta.pacedMs).toBe(100 * 6_001);
    expect(eta.slowest).toBe('casino.batch');
    expect(eta.lines).toEqual([
      'plan: 2000 bets, 2000 per game variant (1 variants) · paced under casino.batch 10/min',
      'plan: 100 casino.batch, 10 casino.rotate, 10 casino.seeds (batches of up to 20)',
      'eta: about 10.0 minutes (casino.batch at 10/min paces it most)',
    ]);
  });

  test('without a batch every bet is a single call: 2,000 at 60 a minute is about 33 minutes, and a 10-minute budget ends it first', () => {
    const eta = auditEta({ plan: planVariants(AFP_SCHEME, ['coin_flip', 'dice']), bets: 2_000, batched: false, limits: DEPLOYED_LIMITS, maxSeconds: 600 });
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
    const hands = Array.from({ length: 101 }, (_, index) => plan[index % plan.length]?.game).filter((game) => game === 'video_poker').length;
    expect([eta.calls['casino.deal'], eta.calls['casino.draw']]).toEqual([hands, hands]);
    expect(eta.lines[0]).toBe(`plan: 101 bets, 50–51 per game variant (2 variants) · paced under casino.batch 10/min, casino.deal 60/min, casino.draw 60/min`);
    const free = auditEta({ plan, bets: 101, batched: true, limits: {}, maxSeconds: 60 });
    expect(free.slowest).toBeNull();
    expect(free.lines.at(-1)).toBe('eta: not paced: as fast as the target answers');
  });
});
