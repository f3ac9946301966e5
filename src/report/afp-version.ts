/**
 * afp's own version, for the header of a findings report: read from afp's package.json, found by
 * walking up from this file (the same file in the clone and in an installed package).
 * Invariants: at most VERSION_SEARCH_DEPTH directories are looked at; null when no package.json
 * named `afp` with a string version is found — the report then omits the version.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION_SEARCH_DEPTH = 6;

function manifestVersion(path: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown; version?: unknown };
    return manifest.name === 'afp' && typeof manifest.version === 'string' ? manifest.version : null;
  } catch {
    return null;
  }
}

export function readAfpVersion(): string | null {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < VERSION_SEARCH_DEPTH; depth++) {
    const version = manifestVersion(join(directory, 'package.json'));
    if (version !== null) return version;
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return null;
}
