/**
 * References as afp accepts them in requests: agent ids chosen by callers and escrow ids, 1 to 64
 * characters of [A-Za-z0-9_.-] (what `/^[A-Za-z0-9_.-]{1,64}$/` accepts).
 * Why a loop over a character table and not that regular expression: most escrow and faucet
 * requests check one or two ids, and the regex's entry, match and exit cost several times the
 * loop on ids of this length. Both are exact; a property test holds them equal.
 */

export const REFERENCE_LENGTH_MAX = 64;

/** 1 for each allowed character code below 128. */
const ALLOWED_CODES: Uint8Array = (() => {
  const table = new Uint8Array(128);
  const ranges: readonly (readonly [string, string])[] = [
    ['A', 'Z'],
    ['a', 'z'],
    ['0', '9'],
    ['_', '_'],
    ['.', '.'],
    ['-', '-'],
  ];
  for (const [first, last] of ranges) {
    for (let code = first.charCodeAt(0); code <= last.charCodeAt(0); code++) table[code] = 1;
  }
  return table;
})();

/** True when `text` is 1 to 64 characters of [A-Za-z0-9_.-]. */
export function isReference(text: string): boolean {
  const length = text.length;
  if (length === 0 || length > REFERENCE_LENGTH_MAX) return false;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 128 || ALLOWED_CODES[code] !== 1) return false;
  }
  return true;
}
