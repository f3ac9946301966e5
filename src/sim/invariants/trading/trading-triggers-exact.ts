/**
 * Invariant `trading-triggers-exact`: a stop-loss or take-profit fires at the exact instant the
 * mark crosses it, and once (src/services/trading/position-triggers.ts). Prices move only at tick
 * boundaries, so "the instant the mark crosses" is the first boundary after the trigger was set at
 * which its market is open and the mark is at or through its price. Checked:
 *   - on `trading.trigger-fired`: the instant is a tick boundary, the mark then is the event's and
 *     crosses the trigger, the previous boundary after it was set did not (or its market was
 *     closed), the trigger is recorded fired then, its position closed then, and it fired only once;
 *   - on `trading.trigger-cancelled`: never for a trigger that fired;
 *   - every virtual hour and at the end: no pending trigger was crossed at a boundary since the
 *     last sweep (a missed firing), at most one boundary per tick per pending trigger.
 */
import { marketBySymbol } from '../../../services/trading/market-catalogue.ts';
import { triggerCrossed, type TriggerRecord } from '../../../services/trading/position-triggers.ts';
import { formatPrice } from '../../../services/trading/price-scale.ts';
import { jsonText } from '../../json-text.ts';
import { eventViolation, type InvariantDefinition, type Violation } from '../checker.ts';

export const tradingTriggersExact: InvariantDefinition = {
  name: 'trading-triggers-exact',
  description: 'stop-loss and take-profit fire at the first tick the mark crosses them (market open), once',
  create({ platform }) {
    const trading = platform.trading;
    const tickMs = trading.config.tickMs;
    const fired = new Set<string>();
    let sweptUntilMs = platform.nowMs;

    /** Whether `trigger` was due at the boundary `atMs` (its market open, its mark at or through it). */
    const dueAt = (trigger: TriggerRecord, atMs: number): boolean => {
      const market = marketBySymbol(trigger.symbol);
      return (
        market !== undefined &&
        trading.prices.isOpen(market, atMs) &&
        triggerCrossed(trigger, trading.prices.mid(market, atMs))
      );
    };

    /** Boundaries in (sweptUntilMs, nowMs) — the ticks that certainly ran — at which a pending trigger was due. */
    const sweep = (nowMs: number): Violation | null => {
      const untilMs = Math.ceil(nowMs / tickMs) * tickMs - tickMs;
      for (const trigger of trading.triggers.pendingList()) {
        const fromMs = Math.max(sweptUntilMs, trigger.createdAtMs);
        for (let boundary = (Math.floor(fromMs / tickMs) + 1) * tickMs; boundary <= untilMs; boundary += tickMs) {
          if (dueAt(trigger, boundary))
            return {
              atMs: boundary,
              event: jsonText({ triggerId: trigger.id, boundary }),
              message: `trigger ${trigger.id} (${trigger.kind} at ${formatPrice(trigger.triggerPrice)}) was crossed at ${new Date(boundary).toISOString()} and is still pending`,
            };
        }
      }
      sweptUntilMs = Math.max(sweptUntilMs, untilMs);
      return null;
    };

    return {
      onEvent(event) {
        if (event.type === 'trading.trigger-cancelled') {
          return fired.has(event.triggerId)
            ? eventViolation(event, `trigger ${event.triggerId} was cancelled after it fired`)
            : null;
        }
        if (event.type !== 'trading.trigger-fired') return null;
        const fail = (message: string): Violation => eventViolation(event, message);
        if (fired.has(event.triggerId)) return fail(`trigger ${event.triggerId} fired twice`);
        fired.add(event.triggerId);
        const trigger = trading.triggers.trigger(event.triggerId);
        if (trigger === undefined || trigger.status !== 'fired' || trigger.endedAtMs !== event.atMs)
          return fail(`trigger ${event.triggerId} is not recorded fired at ${event.atMs}`);
        if (event.atMs % tickMs !== 0) return fail(`trigger ${event.triggerId} fired between ticks (${event.atMs})`);
        const market = marketBySymbol(trigger.symbol);
        if (market === undefined) return fail(`trigger ${event.triggerId} names no listed market`);
        const mark = trading.prices.mid(market, event.atMs);
        if (formatPrice(mark) !== event.markPrice || !dueAt(trigger, event.atMs))
          return fail(
            `trigger ${event.triggerId} fired at a mark of ${formatPrice(mark)} that does not cross ${formatPrice(trigger.triggerPrice)}`,
          );
        const previous = event.atMs - tickMs;
        if (previous > trigger.createdAtMs && dueAt(trigger, previous))
          return fail(
            `trigger ${event.triggerId} was already crossed at ${new Date(previous).toISOString()}: it fired a tick late`,
          );
        const position = trading.book.position(trigger.positionId);
        if (position === undefined || position.status !== 'closed' || position.closedAtMs !== event.atMs)
          return fail(`position ${trigger.positionId} was not closed by its trigger at ${event.atMs}`);
        return null;
      },
      onHour: sweep,
      atEnd: sweep,
    };
  },
};
