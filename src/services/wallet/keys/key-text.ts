/**
 * Key text: strict parsing of the hex texts keys and public keys travel as.
 *
 * Parsing returns `undefined` for anything ill-formed (odd length, non-hex digits, wrong size) so
 * that callers turn it into a refusal; nothing here throws on user input.
 */
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';

const HEX = /^[0-9a-fA-F]*$/u;

/** `byteCount` bytes from hex digits, with or without a `0x` prefix when `allowPrefix`. */
export function parseHexBytes(text: string, byteCount: number, allowPrefix: boolean): Uint8Array | undefined {
  const digits = allowPrefix && /^0x/iu.test(text) ? text.slice(2) : text;
  if (digits.length !== byteCount * 2 || !HEX.test(digits)) return undefined;
  return hexToBytes(digits.toLowerCase());
}

export function toHex(bytes: Uint8Array): string {
  return bytesToHex(bytes);
}

export function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let index = 0; index < left.length; index++) difference |= (left[index] ?? 0) ^ (right[index] ?? 0);
  return difference === 0;
}
