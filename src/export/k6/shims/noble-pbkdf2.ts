/**
 * @noble/hashes/pbkdf2.js inside the k6 bundle: PBKDF2-HMAC-SHA512 with each round one call to
 * k6's native HMAC (noble-hmac.ts); any other hash stays noble's.
 *
 * Why: a wallet agent's BIP-39 seed is PBKDF2-HMAC-SHA512 of 2048 rounds (@scure/bip39's
 * mnemonicToSeedSync). With noble's JavaScript SHA-512 it took about 6 s of CPU in k6's goja
 * (29.5 s wall on the loaded 2-core machine) against milliseconds in Node, so wallet agents
 * overran their arrivals; 2048 native HMACs take tens of milliseconds.
 * RFC 8018 §5.2: T_i = U_1 ^ … ^ U_c, U_1 = PRF(P, S ‖ INT(i)), U_j = PRF(P, U_{j-1}).
 */
import { pbkdf2 as noblePbkdf2, pbkdf2Async as noblePbkdf2Async } from '@noble/hashes/pbkdf2.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { hmac as nativeHmac } from 'k6/crypto';
import { bufferOf } from './noble-hmac.ts';

type Bytes = Uint8Array | string;
type Options = Parameters<typeof noblePbkdf2>[3];
const OUTPUT_BYTES = 64;
const WORDS = OUTPUT_BYTES / 4;
/** The bounds noble enforces (a round count from 1, an output of 1 byte up to 2^32 - 1 blocks). */
const ROUNDS_MAX = 2 ** 31;

const bytesOf = (data: Bytes): Uint8Array => (typeof data === 'string' ? utf8ToBytes(data) : data);

function pbkdf2Sha512(password: Bytes, salt: Bytes, options: Options): Uint8Array {
  const { c, dkLen = 32 } = options;
  if (!Number.isSafeInteger(c) || c < 1 || c > ROUNDS_MAX) throw new Error(`pbkdf2: rounds ${c} out of range`);
  if (!Number.isSafeInteger(dkLen) || dkLen < 1 || dkLen > OUTPUT_BYTES * 1024)
    throw new Error(`pbkdf2: dkLen ${dkLen} out of range`);
  // The loop keeps k6's own ArrayBuffers and one Uint32Array view a round: in goja every typed
  // array made costs microseconds, as much as the native HMAC itself.
  const key = bufferOf(bytesOf(password));
  const saltBytes = bytesOf(salt);
  const out = new Uint8Array(dkLen);
  for (let block = 1, at = 0; at < dkLen; block++, at += OUTPUT_BYTES) {
    const first = new Uint8Array(saltBytes.length + 4);
    first.set(saltBytes);
    new DataView(first.buffer).setUint32(saltBytes.length, block, false);
    let u = nativeHmac('sha512', key, first.buffer, 'binary');
    const sum = new Uint32Array(u.slice(0));
    for (let round = 1; round < c; round++) {
      u = nativeHmac('sha512', key, u, 'binary');
      const words = new Uint32Array(u);
      for (let word = 0; word < WORDS; word++) sum[word] = (sum[word] as number) ^ (words[word] as number);
    }
    out.set(new Uint8Array(sum.buffer).subarray(0, Math.min(OUTPUT_BYTES, dkLen - at)), at);
  }
  return out;
}

/** noble's `pbkdf2`, PBKDF2-HMAC-SHA512 by k6's native HMAC. */
export function pbkdf2(hash: typeof sha512, password: Bytes, salt: Bytes, options: Options): Uint8Array {
  return hash === sha512 ? pbkdf2Sha512(password, salt, options) : noblePbkdf2(hash, password, salt, options);
}

/** noble's `pbkdf2Async`, PBKDF2-HMAC-SHA512 by k6's native HMAC (at once: k6 runs it in its own VU). */
export function pbkdf2Async(hash: typeof sha512, password: Bytes, salt: Bytes, options: Options): Promise<Uint8Array> {
  return hash === sha512
    ? Promise.resolve(pbkdf2Sha512(password, salt, options))
    : noblePbkdf2Async(hash, password, salt, options);
}
