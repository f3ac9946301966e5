// The wallet-conservation invariant: it holds while a real platform mints, sends (confirmed and
// failed by a chain rule) and runs swap orders to finished, refunded and expired (every event fed
// to the checker as the simulator does), and it trips on fabricated histories: a transaction
// settled twice or off its block, a swap moving backwards, and a chain whose minted total no
// longer matches its balances.
import { describe, expect, test } from 'vitest';
import { Platform } from '../../../../src/platform/platform.ts';
import { deriveWallet, generateMnemonic } from '../../../../src/services/wallet/keys/wallet-keys.ts';
import { Rng } from '../../../../src/core/rng.ts';
import { INVARIANTS, type Violation } from '../../../../src/sim/invariants/index.ts';
import { nativeAsset, tokenAsset } from '../../../../src/services/wallet/wallet-assets.ts';
import { TOKEN_ROWS } from '../../../../src/services/wallet/wallet-config.ts';

const START = Date.UTC(2026, 0, 1);

function harness() {
  const platform = new Platform({ seed: 'wallet-invariants', startMs: START });
  let nowMs = START;
  const checker = INVARIANTS['wallet-conservation'].create({ platform, nowMs: () => nowMs });
  const violations: Violation[] = [];
  platform.onEvent((event) => {
    const found = checker.onEvent?.(event);
    if (found !== null && found !== undefined) violations.push(found);
  });
  const at = (ms: number): void => {
    nowMs = ms;
    platform.advanceTo(ms);
    const found = checker.onHour?.(ms);
    if (found !== null && found !== undefined) violations.push(found);
  };
  const rng = new Rng('wallet-invariants-keys');
  const wallets = [0, 1].map(() => deriveWallet(generateMnemonic(rng)));
  return { platform, at, checker, violations, wallets, now: () => nowMs };
}

describe('wallet-conservation', () => {
  test('holds over mints, sends, a failed send and swaps finished, refunded and expired', () => {
    const { platform, at, violations, wallets } = harness();
    const [alice, bob] = wallets;
    if (alice === undefined || bob === undefined) throw new Error('two wallets');
    const wallet = platform.wallet;
    const usdc = TOKEN_ROWS.find((row) => row.chain === 'base' && row.symbol === 'USDC');
    if (usdc === undefined) throw new Error('base USDC');
    expect(wallet.mint(nativeAsset('base'), alice.addresses.base, 10n ** 18n, START).ok).toBe(true);
    expect(wallet.mint(tokenAsset(usdc), alice.addresses.base, 1_000_000_000n, START).ok).toBe(true);
    const key = { kind: 'key' as const, key: alice.privateKeys.base };
    expect(
      wallet.send(
        { asset: nativeAsset('base'), from: null, to: bob.addresses.base, amount: 10n ** 17n, key, memo: null },
        START + 100,
      ).ok,
    ).toBe(true);
    expect(
      wallet.send(
        { asset: tokenAsset(usdc), from: null, to: usdc.contract, amount: 5_000_000n, key, memo: null },
        START + 100,
      ).ok,
    ).toBe(true);
    // Swaps: base USDC → solana SOL. One paid in full (finished), one short (refunded), one never paid (expired).
    const order = (amount: bigint) => {
      const placed = wallet.swap(
        { from: tokenAsset(usdc), to: nativeAsset('solana'), amount, toAddress: bob.addresses.solana },
        START + 200,
        'ag_unregistered',
      );
      if (!placed.ok) throw new Error(placed.message);
      return placed.value;
    };
    const full = order(100_000_000n);
    const short = order(50_000_000n);
    const unpaid = order(10_000_000n);
    expect(
      wallet.send(
        { asset: tokenAsset(usdc), from: null, to: full.depositAddress, amount: 100_000_000n, key, memo: null },
        START + 300,
      ).ok,
    ).toBe(true);
    expect(
      wallet.send(
        { asset: tokenAsset(usdc), from: null, to: short.depositAddress, amount: 20_000_000n, key, memo: null },
        START + 300,
      ).ok,
    ).toBe(true);
    for (let minute = 1; minute <= 40; minute++) at(START + minute * 60_000);
    expect(full.status).toBe('finished');
    expect(short.status).toBe('refunded');
    expect(unpaid.status).toBe('expired');
    const payout = wallet.chains.get(full.payoutTx ?? '');
    expect(payout?.status).toBe('confirmed');
    expect(payout?.amount ?? 0n).toBeGreaterThanOrEqual(full.quote.minReceived);
    expect(wallet.chains.balanceOf('solana', nativeAsset('solana').address, bob.addresses.solana)).toBe(payout?.amount);
    expect(wallet.chains.get(short.refundTx ?? '')?.to).toBe(alice.addresses.base);
    const failed = wallet.chains.historyOf('base', alice.addresses.base, 50).find((tx) => tx.to === usdc.contract);
    expect(failed?.status).toBe('failed');
    expect(violations).toEqual([]);
  });

  test('trips on a transaction settled twice, a swap moving backwards and a broken minted total', () => {
    const { platform, checker } = harness();
    const sent = {
      type: 'wallet.sent' as const,
      atMs: START,
      hash: 'h1',
      kind: 'send',
      chain: 'base',
      asset: 'x',
      from: 'a',
      to: 'b',
      amount: 1n,
      fee: 0n,
      blockAtMs: START + 2000,
    };
    expect(checker.onEvent?.(sent)).toBeNull();
    expect(
      checker.onEvent?.({
        type: 'wallet.settled',
        atMs: START + 1000,
        hash: 'h1',
        chain: 'base',
        status: 'confirmed',
        failure: null,
      })?.message,
    ).toMatch(/its block is at/);
    expect(
      checker.onEvent?.({
        type: 'wallet.settled',
        atMs: START + 2000,
        hash: 'h2',
        chain: 'base',
        status: 'confirmed',
        failure: null,
      })?.message,
    ).toMatch(/not pending/);
    const swap = {
      type: 'wallet.swap' as const,
      atMs: START,
      orderId: 'swp_1',
      fromChain: 'base',
      toChain: 'solana',
      amount: 1n,
    };
    expect(checker.onEvent?.({ ...swap, status: 'waiting' })).toBeNull();
    expect(checker.onEvent?.({ ...swap, status: 'exchanging' })).toBeNull();
    expect(checker.onEvent?.({ ...swap, status: 'confirming' })?.message).toMatch(/moved to confirming/);
    // A unit minted in the books but held by no one.
    const minted = Reflect.get(platform.wallet.chains, 'minted') as Map<string, bigint>;
    const [key, total] = [...minted][0] ?? ['', 0n];
    minted.set(key, total + 1n);
    expect(checker.onHour?.(START)?.message).toMatch(/not conserved/);
  });
});
