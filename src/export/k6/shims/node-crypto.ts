/**
 * node:crypto inside the k6 bundle: the few calls afp's client-side code reaches (sha256 hashes
 * and HMACs for ids, deposit addresses, signing and provably-fair draws) over @noble/hashes, pure
 * JavaScript. k6 has no node:* modules; esbuild maps `node:crypto` here (k6-bundle.ts).
 * Only sha256 exists (and SHA-512 for pbkdf2Sync, BIP-39's seed in mnemonic.ts): any other
 * algorithm is a bug in the bundle's reach, thrown at once.
 * `digest()` without an encoding answers the shim's Buffer, as node answers a Buffer.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { copyOf } from './buffer.ts';

type Data = string | Uint8Array;

function bytesOf(data: Data): Uint8Array {
  return typeof data === 'string' ? utf8ToBytes(data) : data;
}

function onlySha256(algorithm: string): void {
  if (algorithm !== 'sha256') throw new Error(`the k6 bundle hashes with sha256 only, not ${algorithm}`);
}

interface Digest {
  update(data: Data): Digest;
  digest(): Uint8Array;
  digest(encoding: 'hex'): string;
}

function digestOf(finish: (chunks: Uint8Array[]) => Uint8Array): Digest {
  const chunks: Uint8Array[] = [];
  const self = {
    update(data: Data) {
      chunks.push(bytesOf(data));
      return self;
    },
    digest(encoding?: 'hex') {
      const bytes = finish(chunks);
      return encoding === 'hex' ? bytesToHex(bytes) : copyOf(bytes);
    },
  };
  return self as Digest;
}

export function createHash(algorithm: string): Digest {
  onlySha256(algorithm);
  return digestOf((chunks) => sha256(concatBytes(...chunks)));
}

export function createHmac(algorithm: string, key: Data): Digest {
  onlySha256(algorithm);
  return digestOf((chunks) => hmac(sha256, bytesOf(key), concatBytes(...chunks)));
}

export function hash(algorithm: string, data: Data, encoding: 'hex'): string {
  onlySha256(algorithm);
  if (encoding !== 'hex') throw new Error('the k6 bundle hashes to hex only');
  return bytesToHex(sha256(bytesOf(data)));
}

/** node's `pbkdf2Sync` for SHA-512: noble's pbkdf2, which the bundle runs on k6's native HMAC (noble-pbkdf2.ts). */
export function pbkdf2Sync(
  password: Data,
  salt: Data,
  iterations: number,
  keyLength: number,
  digest: string,
): Uint8Array {
  if (digest !== 'sha512') throw new Error(`the k6 bundle derives keys with sha512 only, not ${digest}`);
  return copyOf(pbkdf2(sha512, bytesOf(password), bytesOf(salt), { c: iterations, dkLen: keyLength }));
}
