/**
 * EscrowBook: the escrow service's storage — records by id, plus per-agent indexes (as sender,
 * as receiver) for listing. Records are appended in creation order and never removed.
 *
 * Listing order is newest first: `createdAtMs` descending, then escrow id ascending (a total
 * order, so equal instants list the same way in every run). Limits: at most
 * `ESCROW_LIMITS.escrowsMax` records overall (a bug beyond that), list size bounded by the caller.
 */
import { assert } from '../../core/assert.ts';
import { ESCROW_LIMITS, type EscrowRecord, type EscrowRole, type EscrowStatus } from './escrow-record.ts';

export type MutableEscrow = { -readonly [K in keyof EscrowRecord]: EscrowRecord[K] };

export class EscrowBook {
  private readonly byId = new Map<string, MutableEscrow>();
  private readonly bySender = new Map<string, MutableEscrow[]>();
  private readonly byReceiver = new Map<string, MutableEscrow[]>();
  /** The newest `createdAtMs` added, and whether every add came at or after the one before (then each agent's lists are in time order). */
  private lastCreatedAtMs = Number.NEGATIVE_INFINITY;
  private inTimeOrder = true;

  get size(): number {
    return this.byId.size;
  }

  add(escrow: MutableEscrow): void {
    assert(!this.byId.has(escrow.id), 'escrow ids are unique');
    assert(this.byId.size < ESCROW_LIMITS.escrowsMax, `at most ${ESCROW_LIMITS.escrowsMax} escrows`);
    assert(escrow.senderId !== escrow.receiverId, 'an escrow has two distinct parties');
    this.byId.set(escrow.id, escrow);
    if (escrow.createdAtMs < this.lastCreatedAtMs) this.inTimeOrder = false;
    this.lastCreatedAtMs = Math.max(this.lastCreatedAtMs, escrow.createdAtMs);
    appendTo(this.bySender, escrow.senderId, escrow);
    appendTo(this.byReceiver, escrow.receiverId, escrow);
  }

  get(escrowId: string): MutableEscrow | undefined {
    return this.byId.get(escrowId);
  }

  /** Every record in creation order (checkers and reports). */
  all(): IterableIterator<EscrowRecord> {
    return this.byId.values();
  }

  /**
   * The `limit` newest of an agent's escrows (the role's lists, the status if given), newest first.
   * One pass over the lists keeping the best `limit` (no copy, no sort of the whole history: a
   * replayed or long-lived agent holds thousands of escrows, and this runs on every list request).
   */
  list(options: { agentId: string; role: EscrowRole; status: EscrowStatus | null; limit: number }): EscrowRecord[] {
    assert(Number.isSafeInteger(options.limit) && options.limit >= 1, 'list limit is a positive integer');
    const kept: EscrowRecord[] = [];
    const scan = { status: options.status, limit: options.limit, inTimeOrder: this.inTimeOrder };
    if (options.role !== 'receiver') keepNewest(kept, this.bySender.get(options.agentId), scan);
    if (options.role !== 'sender') keepNewest(kept, this.byReceiver.get(options.agentId), scan);
    return kept;
  }
}

/**
 * Adds to `kept` (newest first, at most `limit`) the escrows of `list` with `status` (null = any)
 * that rank among the newest. The list is walked from its end (its newest, as appended), so each
 * record usually either lands last in `kept` or is refused by one comparison; when the list is in
 * time order, the walk stops at the first record older than the oldest kept of a full `kept`.
 */
function keepNewest(
  kept: EscrowRecord[],
  list: readonly EscrowRecord[] | undefined,
  scan: { status: EscrowStatus | null; limit: number; inTimeOrder: boolean },
): void {
  if (list === undefined) return;
  const { status, limit } = scan;
  for (let index = list.length - 1; index >= 0; index--) {
    const escrow = list[index] as EscrowRecord;
    const oldestKept = kept.length === limit ? (kept[limit - 1] as EscrowRecord) : undefined;
    if (scan.inTimeOrder && oldestKept !== undefined && escrow.createdAtMs < oldestKept.createdAtMs) return;
    if (status !== null && escrow.status !== status) continue;
    if (oldestKept !== undefined && newestFirst(escrow, oldestKept) >= 0) continue;
    let at = kept.length;
    while (at > 0 && newestFirst(escrow, kept[at - 1] as EscrowRecord) < 0) at--;
    kept.splice(at, 0, escrow);
    if (kept.length > limit) kept.pop();
  }
}

function appendTo(index: Map<string, MutableEscrow[]>, agentId: string, escrow: MutableEscrow): void {
  const list = index.get(agentId);
  if (list === undefined) index.set(agentId, [escrow]);
  else list.push(escrow);
}

function newestFirst(a: EscrowRecord, b: EscrowRecord): number {
  if (a.createdAtMs !== b.createdAtMs) return b.createdAtMs - a.createdAtMs;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
