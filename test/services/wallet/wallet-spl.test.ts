// SPL tokens on the simulated solana, by mint address (USDC, USDT): balances and sends as ERC-20
// and TRC-20, with solana's token-account rule: a send to an address without an account for the
// mint creates it and its sender pays the rent (2,039,280 lamports) in the fee; a later send to the
// same address (even in the same block) pays only the signature fee. Too little SOL for fee and
// rent is 422 and nothing moves. Balances + in flight = minted throughout.
import { describe, expect, test } from 'vitest';
import { isFailure } from '../../../src/core/errors.ts';
import { Rng } from '../../../src/core/rng.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { deriveWallet, generateMnemonic } from '../../../src/services/wallet/keys/wallet-keys.ts';
import { assetByAddress, nativeAsset, type Asset } from '../../../src/services/wallet/wallet-assets.ts';

const START = Date.UTC(2026, 0, 1);
const USDC_MINT = 'EPjFWdd5AufqSSQh9ZsfHW2q4bYW3eFbFpyG7aiuqa7w';
const USDT_MINT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
const SIGNATURE_FEE = 5_000n;
const TOKEN_ACCOUNT_RENT = 2_039_280n;

function splAsset(mint: string): Asset {
  const asset = assetByAddress('solana', mint, 'token');
  if (isFailure(asset)) throw new Error(asset.message);
  return asset;
}

function world() {
  const platform = new Platform({ seed: 'wallet-spl', startMs: START });
  const rng = new Rng('wallet-spl-keys');
  const [alice, bob, carol] = [0, 1, 2].map(() => deriveWallet(generateMnemonic(rng)));
  if (alice === undefined || bob === undefined || carol === undefined) throw new Error('three wallets');
  return { platform, alice, bob, carol, key: { kind: 'key' as const, key: alice.privateKeys.solana } };
}

describe('SPL tokens by mint address', () => {
  test('USDC and USDT are found by their mints; a symbol or a mint with other case is refused', () => {
    expect(splAsset(USDC_MINT)).toMatchObject({ chain: 'solana', symbol: 'USDC', decimals: 6 });
    expect(splAsset(USDT_MINT)).toMatchObject({ chain: 'solana', symbol: 'USDT', decimals: 6 });
    const symbol = assetByAddress('solana', 'USDC', 'token');
    expect(isFailure(symbol) ? symbol.message : null).toMatch(/not a symbol/);
    expect(isFailure(assetByAddress('solana', USDC_MINT.toLowerCase(), 'token'))).toBe(true);
  });

  test('a send to an address without a token account pays its rent; the next one does not', () => {
    const { platform, alice, bob, key } = world();
    const usdc = splAsset(USDC_MINT);
    const sol = nativeAsset('solana');
    platform.wallet.mint(sol, alice.addresses.solana, 10n ** 9n, START);
    platform.wallet.mint(usdc, alice.addresses.solana, 100_000_000n, START);
    expect(platform.wallet.chains.hasAccount('solana', USDC_MINT, bob.addresses.solana)).toBe(false);
    const first = platform.wallet.send(
      { asset: usdc, from: null, to: bob.addresses.solana, amount: 5_000_000n, key, memo: null },
      START + 10,
    );
    const second = platform.wallet.send(
      { asset: usdc, from: null, to: bob.addresses.solana, amount: 1_000_000n, key, memo: null },
      START + 20,
    );
    if (!first.ok || !second.ok) throw new Error('both sends are accepted');
    expect(first.value.fee).toBe(SIGNATURE_FEE + TOKEN_ACCOUNT_RENT);
    expect(second.value.fee).toBe(SIGNATURE_FEE);
    expect(platform.wallet.chains.hasAccount('solana', USDC_MINT, bob.addresses.solana)).toBe(true);
    expect(platform.wallet.checkConserved()).toBeNull();
    platform.advanceTo(START + 400);
    expect([first.value.status, second.value.status]).toEqual(['confirmed', 'confirmed']);
    expect(platform.wallet.chains.balanceOf('solana', USDC_MINT, bob.addresses.solana)).toBe(6_000_000n);
    expect(platform.wallet.chains.balanceOf('solana', USDC_MINT, alice.addresses.solana)).toBe(94_000_000n);
    expect(platform.wallet.chains.balanceOf('solana', sol.address, alice.addresses.solana)).toBe(
      10n ** 9n - 2n * SIGNATURE_FEE - TOKEN_ACCOUNT_RENT,
    );
    // USDT is another mint: bob has no account for it yet.
    expect(platform.wallet.chains.hasAccount('solana', USDT_MINT, bob.addresses.solana)).toBe(false);
    expect(platform.wallet.balance('solana', bob.addresses.solana)).toMatchObject({
      ok: true,
      value: { tokens: [{ amount: 6_000_000n }, { amount: 0n }] },
    });
    expect(platform.wallet.checkConserved()).toBeNull();
  });

  test('too little SOL for the fee and the rent is 422 and moves nothing', () => {
    const { platform, alice, carol, key } = world();
    const usdt = splAsset(USDT_MINT);
    const sol = nativeAsset('solana');
    platform.wallet.mint(sol, alice.addresses.solana, SIGNATURE_FEE + TOKEN_ACCOUNT_RENT - 1n, START);
    platform.wallet.mint(usdt, alice.addresses.solana, 10_000_000n, START);
    const before = JSON.stringify(platform.wallet.chains.totals(), (_key, value: unknown) =>
      typeof value === 'bigint' ? value.toString() : value,
    );
    const refused = platform.wallet.send(
      { asset: usdt, from: null, to: carol.addresses.solana, amount: 1_000_000n, key, memo: null },
      START + 10,
    );
    expect(refused.ok ? null : refused.code).toBe('INSUFFICIENT_BALANCE');
    expect(refused.ok ? '' : refused.message).toMatch(/the fee/);
    expect(platform.wallet.chains.hasAccount('solana', USDT_MINT, carol.addresses.solana)).toBe(false);
    expect(
      JSON.stringify(platform.wallet.chains.totals(), (_key, value: unknown) =>
        typeof value === 'bigint' ? value.toString() : value,
      ),
    ).toBe(before);
    // Once carol has an account (a mint opens it), the same SOL pays the signature fee alone.
    platform.wallet.mint(usdt, carol.addresses.solana, 1n, START + 20);
    const sent = platform.wallet.send(
      { asset: usdt, from: null, to: carol.addresses.solana, amount: 1_000_000n, key, memo: null },
      START + 30,
    );
    expect(sent.ok ? sent.value.fee : null).toBe(SIGNATURE_FEE);
  });

  test('a key for another address cannot move SPL tokens (403); the token sent to its own mint fails at its block', () => {
    const { platform, alice, bob } = world();
    const usdc = splAsset(USDC_MINT);
    platform.wallet.mint(nativeAsset('solana'), alice.addresses.solana, 10n ** 9n, START);
    platform.wallet.mint(usdc, alice.addresses.solana, 10_000_000n, START);
    const wrong = platform.wallet.send(
      {
        asset: usdc,
        from: alice.addresses.solana,
        to: bob.addresses.solana,
        amount: 1n,
        key: { kind: 'key', key: bob.privateKeys.solana },
        memo: null,
      },
      START + 10,
    );
    expect(wrong.ok ? null : wrong.code).toBe('FORBIDDEN');
    const toMint = platform.wallet.send(
      {
        asset: usdc,
        from: null,
        to: USDC_MINT,
        amount: 1_000_000n,
        key: { kind: 'key', key: alice.privateKeys.solana },
        memo: null,
      },
      START + 10,
    );
    if (!toMint.ok) throw new Error(toMint.message);
    platform.advanceTo(START + 400);
    expect(toMint.value.status).toBe('failed');
    expect(platform.wallet.chains.balanceOf('solana', USDC_MINT, alice.addresses.solana)).toBe(10_000_000n);
    expect(platform.wallet.checkConserved()).toBeNull();
  });
});
