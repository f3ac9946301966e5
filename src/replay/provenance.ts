/**
 * Provenance, computed at record time with no user rules: which request values were produced by
 * an earlier response (and must be rebound on replay) and which the request itself introduced.
 *
 * Every identifier-like string leaf (identifier-rule.ts) of every response body is indexed by
 * value → its first producing (seq, JSON pointer). For each later request, every site
 * (request-sites.ts) whose value is indexed gets a provenance entry. An identifier-like site
 * value never seen before is "introduced" by the request (a caller-chosen agent id): it is
 * remembered so that a response echoing it is not taken for its producer, and it is never rebound.
 * Order decides: a value's origin is whichever came first, a request or a response.
 *
 * Limits: produced and introduced values together are capped at `indexValuesMax` (default 2M);
 * values beyond are counted in `droppedIndexValues`, sites beyond SITES_MAX in `droppedSites`.
 */
import { isIdentifierLike } from './identifier-rule.ts';
import { forEachStringLeaf } from './json-pointer.ts';
import type { ProvenanceEntry, RecordedRequest } from './record-format.ts';
import { requestSites } from './request-sites.ts';

export const INDEX_VALUES_MAX = 2_000_000;

export interface Producer {
  readonly seq: number;
  readonly pointer: string;
}

export interface RequestProvenance {
  readonly provenance: ProvenanceEntry[];
  readonly introduced: string[];
}

export class ProvenanceIndex {
  private readonly produced = new Map<string, Producer>();
  private readonly introducedValues = new Set<string>();
  private readonly indexValuesMax: number;
  droppedIndexValues = 0;
  droppedSites = 0;

  constructor(options: { indexValuesMax?: number } = {}) {
    this.indexValuesMax = options.indexValuesMax ?? INDEX_VALUES_MAX;
  }

  get size(): number {
    return this.produced.size + this.introducedValues.size;
  }

  producerOf(value: string): Producer | undefined {
    return this.produced.get(value);
  }

  observeRequest(request: RecordedRequest): RequestProvenance {
    const { sites, dropped } = requestSites(request);
    this.droppedSites += dropped;
    const provenance: ProvenanceEntry[] = [];
    const introduced: string[] = [];
    for (const site of sites) {
      const producer = this.produced.get(site.value);
      if (producer !== undefined) {
        const from = { seq: producer.seq, pointer: producer.pointer };
        provenance.push(site.prefix === '' ? { at: site.at, from } : { at: site.at, from, prefix: site.prefix });
      } else if (isIdentifierLike(site.value) && !this.introducedValues.has(site.value) && this.admit()) {
        this.introducedValues.add(site.value);
        introduced.push(site.at);
      }
    }
    return { provenance, introduced };
  }

  observeResponse(seq: number, body: unknown): void {
    forEachStringLeaf(body, (pointer, value) => {
      if (this.produced.has(value) || this.introducedValues.has(value) || !isIdentifierLike(value)) return;
      if (this.admit()) this.produced.set(value, { seq, pointer });
    });
  }

  private admit(): boolean {
    if (this.size < this.indexValuesMax) return true;
    this.droppedIndexValues++;
    return false;
  }
}
