/**
 * @noble/hashes/sha2.js inside the k6 bundle, with SHA-512 computed by k6 itself (`k6/crypto`,
 * Go) instead of in JavaScript: every other export is noble's own.
 *
 * Why: a wallet agent derives its keys from the mnemonic the service answers (BIP-39 seed:
 * PBKDF2-HMAC-SHA512 of 2048 rounds, then BIP-32 / SLIP-10 / Monero HMAC-SHA512 steps). noble's
 * SHA-512 runs on 32-bit halves in JavaScript; in k6's interpreter (goja) one derivation took
 * about 6 s of CPU (measured: 29.5 s wall on the loaded 2-core machine), so a VU creating a wallet
 * overran every arrival the afp load engine would have served. Native, the 4,096 SHA-512 blocks
 * of the seed take about 30 ms.
 *
 * Same interface as noble's hasher (`sha512(msg)`, `.create()` with update, digestInto, digest,
 * clone, _cloneInto, destroy; outputLen 64, blockLen 128), so noble's HMAC and PBKDF2 and
 * @scure/bip32 use it unchanged: an instance keeps the bytes it was given and hashes them once,
 * at digest. Bounds: an instance holds what it was fed (the callers feed a block or two).
 */
import { sha512 as nobleSha512 } from '@noble/hashes/sha2.js';
import { sha512 as nativeSha512 } from 'k6/crypto';

export * from '@noble/hashes/sha2.js';

const OUTPUT_BYTES = 64;
const BLOCK_BYTES = 128;

function nativeDigest(chunks: readonly Uint8Array[]): Uint8Array {
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const input = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    input.set(chunk, at);
    at += chunk.length;
  }
  return new Uint8Array(nativeSha512(input.buffer, 'binary'));
}

/** One SHA-512 computation, fed by update() and hashed by k6 at digest. */
class NativeSha512 {
  readonly blockLen = BLOCK_BYTES;
  readonly outputLen = OUTPUT_BYTES;
  readonly canXOF = false;
  finished = false;
  destroyed = false;
  private chunks: Uint8Array[] = [];

  update(data: Uint8Array): this {
    this.usable();
    this.chunks.push(data.slice());
    return this;
  }

  digestInto(out: Uint8Array): void {
    this.usable();
    if (!(out.length >= OUTPUT_BYTES)) throw new RangeError(`"output" expected length >= ${OUTPUT_BYTES}`);
    this.finished = true;
    out.set(nativeDigest(this.chunks));
  }

  digest(): Uint8Array {
    const out = new Uint8Array(OUTPUT_BYTES);
    this.digestInto(out);
    return out;
  }

  _cloneInto(to?: NativeSha512): NativeSha512 {
    const copy = to ?? new NativeSha512();
    copy.chunks = this.chunks.slice();
    copy.finished = this.finished;
    copy.destroyed = this.destroyed;
    return copy;
  }

  clone(): NativeSha512 {
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

function hashOnce(message: Uint8Array): Uint8Array {
  return nativeDigest([message]);
}

/** noble's `sha512` (its lengths and oid), computed by k6. */
export const sha512 = Object.freeze(
  Object.assign(hashOnce, { ...nobleSha512 }, { create: (): NativeSha512 => new NativeSha512() }),
);
