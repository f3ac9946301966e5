/**
 * Deterministic identifiers: every id, key, address and transaction hash is drawn from a
 * named Rng stream, so the same seed gives the same ids. Formats follow spec/NOTES.md:
 * agent ids `ag_` + 12 hex, referral codes `ref_` + 8 hex, platform keys `sk_live_` + 48 hex.
 *
 * `next(prefix, n)` is exactly `prefix + rng.hex(ceil(n / 2)).slice(0, n)`: the same 32-bit draws
 * (ceil(ceil(n / 2) / 4) of them, in order), each written as 8 lowercase hex digits. It builds
 * the text from character codes in one flat string (the casino draws one id per bet: number
 * `toString(16)` and padding cost several times more, and a concatenated string is flattened
 * again by the first map that hashes it).
 */
import { hash } from 'node:crypto';
import type { Rng } from './rng.ts';

export const KEY_PREFIX = 'sk_live_';

/** Character codes of the 16 lowercase hex digits. */
const HEX_CODES: readonly number[] = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
/** Longest id text built from codes (longer ones, e.g. 128-hex deposit addresses, concatenate words). */
const CODES_TEXT_MAX = 96;
/** One scratch array of character codes per text length (bounded by CODES_TEXT_MAX). */
const scratchByLength: number[][] = [];

function scratchCodes(length: number): number[] {
  let codes = scratchByLength[length];
  if (codes === undefined) {
    codes = new Array<number>(length).fill(0);
    scratchByLength[length] = codes;
  }
  return codes;
}

function hex8(word: number): string {
  return word.toString(16).padStart(8, '0');
}

export class IdSource {
  private readonly rng: Rng;

  constructor(rng: Rng) {
    this.rng = rng;
  }

  /** `prefix` followed by `hexLength` lowercase hex characters. */
  next(prefix: string, hexLength: number): string {
    const words = Math.ceil(Math.ceil(hexLength / 2) / 4);
    const length = prefix.length + hexLength;
    if (length > CODES_TEXT_MAX) {
      let hex = '';
      for (let word = 0; word < words; word++) hex += hex8(this.rng.uint32());
      return prefix + hex.slice(0, hexLength);
    }
    const codes = scratchCodes(length);
    for (let index = 0; index < prefix.length; index++) codes[index] = prefix.charCodeAt(index);
    let at = prefix.length;
    for (let word = 0; word < words; word++) {
      const value = this.rng.uint32();
      for (let shift = 28; shift >= 0 && at < length; shift -= 4)
        codes[at++] = HEX_CODES[(value >>> shift) & 15] as number;
    }
    return String.fromCharCode.apply(null, codes);
  }

  /** One 32-bit draw of the id stream, for a caller that writes an id's text itself (the same draws as `next`). */
  word(): number {
    return this.rng.uint32();
  }

  apiKey(): string {
    return this.next(KEY_PREFIX, 48);
  }

  /** An EVM-style address: `0x` + 40 hex. */
  address(): string {
    return this.next('0x', 40);
  }

  /** A transaction hash: `0x` + 64 hex. */
  txHash(): string {
    return this.next('0x', 64);
  }
}

/**
 * Keys are stored as SHA-256 hex digests, never in plain text (spec/NOTES.md). One-shot `hash`:
 * no Hash object per key (a short-lived object whose class a full collection dropped, with the
 * optimized code of its callers).
 */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}
