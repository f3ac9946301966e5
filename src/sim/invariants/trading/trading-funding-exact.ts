/**
 * Invariant `trading-funding-exact`: funding happens at its exact instants — every
 * `trading.funding` event falls on a multiple of the funding period (00, 08, 16 UTC), at most once
 * per position and instant — and at every funding instant each position open across it (opened
 * before, still open after) was funded then. Checked per event, and for each instant at the first
 * virtual hour at or after it and at the end.
 */
import { jsonText } from '../../json-text.ts';
import { eventViolation, type InvariantDefinition, type Violation } from '../checker.ts';

export const tradingFundingExact: InvariantDefinition = {
  name: 'trading-funding-exact',
  description: 'funding at exactly 00/08/16 UTC, once per open position and instant, never missed',
  create({ platform }) {
    const periodMs = platform.config.trading.fundingPeriodMs;
    /** Funding instant → the positions funded then. */
    const funded = new Map<number, Set<string>>();
    let checkedUntilMs = platform.nowMs;
    const sweep = (nowMs: number): Violation | null => {
      for (
        let instant = (Math.floor(checkedUntilMs / periodMs) + 1) * periodMs;
        instant <= nowMs;
        instant += periodMs
      ) {
        const seen = funded.get(instant) ?? new Set<string>();
        for (const position of platform.trading.book.allPositions()) {
          const openAcross =
            position.openedAtMs < instant && (position.closedAtMs === null || position.closedAtMs > instant);
          if (openAcross && !seen.has(position.id))
            return {
              atMs: instant,
              event: jsonText({ positionId: position.id, instant }),
              message: `position ${position.id} was open across the funding instant ${new Date(instant).toISOString()} but not funded then`,
            };
        }
        funded.delete(instant);
        checkedUntilMs = instant;
      }
      return null;
    };
    return {
      onEvent(event) {
        if (event.type !== 'trading.funding') return null;
        if (event.atMs % periodMs !== 0)
          return eventViolation(event, `funding at ${new Date(event.atMs).toISOString()}, not at 00, 08 or 16 UTC`);
        const seen = funded.get(event.atMs) ?? new Set<string>();
        if (seen.has(event.positionId))
          return eventViolation(event, `position ${event.positionId} funded twice at one instant`);
        seen.add(event.positionId);
        funded.set(event.atMs, seen);
        return null;
      },
      onHour: (nowMs) => sweep(nowMs),
      atEnd: (endMs) => sweep(endMs),
    };
  },
};
