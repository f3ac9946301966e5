/**
 * DrawStream: the provably fair random numbers of one bet, published so anyone can verify a
 * bet by hand (docs/fairness.md).
 *
 * Block k of a bet is HMAC-SHA256(key = the server seed's 64-character hex text as UTF-8,
 * message): block 0 hashes "<client_seed>:<nonce>", block k ≥ 1 hashes
 * "<client_seed>:<nonce>:<k>" (the cursor). Each block gives eight big-endian 32-bit words,
 * consumed in order; a game that needs more words moves to the next block. One bet consumes
 * one nonce however many words it draws.
 *
 * Mapping without modulo bias: `int(n)` rejects words ≥ 2^32 − (2^32 mod n) and draws again;
 * `fraction52()` is a uniform integer in [0, 2^52) (the first word and the top 20 bits of the
 * next) for continuous games (crash, multiplier); `sample(n, k)` is a partial Fisher–Yates
 * shuffle driven by `int`. The real platform's `% 10000` is biased; afp never uses modulo
 * without rejection.
 */
import { createHmac } from 'node:crypto';
import { assert } from '../../../core/assert.ts';

const TWO_POW_32 = 0x1_0000_0000;
/** The "no block yet" buffer, shared (never written): one allocation fewer per bet. */
const NO_BYTES: Buffer = Buffer.alloc(0);
const WORDS_PER_BLOCK = 8;
/** A bet may draw at most this many blocks (256 words): far above any game's need, a bound on work. */
export const MAX_BLOCKS_PER_BET = 32;

/**
 * The same number, as a small integer where it is one. A word of 2^31 or more is a boxed double,
 * and so is its remainder until optimised code runs: stored in a game's detail, such a value
 * turns the field into a boxed double for every later detail of that shape (one more object kept
 * per retained bet). `value | 0` is exact below 2^30.
 */
function smallInteger(value: number): number {
  return value < 0x4000_0000 ? value | 0 : value;
}

export function blockMessage(clientSeed: string, nonce: number, block: number): string {
  return block === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${block}`;
}

/** `key`: the server seed's text, or the same text's UTF-8 bytes (the HMAC is the same; bytes spare a conversion per call). */
export function hmacBlock(key: string | Buffer, clientSeed: string, nonce: number, block: number): Buffer {
  return createHmac('sha256', key)
    .update(blockMessage(clientSeed, nonce, block))
    .digest();
}

export class DrawStream {
  readonly serverSeedHex: string;
  readonly clientSeed: string;
  readonly nonce: number;
  private block = -1;
  private bytes: Buffer = NO_BYTES;
  private word = WORDS_PER_BLOCK;
  /** Block 0 (32 bytes): the bet's `result_hash`, kept as bytes by the bet book. */
  readonly firstBlock: Buffer;
  /** The hex of block 0: the bet's `result_hash`. */
  readonly firstBlockHex: string;

  /** The HMAC key: the seed's text, or its UTF-8 bytes when the caller has them (seed-book.ts `keyBytes`). */
  private readonly key: string | Buffer;

  constructor(serverSeedHex: string, clientSeed: string, nonce: number, keyBytes?: Buffer) {
    assert(Number.isSafeInteger(nonce) && nonce >= 0, 'nonce is a non-negative integer');
    this.serverSeedHex = serverSeedHex;
    this.key = keyBytes ?? serverSeedHex;
    this.clientSeed = clientSeed;
    this.nonce = nonce;
    this.nextBlock();
    this.firstBlock = this.bytes;
    this.firstBlockHex = this.bytes.toString('hex');
  }

  private nextBlock(): void {
    this.block += 1;
    assert(this.block < MAX_BLOCKS_PER_BET, 'a bet draws at most MAX_BLOCKS_PER_BET blocks');
    this.bytes = hmacBlock(this.key, this.clientSeed, this.nonce, this.block);
    this.word = 0;
  }

  /** Blocks used so far (for the audit trail). */
  get blocksUsed(): number {
    return this.block + 1;
  }

  /** The next uniform 32-bit word. */
  uint32(): number {
    if (this.word === WORDS_PER_BLOCK) this.nextBlock();
    const value = this.bytes.readUInt32BE(this.word * 4);
    this.word += 1;
    return value;
  }

  /** Uniform integer in [0, n), n in [1, 2^32], without modulo bias. */
  int(n: number): number {
    assert(Number.isSafeInteger(n) && n >= 1 && n <= TWO_POW_32, 'int bound in [1, 2^32]');
    const limit = TWO_POW_32 - (TWO_POW_32 % n);
    for (;;) {
      const word = this.uint32();
      if (word < limit) return smallInteger(word % n);
    }
  }

  /** Uniform integer in [0, 2^52): r = fraction52() / 2^52 is uniform on a grid of [0, 1). */
  fraction52(): bigint {
    const high = BigInt(this.uint32());
    const low = BigInt(this.uint32() >>> 12);
    return (high << 20n) | low;
  }

  /** k distinct values of [0, n) in draw order (partial Fisher–Yates). */
  sample(n: number, k: number): number[] {
    assert(Number.isSafeInteger(k) && k >= 0 && k <= n && n <= 1024, 'sample k of n, n ≤ 1024');
    const pool = Array.from({ length: n }, (_, index) => index);
    for (let index = 0; index < k; index++) {
      const pick = index + this.int(n - index);
      const chosen = pool[pick] as number;
      pool[pick] = pool[index] as number;
      pool[index] = chosen;
    }
    return pool.slice(0, k);
  }
}

export const FRACTION52_DENOMINATOR = 1n << 52n;
