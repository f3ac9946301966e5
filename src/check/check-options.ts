/**
 * The options of a model-based check (run-check.ts) and their limits, checked all at once. Why
 * apart from run-check.ts: `afp check` refuses bad flags before it loads fast-check, the model
 * and the platform.
 */
import type { Clock } from '../core/clock.ts';
import type { DefectName } from '../services/shared/context.ts';
import type { CheckStop } from './replay-path.ts';
import { splitPath } from './reported-path.ts';

/**
 * Faucet and escrow rows and the casino's rows weigh about the same, so a run holds twice the
 * commands it held before the casino joined (40): each family keeps its share of a run. The
 * domains rows (weight 14 of 132) add their share on top: 80 × 132 / 118 ≈ 90; the trading rows
 * (weight 13 of 145) theirs: 90 × 145 / 132 ≈ 99; the wallet rows (weight 25 of 170) theirs:
 * 99 × 170 / 145 ≈ 116.
 */
export const MAX_COMMANDS = 116;

export const RUNS_DEFAULT = 100;
export const RUNS_MAX = 100_000;
export const REQUEST_TIMEOUT_MS_DEFAULT = 10_000;

export interface CheckOptions {
  readonly target?: string;
  readonly seed: number;
  readonly runs: number;
  readonly maxCommands?: number;
  /** A reported path (`<fast-check path>@<replayPath>`): replays that one failing case. */
  readonly path?: string;
  /** In-process only: deliberate defects of the platform under check (tests, demos). */
  readonly defects?: readonly DefectName[];
  /** Live only: unique per invocation (8 hex characters); default: drawn from the wall clock's millisecond. */
  readonly session?: string;
  /** Live only: the checker's clock, to estimate a wall-clock target's time (default: the system clock). */
  readonly wallClock?: Clock;
  readonly timeoutMs?: number;
  /** Called after every run of a command sequence (shrinking runs included): the CLI's progress line. */
  readonly onRun?: () => void;
  /** Once its signal is aborted (Ctrl-C), no further run starts; the result says `interrupted`. */
  readonly stop?: CheckStop;
}

/** Problems with the options, all of them (the CLI answers exit 2). */
export function checkOptionErrors(options: CheckOptions): string[] {
  const errors: string[] = [];
  if (!Number.isSafeInteger(options.seed) || options.seed < 0 || options.seed > 0x7fffffff)
    errors.push(`seed must be a whole number in 0..${0x7fffffff}`);
  if (!Number.isSafeInteger(options.runs) || options.runs < 1 || options.runs > RUNS_MAX)
    errors.push(`runs must be a whole number in 1..${RUNS_MAX}`);
  const maxCommands = options.maxCommands ?? MAX_COMMANDS;
  if (!Number.isSafeInteger(maxCommands) || maxCommands < 1 || maxCommands > MAX_COMMANDS)
    errors.push(`max commands must be a whole number in 1..${MAX_COMMANDS}`);
  if (options.path !== undefined && splitPath(options.path) === null)
    errors.push(`path '${options.path}' is not a reported path (<digits:...>@<replayPath>)`);
  if (options.target !== undefined && options.defects !== undefined && options.defects.length > 0)
    errors.push('defects apply to the in-process platform only, not to a --target');
  if (options.session !== undefined && !/^[0-9a-f]{8}$/.test(options.session))
    errors.push('session must be 8 lowercase hex characters');
  return errors;
}
