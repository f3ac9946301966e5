/**
 * What a URL that is not the platform is, in one line: the server it names, how many probed paths
 * answered and with which statuses and media types. Why: `afp target probe` pointed at nginx (or
 * any HTTP endpoint) used to end with "no service recognized" and nothing more, though the user
 * only needed to hear "a plain HTTP server; load it with `afp load URL`" (issue 41).
 * Pure: the same observations give the same line (statuses and media types in sorted order).
 */
import type { Observation } from './probe-url.ts';

export interface ServerDescription {
  /** The `Server` header first seen, or null. */
  readonly software: string | null;
  readonly answered: number;
  readonly probed: number;
  /** "200×51", "404×3" …, by status. */
  readonly statuses: readonly string[];
  /** Media types seen (parameters dropped), sorted. */
  readonly mediaTypes: readonly string[];
  readonly jsonBodies: number;
  /** Answers whose body afp did not read: over its size limit, nested too deep, too many values. */
  readonly unreadBodies: number;
}

export function describeServer(observations: readonly Observation[]): ServerDescription {
  const statuses = new Map<number, number>();
  const mediaTypes = new Set<string>();
  let software: string | null = null;
  let jsonBodies = 0;
  let unreadBodies = 0;
  for (const observation of observations) {
    if (observation.status === null) continue;
    statuses.set(observation.status, (statuses.get(observation.status) ?? 0) + 1);
    software ??= observation.server ?? null;
    const mediaType = observation.contentType?.split(';')[0]?.trim().toLowerCase();
    if (mediaType !== undefined && mediaType !== '') mediaTypes.add(mediaType);
    if (observation.json !== undefined) jsonBodies += 1;
    if (observation.problem !== undefined) unreadBodies += 1;
  }
  return {
    software,
    answered: [...statuses.values()].reduce((sum, count) => sum + count, 0),
    probed: observations.length,
    statuses: [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`),
    mediaTypes: [...mediaTypes].sort(),
    jsonBodies,
    unreadBodies,
  };
}

/**
 * "server nginx/1.22.1 · 51 of 51 probed paths answered (200×51) · text/html · no JSON body", and
 * how many bodies were past afp's limits when any were.
 */
export function serverLine(description: ServerDescription): string {
  const parts = [
    `server ${description.software ?? '(no Server header)'}`,
    `${description.answered} of ${description.probed} probed paths answered (${description.statuses.join(', ') || 'none'})`,
    description.mediaTypes.length === 0 ? 'no media type' : description.mediaTypes.join(', '),
    description.jsonBodies === 0 ? 'no JSON body' : `${description.jsonBodies} JSON bodies`,
  ];
  if (description.unreadBodies > 0)
    parts.push(`${description.unreadBodies} bodies not read (past afp's limits; the table says which)`);
  return parts.join(' · ');
}
