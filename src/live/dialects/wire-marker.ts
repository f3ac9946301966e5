/**
 * WireMarker: one row of the tables `afp target probe` recognizes a service and its dialect by. A
 * row names an endpoint (method and path, `{param}` for a parameter) that a service speaks in one
 * or more dialects, and what a safe GET of it answers there. Only GET rows are sent; every row is
 * also looked for among the paths of the target's `openapi.json`. The tables are data of the
 * dialects (src/live/dialects/documents/markers.ts from afp's route table, deployed/markers.ts from
 * spec/DEPLOYED.md): a new deployment shape is a new table, never a new branch in the probe.
 * Non-goals: sending (probe-url.ts), weighing the evidence (classify.ts).
 */
import type { HttpMethod } from '../../http/route.ts';
import type { ServiceName } from '../../platform/platform.ts';
import type { OperationName } from '../operations.ts';
import type { DialectName } from '../target.ts';

/**
 * What a GET of the path answers where the marker holds:
 *   'ok'        a 2xx (with the `has` fields, when given): a public endpoint;
 *   'needs-key' a 401: the endpoint exists and wants a key;
 *   'exists'    anything but 404, 405, 5xx or no answer (2xx, 400, 401, 403, 422).
 */
export type MarkerAnswer = 'ok' | 'needs-key' | 'exists';

export interface WireMarker {
  /** null: evidence of the dialect only (an endpoint several services serve alike). */
  readonly service: ServiceName | null;
  readonly dialects: readonly DialectName[];
  readonly method: HttpMethod;
  /** Below the service's base URL; `{name}` parameters are sent as PROBE_PARAMETER. */
  readonly path: string;
  readonly answer: MarkerAnswer;
  /** With 'ok': fields of the JSON object body; null = present, a text = equal to it or, for a list, among its elements. */
  readonly has?: Readonly<Record<string, string | null>>;
  /**
   * The afp operation this GET is in the marker's dialects (its row sends this path): a rate limit
   * the answer announces is that operation's, and `afp target probe` writes it into the file.
   */
  readonly op?: OperationName;
  /** Where the row comes from: a DEPLOYED.md section or afp's route id. */
  readonly source: string;
}

/** The value sent for a path parameter: no real id, so no real resource is read. */
export const PROBE_PARAMETER = 'afp-probe';

export function sentPath(marker: WireMarker): string {
  return marker.path.replace(/\{[^}]+\}/g, PROBE_PARAMETER);
}
