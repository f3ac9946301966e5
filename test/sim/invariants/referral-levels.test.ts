// The referral-levels invariant: it holds while a real platform charges trading, domains and
// escrow fees up a four-deep referral chain (every event and transfer fed to the checker as the
// simulator does, and a sweep; the casino's levels are compared at the end), and it trips on the deliberate defect
// that pays level 2 the level-1 share, on a configured share that is not the documents', and on a
// fabricated referral transfer with no fee.
import { describe, expect, test } from 'vitest';
import { addAgent } from '../../fixtures/agents.ts';
import { FEE_INCOME, referralAccount, type Transfer } from '../../../src/core/ledger.ts';
import { usdc } from '../../../src/core/money.ts';
import { Platform, type PlatformOptions } from '../../../src/platform/platform.ts';
import { DEFAULT_CONFIG } from '../../../src/services/shared/config.ts';
import type { DomainEvent } from '../../../src/services/shared/events.ts';
import { INVARIANTS, type Violation } from '../../../src/sim/invariants/index.ts';

const START = Date.UTC(2026, 0, 1, 1);

function harness(options: Partial<PlatformOptions> = {}) {
  const platform = new Platform({ seed: 'referral-levels', startMs: START, ...options });
  const checker = INVARIANTS['referral-levels'].create({ platform, nowMs: () => platform.nowMs });
  const violations: Violation[] = [];
  const collect = (violation: Violation | null | undefined): void => {
    if (violation !== null && violation !== undefined) violations.push(violation);
  };
  platform.ledger.onTransfer({ onTransfer: (transfer: Transfer) => collect(checker.onTransfer?.(transfer)) });
  platform.onEvent((event) => collect(checker.onEvent?.(event)));
  addAgent(platform, 'root', { createdAtMs: START });
  addAgent(platform, 'top', { referrerId: 'root', createdAtMs: START });
  addAgent(platform, 'mid', { referrerId: 'top', fundMicro: usdc(100), createdAtMs: START });
  addAgent(platform, 'low', { referrerId: 'mid', fundMicro: usdc(100), createdAtMs: START });
  addAgent(platform, 'payer', { referrerId: 'low', fundMicro: usdc(5_000), createdAtMs: START });
  const end = (): void => collect(checker.atEnd?.(platform.nowMs));
  return { platform, violations, end, collect, checker };
}

function trade(platform: Platform, atMs: number): void {
  expect(
    platform.trading.place(
      {
        agentId: 'payer',
        symbol: 'BTC-USDC',
        side: 'buy',
        type: 'market',
        amountMicro: usdc(777),
        leverage: 1,
        limitPrice: null,
      },
      atMs,
    ).ok,
  ).toBe(true);
}

describe('referral-levels invariant', () => {
  test('holds over trading, domains and escrow fees up a four-deep chain, and a sweep', () => {
    const { platform, violations, end } = harness();
    trade(platform, START);
    expect(
      platform.domains.register({ callerId: 'payer', domain: 'levels.com', years: 2, resolver: null }, START).ok,
    ).toBe(true);
    const escrow = platform.escrow.create(
      {
        senderId: 'payer',
        receiver: 'mid',
        amountMicro: usdc(333),
        description: null,
        expiresInSeconds: null,
        referrer: null,
        conditions: null,
      },
      START,
    );
    expect(escrow.ok).toBe(true);
    if (escrow.ok)
      expect(platform.escrow.release({ escrowId: escrow.value.id, callerId: 'payer' }, START + 1).ok).toBe(true);
    expect(
      platform.domains.register({ callerId: 'low', domain: 'mid-level.com', years: 1, resolver: null }, START + 2).ok,
    ).toBe(true);
    platform.advanceTo(START + 2 * 86_400_000);
    end();
    expect(violations).toEqual([]);
    expect(platform.referrals.earnedByLevel('top', 'trading')[2]).toBeGreaterThan(0n);
    expect(platform.referrals.totalsFor('top').paidMicro).toBe(platform.referrals.totalsFor('top').earnedMicro);
  });

  test('trips on the defect that pays level 2 the level-1 share', () => {
    const { platform, violations } = harness({ defects: ['referral-level2-full-share'] });
    trade(platform, START);
    expect(violations[0]?.message).toMatch(/trading fee .* of payer: level 2 share .*, due /);
  });

  test("trips on a configured trading share that is not the documents' 20 %", () => {
    const config = { ...DEFAULT_CONFIG, trading: { ...DEFAULT_CONFIG.trading, referralShareBps: 1_900n } };
    const { platform, violations } = harness({ config });
    trade(platform, START);
    expect(violations[0]?.message).toMatch(/level 1 share/);
  });

  test('trips on a referral share paid with no fee', () => {
    const { platform, violations, checker, collect } = harness();
    collect(
      checker.onTransfer?.({
        from: FEE_INCOME,
        to: referralAccount('top'),
        amountMicro: 5n,
        reason: 'referral.accrue.level2',
        reference: 'x',
      }),
    );
    const bet: DomainEvent = { type: 'referral.paid', atMs: START, referrerId: 'top', amountMicro: 0n };
    collect(checker.onEvent?.(bet));
    expect(violations[0]?.message).toMatch(/level 2 referral share .* with no fee/);
    expect(platform.referrals.totalsFor('top').earnedMicro).toBe(0n);
  });
});
