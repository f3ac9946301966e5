/**
 * Deterministic identifiers: every id, key, address and transaction hash is drawn from a
 * named Rng stream, so the same seed gives the same ids. Formats follow spec/NOTES.md:
 * agent ids `ag_` + 12 hex, referral codes `ref_` + 8 hex, platform keys `sk_live_` + 48 hex.
 */
import { createHash } from 'node:crypto';
import type { Rng } from './rng.ts';

export const KEY_PREFIX = 'sk_live_';

export class IdSource {
  private readonly rng: Rng;

  constructor(rng: Rng) {
    this.rng = rng;
  }

  /** `prefix` followed by `hexLength` lowercase hex characters. */
  next(prefix: string, hexLength: number): string {
    return prefix + this.rng.hex(Math.ceil(hexLength / 2)).slice(0, hexLength);
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

/** Keys are stored as SHA-256 hex digests, never in plain text (spec/NOTES.md). */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
