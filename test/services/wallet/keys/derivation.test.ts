// Derivation paths against published vectors: BIP-32 test vector 1 (secp256k1, the library the
// EVM, bitcoin and tron paths use), SLIP-10 ed25519 test vector 1 (our HMAC chain for solana),
// BIP-84's `abandon … about` first receiving address, and the well-known `abandon … about`
// addresses for ethereum/base, solana and tron.
import { HDKey } from '@scure/bip32';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, test } from 'vitest';
import { slip10Derive } from '../../../../src/services/wallet/keys/slip10-ed25519.ts';
import {
  WALLET_CHAINS,
  addressOfKey,
  deriveWallet,
  generateMnemonic,
} from '../../../../src/services/wallet/keys/wallet-keys.ts';
import { Rng } from '../../../../src/core/rng.ts';

const ABANDON_ABOUT = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

describe('BIP-32 test vector 1', () => {
  // Source: https://github.com/bitcoin/bips/blob/master/bip-0032.mediawiki#test-vector-1 (keys as
  // also listed in SLIP-10's "test vector 1 for secp256k1").
  const seed = hexToBytes('000102030405060708090a0b0c0d0e0f');
  const root = HDKey.fromMasterSeed(seed);
  test('master extended keys', () => {
    expect(root.privateExtendedKey).toBe(
      'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
    );
    expect(root.publicExtendedKey).toBe(
      'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8',
    );
  });
  test.each([
    [
      'm',
      'e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35',
      '0339a36013301597daef41fbe593a02cc513d0b55527ec2df1050e2e8ff49c85c2',
    ],
    [
      "m/0'",
      'edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea',
      '035a784662a4a20a65bf6aab9ae98a6c068a81c52e4b032c0fb5400c706cfccc56',
    ],
    [
      "m/0'/1",
      '3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368',
      '03501e454bf00751f24b1b489aa925215d66af2234e3891c3b21a52bedb3cd711c',
    ],
    [
      "m/0'/1/2'",
      'cbce0d719ecf7431d88e6a89fa1483e02e35092af60c042b1df2ff59fa424dca',
      '0357bfe1e341d01c69fe5654309956cbea516822fba8a601743a012a7896ee8dc2',
    ],
    [
      "m/0'/1/2'/2",
      '0f479245fb19a38a1954c5c7c0ebab2f9bdfd96a17563ef28a6a4b1a2a764ef4',
      '02e8445082a72f29b75ca48748a914df60622a609cacfce8ed0e35804560741d29',
    ],
    [
      "m/0'/1/2'/2/1000000000",
      '471b76e389e528d6de6d816857e012c5455051cad6660850e58372a6c3e6e7c8',
      '022a471424da5e657499d1ff51cb43c47481a03b1e77f951fe64cec9f5a48f7011',
    ],
  ])('%s', (path, privateKey, publicKey) => {
    const node = root.derive(path);
    expect(bytesToHex(node.privateKey ?? new Uint8Array())).toBe(privateKey);
    expect(bytesToHex(node.publicKey ?? new Uint8Array())).toBe(publicKey);
  });
});

describe('SLIP-10 ed25519 test vector 1', () => {
  // Source: https://github.com/satoshilabs/slips/blob/master/slip-0010.md#test-vector-1-for-ed25519
  const seed = hexToBytes('000102030405060708090a0b0c0d0e0f');
  test.each([
    [
      'm',
      '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb',
      '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7',
      '00a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed',
    ],
    [
      "m/0'",
      '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69',
      '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
      '008c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c',
    ],
    [
      "m/0'/1'",
      'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14',
      'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2',
      '001932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187',
    ],
    [
      "m/0'/1'/2'",
      '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c',
      '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9',
      '00ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1',
    ],
    [
      "m/0'/1'/2'/2'",
      '8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc',
      '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662',
      '008abae2d66361c879b900d204ad2cc4984fa2aa344dd7ddc46007329ac76c429c',
    ],
    [
      "m/0'/1'/2'/2'/1000000000'",
      '68789923a0cac2cd5a29172a475fe9e0fb14cd6adb5ad98a3fa70333e7afa230',
      '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793',
      '003c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a',
    ],
  ])('%s', (path, chainCode, privateKey, publicKey) => {
    const node = slip10Derive(seed, path);
    expect(bytesToHex(node.chainCode)).toBe(chainCode);
    expect(bytesToHex(node.key)).toBe(privateKey);
    expect(`00${bytesToHex(ed25519.getPublicKey(node.key))}`).toBe(publicKey);
  });

  test('an unhardened step is a caller bug', () => {
    expect(() => slip10Derive(seed, "m/44'/501'/0"), 'ed25519 has no public derivation').toThrow(/hardened/u);
  });
});

describe('abandon … about', () => {
  const wallet = deriveWallet(ABANDON_ABOUT);
  test('BIP-84 first receiving address and its key', () => {
    // Source: https://github.com/bitcoin/bips/blob/master/bip-0084.mediawiki#test-vectors
    expect(wallet.addresses.bitcoin).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(wallet.privateKeys.bitcoin).toBe('KyZpNDKnfs94vbrwhJneDi77V6jF64PWPF8x5cdJb8ifgg2DUc9d');
    expect(wallet.derivationPaths.bitcoin).toBe("m/84'/0'/0'/0/0");
  });

  test("ethereum and base share the EIP-55 address of m/44'/60'/0'/0/0", () => {
    // Source: the address MetaMask, Ian Coleman's BIP-39 tool and ethers' tests show for this mnemonic.
    expect(wallet.addresses.ethereum).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect(wallet.addresses.base).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect(wallet.privateKeys.ethereum).toBe('0x1ab42cc412b618bdea3a599e3c9bae199ebf030895b039e9db1e30dafb12b727');
  });

  test("solana m/44'/501'/0'/0' and tron m/44'/195'/0'/0/0", () => {
    // Sources: Phantom / solana-keygen with this mnemonic; Ledger's Tron app test case and Ian Coleman's tool.
    expect(wallet.addresses.solana).toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk');
    expect(wallet.addresses.tron).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
  });

  test('each returned key controls its address (the key returned once can send)', () => {
    for (const chain of WALLET_CHAINS) {
      const key =
        chain === 'monero'
          ? { viewKey: wallet.monero.viewKey, spendKey: wallet.monero.spendKey }
          : wallet.privateKeys[chain];
      expect(addressOfKey(chain, key), chain).toEqual({ ok: true, address: wallet.addresses[chain] });
    }
  });
});

test('wallets from seeded mnemonics: deterministic, distinct, every key controls its address', () => {
  const seen = new Set<string>();
  for (let index = 0; index < 4; index++) {
    const mnemonic = generateMnemonic(new Rng(`derive-${index}`));
    const wallet = deriveWallet(mnemonic);
    expect(deriveWallet(mnemonic)).toEqual(wallet);
    for (const chain of WALLET_CHAINS) {
      seen.add(wallet.addresses[chain]);
      const key =
        chain === 'monero'
          ? { viewKey: wallet.monero.viewKey, spendKey: wallet.monero.spendKey }
          : wallet.privateKeys[chain];
      expect(addressOfKey(chain, key)).toEqual({ ok: true, address: wallet.addresses[chain] });
    }
  }
  // ethereum and base share an address: 5 distinct addresses per wallet.
  expect(seen.size).toBe(4 * 5);
});
