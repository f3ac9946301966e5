/**
 * Monero signatures, simplified: a Schnorr signature with the private spend key over
 * keccak256(message) — Monero's own `generate_signature` / `check_signature` (the form its
 * spend and reserve proofs use), not the ring (CLSAG) signatures of a real transaction, which
 * need decoys and key images that a simulated chain has no use for.
 *
 * Sign: h = keccak256(m); k = HMAC-SHA512(spend key, h) mod ℓ (deterministic, as afp has no
 * ambient randomness); R = kG; c = Hs(h ‖ P ‖ R); r = k − c·s mod ℓ; signature = c ‖ r (32 bytes
 * each, little-endian). Verify: c, r canonical; R' = rG + cP; c = Hs(h ‖ P ‖ R').
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE, concatBytes } from '@noble/curves/utils.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { assert } from '../../../core/assert.ts';
import { ED25519_ORDER, hashToScalar, publicKeyOfScalar, reduceScalar, scalarBytes } from './monero-keys.ts';

const SIGNATURE_BYTES = 64;

export function signMonero(message: Uint8Array, spend: bigint): Uint8Array {
  const digest = keccak_256(message);
  const publicSpend = publicKeyOfScalar(spend);
  const nonce = reduceScalar(hmac(sha512, scalarBytes(spend), digest));
  assert(nonce !== 0n, 'monero signature nonce is non-zero');
  const commitment = ed25519.Point.BASE.multiply(nonce).toBytes();
  const challenge = hashToScalar(concatBytes(digest, publicSpend, commitment));
  const response = (((nonce - challenge * spend) % ED25519_ORDER) + ED25519_ORDER) % ED25519_ORDER;
  return concatBytes(scalarBytes(challenge), scalarBytes(response));
}

export function verifyMonero(message: Uint8Array, publicSpend: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== SIGNATURE_BYTES) return false;
  const challenge = bytesToNumberLE(signature.subarray(0, 32));
  const response = bytesToNumberLE(signature.subarray(32));
  if (challenge >= ED25519_ORDER || response >= ED25519_ORDER || challenge === 0n) return false;
  try {
    const spendPoint = ed25519.Point.fromBytes(publicSpend);
    const commitment = ed25519.Point.BASE.multiplyUnsafe(response).add(spendPoint.multiplyUnsafe(challenge));
    const digest = keccak_256(message);
    return hashToScalar(concatBytes(digest, publicSpend, commitment.toBytes())) === challenge;
  } catch {
    // The public key is not a curve point: nothing verifies against it.
    return false;
  }
}
