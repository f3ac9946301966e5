/**
 * The flags of `afp audit money` (audit-money.ts, which re-exports this), parsed and checked with
 * light imports: audit.ts loads the probes, the dialects and the target files only once they pass.
 */
import type { Severity } from '../live/finding.ts';
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
    quiet: args.flags['quiet'] === true || args.flags['json'] === true,
  };
}
