/**
 * WireReader: reads one JSON answer field by field through a dialect's names, and records every way
 * the answer differs from the documents as a Deviation instead of failing. A live target is met as
 * it is (STYLE rule 14): an absent, renamed, mistyped or unknown field never makes a call "refused"
 * or "failed"; the command goes on with what could be read, and the deviations become findings.
 *
 * Each read names the field as the dialect spells it and, where the documents spell it otherwise,
 * the documents' name. Outcomes, in order:
 *   - found under the dialect's name: when that differs from the documents' name, a `renamed`
 *     deviation the dialect documents (an info finding: "the deployment calls it previous_seed");
 *   - absent there, found under the documents' name: `fallback` (the target does not speak its
 *     declared dialect here), and the value is used;
 *   - absent under both: `missing` (null is returned; a required field's absence is graver);
 *   - present with another JSON type: `type`, and null is returned.
 * `unknownFields()` lists top-level fields neither spelling names (`unknown`, info).
 * Invariants: never throws on any JSON value; paths are dotted (`proof.nonce`); money is read
 * without loss (core/live-amount.ts), from a JSON number (its shortest text, float noise and
 * exponent forms included) or a decimal string: `amount` gives it exactly, `money` in afp's
 * micro-USDC (nearest micro: a target's sub-micro digits are float noise to afp's model).
 */
import type { JsonValue } from '../core/errors.ts';
import { isLiveAmount, parseLiveAmount, toMicro, type LiveAmount } from '../core/live-amount.ts';
import type { Micro } from '../core/money.ts';

export type DeviationKind =
  | 'renamed'
  | 'fallback'
  | 'missing'
  | 'type'
  | 'unknown'
  | 'error-shape'
  | 'not-json'
  /** Past afp's answer limits (client/answer-limits.ts): not read. */
  | 'too-large'
  | 'too-deep'
  /** A redirect afp does not follow (client/redirect-policy.ts): the call is unanswered. */
  | 'redirect';

export interface Deviation {
  readonly kind: DeviationKind;
  /** Where in the answer (dotted path as the target spells it, or the documents' path when absent). */
  readonly field: string;
  readonly expected: JsonValue;
  readonly seen: JsonValue;
  /**
   * The dialect documents this difference (a renamed field of the deployment), or the field is
   * missing where no document gives it (ReadOptions.unstated): reported as info.
   */
  readonly documented: boolean;
  /** Whether the operation needed the field to be useful. */
  readonly required: boolean;
}

export interface ReadOptions {
  /** The documents' name of the field, when the dialect spells it otherwise. */
  readonly documents?: string;
  /** An absent optional field is only a minor finding. Default: required. */
  readonly optional?: boolean;
  /**
   * No document gives this field (afp reads it where a target offers it: its own stand-in's): an
   * absent one is an info finding, whatever `optional` says, since its absence contradicts nothing
   * written; the read is still null, so what needs it is skipped, never judged.
   */
  readonly unstated?: boolean;
}

type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'money' | 'id' | 'any';

const MAX_UNKNOWN_LISTED = 50;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The value at a dotted path, or undefined. */
export function valueAt(body: unknown, path: string): unknown {
  let current: unknown = body;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function fits(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'any':
      return value !== undefined;
    case 'money':
      return isLiveAmount(parseLiveAmount(value));
    case 'id':
      return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'string':
    case 'number':
    case 'boolean':
      return typeof value === type && (type !== 'number' || Number.isFinite(value));
  }
}

function snippet(value: unknown): JsonValue {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 200 ? `${text.slice(0, 200)}…` : (JSON.parse(text) as JsonValue);
}

export class WireReader {
  readonly body: unknown;
  private readonly found: Deviation[] = [];
  /** Top-level names either spelling used, for `unknownFields`. */
  private readonly named = new Set<string>(['_info']);

  constructor(body: unknown) {
    this.body = body;
  }

  /** A reader of a nested object (an element of `results`, say) whose deviations join this one's under `prefix`. */
  nested(value: unknown, prefix: string): WireReader {
    const reader = new WireReader(value);
    const parent = this.found;
    reader.record = (deviation) => parent.push({ ...deviation, field: `${prefix}.${deviation.field}` });
    return reader;
  }

  string(path: string, options: ReadOptions = {}): string | null {
    return this.read(path, 'string', options) as string | null;
  }

  /**
   * An identifier a target issued, a string or a whole number (read as its decimal string). Why:
   * where a document gives an id no type (DEPLOYED.md §5's `position_id`), a target's integer ids
   * are honest; they were a major "not string" and the liquidation probe could not find its position.
   */
  id(path: string, options: ReadOptions = {}): string | null {
    const value = this.read(path, 'id', options);
    return typeof value === 'number' ? String(value) : (value as string | null);
  }

  number(path: string, options: ReadOptions = {}): number | null {
    return this.read(path, 'number', options) as number | null;
  }

  boolean(path: string, options: ReadOptions = {}): boolean | null {
    return this.read(path, 'boolean', options) as boolean | null;
  }

  array(path: string, options: ReadOptions = {}): unknown[] | null {
    return this.read(path, 'array', options) as unknown[] | null;
  }

  /**
   * Each element of the array at `path` read by `read` on its own nested reader (deviations under
   * `path[i]`), in order, the nulls dropped; an absent array (or not an array) reads as none.
   */
  items<T>(path: string, read: (element: WireReader) => T | null): T[] {
    const found: T[] = [];
    (this.array(path) ?? []).forEach((item, index) => {
      const one = read(this.nested(item, `${path}[${index}]`));
      if (one !== null) found.push(one);
    });
    return found;
  }

  object(path: string, options: ReadOptions = {}): Record<string, unknown> | null {
    return this.read(path, 'object', options) as Record<string, unknown> | null;
  }

  any(path: string, options: ReadOptions = {}): JsonValue | null {
    return (this.read(path, 'any', options) as JsonValue | undefined) ?? null;
  }

  /** An amount (JSON number or decimal string) exactly as written; null when absent or not an amount. */
  amount(path: string, options: ReadOptions = {}): LiveAmount | null {
    const value = this.read(path, 'money', options);
    if (value === null) return null;
    const parsed = parseLiveAmount(value);
    return isLiveAmount(parsed) ? parsed : null;
  }

  /** An amount in afp's micro-USDC (the nearest micro of what was written); null when absent or not an amount. */
  money(path: string, options: ReadOptions = {}): Micro | null {
    const amount = this.amount(path, options);
    return amount === null ? null : toMicro(amount).micro;
  }

  /** Whether the answer has a value at `path` (nothing is recorded): for fields read only where a target states them. */
  has(path: string): boolean {
    return valueAt(this.body, path) !== undefined;
  }

  /** Declares top-level names the dialect knows but does not read, so they are not reported unknown. */
  knows(...names: string[]): this {
    for (const name of names) this.named.add(name);
    return this;
  }

  /** Top-level fields of the answer that neither the dialect nor the documents name. */
  unknownFields(): string[] {
    const body = this.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
    return Object.keys(body)
      .filter((name) => !this.named.has(name))
      .sort()
      .slice(0, MAX_UNKNOWN_LISTED);
  }

  /** Every deviation seen, unknown fields included (each as one `unknown` deviation). */
  deviations(): Deviation[] {
    const unknown = this.unknownFields().map((name): Deviation => ({
      kind: 'unknown',
      field: name,
      expected: null,
      seen: snippet(valueAt(this.body, name)),
      documented: false,
      required: false,
    }));
    return [...this.found, ...unknown];
  }

  /** Records a deviation the caller found itself (an error body without `code`, say). */
  record = (deviation: Deviation): void => {
    this.found.push(deviation);
  };

  private read(path: string, type: JsonType, options: ReadOptions): unknown {
    const documents = options.documents ?? path;
    const required = options.optional !== true;
    this.named.add(path.split('.')[0] as string);
    this.named.add(documents.split('.')[0] as string);
    const value = valueAt(this.body, path);
    if (value !== undefined) {
      if (!fits(value, type)) {
        this.record({ kind: 'type', field: path, expected: type, seen: snippet(value), documented: false, required });
        return null;
      }
      if (documents !== path)
        this.record({ kind: 'renamed', field: path, expected: documents, seen: path, documented: true, required });
      return value;
    }
    const fallback = documents === path ? undefined : valueAt(this.body, documents);
    if (fallback !== undefined && fits(fallback, type)) {
      this.record({ kind: 'fallback', field: documents, expected: path, seen: documents, documented: false, required });
      return fallback;
    }
    this.record({
      kind: 'missing',
      field: path,
      expected: documents === path ? type : `${path} (documents: ${documents})`,
      seen: typeOf(value),
      documented: options.unstated === true,
      required,
    });
    return null;
  }
}
