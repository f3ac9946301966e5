/**
 * The domains service's events, told apart from the rest: the domains checkers and domains.csv switch over these
 * alone (exhaustively), so another service's new event never needs a line in them.
 */
import type { DomainEvent } from '../shared/events.ts';

export type DomainsEvent = Extract<DomainEvent, { type: `domains.${string}` }>;

export function isDomainsEvent(event: DomainEvent): event is DomainsEvent {
  return event.type.startsWith('domains.');
}
