/**
 * Invariant `conservation`: money is neither created nor destroyed. The ledger keeps a running
 * sum of every balance (`external` included), which must be zero after every domain event and
 * every exchange (O(1)); every virtual hour and at the end the sum is recomputed from all
 * balances (`auditSum`), which catches a running sum that drifted from the balances.
 */
import { jsonText } from '../json-text.ts';
import type { InvariantDefinition, Violation } from './checker.ts';
import { exchangeText } from './exchange-text.ts';

export const conservation: InvariantDefinition = {
  name: 'conservation',
  description: 'the ledger sums to zero after every event; a full audit every virtual hour and at the end',
  create({ platform }) {
    const ledger = platform.ledger;
    // The event's text is built only for a violation: this runs after every event and exchange.
    const broken = (atMs: number, event: () => string, where: string): Violation | null => {
      const sum = ledger.sumMicro;
      return sum === 0n
        ? null
        : { atMs, event: event(), message: `ledger sums to ${sum} micro-USDC after ${where}, not 0` };
    };
    const audit = (atMs: number, when: string): Violation | null => {
      const total = ledger.auditSum();
      if (total === 0n && ledger.sumMicro === 0n) return null;
      return {
        atMs,
        event: jsonText({ audit: when, atMs }),
        message: `full audit: balances sum to ${total} micro-USDC (running sum ${ledger.sumMicro}), not 0`,
      };
    };
    return {
      onEvent: (event) => broken(event.atMs, () => jsonText(event), event.type),
      onExchange: (exchange) =>
        broken(exchange.atMs, () => exchangeText(exchange), `${exchange.request.method} ${exchange.request.path}`),
      onHour: (nowMs) => audit(nowMs, 'hourly'),
      atEnd: (endMs) => audit(endMs, 'end of run'),
    };
  },
};
