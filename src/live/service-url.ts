/**
 * The one form of a service's base URL (no trailing slash, lower-case scheme and host), the form
 * paths are appended to: target files (target-file.ts) and the probe (src/live/probe/) both use it.
 * Why a file of its own: `afp target probe` checks its URLs with it before the target-file parser
 * (the YAML reader, the schema, zod) loads.
 */

/** `HTTP://Host:3000/api/` → `http://host:3000/api`: the form paths are appended to. */
export function normalizeServiceUrl(text: string): string {
  const parsed = new URL(text);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
}
