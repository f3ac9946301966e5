/**
 * `afp audit house-edge --target URL|FILE [--key KEY]`: the live house-edge audit
 * (src/audit/live/edge-audit.ts) as a command.
 *
 * Flow: resolve the target (live-command.ts); print the plan (bets per variant, the limits it
 * paces under, the ETA: edge-eta.ts); open the audit account the target's way (its funding, or
 * --key); play every variant of the target's fairness scheme for the games asked, within the
 * budgets --bets, --usdc and --max-minutes (or --max-seconds), paced by the target's limits;
 * verify every bet under the target's own scheme; print the verdict (findings-verdict.ts), then
 * the edge table (each variant's edge source and the bets its edge rests on); write edges.csv,
 * edges.json and the findings reports (findings.json, findings.csv, findings.junit.xml,
 * findings.html) to --out.
 * Exit codes, first that applies: 2 invalid flags or target file; 4 the target does not answer; 1
 * the account could not be opened otherwise; 3 a finding reaches --fail-on (default major); 4 the time budget
 * ended the betting early; 0 otherwise.
 */
import { curlOf } from '../live.ts';
import type { FindingsCollector } from '../report/findings/finding.ts';
import type { ReportCheck, ReportFailure } from '../report/findings/findings-report.ts';
import type { WaitClock } from '../core/clock.ts';
import { formatDecimal, type Micro } from '../core/money.ts';
import {
  auditEdgeLive,
  singleBetShare,
  type EdgeAuditResult,
  recordEdgeFindings,
  readListedWords,
  type ListedWords,
  recordListedFindings,
  recordRestatedRules,
  planVariants,
  type PlannedVariant,
  auditEta,
  edgeReportTable,
  renderEdgeAuditCsv,
  renderEdgeAuditJson,
  renderEdgeAuditTable,
  statedText,
  liveVerdictText,
  writeEdgeAuditFiles,
} from '../audit.ts';
import type { FairnessScheme } from '../audit/options.ts';
import { schemeByName } from '../audit/maths.ts';
import { SYSTEM_LIVE_CLOCK, type AuditIo } from './audit-io.ts';
import { houseEdgeReproduce, type HouseEdgeFlags } from './audit-house-edge.ts';
import type { RecordFields } from './json-output.ts';
import { finishLiveRun, openRunAccount, startLiveRun, type LiveRun } from './live-command.ts';
import { CommandFailure, type Ending, passed, unlessUnfinished } from '../core/command-failure.ts';

const COMMAND = 'afp audit house-edge';
/**
 * Funding beyond the stakes, for accounts afp funds itself: a run of bad luck, and a bankroll whose
 * Kelly limit allows the minimum bet of the riskiest variant (mines 10 of 10 needs about 45 USDC).
 */
const FUND_MARGIN_MICRO = 100_000_000n;

/** The stakes of `bets` bets over the plan, round-robin: the default USDC budget. */
export function planStakesMicro(plan: readonly PlannedVariant[], bets: number): Micro {
  let total = 0n;
  for (let index = 0; index < Math.min(bets, plan.length); index += 1) {
    const rounds = BigInt(Math.floor((bets - 1 - index) / plan.length) + 1);
    total += (plan[index] as PlannedVariant).amountMicro * rounds;
  }
  return total;
}

/** The plan with each game's bets at the minimum the target stated, where that is above the planned amount. */
function raisedPlan(plan: readonly PlannedVariant[], minimums: ReadonlyMap<string, Micro>): PlannedVariant[] {
  return plan.map((variant) => {
    const minimum = minimums.get(variant.game);
    return minimum !== undefined && minimum > variant.amountMicro ? { ...variant, amountMicro: minimum } : variant;
  });
}

/** One JUnit test case per variant: passed, failed (a finding at or above --fail-on is among its ids), or skipped (nothing verified). */
function checksOf(result: EdgeAuditResult, findings: FindingsCollector): ReportCheck[] {
  const findingIds = findings.list().map((finding) => finding.id);
  const names = result.variants.map((outcome) => outcome.variant.variant);
  const namesVariant = (id: string, name: string): boolean => id.includes(`:${name}:`) || id.endsWith(`:${name}`);
  return result.variants.map((outcome) => {
    const name = outcome.variant.variant;
    // A variant's own findings, and its game's (`rule:keno:scheme`), not a sibling variant's (`edge:dice:over:90`).
    const ids = findingIds.filter(
      (id) =>
        namesVariant(id, name) ||
        (id.split(':')[1] === outcome.variant.game && !names.some((other) => namesVariant(id, other))),
    );
    const status = outcome.verified === 0 ? 'skipped' : ids.length > 0 ? 'finding' : 'pass';
    return {
      name,
      group: outcome.variant.game,
      status,
      findingIds: ids,
      detail: `edge_source ${outcome.verdict.edgeSource}: edge ${statedText(outcome)}; ${liveVerdictText(outcome)}; ${outcome.verified} verified of ${outcome.placed} placed; rests on ${outcome.verdict.restsOnBets} bets`,
    };
  });
}

/**
 * Why the audit exits 4 whatever its findings (the target stopped answering, the time budget ran
 * out, nothing could be placed), for the reports' verdict; nothing when the findings decide.
 */
function houseEdgeFailure(result: EdgeAuditResult, flags: HouseEdgeFlags): { failure?: ReportFailure } {
  const why =
    result.stoppedBy === 'unreachable'
      ? 'the target stopped answering'
      : result.stoppedBy === 'deadline'
        ? 'the time budget ran out (or the audit was interrupted) before the bets were done'
        : result.placed === 0 && result.refused > 0
          ? 'no bet was placed: nothing is verified, so the audit is not a pass'
          : null;
  return why === null ? {} : { failure: { summary: why, reproduce: houseEdgeReproduce(flags) } };
}

/** The audit's findings: each variant's edge and rule, the target's words against each other, the rules its answers state. */
function recordAuditFindings(
  findings: FindingsCollector,
  result: EdgeAuditResult,
  scheme: FairnessScheme,
  listed: ListedWords | null,
): void {
  recordEdgeFindings(findings, result, scheme);
  recordListedFindings(findings, result.variants, listed, scheme);
  recordRestatedRules(findings, result.variants, scheme);
}

/** Why the betting ended before its plan, where it did (`raisedStakes`: the stakes of the plan at the target's minimums). */
function stoppedLines(
  result: EdgeAuditResult,
  nonePlaced: boolean,
  interrupted: boolean,
  raisedStakes: Micro,
): string[] {
  const lines: string[] = [];
  if (nonePlaced) lines.push('no bet was placed: nothing is verified, so the audit is not a pass (exit 4)');
  // Cut short by Ctrl-C, the ending says so.
  if (result.stoppedBy === 'deadline' && !interrupted)
    lines.push('stopped: the time budget ended the betting early (what was placed is verified)');
  if (result.stoppedBy === 'usdc')
    lines.push(
      result.minimums.size === 0
        ? 'stopped: the USDC budget was spent'
        : `stopped: the USDC budget was spent: the target's minimum bet is above the documents' (${[...result.minimums].map(([game, micro]) => `${game} ${formatDecimal(micro)}`).join(', ')}); --usdc ${formatDecimal(raisedStakes)} stakes every bet at it`,
    );
  if (result.stoppedBy === 'unreachable') lines.push('stopped: the target stopped answering');
  return lines;
}

export async function runHouseEdgeLive(
  flags: HouseEdgeFlags,
  io: AuditIo,
  clock: WaitClock = SYSTEM_LIVE_CLOCK,
  record: RecordFields = () => undefined,
): Promise<Ending> {
  const options = { quiet: flags.quiet, fundsNothing: flags.key !== null };
  const run = await startLiveRun(COMMAND, flags.target as string, flags.maxSeconds, clock, io, options);
  if (run instanceof CommandFailure) return run;
  const say = flags.format === 'table' ? io.out : io.err;
  const scheme = schemeByName(run.target.fairness);
  const plan = planVariants(scheme, flags.gameIds);
  const stakes = planStakesMicro(plan, flags.bets);
  const usdcMicro = flags.usdcMicro ?? stakes;
  say(
    `target: ${run.target.name} (${run.target.source}) · fairness scheme ${scheme.name} · ${plan.length} variants of ${new Set(plan.map((variant) => variant.game)).size} games\n`,
  );
  const eta = auditEta({
    plan,
    bets: flags.bets,
    batched: run.session.offers('casino.batch') === null,
    limits: run.target.limits,
    maxSeconds: flags.maxSeconds,
  });
  say(`${eta.lines.join('\n')}\n`);
  const account = await openRunAccount(run, {
    key: flags.key,
    fundMicro: (usdcMicro < stakes ? usdcMicro : stakes) + FUND_MARGIN_MICRO,
    say,
  });
  if (account instanceof CommandFailure) return account;
  const listed = await readListedWords(run.session, curlOf);
  const result = await auditEdgeLive({
    listed,
    session: run.session,
    apiKey: account.apiKey,
    scheme,
    plan,
    bets: flags.bets,
    usdcMicro,
    seed: flags.seed,
    concurrency: flags.concurrency,
    clock: run.clock,
    deadline: run.deadline,
    findings: run.findings,
    singleShare: singleBetShare(run.target.limits),
    curlOf,
  });
  run.progress.finish();
  return concludeHouseEdge({ run, result, plan, scheme, listed, usdcMicro }, flags, io, record);
}

/** The findings recorded, the files written, the verdict and the edges printed, --json's fields recorded; returns the ending. */
async function concludeHouseEdge(
  audit: {
    run: LiveRun;
    result: EdgeAuditResult;
    plan: readonly PlannedVariant[];
    scheme: FairnessScheme;
    listed: ListedWords | null;
    usdcMicro: Micro;
  },
  flags: HouseEdgeFlags,
  io: AuditIo,
  record: RecordFields,
): Promise<Ending> {
  const { run, result, plan, scheme, usdcMicro } = audit;
  const say = flags.format === 'table' ? io.out : io.err;
  recordAuditFindings(run.findings, result, scheme, audit.listed);
  const header = { target: run.target.name, source: run.target.source, scheme: scheme.name, seed: flags.seed };
  const files = writeEdgeAuditFiles(flags.out, {
    'edges.csv': renderEdgeAuditCsv(result),
    'edges.json': renderEdgeAuditJson(result, header),
  });
  const ending = await finishLiveRun(run, {
    out: flags.out,
    failOn: flags.failOn,
    seed: flags.seed,
    checks: checksOf(result, run.findings),
    tables: [edgeReportTable(result)],
    ...houseEdgeFailure(result, flags),
  });
  say(`${ending.verdict.join('\n')}\n`);
  if (flags.format === 'json') record({ edges: JSON.parse(renderEdgeAuditJson(result, header)) as unknown });
  else io.out(flags.format === 'csv' ? renderEdgeAuditCsv(result) : renderEdgeAuditTable(result));
  const lines = [
    `bets: ${result.placed} placed, ${result.verified} verified, ${result.refused} refused; staked ${formatDecimal(result.placedStakeMicro)} USDC of a ${formatDecimal(usdcMicro)} budget`,
  ];
  // Nothing placed is nothing verified: not a pass, whatever the findings say.
  const nonePlaced = result.placed === 0 && result.refused > 0;
  lines.push(
    ...stoppedLines(
      result,
      nonePlaced,
      run.deadline.interrupted,
      planStakesMicro(raisedPlan(plan, result.minimums), flags.bets),
    ),
  );
  lines.push(...ending.lines, `files: ${files.join(', ')}`);
  const verdict = unlessUnfinished(
    ending.ending,
    result.stoppedBy === 'unreachable' || result.stoppedBy === 'deadline' || nonePlaced,
  );
  if (!passed(verdict)) lines.push(`seed: ${flags.seed}`, `reproduce: ${houseEdgeReproduce(flags)}`);
  const findings = run.findings.list();
  record({
    target: run.target.name,
    placed: result.placed,
    verified: result.verified,
    refused: result.refused,
    staked_usdc: formatDecimal(result.placedStakeMicro),
    stopped_by: result.stoppedBy === 'deadline' && run.deadline.interrupted ? 'interrupted' : result.stoppedBy,
    findings: findings.length,
    files,
    ...(passed(verdict) ? {} : { reproduce: houseEdgeReproduce(flags) }),
  });
  say(`${lines.join('\n')}\n`);
  return verdict;
}
