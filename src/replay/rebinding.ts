/**
 * Rebinding: before a recorded request is sent to a live target, every provenance site gets the
 * value the live target produced where the record's value was produced — the string found at
 * the same JSON pointer of the live answer to the producing seq — with the site's prefix kept
 * (`Bearer `). When that answer lacks it, the binding of the recorded value (if any exchange bound
 * it since) is used; when neither exists the recorded value is sent unchanged and a `binding`
 * finding says so. Introduced values bind to themselves and are sent unchanged.
 *
 * Pure: the live values come in through `LiveValues`, filled by the replay session as answers arrive.
 */
import type { Bindings } from './bindings.ts';
import type { ReplayDifference } from './difference.ts';
import type { RecordedExchange, RecordedRequest } from './record-format.ts';
import { requestSites, withSiteValue } from './request-sites.ts';

export interface LiveValues {
  /** The live string at `pointer` of the live answer to `seq`, if that answer had one. */
  get(seq: number, pointer: string): string | undefined;
}

export interface Rebound {
  readonly request: RecordedRequest;
  readonly findings: ReplayDifference[];
}

export function rebindRequest(exchange: RecordedExchange, live: LiveValues, bindings: Bindings): Rebound {
  const findings: ReplayDifference[] = [];
  const recordedAt = new Map<string, string>();
  for (const site of requestSites(exchange.request).sites) recordedAt.set(site.at, site.value);
  for (const at of exchange.introduced) {
    const value = recordedAt.get(at);
    if (value === undefined) continue;
    const bound = bindings.bind(value, value);
    if (!bound.ok)
      findings.push({
        kind: 'binding',
        pointer: `request/${at}`,
        expected: value,
        actual: bound.expected,
        note: bound.conflict,
      });
  }
  let request = exchange.request;
  for (const entry of exchange.provenance) {
    const recorded = recordedAt.get(entry.at);
    const pointer = `request/${entry.at}`;
    if (recorded === undefined) {
      findings.push({
        kind: 'binding',
        pointer,
        expected: `a value from seq ${entry.from.seq} at ${entry.from.pointer}`,
        actual: null,
        note: 'the recorded request has no such site',
      });
      continue;
    }
    const value = live.get(entry.from.seq, entry.from.pointer) ?? bindings.live(recorded);
    if (value === undefined) {
      findings.push({
        kind: 'binding',
        pointer,
        expected: `the live value of seq ${entry.from.seq} at ${entry.from.pointer || '(root)'}`,
        actual: null,
        note: `not in the live answer; sent the recorded ${recorded}`,
      });
      continue;
    }
    const bound = bindings.bind(recorded, value);
    if (!bound.ok)
      findings.push({ kind: 'binding', pointer, expected: bound.expected, actual: value, note: bound.conflict });
    request = withSiteValue(request, entry.at, (entry.prefix ?? '') + value) ?? request;
  }
  return { request, findings };
}
