/**
 * Text for the JUnit files (kit/junit.ts): any string made legal XML 1.0 character data or attribute value.
 *
 * Invariants: the output holds only characters XML 1.0 allows (tab, LF, CR, U+0020–U+D7FF,
 * U+E000–U+FFFD, U+10000 and up): other C0 controls, lone surrogates, U+FFFE and U+FFFF become
 * U+FFFD, so a parser never rejects the file whatever a target answered. `&`, `<`, `>` are always
 * escaped; in attributes `"` and `'` too, and tab, LF and CR as character references (a parser
 * would otherwise normalise them to spaces); CR in text as well (it would become LF).
 */

// oxlint-disable-next-line no-control-regex -- the characters XML 1.0 forbids are exactly what is replaced
const ILLEGAL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
};

function legal(text: string): string {
  return text.toWellFormed().replace(ILLEGAL, '\ufffd');
}

export function xmlText(text: string): string {
  return legal(text).replace(/[&<>\r]/g, (character) => TEXT_ESCAPES[character] ?? character);
}

export function xmlAttribute(text: string): string {
  return legal(text).replace(/[&<>"'\t\n\r]/g, (character) => ATTRIBUTE_ESCAPES[character] ?? character);
}
