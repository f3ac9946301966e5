/**
 * Instants as ISO 8601 UTC text, byte-identical to `Date.prototype.toISOString` but cheaper on the
 * request path (every response renders a few instants; toISOString allocates a Date and formats
 * every field). Why it is exact: the `YYYY-MM-DDT` part of a whole day comes from toISOString
 * itself and is memoized per day; the time of day is integer arithmetic on the remainder.
 *
 * Scope of the fast path: whole milliseconds in [1970-01-01, 10000-01-01). Anything else
 * (fractions, negative instants, six-digit years, NaN) goes to toISOString, throws included.
 * No table of recent texts: one was tried (direct-mapped, 1,024 slots) and hit 13% of the
 * renderings of the quickstart mix, while every miss stored a young string into an old array (a
 * write barrier, and a remembered-set entry for the next scavenge), which cost more than the
 * three joins a hit saves.
 * Memory: at most MEMO_DAYS_MAX day prefixes (a run spans a year or so); when full, the oldest
 * day is dropped. A pure function's cache, so sharing it across platforms is safe.
 */

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00.000Z: from there on years need a sign and six digits. */
const FAST_LIMIT_MS = 253_402_300_800_000;
const MEMO_DAYS_MAX = 4_096;

const dayPrefixes = new Map<number, string>();

function digits(count: number, width: number): readonly string[] {
  return Array.from({ length: count }, (_, value) => String(value).padStart(width, '0'));
}

/** `HH:MM:` for every minute of a day, `SS.` for every second: fewer pieces to join per call. */
const MINUTE_PREFIXES = Array.from(
  { length: 1_440 },
  (_, minute) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:`,
);
const SECOND_PREFIXES = digits(60, 2).map((seconds) => `${seconds}.`);
const MILLISECOND_SUFFIXES = digits(1_000, 3).map((milliseconds) => `${milliseconds}Z`);

function dayPrefix(day: number): string {
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= MEMO_DAYS_MAX) {
      const oldest = dayPrefixes.keys().next();
      if (oldest.done !== true) dayPrefixes.delete(oldest.value);
    }
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  return prefix;
}

/** `new Date(ms).toISOString()`, e.g. `2026-01-01T00:00:00.000Z`. */
export function isoTime(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0 || ms >= FAST_LIMIT_MS) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  const inDayMs = ms - day * DAY_MS;
  const minutesInDay = Math.floor(inDayMs / 60_000);
  const msInMinute = inDayMs - minutesInDay * 60_000;
  const seconds = Math.floor(msInMinute / 1_000);
  return (
    dayPrefix(day) +
    (MINUTE_PREFIXES[minutesInDay] as string) +
    (SECOND_PREFIXES[seconds] as string) +
    (MILLISECOND_SUFFIXES[msInMinute - seconds * 1_000] as string)
  );
}
