/**
 * domains.csv: one row per domain registration of the run (a name released and registered again
 * is a new row), folded from the run's domains events, and its renderer. Written only when the run
 * registered at least one domain, so other runs keep exactly the reports (and digests) they had.
 *
 * Invariants: rows sorted by registration instant, then registration id (a total order); money as
 * USDC with 6 decimals; instants ISO 8601 UTC; `\n` line endings, a header always (csv-tables.ts).
 */
import { stringify } from 'csv-stringify/sync';
import type { Micro } from '../core/money.ts';
import { isoTime } from '../http/render.ts';
import { isDomainsEvent } from '../services/domains/domains-events.ts';
import type { DomainEvent } from '../services/shared/events.ts';
import { usdcColumnText } from './column-format.ts';

export interface DomainRow {
  readonly domainId: string;
  readonly domain: string;
  readonly registrantId: string;
  /** The owner at the end of the run (or when released). */
  readonly ownerId: string;
  readonly registeredAtMs: number;
  readonly expiresAtMs: number;
  readonly status: 'active' | 'expired' | 'released';
  readonly years: number;
  readonly renewals: number;
  readonly transfers: number;
  readonly sales: number;
  /** Registration and renewal fees paid. */
  readonly feesMicro: Micro;
  /** Sum of the sale prices paid for it. */
  readonly salesMicro: Micro;
}

type MutableRow = { -readonly [K in keyof DomainRow]: DomainRow[K] };

/** The rows of every registration in `events`, or undefined when there is none. */
export function domainRowsFromEvents(events: readonly DomainEvent[]): DomainRow[] | undefined {
  const fold = new DomainRowsFold();
  for (const event of events) fold.add(event);
  return fold.rows();
}

/**
 * The same rows folded one event at a time, as a run emits them: a run that streams its events to
 * disk keeps only this (one row per registered domain), not the events.
 */
export class DomainRowsFold {
  private readonly byDomain = new Map<string, MutableRow>();

  add(event: DomainEvent): void {
    if (!isDomainsEvent(event)) return;
    switch (event.type) {
      case 'domains.registered':
        this.byDomain.set(event.domainId, {
          domainId: event.domainId,
          domain: event.domain,
          registrantId: event.ownerId,
          ownerId: event.ownerId,
          registeredAtMs: event.atMs,
          expiresAtMs: event.expiresAtMs,
          status: 'active',
          years: event.years,
          renewals: 0,
          transfers: 0,
          sales: 0,
          feesMicro: event.costMicro,
          salesMicro: 0n,
        });
        break;
      case 'domains.renewed': {
        const row = this.byDomain.get(event.domainId);
        if (row === undefined) break;
        row.renewals++;
        row.years += event.years;
        row.expiresAtMs = event.expiresAtMs;
        row.status = 'active';
        row.feesMicro += event.costMicro;
        break;
      }
      case 'domains.transferred': {
        const row = this.byDomain.get(event.domainId);
        if (row === undefined) break;
        row.ownerId = event.toId;
        row.transfers++;
        if (event.priceMicro !== null) {
          row.sales++;
          row.salesMicro += event.priceMicro;
        }
        break;
      }
      case 'domains.expired':
      case 'domains.released': {
        const row = this.byDomain.get(event.domainId);
        if (row !== undefined) row.status = event.type === 'domains.expired' ? 'expired' : 'released';
        break;
      }
      case 'domains.offered':
        break;
    }
  }

  /** The rows by registration time, then id; undefined when nothing was registered. */
  rows(): DomainRow[] | undefined {
    if (this.byDomain.size === 0) return undefined;
    return [...this.byDomain.values()].sort(
      (a, b) => a.registeredAtMs - b.registeredAtMs || (a.domainId < b.domainId ? -1 : a.domainId > b.domainId ? 1 : 0),
    );
  }
}

const DOMAIN_COLUMNS = [
  'domain_id',
  'domain',
  'registrant',
  'owner',
  'status',
  'registered_at',
  'expires_at',
  'years',
  'renewals',
  'transfers',
  'sales',
  'fees',
  'sales_total',
] as const;

export function renderDomainsCsv(rows: readonly DomainRow[]): string {
  const cells = rows.map((row) => [
    row.domainId,
    row.domain,
    row.registrantId,
    row.ownerId,
    row.status,
    isoTime(row.registeredAtMs),
    isoTime(row.expiresAtMs),
    row.years,
    row.renewals,
    row.transfers,
    row.sales,
    usdcColumnText(row.feesMicro),
    usdcColumnText(row.salesMicro),
  ]);
  return stringify(cells, { header: true, columns: [...DOMAIN_COLUMNS], record_delimiter: '\n' });
}
