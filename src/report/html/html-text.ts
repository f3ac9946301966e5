/**
 * Text for report.html: HTML escaping, and caller-provided strings made bounded and well-formed.
 *
 * Invariants: `escapeHtml` output is safe in element content and in double- or single-quoted
 * attributes; `boundedText` returns at most `maxChars` code points (the last one an ellipsis when
 * cut), with lone surrogates and control characters other than tab and newline replaced by
 * U+FFFD, so the bytes written are the same on every platform.
 */

const htmlEscapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => htmlEscapes[character] ?? character);
}

// oxlint-disable-next-line no-control-regex -- control characters are exactly what is replaced
const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function boundedText(text: string, maxChars: number): string {
  const clean = text.toWellFormed().replace(controlCharacters, '\ufffd');
  const codePoints = Array.from(clean);
  if (codePoints.length <= maxChars) return clean;
  return `${codePoints.slice(0, maxChars - 1).join('')}…`;
}
