/**
 * The deployed casino's referral rows (spec/DEPLOYED.md §2.9): `/auth/referral/code` →
 * `{referral_code, commission_rate, share_message}` and `/auth/referral/stats` →
 * `{total_referrals, total_earned_usd, last_30_days_usd, by_level, grow_tip, referrals}`. Why: a
 * replay asks a deployment for an agent's referral statistics here (the documents' faucet
 * `/referrals` has no deployed path), so the stand-in must answer them as a deployment does.
 * The deployment pays each losing stake 10 / 5 / 2.5 % up three levels and keeps rows for level 1
 * only, so levels 2 and 3 count 0 referred agents (§2.9); the earnings per level are the casino's
 * commissions. Nearest value: afp keeps no instant per commission, so `last_30_days_usd` is the
 * whole total (docs/decisions/casino.md).
 */
import { assert } from '../../../core/assert.ts';
import type { JsonObject } from '../../../core/errors.ts';
import type { Platform } from '../../../platform/platform.ts';
import { referredByLevel } from '../../../services/shared/referral-programme.ts';
import { moneyA } from '../../render.ts';
import type { Route } from '../../route.ts';
import { adaptedRow } from './deployed-row.ts';

/** The referred agents an answer lists at most (the first ones, in the order they registered). */
const REFERRALS_LISTED_MAX = 100;

const code = adaptedRow('casino.A.referral.code', {
  id: 'casino.deployed.referral.code',
  summary: 'Your referral code, its level-1 commission rate and a message to share it.',
  bodyKeys: [],
  render: (_value, context, body) => {
    const documents = body();
    const referralCode = documents['referral_code'];
    assert(typeof referralCode === 'string', 'the documents row renders the code');
    const levelOneBps = context.platform.casino.state.commissions.levels[0] ?? 0n;
    return {
      referral_code: referralCode,
      commission_rate: Number(levelOneBps) / 10_000,
      share_message: `Play at the agent casino: register with referral_code ${referralCode} (POST /api/v1/auth/register).`,
    };
  },
});

function referralStatsBody(platform: Platform, agentId: string): JsonObject {
  const earned = platform.casino.state.commissions.earnedBy(agentId);
  const levelOne = referredByLevel(platform.context.referrals, agentId)[0] ?? [];
  let totalMicro = 0n;
  const byLevel = platform.casino.state.commissions.levels.map((bps, index) => {
    const amount = earned[index] ?? 0n;
    totalMicro += amount;
    return {
      level: index + 1,
      rate: Number(bps) / 10_000,
      count: index === 0 ? levelOne.length : 0,
      earned_usd: moneyA(amount),
    };
  });
  return {
    total_referrals: levelOne.length,
    total_earned_usd: moneyA(totalMicro),
    last_30_days_usd: moneyA(totalMicro),
    by_level: byLevel,
    grow_tip: 'Share your referral_code: agents who register with it earn you a share of every losing bet.',
    referrals: levelOne.slice(0, REFERRALS_LISTED_MAX).map((id) => ({ agent_id: id, level: 1 })),
  };
}

const stats = adaptedRow('casino.A.referral.stats', {
  id: 'casino.deployed.referral.stats',
  summary: 'Your referrals and what they earned you, by level.',
  bodyKeys: [],
  render: (value, context) => {
    assert(typeof value === 'string', 'the documents row runs to the caller');
    return referralStatsBody(context.platform, value);
  },
});

export const deployedReferralRoutes: readonly Route[] = [code, stats];
