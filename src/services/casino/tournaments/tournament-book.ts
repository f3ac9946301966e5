/**
 * TournamentBook: the tournament service's storage — records by id with their entrants, the set
 * of open (upcoming or active) tournaments, open counts per creator, and completed tournaments
 * in completion order so the oldest can be dropped beyond the retention bound.
 *
 * Invariants: ids are unique; a tournament is open until `close` and never reopens; at most
 * `openMax` open in total and `openPerCreatorMax` per creator (checked by the service before
 * `add`, asserted here); at most `completedRetainedMax` completed records are kept.
 */
import { assert } from '../../../core/assert.ts';
import { retainNewest } from '../retention.ts';
import { TOURNAMENT_LIMITS, type TournamentEntrant, type TournamentRecord } from './tournament-record.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
export type MutableTournament = Mutable<TournamentRecord>;
export type MutableEntrant = Mutable<TournamentEntrant>;

export interface TournamentEntry {
  readonly record: MutableTournament;
  /** In entry order. */
  readonly entrants: Map<string, MutableEntrant>;
}

export class TournamentBook {
  private readonly byId = new Map<string, TournamentEntry>();
  private readonly open = new Set<string>();
  private readonly openByCreator = new Map<string, number>();
  private readonly completed: string[] = [];
  private completedHead = 0;

  get openCount(): number {
    return this.open.size;
  }

  openCountOf(creatorId: string): number {
    return this.openByCreator.get(creatorId) ?? 0;
  }

  add(record: MutableTournament): void {
    assert(!this.byId.has(record.id), 'tournament ids are unique');
    assert(this.open.size < TOURNAMENT_LIMITS.openMax, 'open tournaments are bounded');
    this.byId.set(record.id, { record, entrants: new Map() });
    this.open.add(record.id);
    this.openByCreator.set(record.creatorId, this.openCountOf(record.creatorId) + 1);
  }

  get(tournamentId: string): TournamentEntry | undefined {
    return this.byId.get(tournamentId);
  }

  /** Open tournaments, in no particular order (the service sorts). */
  *openEntries(): IterableIterator<TournamentEntry> {
    for (const id of this.open) yield this.byId.get(id) as TournamentEntry;
  }

  /** Every retained record (checkers and reports), creation order. */
  *all(): IterableIterator<TournamentRecord> {
    for (const entry of this.byId.values()) yield entry.record;
  }

  /** Marks a tournament completed: no longer open; drops the oldest completed beyond the bound. */
  close(record: TournamentRecord): void {
    assert(this.open.delete(record.id), 'a tournament closes once');
    const count = this.openCountOf(record.creatorId) - 1;
    if (count === 0) this.openByCreator.delete(record.creatorId);
    else this.openByCreator.set(record.creatorId, count);
    this.completed.push(record.id);
    this.completedHead = retainNewest(
      this.completed,
      this.completedHead,
      TOURNAMENT_LIMITS.completedRetainedMax,
      (id) => this.byId.delete(id),
    );
  }
}
