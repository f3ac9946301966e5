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
 * differ otherwise, a card `"10"` and `"K"`, still differ); a list of strings (or numbers) and one
 * string of them joined by a separator (joinedList): a plinko path `["L","R","R"]` and `"LRR"`,
 * slot reels `["ORANGE","LEMON","LEMON"]` and `"ORANGE|LEMON|LEMON"`, scratch symbols and `"🍒🍀🍀"`;
 * a list of booleans and the list of the positions it flags (heldPositions: video poker's `holds`
 * `[false,false,true,false,true]` and `[2,4]`).
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

/**
 * The separators a list may be joined by, tried in turn: none (one character, a grapheme, per item:
 * "LRR", "🍒🍀🍀"), "|", ",", ";", "/", "-" and whitespace; the parts are trimmed, so " | " and ", "
 * read as "|" and ",". A separator is tried only when no item contains it (and none is empty, nor
 * more than one character for the empty separator): the string then splits back into items only
 * one way, so a wrong item, a missing or an extra one still differs.
 */
const SEPARATORS: readonly string[] = ['', '|', ',', ';', '/', '-', ' '];
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

function partsOf(text: string, separator: string): string[] {
  if (separator === '') return Array.from(graphemes.segment(text), (part) => part.segment);
  if (separator === ' ') return text.trim().split(/\s+/);
  return text.split(separator).map((part) => part.trim());
}

/** Whether `item` can be one part of a string split on `separator` (partsOf gives it back whole). */
function fitsSeparator(item: string, separator: string): boolean {
  if (item === '' || item !== item.trim()) return false;
  if (separator === '') return partsOf(item, '').length === 1;
  return separator === ' ' ? !/\s/.test(item) : !item.includes(separator);
}

/** One string and a list of strings or numbers: the string is the list's items joined by one separator (SEPARATORS). */
function joinedList(text: JsonValue, list: JsonValue): boolean {
  if (typeof text !== 'string' || !Array.isArray(list) || list.length === 0) return false;
  const items = list.map((item) => (typeof item === 'number' ? String(item) : item));
  if (!items.every((item) => typeof item === 'string')) return false;
  return SEPARATORS.some((separator) => {
    if (!items.every((item) => fitsSeparator(item, separator))) return false;
    const parts = partsOf(text, separator);
    return (
      parts.length === items.length &&
      parts.every(
        (part, index) => sameLetters(part, items[index] as string) || sameNumber(part, list[index] as JsonValue),
      )
    );
  });
}

/** Both strings equal but for letter case. */
const sameLetters = (recorded: JsonValue, recomputed: JsonValue): boolean =>
  typeof recorded === 'string' && typeof recomputed === 'string' && recorded.toLowerCase() === recomputed.toLowerCase();

/**
 * A list of booleans and the distinct positions (0-based, as the lists beside it index cards) of its
 * `true`s, in any order: the same set of positions. Why: video poker's `holds` echoes the player's
 * choice, which DEPLOYED.md takes as 5 booleans and afp's rule also reads as held positions; a
 * target echoing `[2,4]` shows the same holds. 1-based positions are not read ([1,2] would be two
 * holds either way); a position flagged or left out differs.
 */
function heldPositions(flags: JsonValue, positions: JsonValue): boolean {
  if (!Array.isArray(flags) || !Array.isArray(positions) || flags.length === 0) return false;
  if (!flags.every((flag) => typeof flag === 'boolean')) return false;
  if (!positions.every((position) => typeof position === 'number' && Number.isInteger(position))) return false;
  const held = flags.flatMap((flag, index) => (flag === true ? [index] : []));
  const shown = [...(positions as number[])].sort((a, b) => a - b);
  return shown.length === held.length && new Set(shown).size === shown.length && shown.every((p, i) => p === held[i]);
}

/** The same value written two ways (this file's header): not a difference. */
const sameSpelling = (recorded: JsonValue, recomputed: JsonValue): boolean =>
  sameNumber(recorded, recomputed) ||
  sameLetters(recorded, recomputed) ||
  joinedList(recorded, recomputed) ||
  joinedList(recomputed, recorded) ||
  heldPositions(recorded, recomputed) ||
  heldPositions(recomputed, recorded);

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
