/**
 * @noble/hashes/sha2.js inside the k6 bundle, with SHA-512 and SHA-256 computed by k6 itself
 * (`k6/crypto`, Go) instead of in JavaScript: every other export is noble's own.
 *
 * Why: a wallet agent derives its keys from the mnemonic the service answers (BIP-39 seed:
 * PBKDF2-HMAC-SHA512 of 2048 rounds, then BIP-32 / SLIP-10 / Monero HMAC-SHA512 steps). noble's
 * SHA-512 runs on 32-bit halves in JavaScript; in k6's interpreter (goja) one derivation took
 * about 6 s of CPU (measured: 29.5 s wall on the loaded 2-core machine), so a VU creating a wallet
 * overran every arrival the afp load engine would have served. Native, the 4,096 SHA-512 blocks
 * of the seed take about 30 ms. SHA-256 (mnemonic checksums, bitcoin and tron addresses, the
 * client's ids) likewise.
 *
 * Same interface as noble's hasher (`sha512(msg)`, `.create()` with update, digestInto, digest,
 * clone, _cloneInto, destroy; noble's outputLen, blockLen and oid), so noble's HMAC and PBKDF2 and
 * @scure/bip32 use it unchanged: an instance keeps the bytes it was given and hashes them once,
 * at digest. Bounds: an instance holds what it was fed (the callers feed a block or two).
 */
import { sha256 as nobleSha256, sha512 as nobleSha512 } from '@noble/hashes/sha2.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { sha256 as nativeSha256, sha512 as nativeSha512 } from 'k6/crypto';

export * from '@noble/hashes/sha2.js';

type NativeHash = (data: ArrayBuffer, outputEncoding: 'binary') => ArrayBuffer;

function nativeDigest(hash: NativeHash, chunks: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(hash(concatBytes(...chunks).buffer as ArrayBuffer, 'binary'));
}

/** One hash computation, fed by update() and hashed by k6 at digest. */
class NativeHasher {
  readonly canXOF = false;
  finished = false;
  destroyed = false;
  private chunks: Uint8Array[] = [];
  private readonly hash: NativeHash;
  readonly outputLen: number;
  readonly blockLen: number;

  constructor(hash: NativeHash, outputLen: number, blockLen: number) {
    this.hash = hash;
    this.outputLen = outputLen;
    this.blockLen = blockLen;
  }

  update(data: Uint8Array): this {
    this.usable();
    this.chunks.push(data.slice());
    return this;
  }

  digestInto(out: Uint8Array): void {
    this.usable();
    if (!(out.length >= this.outputLen)) throw new RangeError(`"output" expected length >= ${this.outputLen}`);
    this.finished = true;
    out.set(nativeDigest(this.hash, this.chunks));
  }

  digest(): Uint8Array {
    const out = new Uint8Array(this.outputLen);
    this.digestInto(out);
    return out;
  }

  _cloneInto(to?: NativeHasher): NativeHasher {
    const copy = to ?? new NativeHasher(this.hash, this.outputLen, this.blockLen);
    copy.chunks = this.chunks.slice();
    copy.finished = this.finished;
    copy.destroyed = this.destroyed;
    return copy;
  }

  clone(): NativeHasher {
    return this._cloneInto();
  }

  destroy(): void {
    this.destroyed = true;
    this.chunks = [];
  }

  private usable(): void {
    if (this.destroyed) throw new Error('hash was destroyed');
    if (this.finished) throw new Error('digest() was already called');
  }
}

/** noble's hasher `noble` (its lengths and oid), computed by k6's `hash`. */
function nativeOf<T extends typeof nobleSha512 | typeof nobleSha256>(noble: T, hash: NativeHash): T {
  const once = (message: Uint8Array): Uint8Array => nativeDigest(hash, [message]);
  const create = (): NativeHasher => new NativeHasher(hash, noble.outputLen, noble.blockLen);
  return Object.freeze(Object.assign(once, { ...noble }, { create })) as unknown as T;
}

export const sha512 = nativeOf(nobleSha512, nativeSha512);
export const sha256 = nativeOf(nobleSha256, nativeSha256);
