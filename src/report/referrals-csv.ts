/**
 * referrals.csv: what each referrer earned at each level of its tree, by service, from the
 * referral book at the end of the run (referral-programme.ts), and its renderer. Written only
 * when the scenario names `referrals` and somebody earned a share, so other runs keep exactly
 * the reports (and digests) they had.
 *
 * Invariants: one row per (referrer, level) with earnings; rows sorted by referrer id, then
 * level (a total order); a column per service in REFERRAL_SERVICES order, then the row's total;
 * money as USDC with 6 decimals; `\n` line endings, a header always.
 */
import { stringify } from 'csv-stringify/sync';
import type { Micro } from '../core/money.ts';
import { referredByLevel } from '../services/shared/referral-programme.ts';
import {
  REFERRAL_LEVELS_MAX,
  REFERRAL_SERVICES,
  type ReferralBook,
  type ReferralService,
} from '../services/shared/referral.ts';
import { usdcColumnText } from './column-format.ts';

export interface ReferralRow {
  readonly referrerId: string;
  readonly level: number;
  /** Agents at that depth below the referrer. */
  readonly referredAgents: number;
  /** Earned at this level, per service in REFERRAL_SERVICES order. */
  readonly earnedMicro: Readonly<Record<ReferralService, Micro>>;
  readonly totalMicro: Micro;
}

/** The rows of every referrer that earned, or undefined when nobody did. */
export function referralRowsOf(book: ReferralBook): ReferralRow[] | undefined {
  const rows: ReferralRow[] = [];
  for (const referrerId of book.referrers()) {
    const members = referredByLevel(book, referrerId);
    for (let level = 1; level <= REFERRAL_LEVELS_MAX; level++) {
      const earnedMicro = Object.fromEntries(
        REFERRAL_SERVICES.map((service) => [service, book.earnedByLevel(referrerId, service)[level - 1] ?? 0n]),
      ) as Record<ReferralService, Micro>;
      const totalMicro = REFERRAL_SERVICES.reduce((sum, service) => sum + earnedMicro[service], 0n);
      if (totalMicro > 0n)
        rows.push({ referrerId, level, referredAgents: members[level - 1]?.length ?? 0, earnedMicro, totalMicro });
    }
  }
  return rows.length === 0 ? undefined : rows;
}

const REFERRAL_COLUMNS = ['referrer', 'level', 'referred_agents', ...REFERRAL_SERVICES, 'total'] as const;

export function renderReferralsCsv(rows: readonly ReferralRow[]): string {
  const cells = rows.map((row) => [
    row.referrerId,
    row.level,
    row.referredAgents,
    ...REFERRAL_SERVICES.map((service) => usdcColumnText(row.earnedMicro[service])),
    usdcColumnText(row.totalMicro),
  ]);
  return stringify(cells, { header: true, columns: [...REFERRAL_COLUMNS], record_delimiter: '\n' });
}
