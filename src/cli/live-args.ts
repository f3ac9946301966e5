/**
 * The flags every live audit reads alike (--target, --key, --fail-on, --max-seconds), parsed and
 * checked with light imports: live-command.ts (which re-exports this) resolves the target and runs
 * the audit, and a misspelt flag should not pay for loading them.
 */
import { MAX_SECONDS_LIMIT } from '../core/deadline.ts';
import { targetUrlError } from '../client/target.ts';
import { parseFailOn, type FailOn } from '../report/findings/fail-on.ts';
import { parseCommand, stringFlag, type ParsedArgs } from './args.ts';
import { wholeFlagOf } from './audit-io.ts';
import { MAX_SECONDS_DEFAULT } from './audit-limits.ts';
import type { CommandDefinition } from './command-definition.ts';
import { applyAnswerLimitFlag } from './target-budget.ts';

/** A --target that names a URL must be a valid one; anything else is a target file (read later). */
export function targetSpecError(spec: string): string | null {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(spec) ? targetUrlError(spec) : null;
}

export interface LiveArgs {
  readonly args: ParsedArgs;
  /** Every error so far; the command adds its own flags' errors. */
  readonly errors: string[];
  readonly target: string | undefined;
  readonly key: string | undefined;
  readonly failOn: FailOn | undefined;
  readonly maxSeconds: number | undefined;
}

/**
 * The flags every live command reads alike: no positionals, --target (required: a URL or a target
 * file), --key (required when `keyRequired` names it), --fail-on, --max-seconds, --max-body-mb
 * (the process's answer limit, set here). Errors in that order.
 */
export function parseLiveArgs(argv: readonly string[], definition: CommandDefinition, keyRequired?: string): LiveArgs {
  const args = parseCommand(argv, definition);
  const errors = [...args.errors, ...args.positionals.map((positional) => `unexpected argument '${positional}'`)];
  const target = stringFlag(args, 'target');
  if (target === undefined) errors.push('--target URL|FILE is required');
  else {
    const targetError = targetSpecError(target);
    if (targetError !== null) errors.push(targetError);
  }
  const key = stringFlag(args, 'key');
  if (key === undefined && keyRequired !== undefined) errors.push(`--key KEY (${keyRequired}) is required`);
  const failOn = parseFailOn(stringFlag(args, 'fail-on'));
  if (!failOn.ok) errors.push(failOn.message);
  const maxSeconds = wholeFlagOf(args, 'max-seconds', MAX_SECONDS_DEFAULT, 1, MAX_SECONDS_LIMIT);
  if (typeof maxSeconds === 'string') errors.push(maxSeconds);
  applyAnswerLimitFlag(args, errors);
  return {
    args,
    errors,
    target,
    key,
    failOn: failOn.ok ? failOn.value : undefined,
    maxSeconds: typeof maxSeconds === 'string' ? undefined : maxSeconds,
  };
}
