/**
 * The seeds a live house-edge audit verifies a phase's bets with: the phase's seed rotated and the
 * seed list read, one seed chosen per commitment; two calls revealing different seeds for one
 * commitment is a finding of its own.
 */
import { createHash } from 'node:crypto';
import type { SentRequest, RequestEvidence } from '../../live.ts';
import { requestEvidence, type AuditRun } from './edge-run.ts';

/**
 * Rotates (revealing the phase's seed) and reads every revealed seed: hash → hex; null when the
 * target answered neither call (it stopped answering, or the time budget ran out): then no seed
 * was withheld, the phase's bets are only unverified, and the audit stops as unreachable (exit 4)
 * rather than calling every bet's seed "not revealed" (major, exit 3).
 */
export async function revealSeeds(run: AuditRun): Promise<Revealed | null> {
  const { options } = run;
  const candidates = new Map<string, RevealedSeed[]>();
  const reveal = (hash: string, seed: string, op: string, request: SentRequest): void => {
    candidates.set(hash, [...(candidates.get(hash) ?? []), { seed, ...requestEvidence(run, op, request) }]);
  };
  const rotated = await options.session.call('casino.rotate', {}, options.apiKey);
  const request = 'request' in rotated ? rotated.request : undefined;
  const reproduce = request === undefined ? undefined : options.curlOf?.(request);
  if (rotated.kind === 'ok' && rotated.value.revealedSeed !== null && rotated.value.revealedSeedHash !== null)
    reveal(rotated.value.revealedSeedHash, rotated.value.revealedSeed, 'casino.rotate', rotated.request);
  const listed = await options.session.call('casino.seeds', {}, options.apiKey);
  if (listed.kind === 'ok')
    for (const { seedHash, seed } of listed.value.seeds)
      if (seed !== null) reveal(seedHash, seed, 'casino.seeds', listed.request);
  const answered = (kind: string): boolean => kind === 'ok' || kind === 'refused' || kind === 'unreadable';
  if (answered(rotated.kind) || answered(listed.kind))
    return { seeds: chosenSeeds(run, candidates), ...(reproduce === undefined ? {} : { reproduce }) };
  run.stoppedBy ??= rotated.kind === 'deadline' || listed.kind === 'deadline' ? 'deadline' : 'unreachable';
  return null;
}

/** A seed as one call revealed it, with that call (the commitment finding's evidence: the GET that shows it). */
interface RevealedSeed extends RequestEvidence {
  readonly seed: string;
}

/**
 * Per commitment, the seed the bets are verified with: one that hashes to it where a call revealed
 * one, else the seed list's (the last revealed). Two calls revealing different seeds for one
 * commitment is a finding of its own: at most one of them is the seed the bets were drawn from.
 */
function chosenSeeds(
  run: AuditRun,
  candidates: ReadonlyMap<string, readonly RevealedSeed[]>,
): Map<string, RevealedSeed> {
  const chosen = new Map<string, RevealedSeed>();
  for (const [hash, revealed] of candidates) {
    const hashes = (candidate: RevealedSeed): boolean =>
      createHash('sha256').update(candidate.seed).digest('hex') === hash;
    const pick = revealed.find(hashes) ?? (revealed.at(-1) as RevealedSeed);
    chosen.set(hash, pick);
    const other = revealed.find((candidate) => candidate.seed !== pick.seed);
    if (other === undefined) continue;
    const [first, second] = revealed.indexOf(other) < revealed.indexOf(pick) ? [other, pick] : [pick, other];
    run.options.findings.add({
      id: 'fairness:seeds:reveal-differs',
      severity: 'major',
      kind: 'fairness',
      title: `two calls reveal different seeds for one commitment: ${first.endpoint} and ${second.endpoint} (${[first, second].filter(hashes).length === 0 ? 'neither hashes' : 'only one hashes'} to it)`,
      endpoint: second.endpoint,
      field: 'seed',
      expected: `one seed whose SHA-256 is ${hash}, the same on every call`,
      seen: `${first.endpoint}: ${first.seed}; ${second.endpoint}: ${second.seed}`,
      evidence: `commitment ${hash}`,
      ...(second.reproduce === undefined ? {} : { reproduce: second.reproduce }),
    });
  }
  return chosen;
}

/** A phase's revealed seeds (hash → seed and the call that revealed it) and the curl of the rotation. */
export interface Revealed {
  readonly seeds: ReadonlyMap<string, RevealedSeed>;
  readonly reproduce?: string;
}
