/**
 * ChallengeBook: the challenge service's storage — records by id, the pending challenges per
 * agent in both directions, and settled challenges in settlement order so the oldest can be
 * dropped beyond the retention bound.
 *
 * Invariants: ids are unique; a challenge is in the pending indexes exactly while its status is
 * pending; each agent has at most CHALLENGE_LIMITS.pendingOutgoingMax / pendingIncomingMax
 * pending (checked by the service before `add`, asserted here); at most `settledRetainedMax`
 * settled records are kept. Listing order: newest first (createdAtMs descending, then id).
 */
import { assert } from '../../../core/assert.ts';
import { retainNewest } from '../retention.ts';
import { CHALLENGE_LIMITS, type ChallengeRecord, type PendingChallenges } from './challenge-record.ts';

export type MutableChallenge = { -readonly [K in keyof ChallengeRecord]: ChallengeRecord[K] };

export class ChallengeBook {
  private readonly byId = new Map<string, MutableChallenge>();
  private readonly outgoing = new Map<string, Set<string>>();
  private readonly incoming = new Map<string, Set<string>>();
  private readonly settled: string[] = [];
  private settledHead = 0;

  get size(): number {
    return this.byId.size;
  }

  pendingOutgoingCount(agentId: string): number {
    return this.outgoing.get(agentId)?.size ?? 0;
  }

  pendingIncomingCount(agentId: string): number {
    return this.incoming.get(agentId)?.size ?? 0;
  }

  add(challenge: MutableChallenge): void {
    assert(!this.byId.has(challenge.id), 'challenge ids are unique');
    assert(
      challenge.status === 'pending' && challenge.challengerId !== challenge.challengedId,
      'a new challenge is pending between two agents',
    );
    assert(
      this.pendingOutgoingCount(challenge.challengerId) < CHALLENGE_LIMITS.pendingOutgoingMax,
      'pending outgoing challenges are bounded',
    );
    assert(
      this.pendingIncomingCount(challenge.challengedId) < CHALLENGE_LIMITS.pendingIncomingMax,
      'pending incoming challenges are bounded',
    );
    this.byId.set(challenge.id, challenge);
    indexOf(this.outgoing, challenge.challengerId).add(challenge.id);
    indexOf(this.incoming, challenge.challengedId).add(challenge.id);
  }

  get(challengeId: string): MutableChallenge | undefined {
    return this.byId.get(challengeId);
  }

  /** Every retained record (checkers and reports), creation order. */
  all(): IterableIterator<ChallengeRecord> {
    return this.byId.values();
  }

  pendingOf(agentId: string): PendingChallenges {
    return { incoming: this.records(this.incoming.get(agentId)), outgoing: this.records(this.outgoing.get(agentId)) };
  }

  /** Takes a challenge that just left pending out of the indexes; drops the oldest settled beyond the bound. */
  settle(challenge: ChallengeRecord): void {
    assert(challenge.status !== 'pending', 'only a settled challenge leaves the pending indexes');
    assert(
      removeFrom(this.outgoing, challenge.challengerId, challenge.id) &&
        removeFrom(this.incoming, challenge.challengedId, challenge.id),
      'a challenge settles once',
    );
    this.settled.push(challenge.id);
    this.settledHead = retainNewest(this.settled, this.settledHead, CHALLENGE_LIMITS.settledRetainedMax, (id) =>
      this.byId.delete(id),
    );
  }

  private records(ids: Set<string> | undefined): ChallengeRecord[] {
    const found = [...(ids ?? [])].map((id) => this.byId.get(id) as ChallengeRecord);
    return found.sort((a, b) =>
      a.createdAtMs !== b.createdAtMs ? b.createdAtMs - a.createdAtMs : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
    );
  }
}

function indexOf(index: Map<string, Set<string>>, agentId: string): Set<string> {
  let ids = index.get(agentId);
  if (ids === undefined) {
    ids = new Set();
    index.set(agentId, ids);
  }
  return ids;
}

function removeFrom(index: Map<string, Set<string>>, agentId: string, challengeId: string): boolean {
  const ids = index.get(agentId);
  if (ids === undefined || !ids.delete(challengeId)) return false;
  if (ids.size === 0) index.delete(agentId);
  return true;
}
