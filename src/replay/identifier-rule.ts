/**
 * The identifier rule: which string values of a recorded exchange are identifiers, keys,
 * addresses, hashes or codes — values the platform draws from its seeded stream, which a live
 * target will answer differently (another seed, another deployment) and which replay therefore
 * rebinds and compares through a binding instead of exactly.
 *
 * Rule (version 1, docs/decisions/replay.md "Record and replay"): a string is identifier-like when it is
 * 8 to 512 characters long, has no whitespace, is not an ISO 8601 date or time, is not a decimal
 * number, and either contains a digit, mixes upper- and lower-case letters, or has a segment
 * (split on `_ - . :`) of at least 8 hex digits. So `sk_live_3fa…`, `0x9ab…`, `esc_…`,
 * `ref_deadbeef` and `buyer-0001` are identifiers; `released`, `INSUFFICIENT_BALANCE`,
 * `rate_limit_exceeded`, `10.000000` and `2026-01-01T00:00:00.000Z` are not.
 * Only strings: numbers are amounts and counts, never identifiers, in these services.
 * Non-goal: recognising every conceivable id; a letters-only id shorter than 8 hex digits
 * is treated as a plain word (compared exactly).
 */

export const IDENTIFIER_RULE = 'afp-identifier/1';

const LENGTH_MIN = 8;
const LENGTH_MAX = 512;

const WHITESPACE = /\s/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const DECIMAL = /^[-+]?\d+(?:\.\d+)?$/;
const DIGIT = /\d/;
const UPPER = /[A-Z]/;
const LOWER = /[a-z]/;
const HEX_SEGMENT = /^[0-9a-fA-F]{8,}$/;

export function isIsoTime(value: string): boolean {
  return ISO_TIME.test(value);
}

export function isIdentifierLike(value: string): boolean {
  if (value.length < LENGTH_MIN || value.length > LENGTH_MAX) return false;
  if (WHITESPACE.test(value) || ISO_TIME.test(value) || DECIMAL.test(value)) return false;
  if (DIGIT.test(value)) return true;
  if (UPPER.test(value) && LOWER.test(value)) return true;
  return value.split(/[_\-.:]/).some((segment) => HEX_SEGMENT.test(segment));
}
