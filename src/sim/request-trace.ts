/**
 * The last requests of a run, kept for its time-line (timeline.html): when, which agent, which
 * endpoint, what status. Why only the last ones: a failing run is read backwards from the failure,
 * and a run of a million requests must not keep a million rows; the ring holds TRACE_REQUESTS_MAX
 * and counts the ones it let go, so the report can say how many came before.
 * Invariants: `rows()` is in the order the requests were made; at most TRACE_REQUESTS_MAX rows.
 */
import type { TracedRequest } from '../report/run-record.ts';

export const TRACE_REQUESTS_MAX = 2_000;

export class RequestTrace {
  private readonly ring: TracedRequest[] = [];
  /** Where the next row goes once the ring is full (the oldest row's index). */
  private next = 0;
  private forgotten = 0;

  push(row: TracedRequest): void {
    if (this.ring.length < TRACE_REQUESTS_MAX) {
      this.ring.push(row);
      return;
    }
    this.ring[this.next] = row;
    this.next = (this.next + 1) % TRACE_REQUESTS_MAX;
    this.forgotten++;
  }

  rows(): TracedRequest[] {
    return [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }

  /** The instant of the oldest kept row (the time-line's window starts there once rows were let go); 0 when empty. */
  oldestAtMs(): number {
    const oldest = this.ring.length < TRACE_REQUESTS_MAX ? this.ring[0] : this.ring[this.next];
    return oldest?.atMs ?? 0;
  }

  /** Requests made before the first kept row. */
  get dropped(): number {
    return this.forgotten;
  }
}
