/**
 * The folder `afp run` writes its reports to when no --out is given: reports/<scenario>-seed-<seed>,
 * so runs of one scenario with different seeds keep their own files instead of overwriting one
 * folder. Pure: a function of the scenario name and the seed.
 *
 * Invariants: the folder name is one path segment of portable characters (a-z A-Z 0-9 . _ -):
 * scenario names are already so (scenario-schema.ts); a seed with any other character (a seed is
 * any printable text) has those replaced by `_` and gets the first 8 hex digits of its SHA-256
 * appended, so two seeds that differ only there still get two folders.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const PORTABLE = /^[A-Za-z0-9._-]+$/;

/** The seed as a folder-name part: itself when portable, else cleaned plus a short hash. */
export function seedPathPart(seed: string): string {
  if (PORTABLE.test(seed) && seed !== '.' && seed !== '..') return seed;
  const hash = createHash('sha256').update(seed, 'utf8').digest('hex').slice(0, 8);
  return `${seed.replace(/[^A-Za-z0-9._-]/g, '_')}-${hash}`;
}

export function defaultRunOutDir(scenario: string, seed: string): string {
  return join('reports', `${scenario}-seed-${seedPathPart(seed)}`);
}
