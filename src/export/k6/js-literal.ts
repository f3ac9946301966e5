/**
 * JSON values as JavaScript literal text for the exported script: objects one key a line (two
 * spaces a level), arrays of plain values on one line, keys quoted only where JavaScript needs it.
 * Pure: keys keep their insertion order (callers build objects in a fixed order).
 */
export type JsValue = string | number | boolean | null | readonly JsValue[] | { readonly [key: string]: JsValue };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function jsLiteral(value: JsValue, indent = 0): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = '  '.repeat(indent + 1);
  const outer = '  '.repeat(indent);
  if (Array.isArray(value)) {
    const items = value as readonly JsValue[];
    if (items.every((item) => item === null || typeof item !== 'object'))
      return `[${items.map((item) => JSON.stringify(item)).join(', ')}]`;
    return `[\n${items.map((item) => `${inner}${jsLiteral(item, indent + 1)},`).join('\n')}\n${outer}]`;
  }
  const entries = Object.entries(value as { readonly [key: string]: JsValue });
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${jsLiteral(item, indent + 1)},`).join('\n')}\n${outer}}`;
}
