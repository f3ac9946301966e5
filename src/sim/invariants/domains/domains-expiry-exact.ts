/**
 * Invariant `domains-expiry-exact`: a domain expires at exactly its expires_at (the latest one a
 * registration or renewal announced) and is released at exactly expires_at + grace; never before,
 * never later. Events are compared to the announced instants; after every tick, no domain whose
 * instant has come is still active (or still held after its grace).
 */
import { Scheduler } from '../../../core/scheduler.ts';
import { jsonText } from '../../json-text.ts';
import { eventViolation, type InvariantDefinition, type Violation } from '../checker.ts';
import { isDomainsEvent, type DomainsEvent } from '../../../services/domains/domains-events.ts';

interface Tracked {
  readonly domainId: string;
  readonly domain: string;
  expiresAtMs: number;
}

/** An expiry at exactly the tracked expires_at (the event's own and the instant it happened). */
function judgeExpired(
  event: Extract<DomainsEvent, { type: 'domains.expired' }>,
  entry: Tracked | undefined,
): Violation | null {
  if (entry !== undefined && event.atMs === entry.expiresAtMs && event.expiresAtMs === entry.expiresAtMs) return null;
  return eventViolation(
    event,
    `${event.domain} expired at ${event.atMs}, not at its expires_at ${entry?.expiresAtMs ?? 'unknown'}`,
  );
}

/** A release at exactly the end of the tracked grace. */
function judgeReleased(
  event: Extract<DomainsEvent, { type: 'domains.released' }>,
  entry: Tracked | undefined,
  graceMs: number,
): Violation | null {
  if (entry !== undefined && event.atMs === entry.expiresAtMs + graceMs) return null;
  return eventViolation(
    event,
    `${event.domain} released at ${event.atMs}, not at the end of its grace ${entry === undefined ? 'unknown' : entry.expiresAtMs + graceMs}`,
  );
}

export const domainsExpiryExact: InvariantDefinition = {
  name: 'domains-expiry-exact',
  description: 'a domain expires at exactly its expires_at and is released at exactly the end of its grace period',
  create({ platform }) {
    const graceMs = platform.config.domains.graceMs;
    const tracked = new Map<string, Tracked>();
    const deadlines = new Scheduler<{ domainId: string; atMs: number; kind: 'expire' | 'release' }>({
      maxPending: 10_000_000,
    });
    const announce = (entry: Tracked): void => {
      deadlines.schedule(entry.expiresAtMs, { domainId: entry.domainId, atMs: entry.expiresAtMs, kind: 'expire' });
      deadlines.schedule(entry.expiresAtMs + graceMs, {
        domainId: entry.domainId,
        atMs: entry.expiresAtMs + graceMs,
        kind: 'release',
      });
    };
    return {
      onEvent(event) {
        if (!isDomainsEvent(event)) return null;
        switch (event.type) {
          case 'domains.registered':
          case 'domains.renewed': {
            const entry = tracked.get(event.domainId) ?? {
              domainId: event.domainId,
              domain: event.domain,
              expiresAtMs: event.expiresAtMs,
            };
            entry.expiresAtMs = event.expiresAtMs;
            tracked.set(event.domainId, entry);
            announce(entry);
            return null;
          }
          case 'domains.expired':
            return judgeExpired(event, tracked.get(event.domainId));
          case 'domains.released': {
            const entry = tracked.get(event.domainId);
            tracked.delete(event.domainId);
            return judgeReleased(event, entry, graceMs);
          }
          case 'domains.offered':
          case 'domains.transferred':
            return null;
        }
      },
      onTick(tickMs) {
        for (let next = deadlines.peek(); next !== undefined && next.atMs <= tickMs; next = deadlines.peek()) {
          deadlines.pop();
          const { domainId, atMs, kind } = next.payload;
          const entry = tracked.get(domainId);
          // Renewed since (a later instant announced) or released: nothing due at this one.
          if (entry === undefined || (kind === 'expire' ? entry.expiresAtMs : entry.expiresAtMs + graceMs) !== atMs)
            continue;
          const record = platform.domains.find(entry.domain);
          if (record === undefined || record.id !== domainId) continue;
          if (kind === 'expire' && record.status === 'active')
            return {
              atMs: tickMs,
              event: jsonText({ domain: entry.domain, expiresAtMs: atMs }),
              message: `${entry.domain} is still active at ${tickMs}, past its expires_at ${atMs}`,
            };
          if (kind === 'release')
            return {
              atMs: tickMs,
              event: jsonText({ domain: entry.domain, releaseAtMs: atMs }),
              message: `${entry.domain} is still held at ${tickMs}, past the end of its grace ${atMs}`,
            };
        }
        return null;
      },
    };
  },
};
