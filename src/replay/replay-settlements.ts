/**
 * Escrows settled outside any exchange, each dialect by its own rule (DEPLOYED.md §4: the documents
 * resolve a dispute and refund an expiry in full; a deployment has no dispute resolution and
 * refunds less the commission): what a replay across two dialects follows so that a later
 * difference of the creator's balance is named as that settlement's consequence. Why a file: the
 * replay loop (operation-replay.ts) hands each exchange here and keeps no escrow state of its own.
 * Limits: at most CREATORS_MAX escrows' creators followed (beyond, a settlement's consequence is not named).
 */
import type { EscrowView, OperationInput, OperationName, LiveSession, ReadOutcome } from '../live.ts';
import type { RecordedExchange } from './record-format.ts';
import type { ReplayDivergence } from './replay-divergence.ts';

const HOUR_MS = 3_600_000;
const CREATORS_MAX = 100_000;

export class ReplaySettlements {
  /** Live escrow id → its creator's live key (at most CREATORS_MAX). */
  private readonly creators = new Map<string, string>();
  private readonly session: LiveSession;
  private readonly divergence: ReplayDivergence;

  constructor(session: LiveSession, divergence: ReplayDivergence) {
    this.session = session;
    this.divergence = divergence;
  }

  /**
   * Across two dialects, an escrow that ends by dispute or expiry is settled by each dialect's own
   * rule (DEPLOYED.md §4: the documents resolve a dispute and refund an expiry in full; a
   * deployment has no dispute resolution and refunds less the commission), outside any exchange:
   * from there the creator's balance on the target may leave the recording's, and a later want of
   * funds is a consequence. Creators are followed from their creations' live answers.
   */
  settledByRule(
    exchange: RecordedExchange,
    sent: { op: OperationName; input: unknown; recorded: ReadOutcome<unknown>; live: ReadOutcome<unknown> },
    liveKey: string | null,
  ): void {
    const { op, live, recorded } = sent;
    if (op === 'escrow.create' && live.kind === 'ok') {
      const liveId = (live.value as EscrowView).escrowId;
      if (liveKey !== null && this.creators.size < CREATORS_MAX) this.creators.set(liveId, liveKey);
      const asked = sent.input as OperationInput<'escrow.create'>;
      const terms = this.session.row('escrow.create')?.expiry;
      const recordedSeconds = asked.expiresInSeconds ?? (asked.timeoutHours * HOUR_MS) / 1_000;
      if (terms !== undefined)
        this.divergence.expiresLater(
          liveId,
          exchange.at_ms + recordedSeconds * 1_000,
          exchange.at_ms +
            Math.max(recordedSeconds * 1_000, asked.timeoutHours * HOUR_MS, terms.shortestSeconds * 1_000) +
            terms.sweepSeconds * 1_000,
          terms.source,
        );
    }
    const escrowId = (sent.input as { escrowId?: unknown }).escrowId;
    if (typeof escrowId !== 'string') return;
    const settled =
      op === 'escrow.dispute' && live.kind === 'ok'
        ? `escrow ${escrowId} disputed: each dialect settles a dispute by its own rule, DEPLOYED.md §4`
        : op === 'escrow.get' && recorded.kind === 'ok' && (recorded.value as EscrowView).status === 'expired'
          ? `escrow ${escrowId} expired: each dialect refunds an expiry by its own rule, DEPLOYED.md §4`
          : null;
    if (settled === null) return;
    const cause = `seq ${exchange.seq} (${settled})`;
    // A dispute's outcome is the escrow's own state too (the documents resolve it; a deployment leaves it disputed).
    if (op === 'escrow.dispute') this.divergence.leaveEscrow(escrowId, cause);
    this.divergence.leaveBalance(this.creators.get(escrowId) ?? null, cause);
  }
}
