/**
 * RunEvents: a run's domain events as the reports read them — how many, events.jsonl in pieces,
 * and the window the time-line draws — whether the run kept them in memory or streamed them to
 * disk as they happened (src/sim/streamed-events.ts, issue 19: a million agents in bounded memory).
 *
 * KeptEvents is the in-memory form: every event in an array, for tests, small runs and records
 * built by hand; `kept` gives them back. A streamed run's `kept` is null: its events are on disk
 * only, and what the reports need besides the file (the count, the time-line's window) is kept
 * bounded beside it.
 * Invariant: both forms give the same bytes for events.jsonl and the same window for the same
 * events (test/sim/streamed-events.test.ts), so a run's digest does not depend on the form.
 */
import type { DomainEvent } from '../services/shared/events.ts';
import { eventChunks } from './events-jsonl.ts';

/** The events of the time-line's window: the last `max` drawn, and how many the window holds. */
export interface EventWindow {
  readonly events: readonly DomainEvent[];
  readonly count: number;
}

export interface RunEvents {
  /** Every event of the run, kept or not. */
  readonly count: number;
  /** Every event in order when the run kept them in memory; null when they were streamed to disk. */
  readonly kept: readonly DomainEvent[] | null;
  /**
   * events.jsonl, in pieces (concatenated, the file's bytes): text, or UTF-8 bytes as read from
   * disk (a streamed run's pieces go to the digest and the file without a decode and re-encode).
   */
  jsonlChunks(): Iterable<string | Uint8Array>;
  /** The events with `fromMs <= atMs <= untilMs`: the last `max` of them, in order, and their number. */
  window(fromMs: number, untilMs: number, max: number): EventWindow;
  /** Lets go of what holds the events on disk (nothing for kept ones); the record is not read after. */
  dispose(): void;
}

/** Every event of a run, in memory. */
export class KeptEvents implements RunEvents {
  private readonly events: DomainEvent[];

  constructor(events: readonly DomainEvent[] = []) {
    this.events = [...events];
  }

  get count(): number {
    return this.events.length;
  }

  get kept(): readonly DomainEvent[] {
    return this.events;
  }

  push(event: DomainEvent): void {
    this.events.push(event);
  }

  jsonlChunks(): Iterable<string> {
    return eventChunks(this.events);
  }

  window(fromMs: number, untilMs: number, max: number): EventWindow {
    const inWindow = this.events.filter((event) => event.atMs >= fromMs && event.atMs <= untilMs);
    return { events: inWindow.slice(-max), count: inWindow.length };
  }

  dispose(): void {
    // Nothing on disk: the array goes with the record.
  }
}
