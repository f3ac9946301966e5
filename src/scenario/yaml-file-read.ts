/**
 * The reading of a strict YAML file of afp (target files, `afp serve --rules` files), apart from
 * its parse (yaml-file-start.ts): a command reads the file first and loads the parser, the schema
 * and zod only once there is text to parse, so a missing file is refused without them.
 * A failure is one message (`x.yaml: cannot read the target file (ENOENT)`).
 */
import { readTextFile } from '../core/text-file.ts';

/**
 * The text of the file at `path`, or why it cannot be read (`what`: "the target file"); at most
 * `maxChars` characters' worth of bytes (4 each, UTF-8's most) are read: the parse refuses more.
 */
export async function readYamlFile(
  path: string,
  what: string,
  maxChars: number,
): Promise<{ readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string }> {
  const read = await readTextFile(path, 4 * maxChars);
  return read.ok ? read : { ok: false, message: `${path}: cannot read ${what} (${read.code ?? read.reason})` };
}
