/**
 * Aligning list answers whose order depends on generated identifiers. Lists are often ordered
 * by a time and then by id (escrows: created_at desc, then escrow_id), so under another seed two
 * items created at the same instant legitimately swap places. When every recorded item carries
 * an identifier already bound to a live one (the first key whose values qualify), the live items
 * are paired with the recorded ones through the bindings instead of by position.
 *
 * Pairs whose relative order flipped are accepted only when the flip follows the identifiers:
 * the item listed first has the smaller id in both runs, or the larger in both (an id
 * tie-break). Any other flip is an ordering difference, reported, never hidden; with the same
 * seed the bindings are identities, so a wrong sort always shows.
 * Limits: lists longer than `ALIGN_ITEMS_MAX` are compared by position only.
 */
import type { Bindings } from './bindings.ts';
import { isIdentifierLike } from './identifier-rule.ts';
import { isObject } from './json-pointer.ts';

export const ALIGN_ITEMS_MAX = 1_000;

export interface Alignment {
  /** The key whose identifiers paired the items. */
  readonly key: string;
  /** `liveIndex[i]` is the live item paired with recorded item i. */
  readonly liveIndex: readonly number[];
  /** Recorded index pairs whose order flipped without an id tie-break explaining it. */
  readonly unexplained: readonly (readonly [number, number])[];
}

export function alignByIdentifier(
  expected: readonly unknown[],
  actual: readonly unknown[],
  bindings: Bindings,
): Alignment | null {
  if (expected.length !== actual.length || expected.length < 2 || expected.length > ALIGN_ITEMS_MAX) return null;
  const first = expected[0];
  if (!isObject(first)) return null;
  for (const key of Object.keys(first)) {
    const liveIndex = pairThrough(key, expected, actual, bindings);
    if (liveIndex !== null) return { key, liveIndex, unexplained: unexplainedFlips(key, expected, actual, liveIndex) };
  }
  return null;
}

function identifierAt(item: unknown, key: string): string | undefined {
  if (!isObject(item)) return undefined;
  const value = item[key];
  return typeof value === 'string' && isIdentifierLike(value) ? value : undefined;
}

function pairThrough(
  key: string,
  expected: readonly unknown[],
  actual: readonly unknown[],
  bindings: Bindings,
): number[] | null {
  const liveAt = new Map<string, number>();
  for (let index = 0; index < actual.length; index++) {
    const value = identifierAt(actual[index], key);
    if (value === undefined || liveAt.has(value)) return null;
    liveAt.set(value, index);
  }
  const liveIndex: number[] = [];
  const used = new Set<number>();
  for (const item of expected) {
    const recorded = identifierAt(item, key);
    const live = recorded === undefined ? undefined : bindings.live(recorded);
    const index = live === undefined ? undefined : liveAt.get(live);
    if (index === undefined || used.has(index)) return null;
    used.add(index);
    liveIndex.push(index);
  }
  return liveIndex;
}

function unexplainedFlips(
  key: string,
  expected: readonly unknown[],
  actual: readonly unknown[],
  liveIndex: readonly number[],
): [number, number][] {
  const flips: [number, number][] = [];
  for (let i = 0; i < expected.length; i++) {
    for (let j = i + 1; j < expected.length; j++) {
      const liveI = liveIndex[i] as number;
      const liveJ = liveIndex[j] as number;
      if (liveI < liveJ) continue;
      const recordedOrder = Math.sign(
        compareText(identifierAt(expected[i], key) as string, identifierAt(expected[j], key) as string),
      );
      const liveOrder = Math.sign(
        compareText(identifierAt(actual[liveJ], key) as string, identifierAt(actual[liveI], key) as string),
      );
      if (recordedOrder === 0 || recordedOrder !== liveOrder) flips.push([i, j]);
    }
  }
  return flips;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
