// The wallet's referral share (issue 21 item 6): a finished swap's 0.5 % fee, valued in micro-USDC
// at the quote's input price, enters fee-income from outside and pays the payer's three uplines
// 10 / 5 / 2.5 % of it, exactly; the fourth referrer up gets nothing. Driven through the /v1 routes
// (create, swap, send the deposit, referral stats and withdraw) with the conservation and
// referral-levels invariants fed every transfer and event, as the simulator does. Orders that do
// not finish (refunded, expired) pay nothing. Before the hook the wallet share never accrued.
import { describe, expect, test } from 'vitest';
import { addAgent } from '../../fixtures/agents.ts';
import { EXTERNAL, FEE_INCOME, referralAccount, type Transfer } from '../../../src/core/ledger.ts';
import { Dispatcher } from '../../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { Platform } from '../../../src/platform/platform.ts';
import type { DomainEvent } from '../../../src/services/shared/events.ts';
import { deriveWallet } from '../../../src/services/wallet/keys/wallet-keys.ts';
import { nativeAsset, tokenAsset } from '../../../src/services/wallet/wallet-assets.ts';
import { TOKEN_ROWS } from '../../../src/services/wallet/wallet-config.ts';
import { WALLET_FEE_REASON } from '../../../src/services/wallet/wallet-referral-fee.ts';
import { INVARIANTS, type Violation } from '../../../src/sim/invariants/index.ts';

const START = Date.UTC(2026, 0, 1);
const USDC_BASE = TOKEN_ROWS.find((row) => row.chain === 'base' && row.symbol === 'USDC');
if (USDC_BASE === undefined) throw new Error('the token table has base USDC');

function world() {
  const platform = new Platform({ seed: 'wallet-referral-fee', startMs: START });
  const checkers = (['conservation', 'referral-levels', 'wallet-conservation'] as const).map((name) =>
    INVARIANTS[name].create({ platform, nowMs: () => platform.nowMs }),
  );
  const violations: Violation[] = [];
  const transfers: Transfer[] = [];
  const events: DomainEvent[] = [];
  const collect = (violation: Violation | null | undefined): void => {
    if (violation !== null && violation !== undefined) violations.push(violation);
  };
  platform.ledger.onTransfer({
    onTransfer: (transfer: Transfer) => {
      transfers.push(transfer);
      for (const checker of checkers) collect(checker.onTransfer?.(transfer));
    },
  });
  platform.onEvent((event) => {
    events.push(event);
    for (const checker of checkers) collect(checker.onEvent?.(event));
  });
  // far → root → top → mid → payer: the payer's uplines are mid (1), top (2), root (3); far is 4 up.
  const keys = {
    far: addAgent(platform, 'far', { createdAtMs: START }),
    root: addAgent(platform, 'root', { referrerId: 'far', createdAtMs: START }),
    top: addAgent(platform, 'top', { referrerId: 'root', createdAtMs: START }),
    mid: addAgent(platform, 'mid', { referrerId: 'top', createdAtMs: START }),
    payer: addAgent(platform, 'payer', { referrerId: 'mid', createdAtMs: START }),
  };
  const dispatcher = new Dispatcher(platform, ALL_ROUTES);
  let nowMs = START;
  const v1 = (key: string, method: string, path: string, body?: unknown) =>
    dispatcher.handle(
      {
        mount: 'wallet',
        method,
        path: `/v1${path}`,
        query: {},
        headers: { authorization: `Bearer ${key}` },
        body,
        ip: '127.0.0.1',
      },
      nowMs,
    );
  const advance = (ms: number): void => {
    nowMs += ms;
    platform.advanceTo(nowMs);
  };
  const end = (): void => {
    for (const checker of checkers) collect(checker.atEnd?.(nowMs));
  };
  return { platform, keys, v1, advance, end, violations, transfers, events };
}

/** The payer's funded wallet and a swap of `amount` base USDC to its own solana address. */
function openSwap(w: ReturnType<typeof world>, amount: string) {
  const created = w.v1(w.keys.payer, 'POST', '/wallet/create');
  expect(created.status).toBe(200);
  const wallet = deriveWallet((created.body as { mnemonic: string }).mnemonic);
  const usdc = tokenAsset(USDC_BASE as NonNullable<typeof USDC_BASE>);
  expect(w.platform.wallet.mint(nativeAsset('base'), wallet.addresses.base, 10n ** 17n, START).ok).toBe(true);
  expect(w.platform.wallet.mint(usdc, wallet.addresses.base, 1_000_000_000n, START).ok).toBe(true);
  const order = w.v1(w.keys.payer, 'POST', '/wallet/swap', {
    from_chain: 'base',
    to_chain: 'solana',
    from_token: usdc.address,
    to_token: nativeAsset('solana').address,
    amount,
    to_address: wallet.addresses.solana,
  });
  expect(order.status).toBe(200);
  const body = order.body as { order_id: string; deposit: { address: string } };
  return { wallet, usdc, orderId: body.order_id, deposit: body.deposit.address };
}

describe('the wallet referral share', () => {
  test('a finished swap of a referred agent pays its three uplines 10 / 5 / 2.5 % of the fee exactly', () => {
    const w = world();
    const { wallet, usdc, orderId, deposit } = openSwap(w, '100');
    const sent = w.v1(w.keys.payer, 'POST', '/wallet/send', {
      chain: 'base',
      to: deposit,
      amount: '100',
      token: usdc.address,
      private_key: wallet.privateKeys.base,
    });
    expect(sent.status).toBe(200);
    for (let minute = 1; minute <= 10; minute++) w.advance(60_000);
    expect(w.platform.wallet.swapStatus(orderId)).toMatchObject({ ok: true, value: { status: 'finished' } });
    // 0.5 % of 100 USDC at 1 USD = 0.5 USDC = 500,000 micro.
    const revenue = w.transfers.filter((transfer) => transfer.reason === WALLET_FEE_REASON);
    expect(revenue).toEqual([
      { from: EXTERNAL, to: FEE_INCOME, amountMicro: 500_000n, reason: WALLET_FEE_REASON, reference: orderId },
    ]);
    expect(w.platform.referrals.earnedByLevel('mid', 'wallet')).toEqual([50_000n, 0n, 0n]);
    expect(w.platform.referrals.earnedByLevel('top', 'wallet')).toEqual([0n, 25_000n, 0n]);
    expect(w.platform.referrals.earnedByLevel('root', 'wallet')).toEqual([0n, 0n, 12_500n]);
    expect(w.platform.referrals.totalsFor('far').earnedMicro).toBe(0n);
    expect(w.platform.ledger.balance(FEE_INCOME)).toBe(500_000n - 50_000n - 25_000n - 12_500n);
    const fee = w.events.filter((event) => event.type === 'wallet.fee');
    expect(fee).toEqual([
      { type: 'wallet.fee', atMs: expect.any(Number) as number, orderId, agentId: 'payer', feeMicro: 500_000n },
    ]);
    // The stats and withdrawal of /v1/referral show it.
    expect(w.v1(w.keys.top, 'GET', '/referral/stats').body).toMatchObject({
      total_earned: 0.025,
      withdrawn: 0,
      available: 0.025,
      levels: [
        { level: 1, earned: 0 },
        { level: 2, earned: 0.025 },
        { level: 3, earned: 0 },
      ],
    });
    const paid = w.v1(w.keys.root, 'POST', '/referral/withdraw', { address: wallet.addresses.base });
    expect(paid.status).toBe(200);
    expect(w.platform.ledger.balance(referralAccount('root'))).toBe(0n);
    expect(w.v1(w.keys.root, 'GET', '/referral/stats').body).toMatchObject({
      total_earned: 0.0125,
      withdrawn: 0.0125,
      available: 0,
    });
    w.end();
    expect(w.violations).toEqual([]);
  });

  test("a swap priced in a coin is valued at the quote's input price", () => {
    const w = world();
    const created = w.v1(w.keys.payer, 'POST', '/wallet/create');
    const wallet = deriveWallet((created.body as { mnemonic: string }).mnemonic);
    const eth = nativeAsset('base');
    expect(w.platform.wallet.mint(eth, wallet.addresses.base, 10n ** 19n, START).ok).toBe(true);
    const placed = w.platform.wallet.swap(
      { from: eth, to: nativeAsset('solana'), amount: 10n ** 18n, toAddress: wallet.addresses.solana },
      START,
      'payer',
    );
    if (!placed.ok) throw new Error(placed.message);
    expect(
      w.v1(w.keys.payer, 'POST', '/wallet/send', {
        chain: 'base',
        to: placed.value.depositAddress,
        amount: '1',
        private_key: wallet.privateKeys.base,
      }).status,
    ).toBe(200);
    for (let minute = 1; minute <= 10; minute++) w.advance(60_000);
    expect(placed.value.status).toBe('finished');
    // fee 0.005 ETH × the quote's ETH price (8 decimals) → micro-USDC, rounded down.
    const feeMicro = (5n * 10n ** 15n * placed.value.quote.fromPrice * 1_000_000n) / (100_000_000n * 10n ** 18n);
    expect(feeMicro).toBeGreaterThan(0n);
    expect(w.platform.referrals.earnedByLevel('mid', 'wallet')[0]).toBe(feeMicro / 10n);
    expect(w.platform.referrals.earnedByLevel('top', 'wallet')[1]).toBe(feeMicro / 20n);
    expect(w.platform.referrals.earnedByLevel('root', 'wallet')[2]).toBe((feeMicro * 250n) / 10_000n);
    w.end();
    expect(w.violations).toEqual([]);
  });

  test('refunded and expired orders charge no fee and pay no share', () => {
    const w = world();
    const { wallet, usdc, deposit } = openSwap(w, '100');
    // Below the order's amount: refunded. A second order never paid: expired.
    expect(
      w.v1(w.keys.payer, 'POST', '/wallet/send', {
        chain: 'base',
        to: deposit,
        amount: '40',
        token: usdc.address,
        private_key: wallet.privateKeys.base,
      }).status,
    ).toBe(200);
    expect(
      w.v1(w.keys.payer, 'POST', '/wallet/swap', {
        from_chain: 'base',
        to_chain: 'solana',
        from_token: usdc.address,
        to_token: nativeAsset('solana').address,
        amount: '5',
        to_address: wallet.addresses.solana,
      }).status,
    ).toBe(200);
    for (let minute = 1; minute <= 40; minute++) w.advance(60_000);
    expect(w.platform.wallet.swaps.all().map((order) => order.status)).toEqual(['refunded', 'expired']);
    expect(w.transfers.filter((transfer) => transfer.reason === WALLET_FEE_REASON)).toEqual([]);
    expect(w.platform.referrals.referrers()).toEqual([]);
    w.end();
    expect(w.violations).toEqual([]);
  });

  test('referral-levels catches a wallet fee whose shares did not arrive', () => {
    const w = world();
    const checker = INVARIANTS['referral-levels'].create({ platform: w.platform, nowMs: () => START });
    const violation = checker.onEvent?.({
      type: 'wallet.fee',
      atMs: START,
      orderId: 'swp_x',
      agentId: 'payer',
      feeMicro: 1_000_000n,
    });
    expect(violation?.message).toMatch(/wallet fee 1(\.0+)? of payer: level 1 share 0(\.0+)?, due 0\.1/);
  });
});
