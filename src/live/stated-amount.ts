/**
 * The figure a refusal states for the rule it names: a limit the target changed (its minimum bet,
 * its Kelly limit, its batch maximum) read from a numeric field whose name says the figure, else
 * from the one number its message holds. Why: the readers of those limits knew one field and two
 * or three sentences each, so a target stating its minimum as `minimum_amount` and "Bets below
 * 0.05 USDC are not accepted" (a prober's rewrite of DEPLOYED.md §2.4's refusal) was read as
 * stating nothing, and `afp check` called a working target broken. One reader serves them all
 * (stated-minimum.ts, stated-kelly-limit.ts, stated-batch-maximum.ts).
 * Safety: only a refusal whose name is the rule's is read this liberally (the callers decide that);
 * a message with two numbers or none states nothing (which is which cannot be told); a field is
 * read only as a JSON number or a decimal string, at the top of the body.
 */
import { isLiveAmount, parseLiveAmount, toMicro } from '../core/live-amount.ts';
import type { Micro } from '../core/money.ts';
import type { Refusal } from './operations.ts';

/** An amount as the target writes it (a double's noise included), in micro-USDC rounded as `rounding` says; null for anything else or a negative. */
export function amountMicroOf(value: unknown, rounding: 'down' | 'up' | 'nearest'): Micro | null {
  const parsed = parseLiveAmount(value);
  if (!isLiveAmount(parsed) || parsed.units < 0n) return null;
  return toMicro(parsed, rounding).micro;
}

/** The body's top-level fields, or none when it is not an object. */
function fieldsOf(refusal: Refusal): Readonly<Record<string, unknown>> {
  const body = refusal.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
}

/** The first field (in the body's order) whose name matches `names` and whose value `read` reads; null when none does. */
export function statedField<T>(refusal: Refusal, names: RegExp, read: (value: unknown) => T | null): T | null {
  for (const [name, value] of Object.entries(fieldsOf(refusal))) {
    if (!names.test(name)) continue;
    const got = read(value);
    if (got !== null) return got;
  }
  return null;
}

/**
 * Every number the message writes (a `$` before or `USDC` after it allowed), none taken from inside
 * a word or an identifier ("v2", "ag_26dd83"); a sentence's closing full stop is not a decimal point.
 */
const NUMBER = /(?<![\w.])\$? ?(\d{1,9}(?:\.\d{1,20})?)(?![\w]|\.\d)/gi;

/** The one number `refusal`'s message writes, as written; null when it writes none or more than one. */
export function soleNumberInMessage(refusal: Refusal): string | null {
  const found = [...refusal.message.matchAll(NUMBER)].map((match) => match[1]);
  return found.length === 1 && found[0] !== undefined ? found[0] : null;
}

/** Whether `refusal`'s name, in any case and with `-` or spaces for `_`, is one of `names`. */
export function refusalNamed(refusal: Refusal, names: ReadonlySet<string>): boolean {
  return names.has(refusal.name.toLowerCase().replace(/[-\s]+/g, '_'));
}
