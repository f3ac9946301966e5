/**
 * Response diff: the recorded answer against the live one, for one exchange.
 *
 * Order: status first (when it differs the bodies are not compared: an error body against a
 * success body is one difference, not fifty). Then headers: X-RateLimit-Limit always;
 * X-RateLimit-Remaining, X-RateLimit-Reset and Retry-After only with an exact clock. Then the
 * body, recursively: shape (same keys, same JSON types; arrays element-wise up to the shorter
 * length plus a length check) and values. Identifier-like strings (identifier-rule.ts) are
 * compared through the bindings (consistency, not equality); other strings are compared exactly
 * after the bound identifiers quoted inside them are substituted. Without an exact clock,
 * time-derived values are skipped: ISO times and keys named `*_at`, `*_seconds`, `seconds_*`,
 * `*_ms`, `next_claim`, `expires`, `ts`. `_info` is compared like any other key. List items are paired through
 * their bound identifiers when their order follows an id tie-break (array-alignment.ts).
 */
import type { JsonValue } from '../core/errors.ts';
import type { Bindings } from './bindings.ts';
import type { ReplayDifference } from './difference.ts';
import { alignByIdentifier } from './array-alignment.ts';
import { isIdentifierLike, isIsoTime } from './identifier-rule.ts';
import { escapeToken, isObject } from './json-pointer.ts';
import type { RecordedResponse } from './record-format.ts';

export interface LiveAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

export interface DiffOptions {
  readonly bindings: Bindings;
  /** True when the target's clock was moved to every exchange's instant (afp serve, manual clock). */
  readonly exactTime: boolean;
}

const TIME_KEYS = /(?:_at|_seconds|_ms)$|^seconds_|^(?:next_claim|expires|ts)$/;
const EXACT_TIME_HEADERS = ['x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];
const DEPTH_MAX = 64;

export function isTimeDerivedKey(key: string | null): boolean {
  return key !== null && TIME_KEYS.test(key);
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function diffResponse(recorded: RecordedResponse, live: LiveAnswer, options: DiffOptions): ReplayDifference[] {
  const findings: ReplayDifference[] = [];
  if (recorded.status !== live.status) {
    findings.push({
      kind: 'status',
      pointer: 'status',
      expected: recorded.status,
      actual: live.status,
      note: describeError(live.body),
    });
    return findings;
  }
  diffHeaders(recorded.headers, live.headers, options, findings);
  if (recorded.body_dropped !== true)
    compare(recorded.body, live.body, { pointer: 'body', key: null, depth: 0 }, { options, findings });
  return findings;
}

function diffHeaders(
  recorded: Readonly<Record<string, string>>,
  live: Readonly<Record<string, string>>,
  options: DiffOptions,
  findings: ReplayDifference[],
): void {
  for (const [name, expected] of Object.entries(recorded)) {
    if (!options.exactTime && EXACT_TIME_HEADERS.includes(name)) continue;
    const actual = live[name];
    const pointer = `headers/${name}`;
    if (actual === undefined) findings.push({ kind: 'shape', pointer, expected: 'present', actual: 'missing' });
    else if (actual !== expected) findings.push({ kind: 'value', pointer, expected, actual });
  }
}

/** Where a comparison stands: its JSON pointer, the key that named it (time-derived keys are lenient) and its depth. */
interface Place {
  readonly pointer: string;
  readonly key: string | null;
  readonly depth: number;
}

/** What every comparison of one answer shares: the options, and the findings it adds to. */
interface DiffRun {
  readonly options: DiffOptions;
  readonly findings: ReplayDifference[];
}

/** The place of a child (`step`: its pointer token) named by `key`. */
const child = (at: Place, step: string, key: string | null): Place => ({
  pointer: `${at.pointer}/${step}`,
  key,
  depth: at.depth + 1,
});

function compare(expected: JsonValue, actual: unknown, at: Place, run: DiffRun): void {
  const { options, findings } = run;
  const { pointer, key } = at;
  const expectedType = jsonType(expected);
  const actualType = jsonType(actual);
  if (expectedType !== actualType) {
    if (!options.exactTime && isTimeDerivedKey(key) && (expected === null || actual === null)) return;
    findings.push({ kind: 'shape', pointer, expected: expectedType, actual: actualType });
    return;
  }
  if (at.depth >= DEPTH_MAX) return;
  if (Array.isArray(expected)) {
    compareArrays(expected, actual as unknown[], at, run);
    return;
  }
  if (isObject(expected)) {
    compareObjects(expected as Record<string, JsonValue>, actual as Record<string, unknown>, at, run);
    return;
  }
  if (typeof expected === 'string') {
    compareStrings(expected, actual as string, at, run);
    return;
  }
  if (!options.exactTime && isTimeDerivedKey(key)) return;
  if (expected !== actual) findings.push({ kind: 'value', pointer, expected, actual: actual as JsonValue });
}

/** Element-wise up to the shorter length plus a length check; items paired through their ids when they can be (array-alignment.ts). */
function compareArrays(expected: readonly JsonValue[], items: readonly unknown[], at: Place, run: DiffRun): void {
  const { pointer } = at;
  const { findings } = run;
  if (expected.length !== items.length)
    findings.push({ kind: 'shape', pointer, expected: `length ${expected.length}`, actual: `length ${items.length}` });
  const alignment = alignByIdentifier(expected, items, run.options.bindings);
  if (alignment !== null && alignment.unexplained.length > 0) {
    const [i, j] = alignment.unexplained[0] as readonly [number, number];
    findings.push({
      kind: 'value',
      pointer,
      expected: `item ${i} before item ${j}`,
      actual: `item ${j} before item ${i}`,
      note: `order differs (${alignment.unexplained.length} pair(s) by ${alignment.key})`,
    });
  }
  const shorter = Math.min(expected.length, items.length);
  for (let index = 0; index < shorter; index++) {
    const liveIndex = alignment === null ? index : (alignment.liveIndex[index] as number);
    compare(expected[index] as JsonValue, items[liveIndex], child(at, String(index), at.key), run);
  }
}

function compareObjects(
  expected: Record<string, JsonValue>,
  actual: Record<string, unknown>,
  at: Place,
  run: DiffRun,
): void {
  for (const [name, value] of Object.entries(expected)) {
    const inner = child(at, escapeToken(name), name);
    if (!Object.hasOwn(actual, name))
      run.findings.push({
        kind: 'shape',
        pointer: inner.pointer,
        expected: `present (${jsonType(value)})`,
        actual: 'missing',
      });
    else compare(value, actual[name], inner, run);
  }
  for (const name of Object.keys(actual)) {
    if (!Object.hasOwn(expected, name))
      run.findings.push({
        kind: 'shape',
        pointer: `${at.pointer}/${escapeToken(name)}`,
        expected: 'absent',
        actual: `present (${jsonType(actual[name])})`,
      });
  }
}

function compareStrings(expected: string, actual: string, at: Place, run: DiffRun): void {
  const { options, findings } = run;
  const { pointer } = at;
  if (isIdentifierLike(expected)) {
    if (!isIdentifierLike(actual)) {
      findings.push({ kind: 'value', pointer, expected, actual, note: 'an identifier was expected' });
      return;
    }
    const bound = options.bindings.bind(expected, actual);
    if (!bound.ok) findings.push({ kind: 'binding', pointer, expected: bound.expected, actual, note: bound.conflict });
    return;
  }
  if (!options.exactTime && (isTimeDerivedKey(at.key) || isIsoTime(expected))) return;
  const substituted = options.bindings.substitute(expected);
  if (substituted !== actual) findings.push({ kind: 'value', pointer, expected: substituted, actual });
}

/** A short note naming the live error code, when the live answer is an error body. */
function describeError(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const code = body['code'];
  const error = body['error'];
  if (typeof code !== 'string') return undefined;
  return typeof error === 'string' ? `live answered ${code}: ${error.slice(0, 200)}` : `live answered ${code}`;
}
