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
    const u = nativeHmac('sha512', key, first.buffer, 'binary');
    const sum = xorRounds(key, u, c);
    out.set(new Uint8Array(sum.buffer).subarray(0, Math.min(OUTPUT_BYTES, dkLen - at)), at);
  }
  return out;
}

/**
 * U_1 ^ … ^ U_c, given U_1 (`first`): each later round one native HMAC, its 16 words XORed into 16 locals.
 * Why locals: goja reads and writes a typed array element for each word of a loop over arrays, a
 * third of the rounds' cost; a local costs nothing (a wallet's 2048 rounds: ~27 → ~19 ms of CPU).
 */
function xorRounds(key: ArrayBuffer, first: ArrayBuffer, rounds: number): Uint32Array {
  let u = first;
  let [s0, s1, s2, s3, s4, s5, s6, s7] = [0, 0, 0, 0, 0, 0, 0, 0];
  let [s8, s9, s10, s11, s12, s13, s14, s15] = [0, 0, 0, 0, 0, 0, 0, 0];
  for (let round = 1; round <= rounds; round++) {
    if (round > 1) u = nativeHmac('sha512', key, u, 'binary');
    const w = new Uint32Array(u);
    s0 ^= w[0] as number;
    s1 ^= w[1] as number;
    s2 ^= w[2] as number;
    s3 ^= w[3] as number;
    s4 ^= w[4] as number;
    s5 ^= w[5] as number;
    s6 ^= w[6] as number;
    s7 ^= w[7] as number;
    s8 ^= w[8] as number;
    s9 ^= w[9] as number;
    s10 ^= w[10] as number;
    s11 ^= w[11] as number;
    s12 ^= w[12] as number;
    s13 ^= w[13] as number;
    s14 ^= w[14] as number;
    s15 ^= w[15] as number;
  }
  return Uint32Array.of(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15);
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
