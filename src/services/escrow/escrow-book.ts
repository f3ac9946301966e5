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

  get size(): number {
    return this.byId.size;
  }

  add(escrow: MutableEscrow): void {
    assert(!this.byId.has(escrow.id), 'escrow ids are unique');
    assert(this.byId.size < ESCROW_LIMITS.escrowsMax, `at most ${ESCROW_LIMITS.escrowsMax} escrows`);
    assert(escrow.senderId !== escrow.receiverId, 'an escrow has two distinct parties');
    this.byId.set(escrow.id, escrow);
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

  list(options: { agentId: string; role: EscrowRole; status: EscrowStatus | null; limit: number }): EscrowRecord[] {
    assert(Number.isSafeInteger(options.limit) && options.limit >= 1, 'list limit is a positive integer');
    const candidates: EscrowRecord[] = [];
    if (options.role !== 'receiver') candidates.push(...(this.bySender.get(options.agentId) ?? []));
    if (options.role !== 'sender') candidates.push(...(this.byReceiver.get(options.agentId) ?? []));
    const matching = options.status === null ? candidates : candidates.filter((escrow) => escrow.status === options.status);
    matching.sort(newestFirst);
    return matching.slice(0, options.limit);
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
