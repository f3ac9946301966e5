/**
 * Monero keys and addresses (NOTES.md "Wallet"): private spend key = the first 32 bytes of
 * HMAC-SHA512(key "monero seed", BIP-39 seed) reduced mod ℓ; private view key = keccak256(spend
 * key) reduced mod ℓ (Monero's own view-from-spend rule); public keys = scalar · G on ed25519;
 * address = Monero base58 of 0x12 ‖ public spend ‖ public view ‖ first 4 bytes of keccak256 of
 * those 65 bytes.
 *
 * Scalars are 32 bytes little-endian (Monero's `sc_reduce32` reads them so); a private key text
 * is 64 hex digits of a canonical scalar in [1, ℓ). Monero base58 (8-byte blocks → 11 characters)
 * is @scure/base's `base58xmr`. Valid addresses: mainnet primary (0x12) and subaddress (0x2a),
 * 69 bytes, and integrated (0x13, with an 8-byte payment id), 77 bytes; checksum and both public
 * keys (valid curve points) are checked. Subaddresses are derived in monero-subaddress.ts.
 * Non-goals: testnet prefixes.
 */
import { base58xmr } from '@scure/base';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE, numberToBytesLE } from '@noble/curves/utils.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { assert } from '../../../core/assert.ts';
import { parseHexBytes, sameBytes, toHex } from './key-text.ts';

export const ED25519_ORDER = ed25519.Point.Fn.ORDER;
const PRIMARY_PREFIX = 0x12;
const INTEGRATED_PREFIX = 0x13;
export const SUBADDRESS_PREFIX = 0x2a;
const STANDARD_BYTES = 69;
const INTEGRATED_BYTES = 77;
const MONERO_SEED_KEY = utf8ToBytes('monero seed');

/** Monero's `sc_reduce`: little-endian bytes (32 or 64) as a number, mod ℓ. */
export function reduceScalar(bytes: Uint8Array): bigint {
  return bytesToNumberLE(bytes) % ED25519_ORDER;
}

export function scalarBytes(scalar: bigint): Uint8Array {
  return numberToBytesLE(scalar, 32);
}

/** Monero's hash-to-scalar: keccak256 reduced mod ℓ. */
export function hashToScalar(bytes: Uint8Array): bigint {
  return reduceScalar(keccak_256(bytes));
}

export interface MoneroScalars {
  spend: bigint;
  view: bigint;
}

export function moneroScalarsOfSeed(bip39Seed: Uint8Array): MoneroScalars {
  const spend = reduceScalar(hmac(sha512, MONERO_SEED_KEY, bip39Seed).subarray(0, 32));
  return { spend, view: viewScalarOfSpend(spend) };
}

export function viewScalarOfSpend(spend: bigint): bigint {
  return hashToScalar(scalarBytes(spend));
}

export function publicKeyOfScalar(scalar: bigint): Uint8Array {
  assert(scalar > 0n && scalar < ED25519_ORDER, 'a monero private key is a scalar in [1, l)');
  return ed25519.Point.BASE.multiply(scalar).toBytes();
}

/** A standard address: primary (0x12) by default, or a subaddress (0x2a) of its two public keys. */
export function moneroAddress(
  publicSpend: Uint8Array,
  publicView: Uint8Array,
  prefix: number = PRIMARY_PREFIX,
): string {
  const body = new Uint8Array(STANDARD_BYTES);
  body[0] = prefix;
  body.set(publicSpend, 1);
  body.set(publicView, 33);
  body.set(keccak_256(body.subarray(0, 65)).subarray(0, 4), 65);
  return base58xmr.encode(body);
}

/** A private key text (64 hex digits, little-endian) as a canonical scalar in [1, ℓ). */
export function parseMoneroScalar(text: string): bigint | undefined {
  const bytes = parseHexBytes(text, 32, false);
  if (bytes === undefined) return undefined;
  const scalar = bytesToNumberLE(bytes);
  return scalar > 0n && scalar < ED25519_ORDER ? scalar : undefined;
}

export function scalarText(scalar: bigint): string {
  return toHex(scalarBytes(scalar));
}

export interface DecodedMoneroAddress {
  prefix: number;
  publicSpend: Uint8Array;
  publicView: Uint8Array;
}

export function decodeMoneroAddress(address: string): DecodedMoneroAddress | undefined {
  if (address.length === 0 || address.length > 120) return undefined;
  let body: Uint8Array;
  try {
    body = base58xmr.decode(address);
  } catch {
    // Outside the alphabet or a block that overflows its size: not an address.
    return undefined;
  }
  const prefix = body[0] ?? -1;
  const expectedBytes = prefix === INTEGRATED_PREFIX ? INTEGRATED_BYTES : STANDARD_BYTES;
  if (prefix !== PRIMARY_PREFIX && prefix !== SUBADDRESS_PREFIX && prefix !== INTEGRATED_PREFIX) return undefined;
  if (body.length !== expectedBytes) return undefined;
  const checksumAt = expectedBytes - 4;
  if (!sameBytes(keccak_256(body.subarray(0, checksumAt)).subarray(0, 4), body.subarray(checksumAt))) return undefined;
  const publicSpend = body.slice(1, 33);
  const publicView = body.slice(33, 65);
  if (!isCurvePoint(publicSpend) || !isCurvePoint(publicView)) return undefined;
  return { prefix, publicSpend, publicView };
}

/** True when the private view key `viewKey` (64 hex) is the view key of `address` (its public view key is viewKey · G). */
export function viewKeyMatchesAddress(address: string, viewKey: string): boolean {
  const decoded = decodeMoneroAddress(address);
  const view = parseMoneroScalar(viewKey.trim());
  return decoded !== undefined && view !== undefined && sameBytes(publicKeyOfScalar(view), decoded.publicView);
}

export function isValidMoneroAddress(address: string): boolean {
  return decodeMoneroAddress(address) !== undefined;
}

function isCurvePoint(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes);
    return true;
  } catch {
    // Not the encoding of a point on ed25519.
    return false;
  }
}
