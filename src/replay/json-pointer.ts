/**
 * JSON pointers (RFC 6901) over plain JSON values: walking every string leaf with its pointer,
 * reading the value at a pointer, and writing one leaf into a copy. Provenance names where a
 * value came from (`/escrows/0/escrow_id`) and where it was used (`body/receiver`) with them.
 *
 * Limits: walks stop at `DEPTH_MAX` levels (deeper leaves are not visited) so a hostile body
 * cannot exhaust the stack; writes copy only the path they change.
 */

export const DEPTH_MAX = 64;

export function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function unescapeToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Splits a pointer (`''` = the whole value, else `/a/0/b`) into unescaped tokens. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map(unescapeToken);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Calls `visit(pointer, value)` for every string leaf, in document order. */
export function forEachStringLeaf(
  value: unknown,
  visit: (pointer: string, leaf: string) => void,
  pointer = '',
  depth = 0,
): void {
  if (typeof value === 'string') {
    visit(pointer, value);
    return;
  }
  if (depth >= DEPTH_MAX) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => forEachStringLeaf(item, visit, `${pointer}/${index}`, depth + 1));
    return;
  }
  if (isObject(value)) {
    for (const [key, item] of Object.entries(value))
      forEachStringLeaf(item, visit, `${pointer}/${escapeToken(key)}`, depth + 1);
  }
}

/** The value at `pointer`, or undefined when the path does not exist. */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  let current: unknown = root;
  for (const token of pointerTokens(pointer)) {
    if (Array.isArray(current)) {
      if (!/^(?:0|[1-9]\d*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (isObject(current)) {
      if (!Object.hasOwn(current, token)) return undefined;
      current = current[token];
    } else {
      return undefined;
    }
  }
  return current;
}

/** A copy of `root` with the leaf at `pointer` replaced; undefined when the path does not exist. */
export function withValueAt(root: unknown, pointer: string, leaf: unknown): unknown {
  const tokens = pointerTokens(pointer);
  return replaceAlong(root, tokens, 0, leaf);
}

function replaceAlong(current: unknown, tokens: readonly string[], index: number, leaf: unknown): unknown {
  if (index === tokens.length) return leaf;
  const token = tokens[index] as string;
  if (Array.isArray(current)) {
    const position = Number(token);
    if (!Number.isInteger(position) || position < 0 || position >= current.length) return undefined;
    const inner = replaceAlong(current[position], tokens, index + 1, leaf);
    if (inner === undefined) return undefined;
    const copy = [...(current as unknown[])];
    copy[position] = inner;
    return copy;
  }
  if (isObject(current) && Object.hasOwn(current, token)) {
    const inner = replaceAlong(current[token], tokens, index + 1, leaf);
    if (inner === undefined) return undefined;
    return { ...current, [token]: inner };
  }
  return undefined;
}
