/**
 * What on the target has left the recording's state, so a later difference about it is a
 * consequence (info, naming the cause), not a new fault: an agent's balance (keyed by its live
 * key: operation-replay.ts names its later want-of-funds differences so), an escrow whose recorded settlement was
 * not replayed (a refund the target's dialect does not offer) or was answered otherwise, and a
 * wallet address whose recorded send was not replayed or was refused (its balance then differs
 * from the recording's on every later read). Why: one exchange the target could not be asked
 * would otherwise surface as a "major" on each later read of the same escrow or address, against
 * a target that did nothing wrong.
 * And an escrow whose expiry the target sets by its own documented terms, later than the
 * recording's (a deployment counts whole hours and expires by a 5-minute sweep, DEPLOYED.md §4):
 * between the recorded expiry and the target's latest, a difference about it is that rule's (info).
 * Keys are the target's own (live) escrow ids and `chain|address`; the first cause is kept.
 * Limits: at most LEFT_MAX balances, escrows, addresses and expiries each (beyond, differences stand as they are).
 */
import type { OperationName } from '../live.ts';
import type { ResultDifference } from './operation-diff.ts';
import { isObject } from './json-pointer.ts';

export const LEFT_MAX = 100_000;

export class ReplayDivergence {
  private readonly balances = new Map<string, string>();
  private readonly escrows = new Map<string, string>();
  private readonly addresses = new Map<string, string>();
  private readonly expiries = new Map<
    string,
    { readonly recordedMs: number; readonly liveMs: number; readonly source: string }
  >();

  /** The balance of the agent whose live key is `liveKey` left the recording's at `why` (the first cause is kept). */
  leaveBalance(liveKey: string | null, why: string): void {
    if (liveKey !== null && !this.balances.has(liveKey) && this.balances.size < LEFT_MAX)
      this.balances.set(liveKey, why);
  }

  /** Where the agent's balance left the recording's, or undefined. */
  balanceLeftAt(liveKey: string | null): string | undefined {
    return liveKey === null ? undefined : this.balances.get(liveKey);
  }

  leaveEscrow(liveEscrowId: string, why: string): void {
    if (!this.escrows.has(liveEscrowId) && this.escrows.size < LEFT_MAX) this.escrows.set(liveEscrowId, why);
  }

  leaveAddress(chain: string, liveAddress: string, why: string): void {
    const key = `${chain}|${liveAddress}`;
    if (!this.addresses.has(key) && this.addresses.size < LEFT_MAX) this.addresses.set(key, why);
  }

  /** The target expires `liveEscrowId` by `liveMs` at the latest, by `source`'s terms; the recording did at `recordedMs`. */
  expiresLater(liveEscrowId: string, recordedMs: number, liveMs: number, source: string): void {
    if (liveMs > recordedMs && this.expiries.size < LEFT_MAX)
      this.expiries.set(liveEscrowId, { recordedMs, liveMs, source });
  }

  /** Why the escrow or address `input` names has left the recording's at `atMs`, or undefined. */
  private causeOf(op: OperationName, input: unknown, atMs: number): string | undefined {
    if (!isObject(input)) return undefined;
    const escrowId = input['escrowId'];
    if (op.startsWith('escrow.') && typeof escrowId === 'string') {
      const why = this.escrows.get(escrowId);
      if (why !== undefined) return `the escrow ${escrowId} on the target left the recording's at ${why}`;
      const expiry = this.expiries.get(escrowId);
      return expiry === undefined || atMs < expiry.recordedMs || atMs >= expiry.liveMs
        ? undefined
        : `the recording's escrow expired at ${new Date(expiry.recordedMs).toISOString()}; the target's expires by its own terms as late as ${new Date(expiry.liveMs).toISOString()} (${expiry.source})`;
    }
    const address = input['address'];
    const chain = input['chain'];
    if (
      (op === 'wallet.balance' || op === 'wallet.transactions') &&
      typeof address === 'string' &&
      typeof chain === 'string'
    ) {
      const why = this.addresses.get(`${chain}|${address}`);
      return why === undefined
        ? undefined
        : `the balance and history of ${address} on ${chain} left the recording's at ${why}`;
    }
    return undefined;
  }

  /** `differences` at `atMs` with those about a left escrow or address marked consequences of their cause. */
  explain(
    op: OperationName,
    input: unknown,
    atMs: number,
    differences: readonly ResultDifference[],
  ): ResultDifference[] {
    const cause = this.causeOf(op, input, atMs);
    if (cause === undefined) return [...differences];
    return differences.map((difference) =>
      difference.documented === undefined ? { ...difference, documented: cause, consequence: true } : difference,
    );
  }
}
