/**
 * StreamedEvents: a run's domain events written to disk as they happen, as the lines of
 * events.jsonl, with only what the reports need besides the file kept in memory (issue 19: a
 * million agents for a virtual day keep no event list). The file is a temporary one; the report
 * writer copies it into events.jsonl through `jsonlChunks`, so the bytes (and the digest) are those
 * of a run that kept its events (KeptEvents, src/report/run-events.ts).
 *
 * Kept beside the file, all bounded: the count; the last `tailMax` events (the time-line draws at
 * most that many); the instants of the events since the start of the request trace's window
 * (`forgetBefore`, called as the trace lets its oldest rows go), so the time-line can say how many
 * events its window holds. Writes go out in pieces of WRITE_CHARS, never one per event.
 * Invariants: events arrive in time order (the simulator emits them on its clock), so forgetting
 * instants before the window's start never loses one inside it; `finish` before reading.
 * The temporary directory is removed by `dispose`, or when the process exits.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert } from '../core/assert.ts';
import { eventLineRenderer } from '../report/events-jsonl.ts';
import type { EventWindow, RunEvents } from '../report/run-events.ts';
import type { DomainEvent } from '../services/shared/events.ts';

/** Characters buffered before a write. */
const WRITE_CHARS = 1 << 16;
/** Bytes per read when the file is copied out. */
const READ_BYTES = 1 << 20;
/** Forgotten instants at the head of `times` before the array is compacted. */
const COMPACT_AFTER = 4_096;

const liveDirectories = new Set<string>();
let removeAtExit = false;

function removeDirectory(directory: string): void {
  rmSync(directory, { recursive: true, force: true });
  liveDirectories.delete(directory);
}

export class StreamedEvents implements RunEvents {
  readonly kept = null;
  private readonly directory: string;
  private readonly path: string;
  private fd: number | null;
  private readonly render = eventLineRenderer();
  private pending = '';
  private total = 0;
  private readonly tailMax: number;
  /** The last `tailMax` events, a ring: `tailNext` is the oldest once full. */
  private readonly tail: DomainEvent[] = [];
  private tailNext = 0;
  /** Instants of the events not yet forgotten, from `timesStart`. */
  private times: number[] = [];
  private timesStart = 0;
  private forgottenBeforeMs = Number.NEGATIVE_INFINITY;

  constructor(options: { readonly tailMax: number }) {
    assert(Number.isSafeInteger(options.tailMax) && options.tailMax >= 1, 'the event tail holds at least one event');
    this.tailMax = options.tailMax;
    this.directory = mkdtempSync(join(tmpdir(), 'afp-events-'));
    liveDirectories.add(this.directory);
    if (!removeAtExit) {
      removeAtExit = true;
      process.once('exit', () => {
        for (const directory of [...liveDirectories]) removeDirectory(directory);
      });
    }
    this.path = join(this.directory, 'events.jsonl');
    this.fd = openSync(this.path, 'w');
  }

  get count(): number {
    return this.total;
  }

  push(event: DomainEvent): void {
    assert(this.fd !== null, 'events are pushed before finish');
    this.pending += `${this.render(event)}\n`;
    if (this.pending.length >= WRITE_CHARS) this.flush();
    this.total += 1;
    if (this.tail.length < this.tailMax) this.tail.push(event);
    else {
      this.tail[this.tailNext] = event;
      this.tailNext = (this.tailNext + 1) % this.tailMax;
    }
    this.times.push(event.atMs);
  }

  /** Forgets the instants before `atMs`: no window asked for later starts before it. */
  forgetBefore(atMs: number): void {
    this.forgottenBeforeMs = Math.max(this.forgottenBeforeMs, atMs);
    while (this.timesStart < this.times.length && (this.times[this.timesStart] as number) < atMs) this.timesStart++;
    if (this.timesStart >= COMPACT_AFTER && this.timesStart * 2 >= this.times.length) {
      this.times = this.times.slice(this.timesStart);
      this.timesStart = 0;
    }
  }

  /** Writes what is buffered and closes the file; the events can be read from then on. */
  finish(): void {
    if (this.fd === null) return;
    this.flush();
    closeSync(this.fd);
    this.fd = null;
  }

  /** The file's bytes as read, a fresh buffer a piece (a reader may keep them). */
  *jsonlChunks(): Generator<Uint8Array> {
    assert(this.fd === null, 'streamed events are read after finish');
    const fd = openSync(this.path, 'r');
    try {
      for (;;) {
        const buffer = Buffer.allocUnsafe(READ_BYTES);
        const read = readSync(fd, buffer, 0, READ_BYTES, null);
        if (read === 0) break;
        yield buffer.subarray(0, read);
      }
    } finally {
      closeSync(fd);
    }
  }

  window(fromMs: number, untilMs: number, max: number): EventWindow {
    assert(fromMs >= this.forgottenBeforeMs, 'the window starts after the forgotten instants');
    assert(max <= this.tailMax, 'the window draws at most the kept tail');
    let count = 0;
    for (let index = this.timesStart; index < this.times.length; index++) {
      const atMs = this.times[index] as number;
      if (atMs >= fromMs && atMs <= untilMs) count++;
    }
    const ordered = [...this.tail.slice(this.tailNext), ...this.tail.slice(0, this.tailNext)];
    const inWindow = ordered.filter((event) => event.atMs >= fromMs && event.atMs <= untilMs);
    return { events: inWindow.slice(-Math.min(max, count)), count };
  }

  /** Removes the temporary file (the record's events can no longer be read). */
  dispose(): void {
    this.finish();
    removeDirectory(this.directory);
  }

  private flush(): void {
    if (this.fd === null || this.pending === '') return;
    const bytes = Buffer.from(this.pending, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
    this.pending = '';
  }
}
