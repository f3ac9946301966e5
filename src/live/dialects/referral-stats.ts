/**
 * An agent's referral statistics, in each dialect that shows them (`faucet.referrals`): style B's
 * faucet `GET /referrals` (fees earned over every service, by level), style A's casino
 * `GET /api/v1/auth/referral/stats` (the same programme's totals beside the casino's own levels)
 * and a deployment's casino `/auth/referral/stats` (DEPLOYED.md §2.9: `total_referrals`,
 * `total_earned_usd`, `by_level`). Why one file: the three answer one question, so a replay of a
 * recorded referral read reaches a deployment, which has no faucet referrals. What a style does
 * not show reads null (style A shows no referred total), and is then not compared.
 */
import type { ReferralStatsView } from '../operation-views.ts';
import type { WireReader } from '../wire-reader.ts';
import { deployedPath } from '../../http/deployed/deployed-wire.ts';
import { row, type DialectTable, type DialectRequest } from './dialect.ts';

type Level = ReferralStatsView['levels'][number];

/** The per-level rows of the documents' `by_level` (both styles). */
function documentsLevels(reader: WireReader): Level[] {
  return reader.items('by_level', (level) => ({
    level: level.number('level', { optional: true }),
    referred: level.number('referred_agents', { optional: true }),
    earnedMicro: level.money('earned', { optional: true }),
  }));
}

/** Style A's and a deployment's read: the same bytes on both (the casino's `/auth/referral/stats`). */
function casinoStatsRequest(): DialectRequest {
  return { service: 'casino', method: 'GET', path: deployedPath('casino.deployed.referral.stats'), auth: true };
}

export const REFERRAL_STATS_A: DialectTable = {
  'faucet.referrals': row('faucet.referrals', {
    request: casinoStatsRequest,
    read: (reader) => {
      reader.knows('levels', 'total_earned_casino', 'paid_out', 'pending_payout', 'total_earned', 'withdrawn');
      reader.knows('available');
      return {
        referralCode: reader.string('referral_code', { optional: true }),
        referredCount: null,
        earnedMicro: reader.money('total_earned_all_services', { optional: true }),
        levels: documentsLevels(reader),
      };
    },
  }),
};

export const REFERRAL_STATS_B: DialectTable = {
  'faucet.referrals': row('faucet.referrals', {
    request: () => ({ service: 'faucet', method: 'GET', path: '/referrals', auth: true }),
    read: (reader) => {
      reader.knows('referred_agents', 'paid_out', 'pending_payouts', 'share_pct', 'withdrawn', 'available');
      return {
        referralCode: reader.string('referral_code', { optional: true }),
        referredCount: reader.number('referred_count', { optional: true }),
        earnedMicro: reader.money('fees_earned', { optional: true }),
        levels: documentsLevels(reader),
      };
    },
  }),
};

export const REFERRAL_STATS_DEPLOYED: DialectTable = {
  'faucet.referrals': row('faucet.referrals', {
    request: casinoStatsRequest,
    read: (reader) => {
      reader.knows('last_30_days_usd', 'grow_tip', 'referrals');
      return {
        referralCode: null,
        referredCount: reader.number('total_referrals', { optional: true }),
        earnedMicro: reader.money('total_earned_usd', { optional: true }),
        levels: reader.items('by_level', (level) => {
          level.knows('rate');
          return {
            level: level.number('level', { optional: true }),
            referred: level.number('count', { optional: true }),
            earnedMicro: level.money('earned_usd', { optional: true }),
          };
        }),
      };
    },
  }),
};
