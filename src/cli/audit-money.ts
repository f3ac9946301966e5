/**
 * `afp audit money --target URL|FILE [--key KEY] [--second-key KEY] [--withdraw-address ADDR]
 * [--out DIR] [--fail-on SEVERITY] [--max-seconds S] [--include-slow [--max-minutes N]]`: the
 * money-path probes (src/audit/probes/money-probes.ts) against a live target: an overdraw withdrawal,
 * a batch summary against its results, parallel double spends, the balance across single bets, and
 * bad input. With --include-slow, settlement over time too (src/audit/probes/settlement-probes.ts):
 * an escrow at the shortest expiry the target allows must be refunded in full, a dispute must
 * resolve within the documents' 48 h; the plan (what it waits for, how long at most, time travel
 * on an afp serve or waiting) is printed before any wait, and --max-minutes (default
 * MAX_MINUTES_DEFAULT) bounds the waiting (added to --max-seconds); a wait longer than it is
 * skipped with its reason. Last, the casino's pots (src/audit/probes/pot-probes.ts): a tournament's
 * pool taken from its creator, challenges costing the pair exactly the stated cut.
 *
 * Accounts: the audit account as the target funds it (or --key); the double-spend and challenge
 * probes need a second account holding about 1 USDC — registered and funded the same way, or --second-key, or
 * the target file's second pre-funded key. A probe that cannot run is reported as skipped.
 * Output: one line per probe, then the findings; findings.json, findings.csv, findings.junit.xml
 * and findings.html to --out (default reports/money-<time>/).
 * Exit codes: 2 invalid flags or target file; 4 the target does not answer; 1 an account could
 * not be opened otherwise; 3 a finding reaches --fail-on (default major; an escrow that did not
 * settle within its wait is a major liveness finding); 4 the time budget ran out before the
 * command finished, or skipped a probe it could not hold (a `stopped:` line names them); 0 otherwise.
 * Waits: paces and 429s are waited out on the target's window clock (a manual afp serve's own,
 * moved forward; live-command.ts startLiveRun), the budget on the wall's.
 */
import { runMoneyProbes, unansweredLine } from '../audit/probes.ts';
import { laterProbes, runMoneyResume } from './audit-money-resume.ts';
import { checksOfProbes } from './money-checks.ts';
import { fundLiveAccount, openLiveAccount, type LiveAccount, type LiveOutcome, curlOf } from '../live.ts';
import { SYSTEM_LIVE_CLOCK, type AuditIo } from './audit-io.ts';
import { finishLiveRun, openRunAccount, startLiveRun, type LiveRun } from './live-command.ts';
import type { RecordFields } from './json-output.ts';
import type { WaitClock } from '../core/clock.ts';
import type { MoneyFlags } from './audit-money-flags.ts';
import { CommandFailure, type Ending, unlessUnfinished } from '../core/command-failure.ts';

export {
  MAX_MINUTES_DEFAULT,
  MAX_MINUTES_LIMIT,
  MONEY_USAGE,
  parseMoneyArgs,
  type MoneyFlags,
} from './audit-money-flags.ts';

const COMMAND = 'afp audit money';
/** The probes' bets and withdrawals need cents; the domain race needs two .xyz years (28.80) in the balance. */
const MAIN_FUND_MICRO = 50_000_000n;
const SECOND_FUND_MICRO = 1_000_000n;
/** The double-spend account: --second-key, the file's second key, or a fresh one funded the target's way; null when none can be had. */
async function secondAccount(run: LiveRun, flags: MoneyFlags): Promise<LiveOutcome<LiveAccount> | null> {
  const funding = run.target.funding;
  const key = flags.secondKey ?? (funding.method === 'keys' ? (funding.keys[1] ?? null) : null);
  if (key === null && (funding.method === 'keys' || run.target.register === null)) return null;
  return openLiveAccount({
    session: run.session,
    key,
    fundMicro: SECOND_FUND_MICRO,
    clock: run.clock,
    deadline: run.deadline,
  });
}

export async function runMoney(
  flags: MoneyFlags,
  io: AuditIo,
  clock: WaitClock = SYSTEM_LIVE_CLOCK,
  record: RecordFields = () => undefined,
): Promise<Ending> {
  if (flags.resume !== null) return runMoneyResume(flags, io, clock, record);
  const budgetSeconds = flags.maxSeconds + (flags.includeSlow ? flags.maxMinutes * 60 : 0);
  const run = await startLiveRun(COMMAND, flags.target, budgetSeconds, clock, io, { quiet: flags.quiet });
  if (run instanceof CommandFailure) return run;
  io.out(`target: ${run.target.name} (${run.target.source})\n`);
  // Both accounts at once: an afp serve on a wall clock confirms each one's simulated deposit a minute later.
  const [account, second] = await Promise.all([
    openRunAccount(run, { key: flags.key, fundMicro: MAIN_FUND_MICRO, say: io.out }),
    secondAccount(run, flags),
  ]);
  if (account instanceof CommandFailure) return account;
  if (second !== null && !second.ok)
    io.out(`second account: not opened (${second.message}); the double-spend probe is skipped\n`);
  const results = await probeMoney(run, { account, second }, flags, io);
  run.progress.finish();
  return concludeMoney(run, { results, second }, flags, io, record);
}

type MoneyResults = Awaited<ReturnType<typeof runMoneyProbes>>;

/** The money probes, then the later ones (settlement with --include-slow, the pots), with the two accounts. */
async function probeMoney(
  run: LiveRun,
  accounts: { account: Pick<LiveAccount, 'apiKey' | 'agentId'>; second: LiveOutcome<LiveAccount> | null },
  flags: MoneyFlags,
  io: AuditIo,
): Promise<MoneyResults> {
  const { account, second } = accounts;
  /** What both probe sets are given: the session, the two accounts, the findings. */
  const probed = {
    session: run.session,
    apiKey: account.apiKey,
    agentId: account.agentId,
    second: second !== null && second.ok ? second.value : null,
    findings: run.findings,
    curlOf,
    clock: run.clock,
  };
  const results = await runMoneyProbes({
    ...probed,
    withdrawAddress: flags.withdrawAddress,
    fundOwnAccount: (service, agentId, apiKey) =>
      fundLiveAccount(
        {
          session: run.session,
          key: null,
          fundMicro: MAIN_FUND_MICRO,
          clock: run.clock,
          deadline: run.deadline,
          balanceOperation: `${service}.balance`,
        },
        agentId,
        apiKey,
      ),
  });
  results.push(...(await laterProbes(run, probed, flags, io)));
  return results;
}

/** What stopped the audit short: probes the budget skipped, and the target's silence (each exits 4). */
function stoppedLines(
  results: MoneyResults,
  second: LiveOutcome<LiveAccount> | null,
  flags: MoneyFlags,
): { outOfTime: string[]; unanswered: string | null; stopped: string[] } {
  // A probe the budget skipped is no pass: the run did not finish within its time (exit 4, as the help says).
  const outOfTime = [
    // The second account not opened within the budget: the probes it serves were skipped for time.
    ...(second !== null && !second.ok && second.kind === 'deadline'
      ? ['the second account (and the probes it serves)']
      : []),
    ...results.filter((result) => result.outOfTime === true).map((result) => result.name),
  ];
  // Nor is one the target's silence skipped: it stopped answering (exit 4, target unreachable). Before,
  // a target that died mid-audit was "ok", its last probes listed as skipped.
  const unanswered = unansweredLine([
    ...(second !== null && !second.ok && second.kind === 'unreachable'
      ? [{ name: 'the second account (and the probes it serves)', unreachable: second.message }]
      : []),
    ...results,
  ]);
  const stopped = [
    ...(outOfTime.length > 0
      ? [
          `the time budget ran out before these could run: ${outOfTime.join(', ')} (raise --max-seconds${flags.includeSlow ? ' or --max-minutes' : ''})`,
        ]
      : []),
    ...(unanswered === null ? [] : [unanswered]),
  ];
  return { outOfTime, unanswered, stopped };
}

/** The reports written, the verdict and one line per probe printed, the --json fields recorded; returns the ending. */
async function concludeMoney(
  run: LiveRun,
  probes: { results: MoneyResults; second: LiveOutcome<LiveAccount> | null },
  flags: MoneyFlags,
  io: AuditIo,
  record: RecordFields,
): Promise<Ending> {
  const { results } = probes;
  const checks = checksOfProbes(results);
  const { outOfTime, unanswered, stopped } = stoppedLines(results, probes.second, flags);
  // Out of time (or Ctrl-C), or unanswered, the audit exits 4 whatever its findings: the reports' verdict says so.
  const ending = await finishLiveRun(run, {
    out: flags.out,
    failOn: flags.failOn,
    checks,
    ...(run.deadline.passed()
      ? { failure: { summary: 'the time budget ran out (or the audit was interrupted) before every probe ran' } }
      : stopped.length > 0
        ? { failure: { summary: stopped.join('; ') } }
        : {}),
  });
  io.out(`${ending.verdict.join('\n')}\n`);
  for (const result of results)
    io.out(
      `${result.status === 'ran' ? 'ran    ' : 'skipped'} ${result.name}: ${result.note}${result.findingIds.length > 0 ? ` — ${result.findingIds.length} findings` : ''}\n`,
    );
  for (const line of stopped) io.out(`stopped: ${line}\n`);
  const verdict = unlessUnfinished(ending.ending, run.deadline.passed() || stopped.length > 0);
  io.out(`${ending.lines.join('\n')}\n`);
  record({
    target: run.target.name,
    ...(run.deadline.interrupted ? { interrupted: true } : {}),
    ...(outOfTime.length > 0 ? { outOfTime } : {}),
    ...(unanswered === null
      ? {}
      : { unanswered: results.filter((result) => result.unreachable !== undefined).map((result) => result.name) }),
    probes: results.map((result) => ({ name: result.name, status: result.status, findings: result.findingIds.length })),
    findings: run.findings.list().length,
    out: flags.out,
  });
  return verdict;
}
