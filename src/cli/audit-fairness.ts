/**
 * `afp audit fairness --target URL --key KEY [--json | --csv] [--out DIR] [--max-bets N]
 * [--max-seconds S] [--concurrency C]`: rotates the account's seed, then recomputes every bet of
 * its history from the revealed seeds, client-side (src/audit/live-fairness.ts).
 *
 * Output: the target, the account, the counts, then each mismatch, each (seed, nonce) pair drawn
 * twice and, as notes, seeds with nonce gaps (or --json, or --csv of the findings); with --out,
 * `fairness.json` and `findings.csv` there. No seed: the audit draws nothing at random.
 * Exit codes, first that applies: 3 a bet did not recompute or a (seed, nonce) pair was drawn
 * twice (the reproduce command is printed); 1 the target does not answer or refused the key, the
 * rotation or the history; 4 --max-seconds ended the audit before every bet was recomputed;
 * 2 invalid flags; 0 every bet verified.
 */
import { fairnessJson, renderFairnessJson, renderFairnessText, renderFindingsCsv } from '../audit/fairness-table.ts';
import { openAuditAccount } from '../audit/live-account.ts';
import { auditFairnessLive, FAIRNESS_BETS_DEFAULT, FAIRNESS_BETS_MAX, type LiveFairnessReport } from '../audit/live-fairness.ts';
import { connectTarget, Deadline, MAX_SECONDS_LIMIT, type LiveTarget } from '../audit/live-target.ts';
import { writeEdgeAuditFiles } from '../audit/edge-audit-files.ts';
import { targetUrlError } from '../client/target.ts';
import { parseArgs, stringFlag } from './args.ts';
import { commandLine, SYSTEM_LIVE_CLOCK, wholeFlag, type AuditIo } from './audit-io.ts';
import { CONCURRENCY_DEFAULT, CONCURRENCY_MAX, MAX_SECONDS_DEFAULT } from './audit-house-edge.ts';
import { EXIT } from './exit-codes.ts';

export const FAIRNESS_USAGE = 'afp audit fairness --target URL --key KEY [--json|--csv] [--out DIR] [--max-bets N] [--max-seconds S] [--concurrency C]';

const FLAGS = { target: 'string', key: 'string', json: 'boolean', csv: 'boolean', out: 'string', 'max-bets': 'string', 'max-seconds': 'string', concurrency: 'string' } as const;

export interface FairnessFlags {
  readonly target: string;
  readonly key: string;
  readonly format: 'table' | 'json' | 'csv';
  readonly out: string | null;
  readonly maxBets: number;
  readonly maxSeconds: number;
  readonly concurrency: number;
}

export function parseFairnessArgs(argv: readonly string[]): FairnessFlags | { errors: string[] } {
  const args = parseArgs(argv, FLAGS);
  const errors = [...args.errors, ...args.positionals.map((positional) => `unexpected argument '${positional}'`)];
  const target = stringFlag(args, 'target');
  const key = stringFlag(args, 'key');
  if (target === undefined) errors.push('--target URL is required');
  else {
    const targetError = targetUrlError(target);
    if (targetError !== null) errors.push(targetError);
  }
  if (key === undefined) errors.push('--key KEY (the API key of the account to audit) is required');
  if (args.flags['json'] === true && args.flags['csv'] === true) errors.push('--json and --csv exclude each other');
  const numbers = [
    wholeFlag(stringFlag(args, 'max-bets'), 'max-bets', FAIRNESS_BETS_DEFAULT, 1, FAIRNESS_BETS_MAX),
    wholeFlag(stringFlag(args, 'max-seconds'), 'max-seconds', MAX_SECONDS_DEFAULT, 1, MAX_SECONDS_LIMIT),
    wholeFlag(stringFlag(args, 'concurrency'), 'concurrency', CONCURRENCY_DEFAULT, 1, CONCURRENCY_MAX),
  ];
  for (const value of numbers) if (typeof value === 'string') errors.push(value);
  if (errors.length > 0 || target === undefined || key === undefined) return { errors };
  const [maxBets, maxSeconds, concurrency] = numbers as [number, number, number];
  const format = args.flags['json'] === true ? 'json' : args.flags['csv'] === true ? 'csv' : 'table';
  return { target, key, format, out: stringFlag(args, 'out') ?? null, maxBets, maxSeconds, concurrency };
}

export async function runFairness(flags: FairnessFlags, io: AuditIo): Promise<number> {
  const clock = SYSTEM_LIVE_CLOCK;
  let target: LiveTarget;
  try {
    target = await connectTarget(flags.target);
  } catch (error) {
    io.err(`afp audit fairness: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.crash;
  }
  const deadline = new Deadline(clock, flags.maxSeconds);
  const account = await openAuditAccount({ target, key: flags.key, fundMicro: 0n, clock, deadline });
  if (!account.ok) {
    io.err(`afp audit fairness: ${account.message}\n`);
    return account.kind === 'deadline' ? EXIT.liveness : EXIT.crash;
  }
  const result = await auditFairnessLive({ client: account.value.client, maxBets: flags.maxBets, concurrency: flags.concurrency, clock, deadline });
  const report: LiveFairnessReport = { target: target.url, agentId: account.value.agentId, result };
  const files = flags.out === null ? [] : writeEdgeAuditFiles(flags.out, { 'fairness.json': renderFairnessJson(report), 'findings.csv': renderFindingsCsv(result.mismatches, result.nonces) });
  io.out(flags.format === 'json' ? `${JSON.stringify(fairnessJson(report), null, 2)}\n` : flags.format === 'csv' ? renderFindingsCsv(result.mismatches, result.nonces) : renderFairnessText(report));
  const failed = result.mismatchCount > 0 || result.nonces.duplicateCount > 0;
  const code = failed ? EXIT.checkFailed : result.troubles.length > 0 ? EXIT.crash : result.stoppedBy === 'deadline' ? EXIT.liveness : EXIT.ok;
  const lines = [code === EXIT.ok ? `ok: all ${result.checked} bets recompute from their revealed seeds` : failed ? `FAILED: ${result.mismatchCount} bets do not recompute, ${result.nonces.duplicateCount} (seed, nonce) pairs drawn twice` : 'the audit did not complete'];
  if (files.length > 0) lines.push(`files: ${files.join(', ')}`);
  if (code !== EXIT.ok) lines.push(`reproduce: ${commandLine(['npx', 'afp', 'audit', 'fairness', '--target', flags.target, '--key', '<KEY>'])}`);
  (flags.format === 'table' ? io.out : io.err)(`${lines.join('\n')}\n`);
  return code;
}
