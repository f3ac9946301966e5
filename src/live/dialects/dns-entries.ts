/**
 * DNS record sets and domain lists as the dialects read them (the rows of documents/domains.ts and
 * deployed/domains.ts): one record by its fields whatever the dialect calls its value (the
 * documents' `value`, the deployment's `content`), and every set or list sorted the same way.
 * Why: a record set is a set (style A keeps a replaced set in place, a deployment adds a record
 * where it likes), so two targets holding the same records list them alike only once sorted.
 */
import type { DnsEntry, ListedDomain } from '../operations.ts';
import type { WireReader } from '../wire-reader.ts';

/** One record of a set; `content`: the field the dialect writes the value under (the other spelling documented). */
export function dnsEntryOf(element: WireReader, content: 'value' | 'content'): DnsEntry | null {
  element.knows('id', 'domain_id', 'priority');
  const type = element.string('type');
  const name = element.string('name');
  const value = content === 'value' ? element.string('value') : element.string('content', { documents: 'value' });
  const ttl = element.number('ttl', { optional: true });
  // null for every type but MX on both sides: read only where it is a number.
  const stated = element.has('priority') ? element.any('priority') : null;
  const priority = typeof stated === 'number' ? stated : null;
  return type === null || name === null || value === null ? null : { type, name, content: value, ttl, priority };
}

const entryKey = (entry: DnsEntry): string => `${entry.type}\n${entry.name}\n${entry.content}`;

/** The records sorted by type, name and value. */
export function sortedEntries(entries: readonly DnsEntry[]): DnsEntry[] {
  return [...entries].sort((a, b) => (entryKey(a) < entryKey(b) ? -1 : entryKey(a) > entryKey(b) ? 1 : 0));
}

/** The domains sorted by name. */
export function sortedDomains(domains: readonly ListedDomain[]): ListedDomain[] {
  return [...domains].sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
}

/** The key a record set is compared by (type, name, value). */
export function dnsEntryKey(entry: Pick<DnsEntry, 'type' | 'name' | 'content'>): string {
  return entryKey(entry as DnsEntry);
}
