/**
 * Durations as scenario files write them: an integer and a unit, `250ms`, `30s`, `15m`, `6h`, `7d`.
 *
 * Invariants: the result is a whole, non-negative, safe-integer number of milliseconds; there are
 * no fractions (`1.5d` is refused with a hint to use a smaller unit), no signs, no spaces, no
 * compound forms (`1d12h`) and no bare numbers (a unit is always required, so `7` is never
 * silently read as 7 ms). Ranges are the caller's business (`durationMs({ minMs, maxMs })`).
 * `durationMs()` is the zod helper the scenario schema and the agent archetypes' parameter
 * schemas share, so every duration in a scenario file reads and fails the same way.
 */
import * as z from 'zod';

export const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
export type DurationUnit = keyof typeof UNIT_MS;

/** The longest duration anything in a scenario may name unless it says otherwise. */
export const MAX_DURATION_MS = 365 * UNIT_MS.d;

const DURATION_PATTERN = /^(\d{1,16})(ms|s|m|h|d)$/;
/** The same grammar as JSON Schema text, for editors (kept in step with DURATION_PATTERN by a test). */
export const DURATION_PATTERN_TEXT = '^[0-9]{1,16}(ms|s|m|h|d)$';
const HINT = 'write an integer and a unit (ms, s, m, h, d), e.g. 30s, 6h, 7d';

/** Milliseconds, or an error message saying what is wrong with the text. */
export function parseDuration(text: string): number | string {
  const match = DURATION_PATTERN.exec(text);
  if (match === null) return explainBadDuration(text);
  const count = Number(match[1]);
  const unitMs = UNIT_MS[match[2] as DurationUnit];
  const totalMs = count * unitMs;
  if (!Number.isSafeInteger(totalMs)) return `duration '${text}' is too large`;
  return totalMs;
}

function explainBadDuration(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}...` : text;
  if (/^\s*-/.test(text)) return `duration '${shown}' is negative: durations count forward from zero`;
  if (/^\d+\.\d+\s*(ms|s|m|h|d)$/.test(text)) {
    return `duration '${shown}' has a fraction: use a whole number of a smaller unit (36h, not 1.5d)`;
  }
  if (/^\d+$/.test(text)) return `duration '${shown}' has no unit: ${HINT}`;
  return `'${shown}' is not a duration: ${HINT}`;
}

/** The shortest exact spelling of a duration: 86400000 → "1d", 90000 → "90s". */
export function formatDuration(durationMs: number): string {
  const units: readonly DurationUnit[] = ['d', 'h', 'm', 's'];
  for (const unit of units) {
    if (durationMs !== 0 && durationMs % UNIT_MS[unit] === 0) return `${durationMs / UNIT_MS[unit]}${unit}`;
  }
  return `${durationMs}ms`;
}

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
