/**
 * Chain keys: one row per wallet chain saying how a private key becomes an address, which
 * addresses are well formed, and how a transaction's bytes are signed and verified.
 *
 * The three secp256k1 chains share one row builder and differ only in key text, digest and
 * address; solana signs with ed25519 (the address is the public key); monero with its spend key
 * (see monero-signature.ts). A signer given an ill-formed key is a caller's bug (check the key
 * with `addressOfKey` first), so `sign` asserts rather than refuses.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { assert } from '../../../core/assert.ts';
import { decodeWif, isValidBitcoinAddress, p2wpkhAddress } from './bitcoin-address.ts';
import { evmAddressOfPublicKey, isValidEvmAddress, sameEvmAddress } from './evm-address.ts';
import {
  decodeMoneroAddress,
  isValidMoneroAddress,
  moneroAddress,
  parseMoneroScalar,
  publicKeyOfScalar,
} from './monero-keys.ts';
import { signMonero, verifyMonero } from './monero-signature.ts';
import {
  compressedPublicKey,
  parseSecp256k1Hex,
  recoverSigner,
  signDigestRecoverable,
  toUncompressed,
} from './secp256k1-signature.ts';
import {
  decodeSolanaKeypair,
  isValidSolanaAddress,
  solanaAddressOfPublicKey,
  solanaPublicKey,
} from './solana-address.ts';
import { isValidTronAddress, tronAddressOfPublicKey } from './tron-address.ts';
import type { AddressOutcome, MoneroKeyPair, WalletChain, WalletKey } from './wallet-chain.ts';

export interface ChainKeyRow {
  addressOfKey(key: WalletKey): AddressOutcome;
  isValidAddress(address: string): boolean;
  sign(key: WalletKey, message: Uint8Array): Uint8Array;
  verify(address: string, message: Uint8Array, signature: Uint8Array): boolean;
}

type SecretOutcome = { ok: true; secretKey: Uint8Array } | { ok: false; reason: string };

interface Secp256k1Chain {
  parseKey(text: string): SecretOutcome;
  digest(message: Uint8Array): Uint8Array;
  /** The address of a public key given compressed (33 bytes). */
  addressOf(compressed: Uint8Array): string;
  isValidAddress(address: string): boolean;
  sameAddress(left: string, right: string): boolean;
}

function secp256k1Row(chain: Secp256k1Chain): ChainKeyRow {
  const secretOf = (key: WalletKey): SecretOutcome =>
    typeof key === 'string'
      ? chain.parseKey(key)
      : { ok: false, reason: 'this chain takes one private key, not a view and spend key' };
  return {
    addressOfKey(key) {
      const secret = secretOf(key);
      return secret.ok ? { ok: true, address: chain.addressOf(compressedPublicKey(secret.secretKey)) } : secret;
    },
    isValidAddress: chain.isValidAddress,
    sign(key, message) {
      const secret = secretOf(key);
      assert(secret.ok, 'sign with a well-formed key (checked by addressOfKey)');
      return signDigestRecoverable(chain.digest(message), secret.secretKey);
    },
    verify(address, message, signature) {
      if (!chain.isValidAddress(address)) return false;
      const signer = recoverSigner(chain.digest(message), signature);
      return signer !== undefined && chain.sameAddress(chain.addressOf(signer), address);
    },
  };
}

function hexSecret(chain: string): (text: string) => SecretOutcome {
  return (text) => {
    const secretKey = parseSecp256k1Hex(text.trim());
    return secretKey === undefined
      ? { ok: false, reason: `${chain} private key must be 64 hex digits (optional 0x) of a scalar in [1, n)` }
      : { ok: true, secretKey };
  };
}

const EVM_ROW = secp256k1Row({
  parseKey: hexSecret('evm'),
  digest: (message) => keccak_256(message),
  addressOf: (compressed) => evmAddressOfPublicKey(toUncompressed(compressed)),
  isValidAddress: isValidEvmAddress,
  sameAddress: sameEvmAddress,
});

const BITCOIN_ROW = secp256k1Row({
  parseKey: (text) => decodeWif(text.trim()),
  digest: (message) => sha256(sha256(message)),
  addressOf: p2wpkhAddress,
  isValidAddress: isValidBitcoinAddress,
  sameAddress: (left, right) => left.toLowerCase() === right.toLowerCase(),
});

const TRON_ROW = secp256k1Row({
  parseKey: hexSecret('tron'),
  digest: (message) => sha256(message),
  addressOf: (compressed) => tronAddressOfPublicKey(toUncompressed(compressed)),
  isValidAddress: isValidTronAddress,
  sameAddress: (left, right) => left === right,
});

const SOLANA_ROW: ChainKeyRow = {
  addressOfKey(key) {
    if (typeof key !== 'string') return { ok: false, reason: 'solana takes one private key, not a view and spend key' };
    const decoded = decodeSolanaKeypair(key.trim());
    return decoded.ok ? { ok: true, address: solanaAddressOfPublicKey(decoded.publicKey) } : decoded;
  },
  isValidAddress: isValidSolanaAddress,
  sign(key, message) {
    const decoded = typeof key === 'string' ? decodeSolanaKeypair(key.trim()) : undefined;
    assert(decoded?.ok === true, 'sign with a well-formed key (checked by addressOfKey)');
    return ed25519.sign(message, decoded.seed);
  },
  verify(address, message, signature) {
    const publicKey = solanaPublicKey(address);
    if (publicKey === undefined || signature.length !== 64) return false;
    try {
      return ed25519.verify(signature, message, publicKey);
    } catch {
      // A public key that is not a curve point (an off-curve program address) signs nothing.
      return false;
    }
  },
};

type MoneroScalarsOutcome = { ok: true; spend: bigint; view: bigint } | { ok: false; reason: string };

function moneroScalarsOf(key: WalletKey): MoneroScalarsOutcome {
  // Keys arrive from request bodies: anything but an object of two texts is refused here.
  if (typeof key !== 'object' || key === null) return { ok: false, reason: 'monero takes a view key and a spend key' };
  const pair: Partial<MoneroKeyPair> = key;
  if (typeof pair.viewKey !== 'string' || typeof pair.spendKey !== 'string') {
    return { ok: false, reason: 'monero takes a view key and a spend key' };
  }
  const view = parseMoneroScalar(pair.viewKey.trim());
  const spend = parseMoneroScalar(pair.spendKey.trim());
  if (view === undefined)
    return { ok: false, reason: 'monero view key must be 64 hex digits of a reduced scalar (little-endian, below l)' };
  if (spend === undefined)
    return { ok: false, reason: 'monero spend key must be 64 hex digits of a reduced scalar (little-endian, below l)' };
  return { ok: true, spend, view };
}

const MONERO_ROW: ChainKeyRow = {
  addressOfKey(key) {
    const scalars = moneroScalarsOf(key);
    if (!scalars.ok) return scalars;
    return { ok: true, address: moneroAddress(publicKeyOfScalar(scalars.spend), publicKeyOfScalar(scalars.view)) };
  },
  isValidAddress: isValidMoneroAddress,
  sign(key, message) {
    const scalars = moneroScalarsOf(key);
    assert(scalars.ok, 'sign with a well-formed key (checked by addressOfKey)');
    return signMonero(message, scalars.spend);
  },
  verify(address, message, signature) {
    const decoded = decodeMoneroAddress(address);
    return decoded !== undefined && verifyMonero(message, decoded.publicSpend, signature);
  },
};

export const CHAIN_KEYS: Readonly<Record<WalletChain, ChainKeyRow>> = {
  ethereum: EVM_ROW,
  base: EVM_ROW,
  solana: SOLANA_ROW,
  bitcoin: BITCOIN_ROW,
  tron: TRON_ROW,
  monero: MONERO_ROW,
};
