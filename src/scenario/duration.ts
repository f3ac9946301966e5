/**
 * Durations as scenario files write them: an integer and a unit, `250ms`, `30s`, `15m`, `6h`, `7d`.
 *
 * Invariants: the result is a whole, non-negative, safe-integer number of milliseconds; there are
 * no fractions (`1.5d` is refused with a hint to use a smaller unit), no signs, no spaces, no
 * compound forms (`1d12h`) and no bare numbers (a unit is always required, so `7` is never
 * silently read as 7 ms). Ranges are the caller's business (`durationMs({ minMs, maxMs })`).
 * `durationMs()` is the zod helper the scenario schema and the agent archetypes' parameter
 * schemas share, so every duration in a scenario file reads and fails the same way. The reading
 * and writing of the text are duration-text.ts's (no zod), re-exported here.
 */
import * as z from 'zod';
import {
  DURATION_HINT as HINT,
  DURATION_PATTERN_TEXT,
  formatDuration,
  MAX_DURATION_MS,
  parseDuration,
} from './duration-text.ts';

export {
  DURATION_PATTERN_TEXT,
  formatDuration,
  MAX_DURATION_MS,
  parseDuration,
  UNIT_MS,
  type DurationUnit,
} from './duration-text.ts';

export interface DurationRange {
  /** Inclusive lower bound; default 0. */
  readonly minMs?: number;
  /** Inclusive upper bound; default MAX_DURATION_MS (365d). */
  readonly maxMs?: number;
}

/**
 * A zod schema reading a duration text into milliseconds within `range`. Its JSON Schema (input
 * side) is a string with the duration pattern, so editors flag bad durations while typing.
 */
export function durationMs(range: DurationRange = {}) {
  const minMs = range.minMs ?? 0;
  const maxMs = range.maxMs ?? MAX_DURATION_MS;
  return (
    z
      .string({ error: `expected a duration text: ${HINT}` })
      // `x-range` survives a field's own .describe(): the editor schema folds it into the description (scenario-schema.ts).
      .meta({
        pattern: DURATION_PATTERN_TEXT,
        description: `duration from ${formatDuration(minMs)} to ${formatDuration(maxMs)}: ${HINT}`,
        'x-range': `duration ${formatDuration(minMs)} to ${formatDuration(maxMs)}`,
      })
      .transform((text, context) => {
        const parsed = parseDuration(text);
        let message: string | null = null;
        if (typeof parsed === 'string') message = parsed;
        else if (parsed < minMs) message = `duration '${text}' is shorter than the minimum ${formatDuration(minMs)}`;
        else if (parsed > maxMs) message = `duration '${text}' is longer than the maximum ${formatDuration(maxMs)}`;
        if (message === null) return parsed as number;
        context.issues.push({ code: 'custom', message, input: text });
        return z.NEVER;
      })
  );
}
