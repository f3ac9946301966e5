/**
 * What a replay sends for an operation the target's dialect lacks but whose recorded answer the
 * target can still be asked about, one escrow read at a time (GET /escrow/:id on a deployment):
 * - an escrow list (a deployment has none, DEPLOYED.md §4): each escrow the recorded list showed
 *   is read, and compared with the list's element;
 * - an escrow refund (a deployment refunds only by its timeout's sweep, DEPLOYED.md §4): the
 *   escrow is read, and its state compared with the state the refund answered.
 * Why: the exchange's question reaches the target in the target's own words, so a recording's
 * lists and refunds are checked against it instead of skipped. Pure: it says what to read; the
 * replay (operation-replay.ts) sends, compares and files.
 * Bounds: at most READS_MAX reads for one exchange (a longer list is read in part, and says so).
 */
import type { EscrowView, OperationInput, OperationName, OperationResult, ReadOutcome } from '../live.ts';

export const READS_MAX = 25;

/** One read: the escrow's id (the recorded one, or the target's where `live`) and what the recording showed of it. */
export interface SubstituteRead {
  readonly escrowId: string;
  readonly live: boolean;
  readonly expected: EscrowView | { readonly status: string | null };
}

export interface Substitute {
  readonly reads: readonly SubstituteRead[];
  /** Escrows the recorded answer showed beyond READS_MAX, not read. */
  readonly unread: number;
  /** Why the operation is asked so, for the finding that says it once. */
  readonly why: string;
  /** The documented cause that explains every difference of the reads (a refund the target cannot make), or null. */
  readonly explains: string | null;
}

const WHY: Readonly<Partial<Record<OperationName, string>>> = {
  'escrow.list':
    'the target lists no escrows (a deployment has no list, DEPLOYED.md §4): each escrow the recorded list showed is read by its id and compared with the list',
  'escrow.refund':
    "the target takes no refund call (a deployment refunds only by its timeout's sweep, DEPLOYED.md §4): the escrow is read by its id and its state compared with the refund's",
};

/** The reads that ask the target what the recorded exchange asked, or null when there are none. */
export function substituteReads(
  op: OperationName,
  input: OperationInput<OperationName>,
  recorded: ReadOutcome<unknown>,
): Substitute | null {
  const why = WHY[op];
  if (why === undefined || recorded.kind !== 'ok') return null;
  if (op === 'escrow.list') {
    const { escrows } = recorded.value as OperationResult<'escrow.list'>;
    const reads = escrows
      .slice(0, READS_MAX)
      .map((escrow) => ({ escrowId: escrow.escrowId, live: false, expected: escrow }));
    return { reads, unread: Math.max(0, escrows.length - READS_MAX), why, explains: null };
  }
  // The refund's input names the target's escrow already (its id translated by the route row).
  const { escrowId } = input as OperationInput<'escrow.refund'>;
  const { status } = recorded.value as OperationResult<'escrow.refund'>;
  return {
    reads: [{ escrowId, live: true, expected: { status } }],
    unread: 0,
    why,
    explains: 'a deployment has no refund call: the escrow stays held until its timeout refunds it (DEPLOYED.md §4)',
  };
}
