/**
 * Solana addresses and keys: the address is the base58 of the 32-byte ed25519 public key; the
 * private key's usual text form is the base58 of the 64-byte keypair (32-byte seed ‖ public key),
 * as solana-keygen and wallets export it.
 *
 * Valid address: base58 decoding to exactly 32 bytes (program-derived addresses are off the
 * curve, so being a curve point is not required). A keypair text is refused when its second half
 * is not the public key of its first half.
 */
import { base58 } from '@scure/base';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sameBytes } from './key-text.ts';

const PUBLIC_KEY_BYTES = 32;

export function solanaAddressOfSeed(seed: Uint8Array): string {
  return base58.encode(ed25519.getPublicKey(seed));
}

export function solanaAddressOfPublicKey(publicKey: Uint8Array): string {
  return base58.encode(publicKey);
}

/** The address and the keypair text of a seed, its public key computed once (a scalar multiplication). */
export function solanaKeysOfSeed(seed: Uint8Array): { readonly address: string; readonly keypair: string } {
  const publicKey = ed25519.getPublicKey(seed);
  const keypair = new Uint8Array(64);
  keypair.set(seed, 0);
  keypair.set(publicKey, 32);
  return { address: base58.encode(publicKey), keypair: base58.encode(keypair) };
}

export type SolanaKeyOutcome = { ok: true; seed: Uint8Array; publicKey: Uint8Array } | { ok: false; reason: string };

export function decodeSolanaKeypair(text: string): SolanaKeyOutcome {
  const bytes = decodeBase58(text);
  if (bytes === undefined) return { ok: false, reason: 'solana key is not base58' };
  if (bytes.length !== 64) return { ok: false, reason: 'solana key is not a 64-byte keypair (seed and public key)' };
  const seed = bytes.slice(0, 32);
  const publicKey = bytes.slice(32);
  if (!sameBytes(ed25519.getPublicKey(seed), publicKey)) {
    return { ok: false, reason: 'solana keypair: the public half does not match the secret half' };
  }
  return { ok: true, seed, publicKey };
}

export function solanaPublicKey(address: string): Uint8Array | undefined {
  const bytes = decodeBase58(address);
  return bytes !== undefined && bytes.length === PUBLIC_KEY_BYTES ? bytes : undefined;
}

export function isValidSolanaAddress(address: string): boolean {
  return solanaPublicKey(address) !== undefined;
}

function decodeBase58(text: string): Uint8Array | undefined {
  if (text.length === 0 || text.length > 128) return undefined;
  try {
    return base58.decode(text);
  } catch {
    // A character outside the base58 alphabet: not a key or address.
    return undefined;
  }
}
