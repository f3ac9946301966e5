/**
 * What every live command shares (`afp audit house-edge|fairness|money --target`): resolving
 * `--target` (a URL, or a target file), one LiveSession whose wire deviations become findings,
 * the findings reports in `--out`, and the exit code `--fail-on` sets.
 *
 * Exit codes, first that applies (docs/design.md): 2 the target file is invalid; 4 the target does not
 * answer; 3 a finding reaches `--fail-on` (default major); 4 the time budget ended the run early;
 * 0 otherwise. Every terminal report opens with the verdict (findings-verdict.ts), before its
 * tables, and ends with the counts and the files. While the run goes, a progress line on stderr counts the calls made against the
 * time budget (progress.ts; none when quiet). A deviation from the documents is a finding whose
 * severity the reader weighs, never a failure of the command.
 * Ctrl-C (or SIGTERM) ends the time budget at once (Deadline.interrupt): the run stops as at its
 * limit, what was placed is verified, the reports are written, and it says so; exit 4 unless a
 * finding reaches --fail-on (3). A second Ctrl-C quits at once.
 */
import { armTargetBudget, budgetLine, windUpGraceSeconds } from './target-budget.ts';
import type { WaitClock } from '../core/clock.ts';
import { Deadline } from '../core/deadline.ts';
import {
  deviationFinding,
  gatewayFinding,
  openLiveAccount,
  type LiveAccount,
  LiveSession,
  curlOf,
  announcedText,
  rateLimitFinding,
  summaryOf,
  type Target,
  RemoteServeClock,
  waitClockOf,
} from '../live.ts';
import { FindingsCollector, SEVERITIES } from '../report/findings/finding.ts';
import { infoLines, verdictLines } from '../report/findings/findings-verdict.ts';
import { writeFindingsReports } from '../report/findings/write-findings.ts';
import type { ReportCheck, ReportFailure, ReportTable } from '../report/findings/findings-report.ts';
import { findingsEnding, type FailOn } from '../report/findings/fail-on.ts';
import { resolveTarget } from '../live/options.ts';
import type { Micro } from '../core/money.ts';
import type { AuditIo } from './audit-io.ts';
import { Progress } from './progress.ts';
import { againTo, onFirstInterrupt } from './process-interrupt.ts';
import { accountRefused, unresolvedTarget, type CommandFailure, type Ending } from '../core/command-failure.ts';

export { parseLiveArgs, type LiveArgs } from './live-args.ts';

/** What a live run says when Ctrl-C cut it short (the first of finishLiveRun's lines). */
const INTERRUPTED_LINE = 'interrupted: the run was cut short, so it is not a pass; the reports cover what ran';

export interface LiveRun {
  readonly command: string;
  readonly target: Target;
  readonly session: LiveSession;
  readonly findings: FindingsCollector;
  /**
   * What the run paces and waits out 429s on: the clock the target's rate-limit windows run on (a
   * manual afp serve's own, moved forward by each wait: remote-serve-clock.ts), else the wall's.
   */
  readonly clock: WaitClock;
  /** The time budget, on the wall clock given to startLiveRun whatever `clock` is. */
  readonly deadline: Deadline;
  /** That wall clock (`clock` is the target's where it has its own). */
  readonly wall: WaitClock;
  readonly progress: Progress;
  /** Ends the listening for Ctrl-C (finishLiveRun calls it). */
  readonly stopListening: () => void;
}

export interface LiveRunOptions {
  /** No progress line. */
  readonly quiet?: boolean;
  /** The command funds no account from the target file's keys (it was given its one account's key, --key): keys funding is not needed. */
  readonly fundsNothing?: boolean;
}

/** The notes the target's resolution made: printed, and each an info finding of the run. */
function addTargetNotes(
  findings: FindingsCollector,
  notes: readonly string[],
  target: { readonly spec: string; readonly source: string },
  io: AuditIo,
): void {
  for (const [index, note] of notes.entries()) {
    io.err(`note: ${note}\n`);
    findings.add({
      id: `target:note:${index + 1}`,
      severity: 'info',
      kind: 'shape',
      title: note,
      expected: target.source,
      seen: note,
      evidence: `resolving --target ${target.spec}`,
    });
  }
}

/**
 * The run, or the exit code when the target could not be resolved (the reason is printed). `clock`
 * is the wall: the budget and the progress line run on it. Paces and 429 waits run on the target's
 * window clock (waitClockOf, as afp check does): a manual afp serve's windows close only when its
 * clock moves, and waiting on the wall for them waited out the whole budget (a deployed serve's
 * 30-a-minute swap window took 615 s).
 */
export async function startLiveRun(
  command: string,
  spec: string,
  maxSeconds: number,
  clock: WaitClock,
  io: AuditIo,
  options: LiveRunOptions = {},
): Promise<LiveRun | CommandFailure> {
  const { quiet = false, fundsNothing = false } = options;
  // The hard stop: the budget ends the betting, the grace the wind-up; a target that stalls past both ends the run.
  const graceSeconds = windUpGraceSeconds(maxSeconds);
  io.err(`${budgetLine(maxSeconds, graceSeconds)}\n`);
  const disarm = armTargetBudget({
    command: command.replace(/^afp /, ''),
    target: spec,
    seconds: maxSeconds + graceSeconds,
    write: io.err,
  });
  const resolved = await resolveTarget(spec, { fundsNothing });
  if (!resolved.ok) {
    disarm();
    return unresolvedTarget(resolved.kind, `${command}: ${resolved.message}`);
  }
  const target = resolved.value;
  const findings = new FindingsCollector();
  const deadline = new Deadline(clock, maxSeconds);
  const waitClock = await waitClockOf(target, clock);
  if (waitClock instanceof RemoteServeClock)
    io.err(
      `note: ${target.adminUrl ?? ''} is an afp serve on a manual clock: paces and 429 waits move its clock forward (POST /_afp/clock), the time budget runs on the wall\n`,
    );
  const stopInterrupts = onFirstInterrupt(io, (signal) => {
    deadline.interrupt();
    io.err(`\n${command}: interrupted: stopping and writing the reports so far (${againTo(signal, 'quit at once')})\n`);
  });
  const progress = new Progress({
    label: command,
    unit: 'calls',
    total: null,
    budgetMs: maxSeconds * 1_000,
    write: (text) => io.err(text),
    isTty: io.errIsTty ?? false,
    quiet,
    clock,
  });
  const session = new LiveSession({
    target,
    clock: waitClock,
    deadline,
    onDeviation: (deviation) => findings.add(deviationFinding(deviation, curlOf)),
    onGateway: (meeting) => findings.add(gatewayFinding(meeting, curlOf)),
    onCall: () => progress.step(),
  });
  addTargetNotes(findings, resolved.notes ?? [], { spec, source: target.source }, io);
  // The run's end (finishLiveRun) stops the Ctrl-C listening and disarms the hard stop.
  const stopListening = (): void => {
    stopInterrupts();
    disarm();
  };
  return { command, target, session, findings, clock: waitClock, wall: clock, deadline, progress, stopListening };
}

/**
 * Opens the run's account (live-account.ts: `key`, else the target's funding way, funded with
 * `fundMicro`) and says its note; the failure, with its reason, when it cannot be opened.
 */
export async function openRunAccount(
  run: LiveRun,
  options: { readonly key: string | null; readonly fundMicro: Micro; readonly say: (text: string) => void },
): Promise<LiveAccount | CommandFailure> {
  const { session, clock, deadline } = run;
  const account = await openLiveAccount({ session, key: options.key, fundMicro: options.fundMicro, clock, deadline });
  if (!account.ok) {
    run.stopListening();
    return accountRefused(
      account.kind,
      account.kind === 'deadline' && deadline.interrupted
        ? `${run.command}: interrupted before the account was ready: nothing was run, so no report was written`
        : `${run.command}: ${account.message}`,
    );
  }
  options.say(`account: ${account.value.note}\n`);
  return account.value;
}

export interface LiveEnding {
  readonly out: string;
  readonly failOn: FailOn;
  readonly seed?: string;
  readonly checks: readonly ReportCheck[];
  /** How the run failed beside its findings (it stopped answering, the time budget ran out): the verdict says it first. */
  readonly failure?: ReportFailure;
  /** The command's own tables for findings.html (house-edge's per-variant edges). */
  readonly tables?: readonly ReportTable[];
}

export interface LiveRunEnding {
  /** The verdict the findings give: passed, or a failed check (exit 3). */
  readonly ending: Ending;
  /** The verdict a terminal opens with (findings-verdict.ts): print it before the tables. */
  readonly verdict: string[];
  /** Whether Ctrl-C cut the run short, the counts, the info findings folded out of the verdict, and the files written: print them last. */
  readonly lines: string[];
}

/** "60/min for bucket games", "5/min", "no limit": what the target file claims for a rate-limited operation. */
function claimedText(claimed: Target['limits'][string] | undefined): string {
  if (claimed === undefined) return 'no limit';
  return `${claimed.perMinute}/min${claimed.bucket === undefined ? '' : ` for bucket ${claimed.bucket}`}`;
}

/** Writes the findings reports and says what they hold: the verdict, the counts, the files. */
export async function finishLiveRun(run: LiveRun, ending: LiveEnding): Promise<LiveRunEnding> {
  run.stopListening();
  run.progress.finish();
  // The limits the target kept, as measured: a 429 waited out is a finding, and the summary says so.
  const limited = [...run.session.rateLimits.meetings.values()];
  for (const meeting of limited)
    run.findings.add(rateLimitFinding(meeting, run.target.limits[meeting.op], curlOf), meeting.count);
  const findings = run.findings.list();
  const files = await writeFindingsReports(ending.out, {
    // The report names the command as typed after `afp` (its title adds "afp ").
    command: run.command.replace(/^afp /, ''),
    target: { name: run.target.name, source: run.target.source },
    ...(ending.seed === undefined ? {} : { seed: ending.seed }),
    failOn: ending.failOn,
    findings,
    dropped: run.findings.dropped,
    checks: ending.checks,
    ...(ending.failure === undefined ? {} : { failure: ending.failure }),
    ...(ending.tables === undefined ? {} : { tables: ending.tables }),
  });
  const counts = [...SEVERITIES]
    .reverse()
    .map((severity) => `${findings.filter((finding) => finding.severity === severity).length} ${severity}`);
  const lines = [
    ...(run.deadline.interrupted ? [INTERRUPTED_LINE] : []),
    `findings: ${findings.length} (${counts.join(', ')})${run.findings.dropped > 0 ? `, ${run.findings.dropped} more dropped` : ''}`,
    ...infoLines(findings),
    ...limited.map(
      (meeting) =>
        `rate limited: ${meeting.op}: ${summaryOf(meeting)}; the target file claims ${claimedText(run.target.limits[meeting.op])}${meeting.announced === null ? '' : `, the target announces ${announcedText(meeting.announced)}`} (limit:${meeting.op}:rate-limited)`,
    ),
    `files: ${files.join(', ')}`,
  ];
  return {
    ending: findingsEnding(findings, ending.failOn),
    verdict: verdictLines(findings, ending.failOn, ending.failure),
    lines,
  };
}
