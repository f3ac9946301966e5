/**
 * Pacing of a replay, as pure arithmetic: when each exchange is due, as an offset from the
 * moment the first one was sent. Recorded gaps are divided by the speed (`--speed 2` replays
 * twice as fast); `--speed 0` or `max` sends as fast as the target answers. The waiting itself
 * happens in src/cli/replay.ts (timers live only in the CLI and the load generator).
 */

export type Speed = number | 'max';

export const SPEED_MAX = 1_000_000;

/** `--speed` text → a speed, or why it is not one. */
export function parseSpeed(text: string | undefined): Speed | string {
  if (text === undefined) return 1;
  if (text === 'max' || text === '0') return 'max';
  if (!/^\d+(?:\.\d+)?$/.test(text)) return `--speed must be a positive number, 0 or max (got '${text}')`;
  const value = Number(text);
  if (!(value > 0) || value > SPEED_MAX) return `--speed must be in (0, ${SPEED_MAX}], 0 or max (got '${text}')`;
  return value;
}

/** Wall milliseconds after the first exchange at which the exchange at `atMs` is due; null = no wait. */
export function dueOffsetMs(atMs: number, firstAtMs: number, speed: Speed): number | null {
  if (speed === 'max') return null;
  return Math.floor((atMs - firstAtMs) / speed);
}
