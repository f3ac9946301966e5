// Addresses of keys and their validity, per chain, against published vectors: EIP-55's checksummed
// addresses, Tron key → address vectors, a Monero spend key → keys → address vector and Monero's
// sc_reduce32; then each ill-formed form per chain is refused (bad checksum, wrong prefix or
// version, wrong length, wrong case, bad alphabet) and so is each ill-formed key.
import { base58, base58check, base58xmr } from '@scure/base';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, test } from 'vitest';
import { toChecksumAddress } from '../../../../src/services/wallet/keys/evm-address.ts';
import { reduceScalar, scalarText, viewScalarOfSpend } from '../../../../src/services/wallet/keys/monero-keys.ts';
import {
  WALLET_CHAINS,
  addressOfKey,
  deriveWallet,
  isValidAddress,
  viewKeyMatchesAddress,
  type WalletKey,
} from '../../../../src/services/wallet/keys/wallet-keys.ts';

const ABANDON_ABOUT = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

describe('EIP-55', () => {
  // Source: https://eips.ethereum.org/EIPS/eip-55 ("Test Cases": all caps, all lower, normal).
  const VECTORS = [
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];
  test.each(VECTORS)('%s is its own checksum form and valid on ethereum and base', (address) => {
    expect(toChecksumAddress(address.slice(2))).toBe(address);
    expect(isValidAddress('ethereum', address)).toBe(true);
    expect(isValidAddress('base', address)).toBe(true);
  });

  test('mixed case must match the checksum; one case carries none', () => {
    expect(isValidAddress('ethereum', '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(isValidAddress('ethereum', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(true);
    expect(isValidAddress('ethereum', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBe(true);
  });

  test.each([
    ['no 0x prefix', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['39 digits', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe'],
    ['41 digits', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0'],
    ['a non-hex digit', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg'],
    ['upper-case prefix', '0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['empty', ''],
  ])('refused: %s', (_form, address) => {
    expect(isValidAddress('ethereum', address)).toBe(false);
    expect(isValidAddress('base', address)).toBe(false);
  });
});

describe('tron', () => {
  test.each([
    // Source: trezor-firmware core/tests/test_apps.tron.address.py (data from the Binance JS SDK).
    ['8d596057e510b14cbb9bf24f88803a6d6dbd138dd303a62b175b9e6cc0f3f941', 'TY72iA3SBtrds3QLYsS7LwYfkzXwAXCRWT'],
    // Source: trustwallet/trust-core Tests/Tron/TronAddressTests.swift.
    ['BE88DF1D0BF30A923CB39C3BB953178BAAF3726E8D3CE81E7C8462E046E0D835', 'THRF3GuPnvvPzKoaT8pJex5XHmo8NNbCb3'],
  ])('key %s → %s', (key, address) => {
    expect(addressOfKey('tron', key)).toEqual({ ok: true, address });
    expect(isValidAddress('tron', address)).toBe(true);
  });

  test.each([
    ['a bad checksum', 'TY72iA3SBtrds3QLYsS7LwYfkzXwAXCRWU'],
    ['an EVM version byte', base58check21(0x00)],
    ['a bitcoin address', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
    ['a 0 (not base58)', 'TY72iA3SBtrds3QLYsS7LwYfkzXwAXCRW0'],
    ['too short', 'TY72iA3SBtrds3QLYsS7LwYfkzXwAXCR'],
    ['empty', ''],
  ])('refused: %s', (_form, address) => {
    expect(isValidAddress('tron', address)).toBe(false);
  });
});

describe('bitcoin', () => {
  test.each([
    ['P2WPKH (BIP-84 vector)', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
    ['P2WPKH upper case (BIP-173)', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4'],
    ['P2WSH (BIP-173)', 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3'],
    ['P2TR (BIP-350)', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
    ['P2PKH (the genesis coinbase address)', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
    ['P2SH (BIP-13 style)', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
  ])('valid: %s', (_form, address) => {
    expect(isValidAddress('bitcoin', address)).toBe(true);
  });

  test.each([
    ['a bad bech32 checksum', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyv'],
    ['mixed case (BIP-173)', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyU'],
    ['testnet prefix', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'],
    ['v0 with a bech32m checksum (BIP-350)', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh'],
    ['v1 with a bech32 checksum (BIP-350)', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd'],
    ['v0 program of 16 bytes (BIP-173)', 'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P'],
    ['a bad base58check checksum', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb'],
    ['a testnet P2PKH', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'],
    ['empty', ''],
  ])('refused: %s', (_form, address) => {
    expect(isValidAddress('bitcoin', address)).toBe(false);
  });
});

describe('solana', () => {
  test('valid: a 32-byte public key in base58, on or off the curve', () => {
    expect(isValidAddress('solana', 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk')).toBe(true);
    expect(isValidAddress('solana', '11111111111111111111111111111111')).toBe(true);
    expect(isValidAddress('solana', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBe(true);
  });

  test.each([
    ['31 bytes', base58.encode(new Uint8Array(31).fill(9))],
    ['33 bytes', base58.encode(new Uint8Array(33).fill(9))],
    ['a 0 (not base58)', 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpq0'],
    ['an l (not base58)', 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpql'],
    ['an EVM address', '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'],
    ['empty', ''],
  ])('refused: %s', (_form, address) => {
    expect(isValidAddress('solana', address)).toBe(false);
  });
});

describe('monero', () => {
  // Source: ebellocchia/bip_utils tests/monero/test_monero.py, main-net vectors (checked there
  // with the official Monero wallet).
  const VECTOR = {
    spendKey: 'b6514a29ff612189af1bba250606bb5b1e7846fe8f31a91fc0beb393cddb6101',
    viewKey: '8f3461d947f48cebd597dade700b6f345be43af8139b85fef7d577007462b509',
    address: '43XWXXDCyHwQ2oZtBc8LUm4pAs5koPg2kdBHgwQNJBKRNxbwRnYufB5CeQvnbkGiWE4thv1A7GptxGVDDPN4d8ehNpQv99J',
    publicSpend: '323abccb6e92ee89b1a07f6829ab3e16cc4fd276377c11d84a5719808f16ec83',
    publicView: '4842482c21c0d0459f04dd7a27256b1743fe018727bd395c964a5ae9e3c6f6c1',
  };

  test('spend key → view key (keccak256 mod l) → address', () => {
    const spend = reduceScalar(hexToBytes(VECTOR.spendKey));
    expect(scalarText(viewScalarOfSpend(spend))).toBe(VECTOR.viewKey);
    expect(addressOfKey('monero', { viewKey: VECTOR.viewKey, spendKey: VECTOR.spendKey })).toEqual({
      ok: true,
      address: VECTOR.address,
    });
    const body = base58xmr.decode(VECTOR.address);
    expect(bytesToHex(body.subarray(1, 33))).toBe(VECTOR.publicSpend);
    expect(bytesToHex(body.subarray(33, 65))).toBe(VECTOR.publicView);
    expect(isValidAddress('monero', VECTOR.address)).toBe(true);
  });

  test('sc_reduce32 of an unreduced seed, and its view key', () => {
    // Same source, first main-net vector: the seed is above l; the spend key is the seed mod l.
    const spend = reduceScalar(hexToBytes('2c9623882df4940a734b009e0732ce5a8de7a62c4c1a2a53767a8f6c04874117'));
    expect(scalarText(spend)).toBe('3fc22d2b139182b29cae08fb2838ef458de7a62c4c1a2a53767a8f6c04874107');
    expect(scalarText(viewScalarOfSpend(spend))).toBe(
      '66e7495a49d2f1b9458204386bd6aadf6402c270d37d503a1cebde58a0d38a00',
    );
  });

  test('a view key matches its own address only', () => {
    expect(viewKeyMatchesAddress(VECTOR.address, VECTOR.viewKey)).toBe(true);
    expect(viewKeyMatchesAddress(VECTOR.address, VECTOR.spendKey)).toBe(false);
    expect(viewKeyMatchesAddress(VECTOR.address, 'zz')).toBe(false);
    expect(viewKeyMatchesAddress('not-an-address', VECTOR.viewKey)).toBe(false);
  });

  test('subaddress and integrated addresses of the same vector set are valid', () => {
    expect(
      isValidAddress(
        'monero',
        '87QhdsHjCjMdWax6htvM7P2jFP9JAVC2eUpFiVdewQSpPbg1M4WPVCdHvvxH18WgyDTkfQVCNQ8j23oBhJYoBEQiF8onTRb',
      ),
    ).toBe(true);
    expect(
      isValidAddress(
        'monero',
        '4DEBYL2haZTQ2oZtBc8LUm4pAs5koPg2kdBHgwQNJBKRNxbwRnYufB5CeQvnbkGiWE4thv1A7GptxGVDDPN4d8ehZR6s3aQNNzLRREzGFz',
      ),
    ).toBe(true);
  });

  test.each([
    ['a bad checksum', `${VECTOR.address.slice(0, -1)}K`],
    [
      'a stagenet address',
      '5Aro6RZf2gc9AZGHkyVLkvU4Qonc8yQ8fR4PZTy9haCVe6NHSMH4TtNLyWhovaP75PFDSUC9cAML7MAGhXS56o16H7BmpEP',
    ],
    ['one character short', VECTOR.address.slice(0, -1)],
    ['a 0 (not base58)', `0${VECTOR.address.slice(1)}`],
    ['a public key that is not a curve point', moneroWithSpend()],
    ['an ethereum address', '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'],
    ['empty', ''],
  ])('refused: %s', (_form, address) => {
    expect(isValidAddress('monero', address)).toBe(false);
  });
});

describe('ill-formed keys are refused, not thrown', () => {
  const wallet = deriveWallet(ABANDON_ABOUT);
  const moneroPair = { viewKey: wallet.monero.viewKey, spendKey: wallet.monero.spendKey };
  const ORDER_LE = 'edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010';
  const SECP_ORDER = '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141';
  test.each([
    ['ethereum', '0x1234'],
    ['ethereum', SECP_ORDER],
    ['ethereum', `0x${'0'.repeat(64)}`],
    ['ethereum', `0x${'g'.repeat(64)}`],
    ['base', moneroPair],
    ['tron', wallet.privateKeys.bitcoin],
    ['bitcoin', wallet.privateKeys.ethereum],
    ['bitcoin', `${wallet.privateKeys.bitcoin.slice(0, -1)}e`],
    ['bitcoin', '5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ'],
    ['solana', wallet.privateKeys.ethereum],
    ['solana', base58.encode(new Uint8Array(64).fill(1))],
    ['solana', base58.encode(new Uint8Array(32).fill(1))],
    ['monero', wallet.privateKeys.ethereum],
    ['monero', { viewKey: moneroPair.viewKey, spendKey: ORDER_LE }],
    ['monero', { viewKey: '00'.repeat(32), spendKey: moneroPair.spendKey }],
    ['monero', { viewKey: moneroPair.viewKey, spendKey: 'xyz' }],
  ] as const)('%s refuses %j', (chain, key) => {
    const outcome = addressOfKey(chain, key);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.reason.length).toBeGreaterThan(0);
  });

  test('keys of the wrong runtime type (from a request body) are refused on every chain', () => {
    for (const chain of WALLET_CHAINS) {
      for (const key of [null, 42, undefined, ['a'], { viewKey: 1, spendKey: 2 }, { viewKey: moneroPair.viewKey }]) {
        expect(addressOfKey(chain, key as unknown as WalletKey).ok, `${chain} ${JSON.stringify(key)}`).toBe(false);
      }
    }
  });

  test('over-long texts are refused without decoding them', () => {
    const long = '1'.repeat(100_000);
    for (const chain of WALLET_CHAINS) {
      expect(isValidAddress(chain, long)).toBe(false);
      if (chain !== 'monero') expect(addressOfKey(chain, long).ok).toBe(false);
    }
  });

  test('every chain accepts its own key and refuses the key text of every other chain', () => {
    const keyOf = (chain: (typeof WALLET_CHAINS)[number]) =>
      chain === 'monero' ? moneroPair : wallet.privateKeys[chain];
    for (const chain of WALLET_CHAINS) {
      for (const other of WALLET_CHAINS) {
        const outcome = addressOfKey(chain, keyOf(other));
        const sameForm =
          chain === other ||
          (['ethereum', 'base', 'tron'].includes(chain) && ['ethereum', 'base', 'tron'].includes(other));
        expect(outcome.ok, `${chain} given the ${other} key`).toBe(sameForm);
      }
    }
  });
});

function base58check21(version: number): string {
  // A well-formed base58check payload of 21 bytes whose version byte is not Tron's 0x41.
  const payload = new Uint8Array(21).fill(7);
  payload[0] = version;
  return base58check(sha256).encode(payload);
}

function moneroWithSpend(): string {
  // A primary address with a correct checksum whose public spend key is no curve point: the
  // first small y (little-endian) that no point has.
  const spend = new Uint8Array(32);
  for (let y = 2; y < 256; y++) {
    spend[0] = y;
    if (!isPoint(spend)) break;
  }
  const body = new Uint8Array(69);
  body[0] = 0x12;
  body.set(spend, 1);
  body.set(hexToBytes('4842482c21c0d0459f04dd7a27256b1743fe018727bd395c964a5ae9e3c6f6c1'), 33);
  body.set(keccak_256(body.subarray(0, 65)).subarray(0, 4), 65);
  return base58xmr.encode(body);
}

function isPoint(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes);
    return true;
  } catch {
    return false;
  }
}
