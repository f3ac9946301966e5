/**
 * A target file's text, read before its parser loads (target-file.ts: the YAML reader, the schema,
 * zod): `--target missing.yaml` is refused with the parser's own message, without loading it.
 * The size limit lives here because the read is bounded by it (the parse refuses more).
 */
import { readYamlFile } from '../scenario/yaml-file-read.ts';

/** Target files are small; anything larger is a mistake. */
export const MAX_TARGET_FILE_CHARS = 262_144;

/** The file's text, or why it cannot be read (`x.yaml: cannot read the target file (ENOENT)`). */
export function readTargetFile(
  path: string,
): Promise<{ readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string }> {
  return readYamlFile(path, 'the target file', MAX_TARGET_FILE_CHARS);
}
