/**
 * The liveness phase of a run (scenario key `liveness`): after the run's end the agents stop and
 * the faults are over (every fault window and game closure ends inside the run), the platform's
 * clock runs on for `liveness`, and then every escrow, withdrawal under review, tournament and
 * challenge must have settled. Why holds: each of them keeps its money in a hold account of its
 * own (`escrow:<id>`, `withdrawal:<id>`, `tournament:<id>`, `challenge:<id>`) until it settles, so
 * a hold that still has money is exactly an item that is stuck, whatever the service.
 * The safety invariants say nothing wrong happened; this says everything that must happen did.
 * Bounds: the stuck items listed are the first STUCK_LISTED (by account name), with the total count.
 */
import type { AccountName } from '../core/ledger.ts';
import { formatDecimal, type Micro } from '../core/money.ts';

/** The hold accounts that must be empty once the platform has had time to settle. */
export const SETTLING_HOLDS: readonly { readonly prefix: string; readonly what: string }[] = [
  { prefix: 'escrow:', what: 'escrow' },
  { prefix: 'withdrawal:', what: 'withdrawal' },
  { prefix: 'tournament:', what: 'tournament' },
  { prefix: 'challenge:', what: 'challenge' },
];

export const STUCK_LISTED = 10;

/** How a failed liveness phase's limit message begins (stuckMessage); the other limits do not. */
const LIVENESS_LIMIT_START = 'liveness: ';

/** Whether a run's limit is a failed liveness phase (shrink and sweep --shrink cut those down). */
export function isLivenessLimit(limit: string | null): boolean {
  return limit?.startsWith(LIVENESS_LIMIT_START) === true;
}

export interface StuckItem {
  readonly what: string;
  readonly id: string;
  readonly heldMicro: Micro;
}

/** Every settling hold that still holds money, sorted by account name. */
export function stuckItems(accounts: ReadonlyMap<AccountName, Micro>): StuckItem[] {
  const stuck: { account: string; item: StuckItem }[] = [];
  for (const [account, heldMicro] of accounts) {
    if (heldMicro === 0n) continue;
    const hold = SETTLING_HOLDS.find((candidate) => account.startsWith(candidate.prefix));
    if (hold !== undefined)
      stuck.push({ account, item: { what: hold.what, id: account.slice(hold.prefix.length), heldMicro } });
  }
  stuck.sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  return stuck.map((entry) => entry.item);
}

/** The limit message of a failed liveness phase: how many, then the first few with what they hold. */
export function stuckMessage(stuck: readonly StuckItem[], livenessText: string): string {
  const listed = stuck
    .slice(0, STUCK_LISTED)
    .map((item) => `${item.what} ${item.id} (holds ${formatDecimal(item.heldMicro)} USDC)`);
  const more = stuck.length > STUCK_LISTED ? `, and ${stuck.length - STUCK_LISTED} more` : '';
  return `${LIVENESS_LIMIT_START}${stuck.length} item${stuck.length === 1 ? '' : 's'} did not settle within ${livenessText} after the run: ${listed.join(', ')}${more}`;
}
