/**
 * EVM addresses (ethereum, base): the last 20 bytes of keccak256 of the uncompressed public key
 * without its 0x04 prefix, written with the EIP-55 mixed-case checksum.
 *
 * Validity follows EIP-55: `0x` and 40 hex digits; an all-lowercase or all-uppercase address
 * carries no checksum and is accepted; a mixed-case one must match its checksum exactly.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { toHex } from './key-text.ts';

const SHAPE = /^0x[0-9a-fA-F]{40}$/u;

/** EIP-55 form of a 20-byte address given as 40 hex digits (any case). */
export function toChecksumAddress(hexDigits: string): string {
  const lower = hexDigits.toLowerCase();
  const hash = toHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let index = 0; index < lower.length; index++) {
    const char = lower[index] ?? '';
    out += Number.parseInt(hash[index] ?? '0', 16) >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

export function evmAddressOfPublicKey(uncompressed: Uint8Array): string {
  const hash = keccak_256(uncompressed.subarray(1));
  return toChecksumAddress(toHex(hash.subarray(12)));
}

export function isValidEvmAddress(address: string): boolean {
  if (!SHAPE.test(address)) return false;
  const digits = address.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return toChecksumAddress(digits) === address;
}

/** Two valid EVM addresses name the same account (case is only a checksum). */
export function sameEvmAddress(left: string, right: string): boolean {
  return left.toLowerCase() === right.toLowerCase();
}
