/**
 * Results that are sets, compared as sets: a domain's DNS records (`domains.dns-records`,
 * `domains.dns-set`) by type, name and value, then each one's TTL and priority; the caller's
 * domains (`domains.list`) by name, then each one's status. Every other result is compared by
 * operation-diff.ts, as are a refusal on either side.
 * Why: the same records or names listed in another order are the same answer, and one name
 * missing from a list compared by position would show as a difference at every place after it;
 * each difference names the record or the domain it is about (`domain`, so a name whose holder
 * already left the recording's explains it: replay-consequences.ts).
 * Pure. Bounds: at most SET_MAX elements of either side are compared.
 */
import { type DnsEntry, type ListedDomain, type OperationName, type ReadOutcome, dnsEntryKey } from '../live.ts';
import { compareOutcomes, type CompareOptions, type ResultDifference } from './operation-diff.ts';

const SET_MAX = 1_000;

interface SetSide<T> {
  readonly what: string;
  readonly keyOf: (item: T) => string;
  /** The fields compared on an element both sides hold. */
  readonly fields: readonly (keyof T & string)[];
  /** The domain an element is about, where it names one. */
  readonly domainOf: (item: T) => string | undefined;
}

const RECORDS: SetSide<DnsEntry> = {
  what: 'records',
  keyOf: (entry) => dnsEntryKey(entry).replaceAll('\n', ' '),
  fields: ['ttl', 'priority'],
  domainOf: () => undefined,
};

const DOMAINS: SetSide<ListedDomain> = {
  what: 'domains',
  keyOf: (domain) => domain.domain,
  fields: ['status'],
  domainOf: (domain) => domain.domain,
};

/** Both answers compared: as sets where the operation's result is one, else by operation-diff.ts. */
export function compareResults<R>(
  op: OperationName,
  recorded: ReadOutcome<R>,
  live: ReadOutcome<R>,
  options: CompareOptions,
): ResultDifference[] {
  if (recorded.kind !== 'ok' || live.kind !== 'ok') return compareOutcomes(op, recorded, live, options);
  const domain = (options.input as { domain?: unknown } | undefined)?.domain;
  const about = typeof domain === 'string' ? domain : undefined;
  if (op === 'domains.list')
    return compareSets(DOMAINS, listOf(recorded.value, 'domains'), listOf(live.value, 'domains'), about);
  if (op === 'domains.dns-records' || op === 'domains.dns-set')
    return compareSets(RECORDS, listOf(recorded.value, 'records'), listOf(live.value, 'records'), about);
  return compareOutcomes(op, recorded, live, options);
}

function listOf<T>(value: unknown, name: string): readonly T[] {
  const list = (value as Record<string, unknown>)[name];
  return Array.isArray(list) ? (list.slice(0, SET_MAX) as T[]) : [];
}

function compareSets<T>(
  side: SetSide<T>,
  recorded: readonly T[],
  live: readonly T[],
  about: string | undefined,
): ResultDifference[] {
  const liveByKey = new Map(live.map((item) => [side.keyOf(item), item] as const));
  const recordedKeys = new Set(recorded.map(side.keyOf));
  const differences: ResultDifference[] = [];
  const with_ = (item: T): { domain?: string } => {
    const domain = side.domainOf(item) ?? about;
    return domain === undefined ? {} : { domain };
  };
  for (const item of recorded) {
    const key = side.keyOf(item);
    const there = liveByKey.get(key);
    if (there === undefined || there === null) {
      differences.push({
        kind: 'rule',
        field: side.what,
        expected: key,
        seen: null,
        note: `the recording's ${side.what} hold ${key}, the target's do not`,
        ...with_(item),
      });
      continue;
    }
    for (const field of side.fields) {
      const [expected, seen] = [item[field], there[field]];
      if (expected !== null && seen !== null && expected !== seen)
        differences.push({
          kind: 'rule',
          field: `${side.what}.${field}`,
          expected: expected as string | number,
          seen: seen as string | number,
          note: `another ${field} of ${key}`,
          ...with_(item),
        });
    }
  }
  for (const item of live)
    if (!recordedKeys.has(side.keyOf(item)))
      differences.push({
        kind: 'rule',
        field: side.what,
        expected: null,
        seen: side.keyOf(item),
        note: `the target's ${side.what} hold ${side.keyOf(item)}, the recording's do not`,
        ...with_(item),
      });
  return differences;
}
