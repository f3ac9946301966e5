/**
 * Where a recorded bet `result` differs from the one a scheme recomputes, field by field, as
 * paths into `result` (`roll`, `reels[1]`, `player_cards[2]`): what an outcome finding shows.
 * Only the fields the recomputation names are compared (a target may add its own: notes, tables),
 * so an extra recorded field is never a difference. Fields named in `unordered` hold sets: they
 * are compared sorted (a target may list drawn numbers or mines in any order).
 * Values that differ only in how the target's dialect writes them are the same value, never another
 * outcome (sameSpelling): a number and a string that spells it in plain decimal (`1` and `"1"`, a
 * card `10` and `"10"`); two strings that differ only in letter case (`"HEADS"` and `"heads"`, a hex
 * hash in either case; no outcome the schemes write is told apart by case alone, and strings that
 * differ otherwise, a card `"10"` and `"K"`, still differ); a list of one-character strings and
 * the string of them joined (a plinko path `["L","R","R"]` and `"LRR"`: one letter per step, so the
 * joined string can be split back only one way).
 * Limits: at most MAX_DIFFERENCES are listed; arrays longer than MAX_ITEMS compare as a whole.
 */
import { isDeepStrictEqual } from 'node:util';
import type { JsonObject, JsonValue } from '../../core/errors.ts';
import type { FieldDifference } from './scheme.ts';

export const MAX_DIFFERENCES = 20;
const MAX_ITEMS = 256;

export interface Comparison {
  readonly differences: readonly FieldDifference[];
  /** Fields the recomputation names that the recorded result lacks. */
  readonly missing: readonly string[];
}

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** The number a string spells in plain decimal ("10", "-2.5"), else the value itself. */
export function numericValue(value: JsonValue | undefined): JsonValue | undefined {
  return typeof value === 'string' && PLAIN_DECIMAL.test(value) ? Number(value) : value;
}

/** Sorted by the value each item spells, so `["10", "2"]` and `[2, 10]` sort alike. */
const sortKey = (item: JsonValue): string => JSON.stringify(numericValue(item));

const sortedCopy = (value: JsonValue): JsonValue =>
  Array.isArray(value)
    ? [...value].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0))
    : value;

/** Both the same number, one of them written as a string. */
const sameNumber = (recorded: JsonValue, recomputed: JsonValue): boolean =>
  typeof recorded !== typeof recomputed &&
  typeof numericValue(recorded) === 'number' &&
  numericValue(recorded) === numericValue(recomputed);

/** The string a list of one-character strings spells joined (`["L","R"]` → `"LR"`); anything else as it is. */
function joined(value: JsonValue): JsonValue {
  return Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => typeof item === 'string' && item.length === 1)
    ? value.join('')
    : value;
}

/** Both strings equal but for letter case, one of them maybe written as a list of its characters. */
function sameLetters(recorded: JsonValue, recomputed: JsonValue): boolean {
  const [left, right] = [joined(recorded), joined(recomputed)];
  return typeof left === 'string' && typeof right === 'string' && left.toLowerCase() === right.toLowerCase();
}

/** The same value written two ways (this file's header): not a difference. */
const sameSpelling = (recorded: JsonValue, recomputed: JsonValue): boolean =>
  sameNumber(recorded, recomputed) || sameLetters(recorded, recomputed);

function walk(path: string, recorded: JsonValue, recomputed: JsonValue, out: FieldDifference[]): void {
  if (out.length >= MAX_DIFFERENCES || isDeepStrictEqual(recorded, recomputed) || sameSpelling(recorded, recomputed))
    return;
  if (
    Array.isArray(recorded) &&
    Array.isArray(recomputed) &&
    recorded.length === recomputed.length &&
    recorded.length <= MAX_ITEMS
  ) {
    recomputed.forEach((item, index) => walk(`${path}[${index}]`, recorded[index] as JsonValue, item, out));
    return;
  }
  if (isObject(recorded) && isObject(recomputed)) {
    for (const key of Object.keys(recomputed).sort())
      walk(`${path}.${key}`, recorded[key] ?? null, recomputed[key] as JsonValue, out);
    return;
  }
  out.push({ field: path, recorded, recomputed });
}

/** Compares the recomputed fields with the recorded `result` (which need not be an object). */
export function compareResult(
  recorded: JsonValue,
  recomputed: JsonObject,
  unordered: readonly string[] = [],
): Comparison {
  const differences: FieldDifference[] = [];
  const missing: string[] = [];
  const fields = isObject(recorded) ? recorded : {};
  for (const field of Object.keys(recomputed).sort()) {
    const expected = recomputed[field] as JsonValue;
    const seen = fields[field];
    if (seen === undefined) {
      missing.push(field);
      continue;
    }
    const ordered = unordered.includes(field);
    walk(field, ordered ? sortedCopy(seen) : seen, ordered ? sortedCopy(expected) : expected, differences);
  }
  return { differences, missing };
}
