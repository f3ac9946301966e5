/**
 * Reading a target's JSON answer without trusting it: JSON.parse recurses on the stack, and afp's
 * later copies, prints and reads of the value recurse too, so an answer nested a few thousand
 * levels deep (10 KB of `[`) ends the process with a RangeError. Here one pass over the text,
 * with no recursion, measures its nesting first, and an answer past `depthMax` is refused
 * (`too-deep`) before it is parsed. A number that does not fit a double (`1e309`, which JSON.parse
 * reads as Infinity, and whose arithmetic then throws or lies) is read as the text the target
 * wrote, a string, so every typed read of it is a type deviation, never Infinity. An answer of
 * more than JSON_VALUES_MAX values (an object of a million keys fits in 16 MB, and parsed, copied
 * and diffed it took afp's replay to 700 MB) is refused the same way (`too-many`).
 * `__proto__` keys stay plain own keys (JSON.parse and its reviver define properties, they never
 * set a prototype); readers copy answers with spreads or hasOwn reads, never Object.assign.
 * Non-goals: the size of the text (the connection stops reading at its byte limit, before this).
 */

export const ANSWER_JSON_DEPTH_MAX = 256;
/** Values (members and elements) in one answer: 10,000 bets of 15 fields each are 160,000. */
export const JSON_VALUES_MAX = 250_000;

export type BoundedJson =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'not-json' }
  /** Nested deeper than the limit: not parsed. */
  | { readonly kind: 'too-deep'; readonly depthMax: number }
  /** More values than the limit: not parsed. */
  | { readonly kind: 'too-many'; readonly valuesMax: number };

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

interface TextShape {
  readonly depth: number;
  /** Separators and containers seen (an upper bound of the values, stopping once past the limit). */
  readonly values: number;
  /** An `e`/`E` after a digit outside strings (an exponent: a number that may not fit a double). */
  readonly exponent: boolean;
  /** A run of digits long enough to overflow a double. */
  readonly longDigits: boolean;
}

/** A double overflows past 309 integer digits; fewer cannot. */
const DIGITS_SAFE_MAX = 308;

/** The deepest nesting of `text` (stopping once past `depthMax`), and whether it holds numbers that may not fit a double. */
function shapeOf(text: string, depthMax: number, valuesMax: number): TextShape {
  let depth = 0;
  let values = 1;
  let deepest = 0;
  let inString = false;
  let exponent = false;
  let digits = 0;
  let longDigits = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (code >= 0x30 && code <= 0x39) {
      digits++;
      if (digits > DIGITS_SAFE_MAX) longDigits = true;
      continue;
    }
    const afterDigit = digits > 0;
    digits = 0;
    if (code === QUOTE) inString = true;
    else if (code === COMMA) {
      values++;
      if (values > valuesMax) break;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      depth++;
      values++;
      if (depth > deepest) deepest = depth;
      if (deepest > depthMax) break;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) depth--;
    else if ((code === LOWER_E || code === UPPER_E) && afterDigit) exponent = true;
  }
  return { depth: deepest, values, exponent, longDigits };
}

/** A number that does not fit a double, as the text the target wrote. */
function finiteOrText(this: unknown, _key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return context?.source ?? String(value);
  return value;
}

/** `text` as JSON, refused past `depthMax` levels of nesting or `valuesMax` values; never throws. */
export function parseBoundedJson(
  text: string,
  depthMax: number = ANSWER_JSON_DEPTH_MAX,
  valuesMax: number = JSON_VALUES_MAX,
): BoundedJson {
  const shape = shapeOf(text, depthMax, valuesMax);
  if (shape.depth > depthMax) return { kind: 'too-deep', depthMax };
  if (shape.values > valuesMax) return { kind: 'too-many', valuesMax };
  try {
    const value: unknown =
      shape.exponent || shape.longDigits
        ? JSON.parse(text, finiteOrText as (key: string, value: unknown) => unknown)
        : JSON.parse(text);
    return { kind: 'json', value };
  } catch {
    return { kind: 'not-json' };
  }
}
