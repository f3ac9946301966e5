/**
 * Invariant `escrow-settles-once`: every escrow gets exactly one settlement event (released,
 * refunded or expired), and only after it was created; at the end of the run none is still open
 * past its deadline (a locked one past expires_at, a disputed one past its window's end).
 */
import type { DomainEvent } from '../../../services/shared/events.ts';
import { isEscrowEvent } from '../../../services/shared/events.ts';
import { jsonText } from '../../json-text.ts';
import { eventViolation, type InvariantDefinition, type Violation } from '../checker.ts';

interface Tracked {
  readonly expiresAtMs: number;
  windowEndsAtMs: number | null;
  settledBy: string | null;
}

type Settlement = Extract<DomainEvent, { type: 'escrow.released' | 'escrow.refunded' | 'escrow.expired' }>;

export const escrowSettlesOnce: InvariantDefinition = {
  name: 'escrow-settles-once',
  description: 'exactly one settlement per escrow; none left open past its expiry or dispute window',
  create() {
    const escrows = new Map<string, Tracked>();
    const settle = (event: Settlement): Violation | null => {
      const tracked = escrows.get(event.escrowId);
      if (tracked === undefined) return eventViolation(event, `escrow ${event.escrowId} settled but was never created`);
      if (tracked.settledBy !== null) {
        return eventViolation(
          event,
          `escrow ${event.escrowId} settled twice: ${tracked.settledBy}, then ${event.type}`,
        );
      }
      tracked.settledBy = event.type;
      return null;
    };
    return {
      onEvent(event) {
        if (!isEscrowEvent(event)) return null;
        switch (event.type) {
          case 'escrow.created':
            escrows.set(event.escrowId, { expiresAtMs: event.expiresAtMs, windowEndsAtMs: null, settledBy: null });
            return null;
          case 'escrow.disputed': {
            const tracked = escrows.get(event.escrowId);
            if (tracked === undefined || tracked.settledBy !== null) {
              return eventViolation(event, `escrow ${event.escrowId} disputed while not open`);
            }
            tracked.windowEndsAtMs = event.windowEndsAtMs;
            return null;
          }
          case 'escrow.released':
          case 'escrow.refunded':
          case 'escrow.expired':
            return settle(event);
        }
      },
      atEnd(endMs) {
        for (const [escrowId, tracked] of escrows) {
          if (tracked.settledBy !== null) continue;
          const deadlineMs = tracked.windowEndsAtMs ?? tracked.expiresAtMs;
          if (deadlineMs <= endMs) {
            const what = tracked.windowEndsAtMs === null ? 'locked past its expiry' : 'disputed past its window';
            return {
              atMs: endMs,
              event: jsonText({ escrowId, ...tracked }),
              message: `escrow ${escrowId} is still ${what} (deadline ${deadlineMs})`,
            };
          }
        }
        return null;
      },
    };
  },
};
