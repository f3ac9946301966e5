/**
 * Safe embedding of text inside `<script>` elements of report.html.
 *
 * An HTML parser ends a script element at the first `</script` whatever the JavaScript around it
 * means, and `<!--` / `<script` inside one switch it into the "double-escaped" state. So:
 * - code (the chart library, the drawing script) gets `</script` → `<\/script` and `<script` /
 *   `<!--` → `\x3Cscript` / `\x3C!--`: the same characters inside JavaScript strings, templates and
 *   regular expressions, where such sequences occur in practice (bare code never contains them);
 * - data goes in as JSON with `<`, `>`, `&`, U+2028 and U+2029 written as \u escapes, valid JSON
 *   that no HTML parser can break out of.
 * Invariant: the output of both contains no `</script` and no `<!--`, in any letter case.
 */
import { assert } from '../../core/assert.ts';

const closingTag = /<\/(script)/gi;
const openingTag = /<(script|!--)/gi;

/** JavaScript source made safe to place between `<script>` and `</script>`. */
export function escapeScriptText(code: string): string {
  const escaped = code.replace(closingTag, '<\\/$1').replace(openingTag, '\\x3C$1');
  assert(!/<\/script|<!--|<script/i.test(escaped), 'script text still contains a tag sequence');
  return escaped;
}

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
