/**
 * JSON values and bigints as JavaScript literal text for the exported script: objects one key a
 * line (two spaces a level), arrays of plain values on one line, keys quoted only where JavaScript
 * needs it, a bigint as `123n` (afp's money). Pure: keys keep their insertion order (callers build
 * objects in a fixed order).
 *
 * Every text afp writes into a script goes through `jsString` (a string literal) or `jsComment` (a
 * line comment's text): JavaScript ends a line, and so a `//` comment, at U+2028 and U+2029 as at
 * CR and LF, and k6's parser refuses them raw in a string literal ("Unterminated string literal"):
 * a body, header, threshold tag or file name holding one made a script k6 could not parse.
 */
import { assert } from '../../core/assert.ts';

export type JsValue =
  | string
  | number
  | boolean
  | bigint
  | null
  | readonly JsValue[]
  | { readonly [key: string]: JsValue };

/** The characters that end a JavaScript line (ECMA-262 LineTerminator). */
const LINE_TERMINATORS = /[\n\r\u2028\u2029]/g;

/**
 * JSON text of `value` that is also safe JavaScript source: U+2028 and U+2029, which JSON leaves
 * raw, escaped (they can stand only inside a JSON string, so the escape keeps the value).
 */
export function jsonSource(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space);
  return text.replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}

/** `text` as a JavaScript string literal with no line terminator in its source. */
export function jsString(text: string): string {
  return jsonSource(text);
}

/** `text` for a `//` comment: every line terminator a space, so the comment ends where the line does. */
export function jsComment(text: string): string {
  return text.replace(LINE_TERMINATORS, ' ');
}

const scalar = (value: JsValue): string => (typeof value === 'bigint' ? `${value}n` : jsonSource(value));

/**
 * A parsed value (plain objects, arrays, strings, finite numbers, booleans, bigints, null) as a
 * JsValue, an object's undefined fields left out (read back, they are undefined as before);
 * anything else (a class instance, a function, an undefined item) is a bug of the caller.
 */
export function jsValueOf(value: unknown, path = 'value'): JsValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint')
    return value;
  if (typeof value === 'number') {
    assert(Number.isFinite(value), `${path} is a finite number`);
    return value;
  }
  if (Array.isArray(value)) return value.map((item: unknown, index) => jsValueOf(item, `${path}[${index}]`));
  assert(
    typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype,
    `${path} is a plain value JavaScript can write`,
  );
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  return Object.fromEntries(entries.map(([key, item]) => [key, jsValueOf(item, `${path}.${key}`)]));
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function jsLiteral(value: JsValue, indent = 0): string {
  if (value === null || typeof value !== 'object') return scalar(value);
  const inner = '  '.repeat(indent + 1);
  const outer = '  '.repeat(indent);
  if (Array.isArray(value)) {
    const items = value as readonly JsValue[];
    if (items.every((item) => item === null || typeof item !== 'object')) return `[${items.map(scalar).join(', ')}]`;
    return `[\n${items.map((item) => `${inner}${jsLiteral(item, indent + 1)},`).join('\n')}\n${outer}]`;
  }
  const entries = Object.entries(value as { readonly [key: string]: JsValue });
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${IDENTIFIER.test(key) ? key : jsString(key)}: ${jsLiteral(item, indent + 1)},`).join('\n')}\n${outer}}`;
}
