/**
 * The most bets a target's batch holds, when it refuses a larger batch and says so. Why: the check
 * sends batches of up to four elements, and a target with a smaller maximum refused them all, so
 * a working target failed the run ("expected it accepted"). The check now learns the maximum from
 * the refusal and sends batches within it (dialect-commands.ts), with a minor rule finding.
 * Read from the refusal's message only: the deployment's "Maximum 20 bets per batch" (DEPLOYED.md
 * §2.5) or afp's "bets must be an array of 1 to 50 bets". A refusal that states no count, or none
 * below what was sent, teaches nothing (null).
 */
import type { Refusal } from './operations.ts';
import { statedCount } from './stated-count.ts';

/** Words that state a batch's maximum, and nothing else. */
const MESSAGE_PATTERNS: readonly RegExp[] = [
  /\bmaximum (?:of )?(\d{1,6}) bets\b/i,
  /\barray of 1 to (\d{1,6}) bets\b/i,
  /\bat most (\d{1,6}) bets\b/i,
];

/** The maximum the refusal states, when it is at least 1 and below `sentCount` (the refused batch's size); else null. */
export function statedBatchMaximum(refusal: Refusal, sentCount: number): number | null {
  const stated = statedCount(refusal.message, MESSAGE_PATTERNS);
  return stated !== null && stated >= 1 && stated < sentCount ? stated : null;
}
