/**
 * Instants as ISO 8601 UTC text, byte-identical to `Date.prototype.toISOString` but cheaper on the
 * request path (every response renders a few instants; toISOString allocates a Date and formats
 * every field). Why it is exact: the `YYYY-MM-DDT` part of a whole day comes from toISOString
 * itself and is memoized per day; the time of day is integer arithmetic on the remainder.
 *
 * Scope of the fast path: whole milliseconds in [1970-01-01, 10000-01-01). Anything else
 * (fractions, negative instants, six-digit years, NaN) goes to toISOString, throws included.
 * Recent instants: the same instants are rendered again and again (an escrow's creation and expiry
 * in every list that shows it), so the last texts are kept in a direct-mapped table of
 * RECENT_SLOTS slots indexed by the millisecond of the day's low bits: a hit is one compare and
 * one load, a miss overwrites its slot.
 * Memory: at most MEMO_DAYS_MAX day prefixes (a run spans a year or so); when full, the oldest
 * day is dropped; RECENT_SLOTS texts. Both are a pure function's caches, so sharing them across
 * platforms is safe.
 */

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00.000Z: from there on years need a sign and six digits. */
const FAST_LIMIT_MS = 253_402_300_800_000;
const MEMO_DAYS_MAX = 4_096;

const dayPrefixes = new Map<number, string>();

/** A power of two: the slot is the millisecond of the day masked with RECENT_SLOTS - 1. */
const RECENT_SLOTS = 1_024;
const recentMs = new Float64Array(RECENT_SLOTS).fill(-1);
const recentTexts: string[] = Array.from({ length: RECENT_SLOTS }, () => '');

function digits(count: number, width: number): readonly string[] {
  return Array.from({ length: count }, (_, value) => String(value).padStart(width, '0'));
}

/** `HH:MM:` for every minute of a day, `SS.` for every second: fewer pieces to join per call. */
const MINUTE_PREFIXES = Array.from({ length: 1_440 }, (_, minute) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:`);
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
  const slot = inDayMs & (RECENT_SLOTS - 1);
  if (recentMs[slot] === ms) return recentTexts[slot] as string;
  const minutesInDay = Math.floor(inDayMs / 60_000);
  const msInMinute = inDayMs - minutesInDay * 60_000;
  const seconds = Math.floor(msInMinute / 1_000);
  const text = dayPrefix(day) + (MINUTE_PREFIXES[minutesInDay] as string) + (SECOND_PREFIXES[seconds] as string) + (MILLISECOND_SUFFIXES[msInMinute - seconds * 1_000] as string);
  recentMs[slot] = ms;
  recentTexts[slot] = text;
  return text;
}
