/**
 * The flags of `afp audit fairness` (audit-fairness.ts, which re-exports this), parsed and checked
 * with light imports: audit.ts loads the audit, the schemes and the target files only once they pass.
 */
import { FAIRNESS_BETS_DEFAULT, FAIRNESS_BETS_MAX } from '../audit/options.ts';
import type { Severity } from '../report/findings/finding.ts';
import { stringFlag } from './args.ts';
import { wholeFlagOf } from './audit-io.ts';
import { CONCURRENCY_DEFAULT, CONCURRENCY_MAX } from './audit-limits.ts';
import { usageLine } from './command-definition.ts';
import { definitionOf } from './commands.ts';
import { parseLiveArgs } from './live-args.ts';

export const FAIRNESS_USAGE = usageLine(definitionOf('audit', 'fairness'));

const DEFINITION = definitionOf('audit', 'fairness');

export interface FairnessFlags {
  readonly target: string;
  readonly key: string;
  readonly json: boolean;
  readonly out: string;
  readonly failOn: Severity | 'none';
  readonly maxBets: number;
  readonly maxSeconds: number;
  readonly concurrency: number;
  /** --quiet or --json: no progress lines. */
  readonly quiet: boolean;
}

export function parseFairnessArgs(argv: readonly string[], nowMs: number): FairnessFlags | { errors: string[] } {
  const { args, errors, target, key, failOn, maxSeconds } = parseLiveArgs(
    argv,
    DEFINITION,
    'the API key of the account to audit',
  );
  const numbers = [
    wholeFlagOf(args, 'max-bets', FAIRNESS_BETS_DEFAULT, 1, FAIRNESS_BETS_MAX),
    wholeFlagOf(args, 'concurrency', CONCURRENCY_DEFAULT, 1, CONCURRENCY_MAX),
  ];
  for (const value of numbers) if (typeof value === 'string') errors.push(value);
  if (
    errors.length > 0 ||
    target === undefined ||
    key === undefined ||
    failOn === undefined ||
    maxSeconds === undefined
  )
    return { errors };
  const [maxBets, concurrency] = numbers as [number, number];
  return {
    target,
    key,
    json: args.flags['json'] === true,
    failOn,
    maxBets,
    maxSeconds,
    concurrency,
    quiet: args.flags['quiet'] === true || args.flags['json'] === true,
    out: stringFlag(args, 'out') ?? `reports/fairness-${new Date(nowMs).toISOString().replace(/[:.]/g, '-')}`,
  };
}
