/**
 * Invariant `escrow-expiry-exact`: a locked escrow expires at exactly its `expires_at`, no earlier
 * and no later, and its full amount goes back to the sender at that same instant.
 *
 * How: each created escrow waits in a queue ordered by expiry. An 'escrow.expired' event must
 * carry the instant the escrow was created with and be preceded, at that instant, by a transfer of
 * the full amount from the escrow's hold to the sender. After every scheduler tick, an escrow whose
 * instant has passed must be settled or disputed (expiry suspended): a missed expiry is caught
 * even when no event reports it. Limits: the queue holds at most one entry per escrow.
 */
import { agentAccount, escrowAccount } from '../../../core/ledger.ts';
import { Scheduler } from '../../../core/scheduler.ts';
import { isEscrowEvent, type EscrowEvent } from '../../../services/shared/events.ts';
import { jsonText } from '../../json-text.ts';
import { eventViolation, type InvariantDefinition, type Violation } from '../checker.ts';

interface Tracked {
  readonly escrowId: string;
  readonly senderAccount: string;
  readonly amountMicro: bigint;
  readonly expiresAtMs: number;
  open: boolean;
  /** Instant of the last full return of the hold to the sender. */
  returnedAtMs: number | null;
}

const ESCROW_PREFIX = escrowAccount('');

/** An expiry of a created escrow (closing it), at exactly its expires_at, with its full amount returned to the sender at that instant. */
function judgeExpired(
  event: Extract<EscrowEvent, { type: 'escrow.expired' }>,
  tracked: Tracked | undefined,
): Violation | null {
  if (tracked === undefined) return eventViolation(event, `escrow ${event.escrowId} expired but was never created`);
  tracked.open = false;
  if (event.atMs !== tracked.expiresAtMs || event.expiresAtMs !== tracked.expiresAtMs) {
    return eventViolation(
      event,
      `escrow ${event.escrowId} expired at ${event.atMs}, not at its expires_at ${tracked.expiresAtMs}`,
    );
  }
  if (tracked.returnedAtMs !== event.atMs) {
    return eventViolation(
      event,
      `escrow ${event.escrowId} expired without returning its full amount to the sender at that instant`,
    );
  }
  return null;
}

export const escrowExpiryExact: InvariantDefinition = {
  name: 'escrow-expiry-exact',
  description: 'a locked escrow expires at exactly expires_at and is refunded in full then',
  create({ nowMs }) {
    const escrows = new Map<string, Tracked>();
    const deadlines = new Scheduler<Tracked>({ maxPending: 10_000_000 });
    return {
      onEvent(event) {
        if (!isEscrowEvent(event)) return null;
        switch (event.type) {
          case 'escrow.created': {
            const tracked: Tracked = {
              escrowId: event.escrowId,
              senderAccount: agentAccount(event.senderId),
              amountMicro: event.amountMicro,
              expiresAtMs: event.expiresAtMs,
              open: true,
              returnedAtMs: null,
            };
            escrows.set(event.escrowId, tracked);
            deadlines.schedule(event.expiresAtMs, tracked);
            return null;
          }
          case 'escrow.disputed':
          case 'escrow.released':
          case 'escrow.refunded': {
            const tracked = escrows.get(event.escrowId);
            if (tracked !== undefined) tracked.open = false;
            return null;
          }
          case 'escrow.expired':
            return judgeExpired(event, escrows.get(event.escrowId));
        }
      },
      onTransfer(transfer) {
        if (!transfer.from.startsWith(ESCROW_PREFIX)) return null;
        const tracked = escrows.get(transfer.from.slice(ESCROW_PREFIX.length));
        if (
          tracked !== undefined &&
          transfer.to === tracked.senderAccount &&
          transfer.amountMicro === tracked.amountMicro
        )
          tracked.returnedAtMs = nowMs();
        return null;
      },
      onTick(tickMs) {
        for (let next = deadlines.peek(); next !== undefined && next.atMs <= tickMs; next = deadlines.peek()) {
          deadlines.pop();
          const tracked = next.payload;
          if (tracked.open) {
            return {
              atMs: tickMs,
              event: jsonText({ escrowId: tracked.escrowId, expiresAtMs: tracked.expiresAtMs }),
              message: `escrow ${tracked.escrowId} is still locked at ${tickMs}, past its expires_at ${tracked.expiresAtMs}`,
            };
          }
        }
        return null;
      },
    };
  },
};
