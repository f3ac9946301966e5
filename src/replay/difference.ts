/**
 * A difference between what the record says the model answered and what the live target
 * answered, as plain data (diff.json lists them; diff.txt summarises them).
 *
 * Kinds: `status` (HTTP status differs; the body is then not compared), `shape` (a key missing
 * or extra, a JSON type or an array length differs), `value` (a compared value differs),
 * `binding` (a recorded identifier maps to two live values, two recorded identifiers map to one
 * live value, or a value to rebind was not found in the live answer that should have produced it),
 * `setup` (the target is not set up like the recorded run: a platform setting of
 * `GET /_afp/platform` differs from the record's, or an agent's tier could not be applied; seq 0
 * when found before the first exchange, endpoint `_afp/platform` or `_afp/tier`).
 * Pointers: `status`, `headers/<name>`, `body/<json pointer>`, `request/<site>`,
 * `platform/dispute_outcome`, `platform/faults/<i>`, `tier/<agent_id>`.
 */
import type { JsonValue } from '../core/errors.ts';

export type DifferenceKind = 'status' | 'shape' | 'value' | 'binding' | 'setup';
export const DIFFERENCE_KINDS: readonly DifferenceKind[] = ['status', 'shape', 'value', 'binding', 'setup'];

/** A difference found inside one exchange, before it is labelled with its seq and endpoint. */
export interface ReplayDifference {
  readonly kind: DifferenceKind;
  readonly pointer: string;
  readonly expected: JsonValue;
  readonly actual: JsonValue;
  readonly note?: string;
}

export interface Difference extends ReplayDifference {
  readonly seq: number;
  /** Route id (`escrow.B.release`) or `<mount> <METHOD> <path template>` for unknown routes. */
  readonly endpoint: string;
}
