// The swap aggregator's deposit keyring: one master mnemonic, one child key per order. Checked
// against published vectors — Hardhat's default accounts (the "test … junk" mnemonic at
// m/44'/60'/0'/0/i) and the Monero general fund's donation subaddress (0, 70) — and against
// deriveWallet (index 0 of each BIP-32/SLIP-10 chain is the mnemonic's own address) and an
// independent path derivation, so a deposit address can be verified from the master key.
import { HDKey } from '@scure/bip32';
import { describe, expect, test } from 'vitest';
import { Rng } from '../../../../src/core/rng.ts';
import { Platform } from '../../../../src/platform/platform.ts';
import { DepositKeyring, depositPath } from '../../../../src/services/wallet/keys/deposit-keyring.ts';
import { evmAddressOfPublicKey } from '../../../../src/services/wallet/keys/evm-address.ts';
import { mnemonicSeed } from '../../../../src/services/wallet/keys/mnemonic.ts';
import { decodeMoneroAddress, parseMoneroScalar } from '../../../../src/services/wallet/keys/monero-keys.ts';
import { moneroSubaddress } from '../../../../src/services/wallet/keys/monero-subaddress.ts';
import { toUncompressed } from '../../../../src/services/wallet/keys/secp256k1-signature.ts';
import { slip10Derive } from '../../../../src/services/wallet/keys/slip10-ed25519.ts';
import { solanaAddressOfSeed } from '../../../../src/services/wallet/keys/solana-address.ts';
import { deriveWallet, isValidAddress, WALLET_CHAINS } from '../../../../src/services/wallet/keys/wallet-keys.ts';
import { nativeAsset, tokenAsset } from '../../../../src/services/wallet/wallet-assets.ts';
import { TOKEN_ROWS } from '../../../../src/services/wallet/wallet-config.ts';

const HARDHAT = 'test test test test test test test test test test test junk';
const HARDHAT_ACCOUNTS = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
];
const GENERAL_FUND = '44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A';
const GENERAL_FUND_VIEW_KEY = 'f359631075708155cc3d92a32b75a7d02a5dcf27756707b47a2b31b21c389501';
const GENERAL_FUND_DONATIONS =
  '888tNkZrPN6JsEgekjMnABU4TBzc2Dt29EPAvkRxbANsAnjyPbb3iQ1YBRk1UXcdRsiKc9dhwMVgN5S9cQUiyoogDavup3H';

describe('deposit keyring', () => {
  test("EVM deposits are the master mnemonic's accounts m/44'/60'/0'/0/i (Hardhat's published accounts)", () => {
    const keyring = new DepositKeyring(mnemonicSeed(HARDHAT));
    expect(HARDHAT_ACCOUNTS.map((_, index) => keyring.address('ethereum', index))).toEqual(HARDHAT_ACCOUNTS);
    expect(keyring.address('base', 2)).toBe(HARDHAT_ACCOUNTS[2]);
    expect(depositPath('ethereum', 2)).toBe("m/44'/60'/0'/0/2");
  });

  test('monero subaddress (0, 70) of the general fund is its published donation address', () => {
    const fund = decodeMoneroAddress(GENERAL_FUND);
    const view = parseMoneroScalar(GENERAL_FUND_VIEW_KEY);
    if (fund === undefined || view === undefined) throw new Error('the general fund address and view key parse');
    expect(moneroSubaddress(view, fund.publicSpend, 0, 70)).toBe(GENERAL_FUND_DONATIONS);
  });

  test("index 0 is the mnemonic's own address on bitcoin, tron and solana; others follow their paths; all valid and distinct", () => {
    const seed = mnemonicSeed(HARDHAT);
    const keyring = new DepositKeyring(seed);
    const own = deriveWallet(HARDHAT).addresses;
    for (const chain of ['ethereum', 'bitcoin', 'tron', 'solana'] as const)
      expect(keyring.address(chain, 0), chain).toBe(own[chain]);
    const evmChild = HDKey.fromMasterSeed(seed).derive(depositPath('ethereum', 7)).publicKey;
    if (evmChild === null) throw new Error('a public key');
    expect(keyring.address('ethereum', 7)).toBe(evmAddressOfPublicKey(toUncompressed(evmChild)));
    expect(keyring.address('solana', 3)).toBe(solanaAddressOfSeed(slip10Derive(seed, depositPath('solana', 3)).key));
    for (const chain of WALLET_CHAINS) {
      const addresses = [0, 1, 2, 1_000].map((index) => keyring.address(chain, index));
      expect(new Set(addresses).size, chain).toBe(4);
      for (const address of addresses) expect(isValidAddress(chain, address), `${chain} ${address}`).toBe(true);
    }
    expect(keyring.address('monero', 0)).not.toBe(own.monero);
    expect(keyring.address('monero', 0).startsWith('8')).toBe(true);
  });

  test("swap orders take the aggregator's child keys in order; wallets created keep their mnemonics whatever the swaps", () => {
    const START = Date.UTC(2026, 0, 1);
    const usdc = TOKEN_ROWS.find((row) => row.chain === 'base' && row.symbol === 'USDC');
    if (usdc === undefined) throw new Error('base USDC');
    const swapping = new Platform({ seed: 'deposit-keyring', startMs: START });
    const quiet = new Platform({ seed: 'deposit-keyring', startMs: START });
    const orders = [0, 1, 2].map((index) =>
      swapping.wallet.swap(
        {
          from: tokenAsset(usdc),
          to: nativeAsset('ethereum'),
          amount: 50_000_000n,
          toAddress: HARDHAT_ACCOUNTS[0] as string,
        },
        START + index,
        'ag_test',
      ),
    );
    const deposits = orders.map((order) => (order.ok ? order.value.depositAddress : order.message));
    const master = DepositKeyring.fromRng(
      new Rng('deposit-keyring').fork('platform').fork('services').fork('wallet-aggregator'),
    );
    expect(deposits).toEqual([0, 1, 2].map((index) => master.address('base', index)));
    expect(swapping.wallet.create('alice', START).mnemonic).toBe(quiet.wallet.create('alice', START).mnemonic);
  });
});
