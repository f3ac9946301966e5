// referrals.csv from the referral book: one row per (referrer, level) with earnings, a column per
// service and the total, sorted by referrer then level; nothing when nobody earned.
import { describe, expect, test } from 'vitest';
import { addAgent } from '../fixtures/agents.ts';
import { usdc } from '../../src/core/money.ts';
import { Platform } from '../../src/platform/platform.ts';
import { referralRowsOf, renderReferralsCsv } from '../../src/report/referrals-csv.ts';
import { usdcColumnText } from '../../src/report/column-format.ts';

const START = Date.UTC(2026, 0, 1, 1);

describe('referrals.csv', () => {
  test('rows by referrer and level, service columns, exact totals', () => {
    const platform = new Platform({ seed: 'referrals-csv', startMs: START });
    expect(referralRowsOf(platform.referrals)).toBeUndefined();
    addAgent(platform, 'b-top', { createdAtMs: START });
    addAgent(platform, 'a-mid', { referrerId: 'b-top', createdAtMs: START });
    addAgent(platform, 'payer', { referrerId: 'a-mid', fundMicro: usdc(500), createdAtMs: START });
    const charge = platform.domains.register(
      { callerId: 'payer', domain: 'csv-tree.com', years: 1, resolver: null },
      START,
    );
    if (!charge.ok) throw new Error(charge.message);
    const fee = charge.value.costMicro;
    const levelOne = (fee * 1_500n) / 10_000n;
    const levelTwo = (fee * 750n) / 10_000n;
    const zero = usdcColumnText(0n);
    expect(renderReferralsCsv(referralRowsOf(platform.referrals) ?? [])).toBe(
      'referrer,level,referred_agents,faucet,escrow,trading,domains,casino,wallet,total\n' +
        `a-mid,1,1,${zero},${zero},${zero},${usdcColumnText(levelOne)},${zero},${zero},${usdcColumnText(levelOne)}\n` +
        `b-top,2,1,${zero},${zero},${zero},${usdcColumnText(levelTwo)},${zero},${zero},${usdcColumnText(levelTwo)}\n`,
    );
  });
});
