/**
 * Small pieces every casino prediction shares: the failure message in the frame's format (for
 * problems found outside a plain answer comparison: a multiplier the game never pays, a revealed
 * seed that replays another outcome), the matcher of a seed commitment the model may not know yet,
 * and reading fields of an answer body without trusting its shape.
 */
import type { CheckModel } from '../check-model.ts';
import { eq, text, type Matcher } from '../expectation.ts';
import type { ModelSeed } from './casino-state.ts';
import { CheckMismatch } from '../check-mismatch.ts';

const PROBLEMS_SHOWN_MAX = 8;

/** Throws the frame's CheckMismatch: `<label> at <instant>: problem; problem…`. */
export function casinoMismatch(label: string, model: Readonly<CheckModel>, problems: readonly string[]): never {
  const shown =
    problems.length > PROBLEMS_SHOWN_MAX
      ? [...problems.slice(0, PROBLEMS_SHOWN_MAX), `… and ${problems.length - PROBLEMS_SHOWN_MAX} more`]
      : problems;
  throw new CheckMismatch(`${label} at ${new Date(model.nowMs).toISOString()}: ${shown.join('; ')}`);
}

/** The commitment as known (exact), or any text when no answer has named this seed yet. */
export function seedMatcher(seed: ModelSeed): Matcher {
  return seed.hash === null ? text() : eq(seed.hash);
}

/** Learns a seed's commitment from an accepted answer (a commitment never changes once named). */
export function learnHash(seed: ModelSeed, hash: unknown): void {
  if (seed.hash === null && typeof hash === 'string') seed.hash = hash;
}

export function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)[name]
    : undefined;
}

/** An ISO instant for a request body. */
export const isoAt = (ms: number): string => new Date(ms).toISOString();
