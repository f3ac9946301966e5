/**
 * secp256k1 signatures for the EVM chains, bitcoin and tron: recoverable ECDSA (RFC 6979
 * deterministic nonces, low S) over a 32-byte digest of the transaction's bytes.
 *
 * Signatures are 65 bytes r ‖ s ‖ v with v = 27 + recovery bit (the Ethereum wire form, which
 * Tron also uses). Verifying recovers the public key from the signature and digest, checks the
 * signature against it, and compares the address that key controls with the claimed address:
 * the caller holds an address, not a public key. Bitcoin's witness carries DER + public key
 * instead; the recoverable form is a simplification with the same key and curve.
 * Digests per chain (chosen by the caller): keccak256 (EVM), sha256 (tron's txID), sha256d
 * (bitcoin).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { parseHexBytes } from './key-text.ts';

const SIGNATURE_BYTES = 65;
const V_OFFSET = 27;

/** A 32-byte secp256k1 secret key from 64 hex digits (optional 0x); undefined when not in [1, n). */
export function parseSecp256k1Hex(text: string): Uint8Array | undefined {
  const key = parseHexBytes(text, 32, true);
  if (key === undefined || !secp256k1.utils.isValidSecretKey(key)) return undefined;
  return key;
}

/** The 65-byte uncompressed public key (0x04 ‖ x ‖ y). */
export function uncompressedPublicKey(secretKey: Uint8Array): Uint8Array {
  return secp256k1.getPublicKey(secretKey, false);
}

/** The 33-byte compressed public key. */
export function compressedPublicKey(secretKey: Uint8Array): Uint8Array {
  return secp256k1.getPublicKey(secretKey, true);
}

export function signDigestRecoverable(digest: Uint8Array, secretKey: Uint8Array): Uint8Array {
  const recovered = secp256k1.sign(digest, secretKey, { prehash: false, format: 'recovered' });
  const signature = new Uint8Array(SIGNATURE_BYTES);
  signature.set(recovered.subarray(1, 65), 0);
  signature[64] = V_OFFSET + (recovered[0] ?? 0);
  return signature;
}

/** The signer's compressed public key, or undefined when the signature does not verify. */
export function recoverSigner(digest: Uint8Array, signature: Uint8Array): Uint8Array | undefined {
  if (signature.length !== SIGNATURE_BYTES) return undefined;
  const recovery = (signature[64] ?? 0) - V_OFFSET;
  if (recovery !== 0 && recovery !== 1) return undefined;
  const recovered = new Uint8Array(SIGNATURE_BYTES);
  recovered[0] = recovery;
  recovered.set(signature.subarray(0, 64), 1);
  try {
    const publicKey = secp256k1.recoverPublicKey(recovered, digest, { prehash: false });
    const compact = signature.subarray(0, 64);
    return secp256k1.verify(compact, digest, publicKey, { prehash: false }) ? publicKey : undefined;
  } catch {
    // A malformed r or s (zero, out of range) or no point for this r: not a signature.
    return undefined;
  }
}

/** Compressed or uncompressed encoding of the same public key, uncompressed. */
export function toUncompressed(publicKey: Uint8Array): Uint8Array {
  return secp256k1.Point.fromBytes(publicKey).toBytes(false);
}
