/**
 * The texts of the rate-limit headers' numbers, `String(n)` exactly, cheaper on the request path
 * (every response carries three of them).
 * Why: limits are a handful of numbers and remaining counts are small, so those come from a table
 * of 0..4095. The reset instant is a Unix second (about 1.8 × 10^9): above the small-integer
 * range, `String` on it is a cache probe, a runtime call and a cache insert (a write barrier),
 * and in a simulation nearly every request has its own reset second. So the reset text is the
 * text of its high digits (remembered: it changes once a day or so) joined to its last five
 * digits, from a table filled on first use. The last answer is not remembered whole: a
 * module-level slot written with each new text (a young string stored in an old object) cost a
 * write barrier and a remembered-set entry for the next scavenge on every miss, more than the
 * joins it saved (about a quarter of resets repeat the previous one).
 * Memory: the five-digit table holds at most 100,000 short texts.
 */

const SMALL_INTEGER_TEXT: readonly string[] = Array.from({ length: 4096 }, (_, index) => String(index));

/** `String(value)`: from the table for the integers 0..4095. */
export function integerText(value: number): string {
  const text = value >= 0 && value < SMALL_INTEGER_TEXT.length ? SMALL_INTEGER_TEXT[value] : undefined;
  return text ?? String(value);
}

/** Five digits: the low part of a large second. */
const LOW_PART = 100_000;
const lowTexts: string[] = Array.from({ length: LOW_PART }, () => '');
let highPart = -1;
let highText = '';

/** `String(seconds)` for a reset instant (any number; the fast form for whole seconds >= 100,000). */
export function resetText(seconds: number): string {
  if (!Number.isSafeInteger(seconds) || seconds < LOW_PART) return String(seconds);
  const high = Math.floor(seconds / LOW_PART);
  const low = seconds - high * LOW_PART;
  if (high !== highPart) {
    highPart = high;
    highText = String(high);
  }
  let lowText = lowTexts[low] as string;
  if (lowText === '') {
    lowText = String(low).padStart(5, '0');
    lowTexts[low] = lowText;
  }
  return highText + lowText;
}
