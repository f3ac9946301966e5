// Signatures over a transaction's bytes on every chain: the key returned at creation signs and the
// signature verifies against its address; a wrong key, another message, a tampered signature, a
// signature of the wrong length or another chain's address all fail. Signing is deterministic
// (RFC 6979 for secp256k1, RFC 8032 for ed25519, HMAC nonces for monero), so replays are exact.
import { base58 } from '@scure/base';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, test } from 'vitest';
import { Rng } from '../../../../src/core/rng.ts';
import {
  WALLET_CHAINS,
  deriveWallet,
  generateMnemonic,
  signMessage,
  verifySignature,
  type DerivedWallet,
  type WalletChain,
  type WalletKey,
} from '../../../../src/services/wallet/keys/wallet-keys.ts';

const ABANDON_ABOUT = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const alice = deriveWallet(ABANDON_ABOUT);
const mallory = deriveWallet(generateMnemonic(new Rng('mallory')));
const TX = new TextEncoder().encode('{"to":"someone","amount":"1.5","nonce":7}');
const OTHER_TX = new TextEncoder().encode('{"to":"someone","amount":"15","nonce":7}');

function keyOf(wallet: DerivedWallet, chain: WalletChain): WalletKey {
  return chain === 'monero'
    ? { viewKey: wallet.monero.viewKey, spendKey: wallet.monero.spendKey }
    : wallet.privateKeys[chain];
}

describe.each(WALLET_CHAINS)('%s', (chain) => {
  const signature = signMessage(chain, keyOf(alice, chain), TX);

  test('the wallet key signs; the signature verifies against its address; signing is deterministic', () => {
    expect(verifySignature(chain, alice.addresses[chain], TX, signature)).toBe(true);
    expect(signMessage(chain, keyOf(alice, chain), TX)).toEqual(signature);
  });

  test('a wrong key fails', () => {
    const forged = signMessage(chain, keyOf(mallory, chain), TX);
    expect(verifySignature(chain, alice.addresses[chain], TX, forged)).toBe(false);
    expect(verifySignature(chain, mallory.addresses[chain], TX, forged)).toBe(true);
  });

  test('another message, a flipped bit, a truncated signature and a malformed address fail', () => {
    expect(verifySignature(chain, alice.addresses[chain], OTHER_TX, signature)).toBe(false);
    for (const at of [0, 20, 40, signature.length - 1]) {
      const tampered = signature.slice();
      tampered[at] = (tampered[at] ?? 0) ^ 0x01;
      expect(verifySignature(chain, alice.addresses[chain], TX, tampered), `bit flipped at ${at}`).toBe(false);
    }
    expect(verifySignature(chain, alice.addresses[chain], TX, signature.subarray(0, signature.length - 1))).toBe(false);
    expect(verifySignature(chain, alice.addresses[chain], TX, new Uint8Array(0))).toBe(false);
    expect(verifySignature(chain, 'not-an-address', TX, signature)).toBe(false);
  });
});

describe('signature forms', () => {
  test('EVM: 65 bytes r ‖ s ‖ v (27/28) over keccak256, recoverable to the signer', () => {
    const signature = signMessage('ethereum', alice.privateKeys.ethereum, TX);
    expect(signature).toHaveLength(65);
    expect([27, 28]).toContain(signature[64]);
    const compact = signature.subarray(0, 64);
    const publicKey = secp256k1.getPublicKey(hexToBytes(alice.privateKeys.ethereum.slice(2)));
    expect(secp256k1.verify(compact, keccak_256(TX), publicKey, { prehash: false })).toBe(true);
  });

  test('the high-S twin of a valid signature is refused (no malleability)', () => {
    const signature = signMessage('ethereum', alice.privateKeys.ethereum, TX);
    const parsed = secp256k1.Signature.fromBytes(signature.subarray(0, 64), 'compact');
    const twin = new secp256k1.Signature(parsed.r, secp256k1.Point.Fn.ORDER - parsed.s).toBytes('compact');
    const flipped = new Uint8Array(65);
    flipped.set(twin, 0);
    flipped[64] = (signature[64] ?? 27) === 27 ? 28 : 27;
    expect(
      secp256k1.verify(twin, keccak_256(TX), secp256k1.getPublicKey(hexToBytes(alice.privateKeys.ethereum.slice(2))), {
        prehash: false,
        lowS: false,
      }),
    ).toBe(true);
    expect(verifySignature('ethereum', alice.addresses.ethereum, TX, flipped)).toBe(false);
  });

  test('ethereum and base signatures are the same key over the same digest', () => {
    expect(signMessage('base', alice.privateKeys.base, TX)).toEqual(
      signMessage('ethereum', alice.privateKeys.ethereum, TX),
    );
    expect(
      verifySignature(
        'base',
        alice.addresses.ethereum.toLowerCase(),
        TX,
        signMessage('base', alice.privateKeys.base, TX),
      ),
    ).toBe(true);
  });

  test('solana: a plain ed25519 signature by the address public key (RFC 8032)', () => {
    const signature = signMessage('solana', alice.privateKeys.solana, TX);
    expect(signature).toHaveLength(64);
    const tronSigned = signMessage('tron', alice.privateKeys.tron, TX);
    expect(verifySignature('solana', alice.addresses.solana, TX, tronSigned.subarray(0, 64))).toBe(false);
    const publicKey = base58.decode(alice.addresses.solana);
    expect(base58.decode(alice.privateKeys.solana).subarray(32)).toEqual(publicKey);
    expect(ed25519.verify(signature, TX, publicKey)).toBe(true);
  });

  test("a signature made for one chain does not verify for another chain's address of the same wallet", () => {
    const tronSignature = signMessage('tron', alice.privateKeys.tron, TX);
    expect(verifySignature('ethereum', alice.addresses.ethereum, TX, tronSignature)).toBe(false);
    const bitcoinSignature = signMessage('bitcoin', alice.privateKeys.bitcoin, TX);
    expect(verifySignature('tron', alice.addresses.tron, TX, bitcoinSignature)).toBe(false);
  });

  test('monero: the spend key signs; a signature by the view key fails', () => {
    const bySpend = signMessage('monero', { viewKey: alice.monero.viewKey, spendKey: alice.monero.spendKey }, TX);
    const byView = signMessage('monero', { viewKey: alice.monero.viewKey, spendKey: alice.monero.viewKey }, TX);
    expect(verifySignature('monero', alice.addresses.monero, TX, bySpend)).toBe(true);
    expect(verifySignature('monero', alice.addresses.monero, TX, byView)).toBe(false);
  });

  test('signing with an ill-formed key is a caller bug (assertion), not a signature', () => {
    expect(() => signMessage('ethereum', '0x12', TX)).toThrow(/well-formed key/u);
    expect(() => signMessage('monero', alice.privateKeys.ethereum, TX)).toThrow(/well-formed key/u);
  });
});
