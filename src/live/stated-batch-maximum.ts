/**
 * The most bets a target's batch holds, when it refuses a larger batch and says so. Why: the check
 * sends batches of up to four elements, and a target with a smaller maximum refused them all, so
 * a working target failed the run ("expected it accepted"). The check now learns the maximum from
 * the refusal and sends batches within it (dialect-commands.ts), with a minor rule finding.
 * Read from the refusal's message: the deployment's "Maximum 20 bets per batch" (DEPLOYED.md
 * §2.5) or afp's "bets must be an array of 1 to 50 bets"; where the refusal's name is the batch
 * rule's (BATCH_RULE_NAMES: the deployment's `too_many_bets`), in the target's own words too: a
 * whole-number field named as the maximum (MAXIMUM_FIELD: `max`, `maximum`, `max_bets`,
 * `max_batch_size`, ...), else the one number its message writes (stated-amount.ts). A refusal
 * that states no count, or none below what was sent, teaches nothing (null).
 */
import type { Refusal } from './operations.ts';
import { refusalNamed, soleNumberInMessage, statedField } from './stated-amount.ts';
import { statedCount } from './stated-count.ts';

/** The names a refusal of a batch above its maximum goes by: DEPLOYED.md §2.5's, and the same words turned round. */
const BATCH_RULE_NAMES: ReadonlySet<string> = new Set(['too_many_bets', 'batch_too_large', 'batch_too_big']);

/** A field naming the batch's maximum, read in a refusal named as the batch rule only. */
const MAXIMUM_FIELD = /^max(?:imum)?(?:_(?:bets|batch|batch_size|size|count))?$/i;

/** A whole number of bets (a JSON integer or a string of digits); null for anything else. */
function countOf(value: unknown): number | null {
  const count = typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value;
  return typeof count === 'number' && Number.isSafeInteger(count) ? count : null;
}

/** Words that state a batch's maximum, and nothing else. */
const MESSAGE_PATTERNS: readonly RegExp[] = [
  /\bmaximum (?:of )?(\d{1,6}) bets\b/i,
  /\barray of 1 to (\d{1,6}) bets\b/i,
  /\bat most (\d{1,6}) bets\b/i,
];

/** The maximum the refusal states, when it is at least 1 and below `sentCount` (the refused batch's size); else null. */
export function statedBatchMaximum(refusal: Refusal, sentCount: number): number | null {
  const named = refusalNamed(refusal, BATCH_RULE_NAMES);
  const stated =
    (named ? statedField(refusal, MAXIMUM_FIELD, countOf) : null) ??
    statedCount(refusal.message, MESSAGE_PATTERNS) ??
    (named ? countOf(soleNumberInMessage(refusal)) : null);
  return stated !== null && stated >= 1 && stated < sentCount ? stated : null;
}
