/**
 * Tron addresses: base58check(0x41 ‖ last 20 bytes of keccak256(uncompressed public key without
 * its 0x04 prefix)) — the EVM hash under Tron's version byte, so every address starts with `T`.
 *
 * Valid: base58check decodes (checksum = first 4 bytes of sha256d) to 21 bytes led by 0x41.
 */
import { base58check } from '@scure/base';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';

const TRON_VERSION = 0x41;
const PAYLOAD_BYTES = 21;
const coder = base58check(sha256);

export function tronAddressOfPublicKey(uncompressed: Uint8Array): string {
  const payload = new Uint8Array(PAYLOAD_BYTES);
  payload[0] = TRON_VERSION;
  payload.set(keccak_256(uncompressed.subarray(1)).subarray(12), 1);
  return coder.encode(payload);
}

export function isValidTronAddress(address: string): boolean {
  const payload = decodeBase58check(address);
  return payload !== undefined && payload.length === PAYLOAD_BYTES && payload[0] === TRON_VERSION;
}

/** The payload of a base58check text, or undefined when its alphabet or checksum is wrong. */
export function decodeBase58check(text: string): Uint8Array | undefined {
  try {
    return coder.decode(text);
  } catch {
    // Not base58, or the 4-byte checksum does not match: not an address.
    return undefined;
  }
}

export function encodeBase58check(payload: Uint8Array): string {
  return coder.encode(payload);
}
