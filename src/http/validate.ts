/**
 * Request validation shared by every route row: bodies are JSON objects with known keys only,
 * every field is typed, amounts are exact (at most 6 decimals, positive, not huge). Each helper
 * returns the value or a Failure (400 BAD_REQUEST naming the field); nothing throws.
 * The field helpers take the field's value and its name (`requiredString(fields['reason'],
 * 'reason')`), not the body and a name: read at the call site, each field is a load with its own
 * feedback (one body shape per row); read here, every row's fields met at one site, a megamorphic
 * keyed load on every field of every request.
 */
import { fail, isFailure, type Failure } from '../core/errors.ts';
import { parseDecimal, parseNumber, type Micro, type ParseFailure } from '../core/money.ts';
import { positiveAmount } from '../core/positive-amount.ts';
import type { RouteInput } from './route.ts';

export type Fields = Readonly<Record<string, unknown>>;

const MAX_STRING_LENGTH = 256;

/** What a missing body reads as; frozen, as every caller only reads fields. */
const NO_FIELDS: Fields = Object.freeze({});

/**
 * The empty list of allowed keys (no body fields, no query parameters). Rows pass shared,
 * module-level key lists rather than array literals: a literal is a new array on every request.
 */
export const NO_KEYS: readonly string[] = [];

/** The body as an object whose keys are all in `allowed` (missing body = empty object). */
export function objectBody(body: unknown, allowed: readonly string[]): Fields | Failure {
  if (body === undefined || body === null) return NO_FIELDS;
  if (typeof body !== 'object' || Array.isArray(body)) return fail('BAD_REQUEST', 'request body must be a JSON object');
  if (allKnown(body, allowed)) return body as Fields;
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  return fail('BAD_REQUEST', `unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.sort().join(', ')}`);
}

/**
 * Whether every own enumerable key of `value` is in `allowed` (what `Object.keys(value)` would
 * list), without building the key array: this runs on every request. for-in lists every own
 * enumerable key, and inherited enumerable ones too (none on a plain object), so when all it lists
 * are allowed the answer is yes with no per-key own-property test; a key it lists that is not
 * allowed may be inherited, and only then are the own keys checked exactly.
 */
function allKnown(value: object, allowed: readonly string[]): boolean {
  for (const key in value) {
    if (!allowed.includes(key)) return Object.keys(value).every((own) => allowed.includes(own));
  }
  return true;
}

/** The body fields of a request that takes no query parameters (the POST rows): a query key is refused first. */
export function bodyOnly(input: RouteInput, allowed: readonly string[]): Fields | Failure {
  return knownQuery(input.query, NO_KEYS) ?? objectBody(input.body, allowed);
}

/** A request with no query parameters and an absent or empty body (the GET rows without input). */
export function noInput(input: RouteInput): Failure | null {
  return knownQuery(input.query, NO_KEYS) ?? emptyBody(input.body);
}

/** A body that must be absent or empty (`{}`). */
export function emptyBody(body: unknown): Failure | null {
  const fields = objectBody(body, NO_KEYS);
  return isFailure(fields) ? fields : null;
}

export function requiredString(value: unknown, name: string, maxLength = MAX_STRING_LENGTH): string | Failure {
  if (value === undefined || value === null) return fail('BAD_REQUEST', `${name} is required`);
  return checkString(value, name, maxLength);
}

export function optionalString(
  value: unknown,
  name: string,
  maxLength = MAX_STRING_LENGTH,
): string | undefined | Failure {
  if (value === undefined || value === null) return undefined;
  return checkString(value, name, maxLength);
}

function checkString(value: unknown, name: string, maxLength: number): string | Failure {
  if (typeof value !== 'string') return fail('BAD_REQUEST', `${name} must be a string`);
  if (value.trim() === '') return fail('BAD_REQUEST', `${name} must not be empty`);
  if (value.length > maxLength) return fail('BAD_REQUEST', `${name} is longer than ${maxLength} characters`);
  return value;
}

/** A JSON object field (metadata, conditions), at most `maxKeys` keys. */
export function optionalObject(
  value: unknown,
  name: string,
  maxKeys = 32,
): Readonly<Record<string, unknown>> | undefined | Failure {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return fail('BAD_REQUEST', `${name} must be a JSON object`);
  if (Object.keys(value).length > maxKeys) return fail('BAD_REQUEST', `${name} has more than ${maxKeys} keys`);
  return value as Record<string, unknown>;
}

/** A whole number in [min, max]; numbers only (style A and B alike). */
export function optionalInteger(value: unknown, name: string, min: number, max: number): number | undefined | Failure {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value))
    return fail('BAD_REQUEST', `${name} must be a whole number`);
  if (value < min || value > max) return fail('BAD_REQUEST', `${name} must be between ${min} and ${max}`);
  return value;
}

export type AmountSyntax = 'number' | 'number-or-decimal-string';

/**
 * A positive amount in micro-USDC. Style A sends JSON numbers; style B sends numbers and
 * accepts the decimal strings it renders (docs/decisions/platform.md).
 */
export function requiredAmount(value: unknown, name: string, syntax: AmountSyntax): Micro | Failure {
  if (value === undefined || value === null) return fail('BAD_REQUEST', `${name} is required`);
  let parsed: Micro | ParseFailure;
  if (typeof value === 'number') parsed = parseNumber(value);
  else if (typeof value === 'string' && syntax === 'number-or-decimal-string') parsed = parseDecimal(value.trim());
  else return fail('BAD_REQUEST', `${name} must be a number`);
  return positiveAmount(parsed, name);
}

/** A query parameter `limit` in [1, max], default `fallback`. */
export function queryLimit(query: Readonly<Record<string, string>>, fallback: number, max: number): number | Failure {
  const text = query['limit'];
  if (text === undefined) return fallback;
  const value = wholeNumberText(text);
  if (value < 0) return fail('BAD_REQUEST', 'limit must be a whole number');
  if (value < 1 || value > max) return fail('BAD_REQUEST', `limit must be between 1 and ${max}`);
  return value;
}

/** The value of 1 to 6 ASCII digits (what /^\d{1,6}$/ accepts), else -1; list requests carry one. */
function wholeNumberText(text: string): number {
  const length = text.length;
  if (length === 0 || length > 6) return -1;
  let value = 0;
  for (let index = 0; index < length; index++) {
    const digit = text.charCodeAt(index) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** A query parameter restricted to a vocabulary. */
export function queryEnum<T extends string>(
  query: Readonly<Record<string, string>>,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T | Failure {
  const text = query[name];
  if (text === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(text))
    return fail('BAD_REQUEST', `${name} must be one of ${allowed.join(', ')}`);
  return text as T;
}

/** Rejects query parameters outside `allowed`. */
export function knownQuery(query: Readonly<Record<string, string>>, allowed: readonly string[]): Failure | null {
  if (allKnown(query, allowed)) return null;
  const unknown = Object.keys(query).filter((key) => !allowed.includes(key));
  return fail('BAD_REQUEST', `unknown query parameter: ${unknown.sort().join(', ')}`);
}
