/**
 * Durations as text, `250ms`, `30s`, `15m`, `6h`, `7d`: reading one into milliseconds and writing
 * milliseconds back as the shortest exact text. The grammar and its invariants are duration.ts's.
 * Why apart from duration.ts: that file's zod schema loads zod, and a command checking a
 * `--duration` flag before its run (afp load, afp export k6) should not pay for it.
 */
export const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
export type DurationUnit = keyof typeof UNIT_MS;

/** The longest duration anything in a scenario may name unless it says otherwise. */
export const MAX_DURATION_MS = 365 * UNIT_MS.d;

const DURATION_PATTERN = /^(\d{1,16})(ms|s|m|h|d)$/;
/** The same grammar as JSON Schema text, for editors (kept in step with DURATION_PATTERN by a test). */
export const DURATION_PATTERN_TEXT = '^[0-9]{1,16}(ms|s|m|h|d)$';
export const DURATION_HINT = 'write an integer and a unit (ms, s, m, h, d), e.g. 30s, 6h, 7d';

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
  if (/^\d+$/.test(text)) return `duration '${shown}' has no unit: ${DURATION_HINT}`;
  return `'${shown}' is not a duration: ${DURATION_HINT}`;
}

/** The shortest exact spelling of a duration: 86400000 → "1d", 90000 → "90s". */
export function formatDuration(durationMs: number): string {
  const units: readonly DurationUnit[] = ['d', 'h', 'm', 's'];
  for (const unit of units) {
    if (durationMs !== 0 && durationMs % UNIT_MS[unit] === 0) return `${durationMs / UNIT_MS[unit]}${unit}`;
  }
  return `${durationMs}ms`;
}
