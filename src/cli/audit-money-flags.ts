/**
 * The flags of `afp audit money` (audit-money.ts, which re-exports this), parsed and checked with
 * light imports: audit.ts loads the probes, the dialects and the target files only once they pass.
 */
import type { Severity } from '../report/findings/finding.ts';
import { stringFlag } from './args.ts';
import { wholeFlagOf } from './audit-io.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { parseLiveArgs } from './live-args.ts';

export const MONEY_USAGE = usageLine(definitionOf('audit', 'money'));

const DEFINITION = definitionOf('audit', 'money');
export const MAX_MINUTES_DEFAULT = 90;
/** Three days: a real target's 48 h dispute window fits. */
export const MAX_MINUTES_LIMIT = 4_320;

export interface MoneyFlags {
  readonly target: string;
  readonly key: string | null;
  readonly secondKey: string | null;
  readonly withdrawAddress: string | null;
  readonly out: string;
  readonly failOn: Severity | 'none';
  readonly maxSeconds: number;
  /** --include-slow: the settlement probes, waiting at most `maxMinutes`. */
  readonly includeSlow: boolean;
  readonly maxMinutes: number;
  /** --resume-file FILE (with --include-slow): the escrows are opened and left, and FILE says how to judge them later. */
  readonly resumeFile: string | null;
  /** --resume FILE: judge the escrows a --resume-file run left, nothing else. */
  readonly resume: string | null;
  /** --quiet or --json: no progress lines. */
  readonly quiet: boolean;
}

export function parseMoneyArgs(argv: readonly string[], nowMs: number): MoneyFlags | { errors: string[] } {
  const { args, errors, target, key, failOn, maxSeconds } = parseLiveArgs(argv, DEFINITION);
  const includeSlow = args.flags['include-slow'] === true;
  const maxMinutes = wholeFlagOf(args, 'max-minutes', MAX_MINUTES_DEFAULT, 1, MAX_MINUTES_LIMIT);
  if (typeof maxMinutes === 'string') errors.push(maxMinutes);
  else if (!includeSlow && stringFlag(args, 'max-minutes') !== undefined)
    errors.push('--max-minutes bounds the slow probes: it needs --include-slow');
  const resumeFile = stringFlag(args, 'resume-file') ?? null;
  const resume = stringFlag(args, 'resume') ?? null;
  errors.push(...resumeErrors({ resumeFile, resume, includeSlow, key, secondKey: stringFlag(args, 'second-key') }));
  if (
    errors.length > 0 ||
    target === undefined ||
    failOn === undefined ||
    maxSeconds === undefined ||
    typeof maxMinutes === 'string'
  )
    return { errors };
  return {
    target,
    key: key ?? null,
    secondKey: stringFlag(args, 'second-key') ?? null,
    withdrawAddress: stringFlag(args, 'withdraw-address') ?? null,
    out: stringFlag(args, 'out') ?? `reports/money-${new Date(nowMs).toISOString().replace(/[:.]/g, '-')}`,
    failOn,
    maxSeconds,
    includeSlow,
    maxMinutes,
    resumeFile,
    resume,
    quiet: args.flags['quiet'] === true || args.flags['json'] === true,
  };
}

/** The resume flags' rules: --resume-file writes the slow probes' escrows, --resume judges them with the two accounts that opened them. */
function resumeErrors(given: {
  readonly resumeFile: string | null;
  readonly resume: string | null;
  readonly includeSlow: boolean;
  readonly key: string | undefined;
  readonly secondKey: string | undefined;
}): string[] {
  const errors: string[] = [];
  if (given.resumeFile !== null && !given.includeSlow)
    errors.push("--resume-file leaves the slow probes' escrows for later: it needs --include-slow");
  if (given.resume !== null && given.resumeFile !== null)
    errors.push('--resume reads a resume file; --resume-file writes one: give one');
  if (given.resume !== null && given.includeSlow)
    errors.push('--resume judges escrows a --resume-file run left: it runs no other probe, so not with --include-slow');
  if (given.resume !== null && (given.key === undefined || given.secondKey === undefined))
    errors.push('--resume judges the escrows of the two accounts that opened them: give their --key and --second-key');
  // Accounts afp would open itself have keys no one keeps: their escrows could never be resumed.
  if (given.resumeFile !== null && (given.key === undefined || given.secondKey === undefined))
    errors.push(
      '--resume-file leaves escrows that --resume judges with the same two accounts: give their --key and --second-key',
    );
  return errors;
}
