/**
 * The record format `afp-record/1`: JSON Lines, one header line then one line per exchange, in
 * the order the simulator sent them. What `afp run --record FILE` writes and `afp replay` reads.
 *
 *   line 1:   { format, scenario, seed, start_ms, end_ms, exchanges, complete, identifier_rule,
 *               dropped: { exchanges, index_values, bodies, sites } }
 *   line n+1: exchange seq n (1-based): { seq, at_ms, agent, request, response, provenance, introduced }
 *
 * Invariants: the header is written last-known-complete (the recorder buffers and writes it at
 * finish, so `exchanges` is the exact number of lines that follow); seq runs 1, 2, 3…; at_ms never
 * decreases and is ≥ start_ms; a request carries `body` or `raw_body`, never both; response headers
 * are only x-ratelimit-* and retry-after. `provenance` names each request site whose value a
 * response produced earlier (see provenance.ts); `introduced` names the sites whose
 * identifier-like value this request introduced (caller-chosen agent ids): those are never rebound.
 * A record cut short by a limit (`complete: false`) is a faithful prefix of the run.
 */
import type { JsonValue } from '../core/errors.ts';

export const RECORD_FORMAT = 'afp-record/1';

export interface DroppedCounts {
  /** Exchanges not written because the record reached its size limit (the record is a prefix). */
  exchanges: number;
  /** Produced values not indexed because the index was full (their later uses are not rebound). */
  index_values: number;
  /** Response bodies left out because their line was too long (their diff is skipped). */
  bodies: number;
  /** Request sites not examined because a request had too many. */
  sites: number;
}

export interface RecordHeader {
  readonly format: typeof RECORD_FORMAT;
  readonly scenario: string;
  readonly seed: string;
  readonly start_ms: number;
  readonly end_ms: number;
  readonly exchanges: number;
  readonly complete: boolean;
  readonly identifier_rule: string;
  readonly dropped: DroppedCounts;
}

export interface RecordedRawBody {
  readonly text: string;
  readonly content_type: string;
}

export interface RecordedRequest {
  readonly mount: string;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: JsonValue;
  readonly raw_body?: RecordedRawBody;
}

export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** null with `body_dropped` when the line would have been too long. */
  readonly body: JsonValue;
  readonly body_dropped?: true;
}

export interface ProvenanceEntry {
  /** The request site: `path/<i>`, `query/<name>`, `body` or `body/<pointer>`, `headers/<name>`. */
  readonly at: string;
  /** The first response that produced the value, and where in its body (a JSON pointer). */
  readonly from: { readonly seq: number; readonly pointer: string };
  /** Text before the value at the site (`Bearer ` in the authorization header). */
  readonly prefix?: string;
}

export interface RecordedExchange {
  readonly seq: number;
  readonly at_ms: number;
  readonly agent: string | null;
  readonly request: RecordedRequest;
  readonly response: RecordedResponse;
  readonly provenance: readonly ProvenanceEntry[];
  readonly introduced: readonly string[];
}

/** Response headers worth keeping: the rate-limit contract (platform.md Limits rule 4). */
export function isRecordedResponseHeader(name: string): boolean {
  return name.startsWith('x-ratelimit-') || name === 'retry-after';
}
