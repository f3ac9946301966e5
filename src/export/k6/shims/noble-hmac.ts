/**
 * @noble/hashes/hmac.js inside the k6 bundle: HMAC-SHA512 in one call to k6's own native HMAC
 * (`k6/crypto`, Go); any other hash, and `hmac.create`, stay noble's.
 *
 * Why: BIP-32, SLIP-10 and Monero key derivation (a wallet agent derives its keys from the
 * mnemonic the service answers) are chains of HMAC-SHA512; in k6's interpreter (goja) noble's
 * JavaScript SHA-512 made each one cost milliseconds (shims/noble-sha2.ts says how much).
 */
import { hmac as nobleHmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { hmac as nativeHmac } from 'k6/crypto';

/** The bytes' own ArrayBuffer when they fill it, else a copy's (k6 reads whole ArrayBuffers). */
export function bufferOf(bytes: Uint8Array): ArrayBuffer {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole && bytes.buffer instanceof ArrayBuffer ? bytes.buffer : bytes.slice().buffer;
}

/** HMAC-SHA512 of `message` under `key`, by k6. */
export function nativeHmacSha512(key: Uint8Array, message: Uint8Array): Uint8Array {
  return new Uint8Array(nativeHmac('sha512', bufferOf(key), bufferOf(message), 'binary'));
}

type Bytes = Uint8Array | string;
const bytesOf = (data: Bytes): Uint8Array => (typeof data === 'string' ? utf8ToBytes(data) : data);

function hmacOnce(hash: typeof sha512, key: Bytes, message: Bytes): Uint8Array {
  if (hash === sha512) return nativeHmacSha512(bytesOf(key), bytesOf(message));
  return nobleHmac(hash, bytesOf(key), bytesOf(message));
}

/** noble's `hmac`, HMAC-SHA512 by k6. */
export const hmac: typeof nobleHmac = Object.assign(hmacOnce, { create: nobleHmac.create }) as typeof nobleHmac;
