/**
 * Predicted answers and how a real answer is compared with one. A prediction names the status,
 * the error code (for failures) and the body fields that matter: money, statuses, parties, times.
 * Fields not named are not compared (ids and hashes the server draws, `_info`, rate-limit headers).
 *
 * Money is compared by exact value and by its style's JSON type: style A a number, style B a
 * decimal string ("10.00" and "10.000000" are the same value); neither passes through a float
 * comparison. Instants are ISO 8601 texts compared by the millisecond, within the model's time
 * tolerance (0 when the target's clock is exact).
 */
import { formatDecimal, parseDecimal, parseNumber, toNumber, type Micro } from '../core/money.ts';
import type { CheckStyle } from './check-model.ts';

export type Matcher =
  | { readonly kind: 'equal'; readonly value: string | number | boolean | null }
  | { readonly kind: 'money'; readonly style: CheckStyle; readonly micro: Micro }
  /** An instant, or JSON null when `ms` is null. */
  | { readonly kind: 'time'; readonly ms: number | null }
  /** A whole number of seconds derived from the time (compared within the tolerance). */
  | { readonly kind: 'seconds'; readonly value: number }
  /** Any non-empty string (server-drawn ids, keys, hashes). */
  | { readonly kind: 'text' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, Matcher>> }
  | { readonly kind: 'list'; readonly items: readonly Matcher[] };

export const eq = (value: string | number | boolean | null): Matcher => ({ kind: 'equal', value });
export const money = (style: CheckStyle, micro: Micro): Matcher => ({ kind: 'money', style, micro });
export const time = (ms: number | null): Matcher => ({ kind: 'time', ms });
export const seconds = (value: number): Matcher => ({ kind: 'seconds', value });
export const text = (): Matcher => ({ kind: 'text' });
export const json = (value: unknown): Matcher => ({ kind: 'json', value });
export const object = (fields: Readonly<Record<string, Matcher>>): Matcher => ({ kind: 'object', fields });
export const list = (items: readonly Matcher[]): Matcher => ({ kind: 'list', items });

export interface Expected {
  readonly status: number;
  /** The error code of a failure answer. */
  readonly code?: string;
  readonly body?: Readonly<Record<string, Matcher>>;
}

/** A prediction plus what an accepted answer changes in the model (server-drawn values come from `body`). */
export interface Prediction {
  readonly expected: Expected;
  readonly commit?: (body: Readonly<Record<string, unknown>>) => void;
}

export function failure(status: number, code: string): Prediction {
  return { expected: { status, code } };
}

/** Every difference between an answer and its prediction, as `path: expected X, got Y` lines. */
export function compareAnswer(
  answer: { status: number; body: unknown },
  expected: Expected,
  toleranceMs: number,
): string[] {
  const problems: string[] = [];
  if (answer.status !== expected.status) {
    const code = bodyField(answer.body, 'code');
    const got =
      typeof code === 'string'
        ? `${answer.status} ${code} (${describe(bodyField(answer.body, 'error'))})`
        : String(answer.status);
    problems.push(
      `status: expected ${expected.status}${expected.code === undefined ? '' : ` ${expected.code}`}, got ${got}`,
    );
    return problems;
  }
  if (expected.code !== undefined && bodyField(answer.body, 'code') !== expected.code) {
    problems.push(`code: expected ${expected.code}, got ${describe(bodyField(answer.body, 'code'))}`);
  }
  if (expected.body !== undefined) compareValue(answer.body, object(expected.body), 'body', toleranceMs, problems);
  return problems;
}

function bodyField(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

function compareValue(actual: unknown, matcher: Matcher, path: string, toleranceMs: number, problems: string[]): void {
  const problem = mismatch(actual, matcher, path, toleranceMs, problems);
  if (problem !== null) problems.push(`${path}: expected ${problem}, got ${describe(actual)}`);
}

/** The expectation text when `actual` does not match (nested containers report into `problems`). */
function mismatch(
  actual: unknown,
  matcher: Matcher,
  path: string,
  toleranceMs: number,
  problems: string[],
): string | null {
  switch (matcher.kind) {
    case 'equal':
      return actual === matcher.value ? null : describe(matcher.value);
    case 'money':
      return moneyMatches(actual, matcher.style, matcher.micro)
        ? null
        : matcher.style === 'A'
          ? String(toNumber(matcher.micro))
          : `"${formatDecimal(matcher.micro)}"`;
    case 'time':
      return timeMatches(actual, matcher.ms, toleranceMs)
        ? null
        : matcher.ms === null
          ? 'null'
          : new Date(matcher.ms).toISOString();
    case 'seconds':
      return typeof actual === 'number' &&
        Number.isInteger(actual) &&
        Math.abs(actual - matcher.value) * 1000 <= toleranceMs
        ? null
        : String(matcher.value);
    case 'text':
      return typeof actual === 'string' && actual.length > 0 ? null : 'a non-empty string';
    case 'json':
      return JSON.stringify(actual) === JSON.stringify(matcher.value) ? null : describe(matcher.value);
    case 'object':
      return compareObject(actual, matcher.fields, path, toleranceMs, problems);
    case 'list':
      return compareList(actual, matcher.items, path, toleranceMs, problems);
  }
}

function compareObject(
  actual: unknown,
  fields: Readonly<Record<string, Matcher>>,
  path: string,
  toleranceMs: number,
  problems: string[],
): string | null {
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return 'an object';
  const record = actual as Record<string, unknown>;
  for (const [name, fieldMatcher] of Object.entries(fields)) {
    if (!(name in record)) problems.push(`${path}.${name}: missing`);
    else compareValue(record[name], fieldMatcher, `${path}.${name}`, toleranceMs, problems);
  }
  return null;
}

function compareList(
  actual: unknown,
  items: readonly Matcher[],
  path: string,
  toleranceMs: number,
  problems: string[],
): string | null {
  if (!Array.isArray(actual)) return 'an array';
  if (actual.length !== items.length) return `${items.length} items (got ${actual.length})`;
  items.forEach((item, index) => compareValue(actual[index], item, `${path}[${index}]`, toleranceMs, problems));
  return null;
}

function moneyMatches(actual: unknown, style: CheckStyle, micro: Micro): boolean {
  if (style === 'A') return typeof actual === 'number' && parseNumber(actual) === micro;
  return typeof actual === 'string' && /^-?\d+\.\d{2,6}$/.test(actual) && parseDecimal(actual) === micro;
}

function timeMatches(actual: unknown, ms: number | null, toleranceMs: number): boolean {
  if (ms === null) return actual === null;
  if (typeof actual !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/.test(actual)) return false;
  return Math.abs(Date.parse(actual) - ms) <= toleranceMs;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const textValue = JSON.stringify(value);
  return textValue.length > 200 ? `${textValue.slice(0, 200)}…` : textValue;
}
