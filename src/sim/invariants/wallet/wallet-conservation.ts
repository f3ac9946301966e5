/**
 * Invariant `wallet-conservation`: on every simulated chain, for every asset, the sum of the
 * balances (every address, the chain's fee account and the swap aggregator's pool) plus what is in
 * flight equals what was minted, and no balance is negative (ChainBook.checkConserved), after every
 * wallet event. Followed from the events too: a transaction settles once, at its block instant,
 * after it was sent; a swap order's status only moves forward through the aggregator's states.
 */
import type { DomainEvent } from '../../../services/shared/events.ts';
import { jsonText } from '../../json-text.ts';
import { eventViolation, type InvariantDefinition, type Violation } from '../checker.ts';

type WalletEvent = Extract<DomainEvent, { type: `wallet.${string}` }>;

function isWalletEvent(event: DomainEvent): event is WalletEvent {
  return event.type.startsWith('wallet.');
}

/** The order of the aggregator's statuses; each terminal one ends an order. */
const STEP: Readonly<Record<string, number>> = {
  waiting: 0,
  confirming: 1,
  exchanging: 2,
  sending: 3,
  finished: 4,
  failed: 4,
  refunded: 4,
  expired: 4,
};

export const walletConservation: InvariantDefinition = {
  name: 'wallet-conservation',
  description:
    'per chain and asset, balances + in flight = minted after every wallet event; a transaction settles once at its block; swap orders move forward',
  create({ platform }) {
    /** Pending hash → its block instant. */
    const pending = new Map<string, number>();
    const orders = new Map<string, number>();
    const conserved = (event: DomainEvent): Violation | null => {
      const broken = platform.wallet.checkConserved();
      return broken === null ? null : eventViolation(event, `chain money not conserved: ${broken}`);
    };
    return {
      onEvent(event) {
        if (!isWalletEvent(event)) return null;
        switch (event.type) {
          case 'wallet.sent':
            if (pending.has(event.hash)) return eventViolation(event, `transaction ${event.hash} sent twice`);
            if (event.blockAtMs <= event.atMs)
              return eventViolation(
                event,
                `transaction ${event.hash} settles at ${event.blockAtMs}, not after it was sent (${event.atMs})`,
              );
            pending.set(event.hash, event.blockAtMs);
            return conserved(event);
          case 'wallet.settled': {
            const blockAtMs = pending.get(event.hash);
            if (blockAtMs === undefined)
              return eventViolation(event, `transaction ${event.hash} settled but not pending`);
            if (blockAtMs !== event.atMs)
              return eventViolation(
                event,
                `transaction ${event.hash} settled at ${event.atMs}, its block is at ${blockAtMs}`,
              );
            pending.delete(event.hash);
            return conserved(event);
          }
          case 'wallet.swap': {
            const step = STEP[event.status];
            const last = orders.get(event.orderId);
            if (step === undefined)
              return eventViolation(event, `swap ${event.orderId} in unknown status ${event.status}`);
            if (last === undefined ? step !== 0 : step <= last)
              return eventViolation(
                event,
                `swap ${event.orderId} moved to ${event.status} from step ${last ?? 'none'}`,
              );
            orders.set(event.orderId, step);
            return conserved(event);
          }
          case 'wallet.minted':
          case 'wallet.created':
          case 'wallet.fee':
            return conserved(event);
        }
      },
      onHour(nowMs) {
        const broken = platform.wallet.checkConserved();
        return broken === null
          ? null
          : { atMs: nowMs, event: jsonText({ hour: nowMs }), message: `chain money not conserved: ${broken}` };
      },
    };
  },
};
