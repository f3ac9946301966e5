/**
 * The dialect of each service an afp serve announces at GET /_afp/mounts, and the words that
 * refuse a deployed one to afp load's agents. One reading for `afp load` (resolve-target.ts builds
 * the Target with it; load-run.ts loadMounts refuses) and for the exported k6 script's setup()
 * (src/export/k6/k6-setup.ts, which has the mounts answer only): the two refuse the same serve
 * with the same message, before any agent's request.
 * A mount's dialect is its own (`{ url, dialect }`), else the answer's top-level `dialect`, else
 * style A (what a documents serve speaks at a service mount). Pure; an unknown dialect name counts
 * as absent. A mount's URL is not checked here (announcedMounts does, with node's URL, which k6
 * lacks): a service whose mount is named at all has a dialect.
 */
import { ANNOUNCED } from '../client/target.ts';
import type { ServiceName } from '../platform/platform.ts';
import { DIALECT_NAMES, type DialectName } from './target.ts';

/** Each named service mount's dialect, in the order announcedMounts reads them. */
export function servedDialects(body: unknown): Partial<Record<ServiceName, DialectName>> {
  const top = dialectOf(field(body, 'dialect')) ?? 'A';
  const mounts = field(body, 'mounts');
  const dialects: Partial<Record<ServiceName, DialectName>> = {};
  for (const service of ANNOUNCED) {
    const mount = field(mounts, service);
    if (mount === undefined || mount === null) continue;
    dialects[service] = dialectOf(field(mount, 'dialect')) ?? top;
  }
  return dialects;
}

/** Why afp load's agents cannot drive `services` of `targetName`: they speak the deployed dialect. */
export function deployedDialectRefusal(targetName: string, services: readonly string[]): string {
  return `${targetName}: ${services.join(', ')} speak the deployed dialect; afp load's agents speak the documents' styles A and B only (serve the documents' dialect, or describe a documents-style target in a file)`;
}

export function dialectOf(value: unknown): DialectName | null {
  return (DIALECT_NAMES as readonly unknown[]).includes(value) ? (value as DialectName) : null;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}
