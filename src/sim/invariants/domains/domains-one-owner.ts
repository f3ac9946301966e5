/**
 * Invariant `domains-one-owner`: a domain has exactly one owner. Followed from the events — a
 * registration of a name already held, a transfer from someone other than the tracked owner, or a
 * release of a name not held is a violation — and checked against the platform's book after every
 * domains event (the name and owner indexes agree: DomainBook.checkConsistent) and every hour
 * (every held record's owner is the tracked one).
 */
import type { DomainEvent } from '../../../services/shared/events.ts';
import { jsonText } from '../../json-text.ts';
import type { Platform } from '../../../platform/platform.ts';
import { eventViolation, type InvariantDefinition, type Violation } from '../checker.ts';
import { isDomainsEvent } from '../../../services/domains/domains-events.ts';

/** Held name → [registration id, owner], as the events tell it. */
type Owners = Map<string, { domainId: string; ownerId: string }>;

/** The registry against the events' owners, every hour: the same count and each name's owner; the first difference, or null. */
function registryDisagrees(platform: Platform, owners: Owners, nowMs: number): Violation | null {
  if (platform.domains.size !== owners.size)
    return {
      atMs: nowMs,
      event: jsonText({ held: platform.domains.size, tracked: owners.size }),
      message: `the registry holds ${platform.domains.size} domains, the events say ${owners.size}`,
    };
  for (const record of platform.domains.all()) {
    const held = owners.get(record.name);
    if (held?.ownerId !== record.ownerId)
      return {
        atMs: nowMs,
        event: jsonText({ domain: record.name }),
        message: `${record.name} is owned by ${record.ownerId} in the registry, by ${held?.ownerId ?? 'nobody'} by the events`,
      };
  }
  return null;
}

export const domainsOneOwner: InvariantDefinition = {
  name: 'domains-one-owner',
  description: 'every domain has exactly one owner: events and the registry agree after every domains event',
  create({ platform }) {
    const owners: Owners = new Map();
    const consistent = (event: DomainEvent): Violation | null => {
      const broken = platform.domains.checkConsistent();
      return broken === null ? null : eventViolation(event, `domain registry inconsistent: ${broken}`);
    };
    return {
      onEvent(event) {
        if (!isDomainsEvent(event)) return null;
        switch (event.type) {
          case 'domains.registered': {
            const held = owners.get(event.domain);
            if (held !== undefined)
              return eventViolation(
                event,
                `${event.domain} registered by ${event.ownerId} while held by ${held.ownerId}`,
              );
            owners.set(event.domain, { domainId: event.domainId, ownerId: event.ownerId });
            return consistent(event);
          }
          case 'domains.transferred': {
            const held = owners.get(event.domain);
            if (held === undefined || held.domainId !== event.domainId || held.ownerId !== event.fromId) {
              return eventViolation(
                event,
                `${event.domain} transferred from ${event.fromId} but its tracked owner is ${held?.ownerId ?? 'nobody'}`,
              );
            }
            if (event.toId === event.fromId)
              return eventViolation(event, `${event.domain} transferred to its own owner`);
            held.ownerId = event.toId;
            return platform.domains.find(event.domain)?.ownerId === event.toId
              ? consistent(event)
              : eventViolation(event, `${event.domain} transferred to ${event.toId} but the registry says otherwise`);
          }
          case 'domains.released': {
            const held = owners.get(event.domain);
            if (held === undefined || held.domainId !== event.domainId)
              return eventViolation(event, `${event.domain} released but not held`);
            owners.delete(event.domain);
            return platform.domains.find(event.domain) === undefined
              ? consistent(event)
              : eventViolation(event, `${event.domain} released but still in the registry`);
          }
          case 'domains.renewed':
          case 'domains.offered':
          case 'domains.expired': {
            const held = owners.get(event.domain);
            if (held === undefined || held.ownerId !== event.ownerId)
              return eventViolation(
                event,
                `${event.type} of ${event.domain} by ${event.ownerId}, tracked owner ${held?.ownerId ?? 'nobody'}`,
              );
            return null;
          }
        }
      },
      onHour(nowMs) {
        return registryDisagrees(platform, owners, nowMs);
      },
    };
  },
};
