/**
 * The verdict pieces every fairness scheme gives (afp-scheme.ts, deployed-scheme.ts): a check that
 * passed, one that could not be made (and why), and the verdict on a revealed server seed that is
 * not a seed at all, where nothing else can be checked. One place, so two schemes say it alike.
 */
import { isSeedHex } from './verify-wire-bet.ts';
import type { Check, SchemeVerdict } from './scheme.ts';

export const OK: Check = { status: 'ok' };

export const notChecked = (reason: string): Check => ({ status: 'not-checked', reason });

/** The verdict when `serverSeedHex` is not 64 lowercase hex characters; null when it is one. */
export function unreadableSeedVerdict(serverSeedHex: string): SchemeVerdict | null {
  if (isSeedHex(serverSeedHex)) return null;
  const reason = 'the revealed server seed is not 64 lowercase hex characters';
  return {
    commitment: { status: 'failed', detail: reason },
    resultHash: notChecked(reason),
    outcome: notChecked(reason),
    payout: notChecked(reason),
    multiplier: null,
  };
}
