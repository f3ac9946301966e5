/**
 * Safe embedding of data inside report.html's `<script type="application/json">` element (the
 * charts' numbers; no script runs on the page).
 *
 * An HTML parser ends a script element at the first `</script` whatever the text around it means,
 * and `<!--` / `<script` inside one switch it into the "double-escaped" state. So the data goes in
 * as JSON with `<`, `>`, `&`, U+2028 and U+2029 written as \u escapes: valid JSON that no HTML
 * parser can break out of.
 * Invariant: the output contains no `</script` and no `<!--`, in any letter case.
 */
import { assert } from '../../core/assert.ts';

const jsonUnsafe: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON text of `value` for a `<script type="application/json">` element. The characters replaced
 * only ever occur inside JSON strings, where the \u escape stands for the same character.
 */
export function jsonScriptText(value: unknown): string {
  const json = JSON.stringify(value);
  assert(typeof json === 'string', 'report data is not JSON-serializable');
  return json.replace(/[<>&\u2028\u2029]/g, (character) => jsonUnsafe[character] ?? character);
}
