/**
 * `afp audit fairness --target URL|FILE --key KEY [--max-bets N] [--max-seconds S] [--concurrency C]
 * [--out DIR] [--fail-on SEVERITY] [--json]`: the live fairness audit
 * (src/audit/live/fairness-audit.ts) of the account KEY opens, through the target's dialect and
 * under its own fairness scheme: rotate, read the whole history, check every bet's commitment,
 * result hash, outcome and payout. Then the replay probes (src/audit/probes/replay-probes.ts), which
 * place a few minimum bets on the same account: a video-poker draw sent twice and one never
 * dealt, the same batch twice, two bets on one client seed (and, where the dialect lets the client
 * pick the nonce, a draw at a spent one); a second settlement is a critical finding.
 *
 * Output: the target and scheme, the account, a line per game (audited, verified, rule ok, paid
 * ok, not checked, not revealed), the counts and the findings (or --json: fairness.json's text),
 * then a line per replay probe (ran or skipped, with its reason); fairness.json and the findings
 * reports (findings.json, .csv, .junit.xml, .html; one JUnit check per game seen, one for nonces,
 * one per replay probe) in --out (default reports/fairness-<time>/). No seed: the audit draws
 * nothing at random.
 * Exit codes, first that applies: 2 invalid flags or target file, or a key the target refuses (401,
 * 403); 4 the target does not answer, or the key's balance or the history could not be read; 3 a
 * finding reaches --fail-on (default major); 4 --max-seconds ended the audit before every bet was
 * verified; 0 otherwise (1 only for a bug in afp).
 */
import type { WaitClock } from '../core/clock.ts';
import type { FairnessFlags } from './audit-fairness-flags.ts';
import {
  auditFairnessLive,
  type FairnessAuditResult,
  renderFairnessJson,
  renderFairnessTable,
  writeEdgeAuditFiles,
} from '../audit.ts';
import { runReplayProbes, type ReplayProbeResult, unansweredLine } from '../audit/probes.ts';
import { schemeByName } from '../audit/maths.ts';
import { curlOf } from '../live.ts';
import type { ReportCheck, ReportFailure } from '../report/findings/findings-report.ts';
import { commandLine } from '../core/shell-words.ts';
import { SYSTEM_LIVE_CLOCK, type AuditIo } from './audit-io.ts';
import { finishLiveRun, openRunAccount, startLiveRun, type LiveRun } from './live-command.ts';
import type { RecordFields } from './json-output.ts';
import { CommandFailure, type Ending, passed, unlessUnfinished } from '../core/command-failure.ts';

export { FAIRNESS_USAGE, parseFairnessArgs, type FairnessFlags } from './audit-fairness-flags.ts';

const COMMAND = 'afp audit fairness';

/** One JUnit check per game seen (skipped when none of its bets could be verified), and one for nonces. */
function checksOf(
  result: FairnessAuditResult,
  findingIds: readonly string[],
  replay: readonly ReplayProbeResult[],
): ReportCheck[] {
  const games = result.games.map((tally): ReportCheck => {
    const ids = findingIds.filter((id) => id.split(':')[1] === tally.game);
    const status = tally.verified === 0 ? 'skipped' : ids.length > 0 ? 'finding' : 'pass';
    const detail = `${tally.audited} audited, ${tally.verified} verified, ${tally.followedRule} following the rule, ${tally.paidRight} paid right, ${tally.notChecked} not fully checked, ${tally.notRevealed} seeds not revealed`;
    return { name: tally.game, group: 'fairness', status, findingIds: ids, detail };
  });
  const nonceIds = findingIds.filter((id) => id === 'fairness:nonce-reused');
  const nonces: ReportCheck = {
    name: 'nonces',
    group: 'fairness',
    status: result.audited === 0 ? 'skipped' : nonceIds.length > 0 ? 'finding' : 'pass',
    findingIds: nonceIds,
    detail: `(server seed, nonce) pairs of ${result.audited} audited bets`,
  };
  const probes = replay.map((probe): ReportCheck => ({
    name: probe.name,
    group: 'replay',
    status: probe.status === 'skipped' ? 'skipped' : probe.findingIds.length > 0 ? 'finding' : 'pass',
    findingIds: probe.findingIds,
    detail: probe.note,
  }));
  return [...games, nonces, ...probes];
}

/** Why the audit exits 4 whatever its findings (the history could not be read, the time budget ran out), for the reports' verdict. */
function fairnessFailure(
  result: FairnessAuditResult,
  replay: readonly ReplayProbeResult[],
): { failure?: ReportFailure } {
  const history = result.troubles.find((trouble) => trouble.startsWith('casino.history'));
  if (history !== undefined) return { failure: { summary: `the bet history could not be read: ${history}` } };
  if (result.stoppedBy === 'deadline')
    return {
      failure: { summary: 'the time budget ran out (or the audit was interrupted) before every bet was read' },
    };
  const outOfTime = replay.filter((probe) => probe.outOfTime === true).map((probe) => probe.name);
  if (outOfTime.length > 0)
    return { failure: { summary: `the time budget ran out before these could run: ${outOfTime.join(', ')}` } };
  const unanswered = unansweredLine(replay);
  return unanswered === null ? {} : { failure: { summary: unanswered } };
}

/** The replay probes, unless the time budget already ended the audit (then each says so). */
async function replayProbes(
  run: LiveRun,
  apiKey: string,
  clock: WaitClock,
  stopped: boolean,
): Promise<ReplayProbeResult[]> {
  if (stopped)
    return ['draw-replay', 'batch-replay', 'seed-nonce-reuse'].map((name) => ({
      name,
      status: 'skipped',
      note: 'the time budget ended the audit first',
      findingIds: [],
    }));
  return runReplayProbes({
    session: run.session,
    apiKey,
    findings: run.findings,
    curlOf,
    runTag: clock.nowMs().toString(36),
  });
}

export async function runFairness(
  flags: FairnessFlags,
  io: AuditIo,
  clock: WaitClock = SYSTEM_LIVE_CLOCK,
  record: RecordFields = () => undefined,
): Promise<Ending> {
  // Its one account is --key's: the target file's keys funding is not needed.
  const run = await startLiveRun(COMMAND, flags.target, flags.maxSeconds, clock, io, {
    quiet: flags.quiet,
    fundsNothing: true,
  });
  if (run instanceof CommandFailure) return run;
  const say = flags.json ? io.err : io.out;
  const scheme = schemeByName(run.target.fairness);
  say(`target: ${run.target.name} (${run.target.source}) · fairness scheme ${scheme.name}\n`);
  const account = await openRunAccount(run, { key: flags.key, fundMicro: 0n, say });
  if (account instanceof CommandFailure) return account;
  const result = await auditFairnessLive({
    session: run.session,
    apiKey: account.apiKey,
    scheme,
    maxBets: flags.maxBets,
    concurrency: flags.concurrency,
    deadline: run.deadline,
    findings: run.findings,
    curlOf,
  });
  const replay = await replayProbes(run, account.apiKey, clock, result.stoppedBy === 'deadline');
  run.progress.finish();
  const json = renderFairnessJson(result, {
    target: run.target.name,
    source: run.target.source,
    scheme: scheme.name,
    agentId: account.agentId,
  });
  const files = writeEdgeAuditFiles(flags.out, { 'fairness.json': json });
  return concludeFairness({ run, result, replay, scheme: scheme.name, json, files }, flags, io, record);
}

/** The verdict, the bets table (or --json's fields), one line per replay probe and what stopped the audit; returns the ending. */
async function concludeFairness(
  audit: {
    run: LiveRun;
    result: FairnessAuditResult;
    replay: readonly ReplayProbeResult[];
    scheme: string;
    json: string;
    files: readonly string[];
  },
  flags: FairnessFlags,
  io: AuditIo,
  record: RecordFields,
): Promise<Ending> {
  const { run, result, replay, scheme, files } = audit;
  const say = flags.json ? io.err : io.out;
  const ids = run.findings.list().map((finding) => finding.id);
  const ending = await finishLiveRun(run, {
    out: flags.out,
    failOn: flags.failOn,
    checks: checksOf(result, ids, replay),
    ...fairnessFailure(result, replay),
  });
  say(`${ending.verdict.join('\n')}\n`);
  if (flags.json) record({ fairness: JSON.parse(audit.json) as unknown });
  else io.out(renderFairnessTable(result));
  for (const probe of replay)
    say(
      `replay ${probe.status === 'ran' ? 'ran    ' : 'skipped'} ${probe.name}: ${probe.note}${probe.findingIds.length > 0 ? ` — ${probe.findingIds.length} findings` : ''}\n`,
    );
  const { lines, unfinished } = auditLines(result, replay, { scheme, maxBets: flags.maxBets, run });
  lines.push(...ending.lines, `files: ${files.join(', ')}`);
  const verdict = unlessUnfinished(ending.ending, unfinished);
  if (!passed(verdict))
    lines.push(
      `reproduce: ${commandLine(['npx', 'afp', 'audit', 'fairness', '--target', flags.target, '--key', '<KEY>'])}`,
    );
  say(`${lines.join('\n')}\n`);
  record({
    target: run.target.name,
    scheme,
    listed: result.listed,
    audited: result.audited,
    verified: result.verified,
    stopped_by: result.stoppedBy === 'deadline' && run.deadline.interrupted ? 'interrupted' : result.stoppedBy,
    replay: replay.map((probe) => ({
      name: probe.name,
      status: probe.status,
      note: probe.note,
      findings: probe.findingIds.length,
    })),
    findings: run.findings.list().length,
    files,
  });
  return verdict;
}

/**
 * The audit's closing lines (bets counted, troubles, what stopped it) and whether it is unfinished:
 * the history unread, the budget spent, a replay probe skipped for time or unanswered (exit 4).
 */
function auditLines(
  result: FairnessAuditResult,
  replay: readonly ReplayProbeResult[],
  context: { scheme: string; maxBets: number; run: LiveRun },
): { lines: string[]; unfinished: boolean } {
  const total = result.historyTotal === null ? '' : ` of ${result.historyTotal} in the history`;
  const lines = [
    `bets: ${result.listed} listed${total}, ${result.audited} audited, ${result.verified} verified under the ${context.scheme} scheme`,
  ];
  if (result.audited === 0 && result.stoppedBy === null && result.troubles.length === 0)
    lines.push(
      'nothing audited: the account has no bets in its history (bet with this key first, or pass the key of an account that has)',
    );
  if (result.rotation === 'none-active') lines.push('rotation: no active seed to reveal');
  for (const trouble of result.troubles) lines.push(`trouble: ${trouble}`);
  if (result.stoppedBy === 'max-bets')
    lines.push(`stopped: --max-bets ${context.maxBets} reached; older bets were not audited`);
  // Cut short by Ctrl-C, the ending says so.
  if (result.stoppedBy === 'deadline' && !context.run.deadline.interrupted)
    lines.push('stopped: the time budget ended the audit before every bet was read (what was read is verified)');
  // A replay probe the budget skipped is no pass: exit 4, as for a bet left unread.
  const outOfTime = replay.filter((probe) => probe.outOfTime === true).map((probe) => probe.name);
  if (outOfTime.length > 0)
    lines.push(
      `stopped: the time budget ran out before these could run: ${outOfTime.join(', ')} (raise --max-seconds)`,
    );
  // Nor is one the target's silence skipped (probe-context.ts skipCauseOf): exit 4, target unreachable.
  const unanswered = unansweredLine(replay);
  if (unanswered !== null) lines.push(`stopped: ${unanswered}`);
  const historyFailed = result.troubles.some((trouble) => trouble.startsWith('casino.history'));
  const unfinished = historyFailed || result.stoppedBy === 'deadline' || outOfTime.length > 0 || unanswered !== null;
  return { lines, unfinished };
}
