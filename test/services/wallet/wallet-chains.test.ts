// The simulated chains' building blocks: amounts parse to exact base units (never floats) and
// format back; assets are found by contract address only; the chain book keeps balances + in
// flight = minted through sends that confirm or fail; the solana rent rule fails a small transfer
// to a new account at its block; blocks settle at their chain's pace and only where work is.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isFailure } from '../../../src/core/errors.ts';
import { Rng } from '../../../src/core/rng.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { deriveWallet, generateMnemonic } from '../../../src/services/wallet/keys/wallet-keys.ts';
import { assetByAddress, formatUnits, nativeAsset, parseAmount } from '../../../src/services/wallet/wallet-assets.ts';

const START = Date.UTC(2026, 0, 1);

describe('amounts and assets', () => {
  test('decimal text ↔ base units, exactly, for every decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.constantFrom(6, 8, 9, 12, 18), (units, decimals) => {
        const text = formatUnits(units, decimals);
        const back = parseAmount(text, decimals, 'amount');
        return units > 10n ** 12n * 10n ** BigInt(decimals) ? isFailure(back) : back === units;
      }),
    );
    expect(parseAmount('0.000000000000000001', 18, 'amount')).toBe(1n);
    expect(parseAmount(0.1, 18, 'amount')).toBe(10n ** 17n);
    expect(isFailure(parseAmount('1e3', 18, 'amount'))).toBe(true);
    expect(isFailure(parseAmount('0.0000001', 6, 'amount'))).toBe(true);
  });

  test('assets by address: EVM case-insensitive, symbols refused', () => {
    const usdc = assetByAddress('ethereum', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 'token');
    expect(isFailure(usdc) ? null : usdc.symbol).toBe('USDC');
    const symbol = assetByAddress('ethereum', 'USDC', 'token');
    expect(isFailure(symbol) ? symbol.message : null).toMatch(/not a symbol/);
    expect(isFailure(assetByAddress('tron', 'tr7nhqjekqxgtci8q8zy4pl8otszgjlj6t', 'token'))).toBe(true);
  });
});

describe('chains on the clock', () => {
  test('solana: a small transfer to a new account fails at its block (400 ms), fee kept; a large one confirms', () => {
    const platform = new Platform({ seed: 'wallet-chains', startMs: START });
    const rng = new Rng('wallet-chains-keys');
    const [alice, bob, carol] = [0, 1, 2].map(() => deriveWallet(generateMnemonic(rng)));
    if (alice === undefined || bob === undefined || carol === undefined) throw new Error('three wallets');
    const sol = nativeAsset('solana');
    platform.wallet.mint(sol, alice.addresses.solana, 10n ** 10n, START);
    const key = { kind: 'key' as const, key: alice.privateKeys.solana };
    const small = platform.wallet.send(
      { asset: sol, from: null, to: bob.addresses.solana, amount: 1_000n, key, memo: null },
      START + 10,
    );
    const large = platform.wallet.send(
      { asset: sol, from: null, to: carol.addresses.solana, amount: 10n ** 9n, key, memo: null },
      START + 10,
    );
    if (!small.ok || !large.ok) throw new Error('sent');
    expect(small.value.blockAtMs).toBe(START + 400);
    expect(platform.nextTimerMs()).toBeLessThanOrEqual(START + 400);
    platform.advanceTo(START + 399);
    expect(small.value.status).toBe('pending');
    platform.advanceTo(START + 400);
    expect(small.value.status).toBe('failed');
    expect(large.value.status).toBe('confirmed');
    expect(platform.wallet.chains.balanceOf('solana', sol.address, alice.addresses.solana)).toBe(
      10n ** 10n - 10n ** 9n - 2n * 5_000n,
    );
    expect(platform.wallet.checkConserved()).toBeNull();
  });
});
