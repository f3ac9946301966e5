/**
 * Nonce findings over a set of bets (the fairness audits): a (server seed, nonce) pair drawn by
 * two bets — the same outcome handed out twice, the replayable-nonce defect — and nonces of a
 * seed that are not consecutive from 0.
 *
 * Duplicates are failures. Gaps are notes only: nonces are also taken by draws that leave no bet
 * in the history (a challenge draws from the challenger's seed; a video-poker deal that is never
 * drawn), and bets evicted from the retained history leave holes at the start.
 * Crash-round bets share their round's (seed, nonce) by design and are left out.
 * Limits: at most MAX_TRACKED_BETS bets; at most MAX_LISTED findings of each kind are listed (all
 * are counted), each reused pair with at most MAX_IDS_PER_PAIR bet ids. Output order is stable: by seed hash, then nonce.
 */
import { assert } from '../core/assert.ts';
import { CRASH_ROUND_VARIANT } from './verify-wire-bet.ts';

export const MAX_TRACKED_BETS = 1_000_000;
export const MAX_LISTED = 100;
/** Bet ids listed per reused pair (all are counted). */
export const MAX_IDS_PER_PAIR = 20;

export interface NonceUse {
  readonly betId: string;
  readonly seedHash: string;
  readonly nonce: number;
  readonly variant: string | null;
}

export interface DuplicateNonce {
  readonly seedHash: string;
  readonly nonce: number;
  /** How many bets drew the pair. */
  readonly betCount: number;
  /** The first MAX_IDS_PER_PAIR of them, sorted. */
  readonly betIds: readonly string[];
}

export interface NonceGap {
  readonly seedHash: string;
  /** Nonces below the seed's highest one that no bet drew. */
  readonly missing: number;
  readonly firstMissing: number;
  readonly highest: number;
}

export interface NonceFindings {
  readonly duplicateCount: number;
  readonly duplicates: readonly DuplicateNonce[];
  readonly gapCount: number;
  readonly gaps: readonly NonceGap[];
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Collects nonce uses; `findings()` may be called at any time. */
export class NonceLedger {
  private readonly seeds = new Map<string, Map<number, string[]>>();
  private count = 0;

  add(use: NonceUse): void {
    if (use.variant === CRASH_ROUND_VARIANT) return;
    this.count += 1;
    assert(this.count <= MAX_TRACKED_BETS, 'a nonce ledger tracks at most MAX_TRACKED_BETS bets');
    let nonces = this.seeds.get(use.seedHash);
    if (nonces === undefined) {
      nonces = new Map();
      this.seeds.set(use.seedHash, nonces);
    }
    const bets = nonces.get(use.nonce);
    if (bets === undefined) nonces.set(use.nonce, [use.betId]);
    else bets.push(use.betId);
  }

  findings(): NonceFindings {
    const duplicates: DuplicateNonce[] = [];
    const gaps: NonceGap[] = [];
    let duplicateCount = 0;
    let gapCount = 0;
    for (const seedHash of [...this.seeds.keys()].sort(byText)) {
      const nonces = this.seeds.get(seedHash) as Map<number, string[]>;
      const sorted = [...nonces.keys()].sort((a, b) => a - b);
      for (const nonce of sorted) {
        const betIds = nonces.get(nonce) as string[];
        if (betIds.length < 2) continue;
        duplicateCount += 1;
        if (duplicates.length < MAX_LISTED) duplicates.push({ seedHash, nonce, betCount: betIds.length, betIds: [...betIds].sort(byText).slice(0, MAX_IDS_PER_PAIR) });
      }
      const highest = sorted[sorted.length - 1] as number;
      const missing = highest + 1 - sorted.length;
      if (missing === 0) continue;
      gapCount += 1;
      const firstMissing = sorted.findIndex((nonce, index) => nonce !== index);
      if (gaps.length < MAX_LISTED) gaps.push({ seedHash, missing, firstMissing, highest });
    }
    return { duplicateCount, duplicates, gapCount, gaps };
  }
}
