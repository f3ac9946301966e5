/**
 * assert: the one door for "this cannot happen" checks.
 *
 * Expected failures (bad input, insufficient balance, a repeat claim) are returned as outcomes;
 * `assert` is for bugs only. A failed assertion throws `AssertionFailure`, which ends a run with
 * exit code 1 and its seed (see src/cli). Keep the `why` short and specific: it is what a reader
 * sees first when a seed reproduces the failure.
 */

export class AssertionFailure extends Error {
  override readonly name = 'AssertionFailure';
}

export function assert(condition: unknown, why: string): asserts condition {
  if (!condition) throw new AssertionFailure(why);
}

/** Exhaustiveness guard for switch statements over unions. */
export function unreachable(value: never, why = 'unreachable'): never {
  throw new AssertionFailure(`${why}: ${JSON.stringify(value)}`);
}
