/**
 * What the `afp audit` subcommands share: their output doors (stdout/stderr, replaceable in
 * tests), the real clock and sleep the live audits wait with (src/cli is a door for wall time),
 * strict whole-number flags, the shell quoting of reproduce commands, and Ctrl-C (live-command.ts
 * listens for it during a live run).
 */
import { STDERR, STDOUT } from './colour.ts';
import type { WaitClock } from '../core/clock.ts';
import { stringFlag, type ParsedArgs } from './args.ts';
import { onProcessInterrupt, type InterruptIo } from './process-interrupt.ts';
import { type Ending, invalidInput } from '../core/command-failure.ts';

export interface AuditIo extends InterruptIo {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (the progress line is redrawn there); false when absent. */
  readonly errIsTty?: boolean;
}

export const AUDIT_PROCESS_IO: AuditIo = {
  out: STDOUT,
  err: STDERR,
  errIsTty: process.stderr.isTTY,
  onInterrupt: onProcessInterrupt,
};

export const SYSTEM_LIVE_CLOCK: WaitClock = {
  nowMs: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A whole-number flag in [min, max], the fallback when absent, or an error message. */
export function wholeFlag(
  text: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number | string {
  if (text === undefined) return fallback;
  const value = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(value) && value >= min && value <= max
    ? value
    : `--${name} must be a whole number from ${min} to ${max}, got '${text.slice(0, 40)}'`;
}

/** wholeFlag of the flag `--name` as parsed. */
export function wholeFlagOf(
  args: ParsedArgs,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number | string {
  return wholeFlag(stringFlag(args, name), name, fallback, min, max);
}

/** A command's subcommands: what each runs with the rest of the argv. */
/** A command's subcommands: each ends with its ending. */
export type Subcommands = Readonly<Record<string, (argv: readonly string[], io: AuditIo) => Promise<Ending>>>;

/**
 * `afp COMMAND SUB ...`: a missing or unknown SUB is invalid input (exit 2) with the usage; otherwise
 * SUB runs with the rest. (`--help` is answered by the entry, from the definitions in commands.ts.)
 */
export async function runSubcommand(
  argv: readonly string[],
  io: AuditIo,
  command: { name: string; missing: string; noun: string; subcommands: Subcommands; usage: string },
): Promise<Ending> {
  const [name, ...rest] = argv;
  const run = name === undefined ? undefined : command.subcommands[name];
  if (run === undefined) {
    const problem = name === undefined ? command.missing : `unknown ${command.noun} '${name}'`;
    return invalidInput(`afp ${command.name}: ${problem}\nusage: ${command.usage}`);
  }
  return run(rest, io);
}
