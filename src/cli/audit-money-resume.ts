/**
 * `afp audit money`'s slow probes across two runs (src/audit/probes/settlement-resume.ts):
 * `--include-slow` waits for them (or travels on an afp serve), `--include-slow --resume-file FILE`
 * opens their escrows and leaves them, and `--resume FILE` judges the escrows such a run left, once
 * due, with the two accounts that opened them (`--key`, `--second-key`), running no other probe.
 * Exit codes as the money audit's: 2 a resume file that cannot be read, is for another target or
 * another account, 3 a finding at --fail-on, 4 an escrow not yet due (run again then) or a target
 * that does not answer.
 */
import { curlOf, RemoteServeClock, type LiveSession, openLiveAccount } from '../live.ts';
import type { FindingsCollector } from '../report/findings/finding.ts';
import { shellWord } from '../core/shell-words.ts';
import {
  readResumeFile,
  leaveSettlementProbes,
  resumeSettlement,
  runSettlementProbes,
  type SettlementResult,
  timePassageOf,
  POT_PROBES,
  runPotProbes,
  type ProbeResult,
} from '../audit/probes.ts';
import type { WaitClock } from '../core/clock.ts';
import type { AuditIo } from './audit-io.ts';
import type { MoneyFlags } from './audit-money-flags.ts';
import type { RecordFields } from './json-output.ts';
import { finishLiveRun, openRunAccount, startLiveRun, type LiveRun } from './live-command.ts';
import { checksOfProbes } from './money-checks.ts';
import { CommandFailure, type Ending, invalidInput, unlessUnfinished } from '../core/command-failure.ts';

/** What the money probes share: the session, the two accounts, the findings, the clock. */
export interface Probed {
  readonly session: LiveSession;
  readonly apiKey: string;
  readonly agentId: string;
  readonly second: { readonly apiKey: string; readonly agentId: string } | null;
  readonly findings: FindingsCollector;
  readonly curlOf: typeof curlOf;
  readonly clock: WaitClock;
}

/** The casino's origin and dialect, which a resume file is bound to. */
const casinoOf = (run: LiveRun): { readonly origin: string; readonly dialect: string } => {
  const casino = run.target.services.casino;
  return casino === undefined
    ? { origin: run.target.source, dialect: 'none' }
    : { origin: new URL(casino.url).origin, dialect: casino.dialect };
};

/** The command line that judges `file` (the keys as placeholders: they are never written). */
export const resumeCommand = (target: string, file: string): string =>
  [
    'afp audit money --target',
    shellWord(target),
    '--key "$KEY" --second-key "$SECOND_KEY" --resume',
    shellWord(file),
  ].join(' ');

/**
 * The probes after the money probes, in order: the slow ones as the flags ask (waited for, or one
 * opened and left for --resume), then the pot probes, which leave a tournament whose pool returns
 * when it ends. With a resume file the pot probes are skipped: their money would move the left
 * escrow's accounts between the two runs, and its judgement rests on those balances.
 */
export async function laterProbes(
  run: LiveRun,
  probed: Probed,
  flags: MoneyFlags,
  io: AuditIo,
): Promise<Array<SettlementResult | ProbeResult>> {
  const slow = flags.includeSlow ? await slowProbes(run, probed, flags, io) : [];
  if (flags.resumeFile === null)
    return [...slow, ...(await runPotProbes({ ...probed, withdrawAddress: flags.withdrawAddress }))];
  const why = `not run with --resume-file: a tournament's pool returning between the runs would move the left escrow's accounts`;
  return [...slow, ...POT_PROBES.map((name) => ({ name, status: 'skipped' as const, note: why, findingIds: [] }))];
}

/** The slow probes as the flags ask: waited for, or opened and left for --resume. */
async function slowProbes(run: LiveRun, probed: Probed, flags: MoneyFlags, io: AuditIo): Promise<SettlementResult[]> {
  const context = {
    ...probed,
    maxMinutes: flags.maxMinutes,
    time: timePassageOf(run.session, run.clock, run.deadline),
    say: (line: string) => io.out(`${line}\n`),
  };
  if (flags.resumeFile === null) return runSettlementProbes(context);
  const casino = casinoOf(run);
  return leaveSettlementProbes({
    ...context,
    resumeFile: flags.resumeFile,
    target: casino.origin,
    dialect: casino.dialect,
    wall: run.wall,
    dueClock: run.clock instanceof RemoteServeClock ? 'serve' : 'wall',
    command: resumeCommand(flags.target, flags.resumeFile),
  });
}

/** `--resume FILE`: the escrows a --resume-file run left, judged once due; the ending. */
export async function runMoneyResume(
  flags: MoneyFlags,
  io: AuditIo,
  clock: WaitClock,
  record: RecordFields,
): Promise<Ending> {
  const run = await startLiveRun('afp audit money', flags.target, flags.maxSeconds, clock, io, { quiet: flags.quiet });
  if (run instanceof CommandFailure) return run;
  const read = readResumeFile(flags.resume as string, casinoOf(run));
  if (!read.ok) return refuse(run, read.message);
  const account = await openRunAccount(run, { key: flags.key, fundMicro: 0n, say: io.out });
  if (account instanceof CommandFailure) return account;
  const second = await openLiveAccount({
    session: run.session,
    key: flags.secondKey,
    fundMicro: 0n,
    clock: run.clock,
    deadline: run.deadline,
  });
  if (!second.ok) return refuse(run, `the second account: ${second.message}`);
  const document = read.value;
  if (account.agentId !== document.agentId || second.value.agentId !== document.secondAgentId)
    return refuse(
      run,
      `${flags.resume}: its escrows belong to ${document.agentId} and ${document.secondAgentId}; the keys given open ${account.agentId} and ${second.value.agentId}`,
    );
  const resumed = await resumeSettlement(
    {
      session: run.session,
      apiKey: account.apiKey,
      agentId: account.agentId,
      second: second.value,
      findings: run.findings,
      curlOf,
      clock: run.clock,
      maxMinutes: flags.maxMinutes,
      time: { mode: 'wait', how: `resumed from ${flags.resume} once due`, pass: async () => false },
      say: (line) => io.out(`${line}\n`),
    },
    document,
  );
  return finishResume(run, flags, io, record, resumed);
}

function refuse(run: LiveRun, message: string): Ending {
  run.stopListening();
  return invalidInput(`afp audit money: ${message}`);
}

async function finishResume(
  run: LiveRun,
  flags: MoneyFlags,
  io: AuditIo,
  record: RecordFields,
  resumed: { readonly results: readonly SettlementResult[]; readonly notDue: readonly string[] },
): Promise<Ending> {
  const { results, notDue } = resumed;
  const early = notDue.length === 0 ? null : `not due yet: ${notDue.join(', ')}; run --resume again once they are`;
  const ending = await finishLiveRun(run, {
    out: flags.out,
    failOn: flags.failOn,
    checks: checksOfProbes(results),
    ...(early === null ? {} : { failure: { summary: early } }),
  });
  io.out(`${ending.verdict.join('\n')}\n`);
  for (const result of results)
    io.out(
      `${result.status === 'ran' ? 'ran    ' : 'skipped'} ${result.name}: ${result.note}${result.findingIds.length > 0 ? ` — ${result.findingIds.length} findings` : ''}\n`,
    );
  if (early !== null) io.out(`stopped: ${early}\n`);
  io.out(`${ending.lines.join('\n')}\n`);
  const verdict = unlessUnfinished(ending.ending, early !== null);
  record({
    target: run.target.name,
    probes: results.map((result) => ({ name: result.name, status: result.status, findings: result.findingIds.length })),
    findings: run.findings.list().length,
    out: flags.out,
  });
  return verdict;
}
