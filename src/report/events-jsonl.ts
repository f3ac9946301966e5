/**
 * events.jsonl: one domain event per line, in the run's order.
 *
 * Line shape: `type` first, then `at` (ISO 8601 UTC), then the event's other fields in the order
 * the event object declares them, with two renamings so the file reads without knowing the
 * units: a bigint `<name>Micro` becomes `<name>` as a decimal string (`amountMicro: 2000000n` →
 * `"amount":"2.00"`), and a `<name>AtMs` instant becomes `<name>At` as ISO text (null stays null).
 * Invariants: no whitespace inside a line, `\n` after every line, no wall-clock time; instants
 * are byte-identical to `Date.prototype.toISOString` (the fast path only caches the date part).
 * Large runs: `eventChunks` yields the file in pieces of at most CHUNK_LINES lines, so the writer
 * streams ~1M events to disk without building one giant string.
 */
import { formatDecimal } from '../core/money.ts';
import { isoTime } from '../http/render.ts';
import type { DomainEvent } from '../services/shared/events.ts';

export const CHUNK_LINES = 4_096;

const DAY_MS = 86_400_000;
/** 10000-01-01: beyond it ISO years need a sign and six digits; left to toISOString. */
const FAST_LIMIT_MS = 253_402_300_800_000;

const MAX_CACHED_DAYS = 4_096;

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/**
 * toISOString with the `YYYY-MM-DDT` part cached per day: a run spans at most a year (plus
 * expiry horizons), so a few hundred days cover every instant in it. Same output, several times
 * faster. The cache is bounded: cleared when it reaches MAX_CACHED_DAYS.
 */
export function isoFormatter(): (ms: number) => string {
  const dateParts = new Map<number, string>();
  return (ms) => {
    if (!Number.isSafeInteger(ms) || ms < 0 || ms >= FAST_LIMIT_MS) return isoTime(ms);
    const day = Math.floor(ms / DAY_MS);
    let datePart = dateParts.get(day);
    if (datePart === undefined) {
      if (dateParts.size >= MAX_CACHED_DAYS) dateParts.clear();
      datePart = isoTime(day * DAY_MS).slice(0, 11);
      dateParts.set(day, datePart);
    }
    const inDayMs = ms - day * DAY_MS;
    const hours = Math.floor(inDayMs / 3_600_000);
    const minutes = Math.floor((inDayMs % 3_600_000) / 60_000);
    const seconds = Math.floor((inDayMs % 60_000) / 1_000);
    return `${datePart}${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(inDayMs % 1_000, 3)}Z`;
  };
}

type FieldKind = 'micro' | 'instant' | 'plain';
interface FieldShape {
  readonly kind: FieldKind;
  /** `"name":` as it appears in the line, after renaming. */
  readonly prefix: string;
}

function shapeOf(key: string): FieldShape {
  if (key.endsWith('Micro')) return { kind: 'micro', prefix: `,${JSON.stringify(key.slice(0, -5))}:` };
  if (key.endsWith('AtMs')) return { kind: 'instant', prefix: `,${JSON.stringify(key.slice(0, -2))}:` };
  return { kind: 'plain', prefix: `,${JSON.stringify(key)}:` };
}

function valueText(shape: FieldShape, value: unknown, iso: (ms: number) => string): string {
  if (shape.kind === 'micro' && typeof value === 'bigint') return `"${formatDecimal(value)}"`;
  if (shape.kind === 'instant' && typeof value === 'number') return `"${iso(value)}"`;
  if (typeof value === 'bigint') return `"${value.toString()}"`;
  return JSON.stringify(value);
}

/** A line renderer with its own caches (key shapes, the current day). */
export function eventLineRenderer(): (event: DomainEvent) => string {
  const iso = isoFormatter();
  const shapes = new Map<string, FieldShape>();
  return (event) => {
    let line = `{"type":${JSON.stringify(event.type)},"at":"${iso(event.atMs)}"`;
    for (const key in event) {
      if (key === 'type' || key === 'atMs') continue;
      const value = (event as unknown as Record<string, unknown>)[key];
      if (value === undefined) continue;
      let shape = shapes.get(key);
      if (shape === undefined) {
        shape = shapeOf(key);
        shapes.set(key, shape);
      }
      line += shape.prefix + valueText(shape, value, iso);
    }
    return `${line}}`;
  };
}

/** One event as its JSON line, without the newline. */
export function eventLine(event: DomainEvent): string {
  return eventLineRenderer()(event);
}

/** The file's text in pieces of at most CHUNK_LINES lines; nothing for no events. */
export function* eventChunks(events: readonly DomainEvent[]): Generator<string> {
  const render = eventLineRenderer();
  for (let start = 0; start < events.length; start += CHUNK_LINES) {
    const end = Math.min(events.length, start + CHUNK_LINES);
    const lines: string[] = [];
    for (let index = start; index < end; index++) lines.push(render(events[index] as DomainEvent));
    yield `${lines.join('\n')}\n`;
  }
}

/** The whole file as one string (tests and small runs; the writer streams eventChunks). */
export function renderEventsJsonl(events: readonly DomainEvent[]): string {
  return [...eventChunks(events)].join('');
}
