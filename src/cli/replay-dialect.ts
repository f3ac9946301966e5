/**
 * The I/O half of `afp replay FILE --target TARGET_FILE` (and of an afp serve URL that announces a
 * dialect other than the documents'): a LiveSession over the target, the recorded exchanges replayed
 * as operations (src/replay/operation-replay.ts, pure but for the session), the findings report
 * written with the findings-report module (findings.json, .csv, .junit.xml, .html under --out), and
 * the summary printed. Real time enters here (src/cli is a door for it): the run's time budget is
 * on SYSTEM_LIVE_CLOCK; 429s are waited out and operations paced under the target file's limits on
 * the wait clock the caller gives (a manual afp serve's own, else the wall's).
 * Exit: 4 when the target stopped answering (or its 429s outlasted the day's budget), else 3 when a
 * finding reaches --fail-on, else 0.
 */
import type { RecordFields } from './json-output.ts';
import { Deadline, MAX_SECONDS_LIMIT } from '../core/deadline.ts';
import { deviationFinding, gatewayFinding, LiveSession, curlOf, type Target } from '../live.ts';
import { FindingsCollector, type Finding } from '../report/findings/finding.ts';
import { writeFindingsReports } from '../report/findings/write-findings.ts';
import type { ReportCheck } from '../report/findings/findings-report.ts';
import { findingsEnding, type FailOn } from '../report/findings/fail-on.ts';
import { OperationReplay, type OperationReplayTotals } from '../replay/operation-replay.ts';
import { secretFreeCurl } from '../replay/replay-exchange-parts.ts';
import { recordedDepositsOf, type RecordHeader, type RecordedExchange } from '../replay/record-format.ts';
import { SYSTEM_LIVE_CLOCK } from './audit-io.ts';
import type { WaitClock } from '../core/clock.ts';
import { adminDoorLines, skippedDoorFindings, type AdminDoorFilter } from '../replay/admin-doors.ts';
import { type Ending, passed, unsettled } from '../core/command-failure.ts';

const SHOWN_FINDINGS = 5;

export interface DialectReplayOptions {
  readonly target: Target;
  readonly header: RecordHeader;
  readonly exchanges: AsyncIterable<RecordedExchange>;
  readonly beforeSend: (exchange: RecordedExchange) => Promise<void>;
  /** What the session paces and waits out 429s on: a manual afp serve's own clock, else the wall's. */
  readonly waitClock: WaitClock;
  /** The target's clock follows each exchange's recorded instant (a synced manual afp serve): calls keep the record's own pace, unspaced. */
  readonly recordedTime: boolean;
  readonly out: string;
  readonly failOn: FailOn;
  readonly timeoutMs: number;
  readonly reproduce: string;
  /** The record's admin-door exchanges held back (admin-doors.ts): an info finding each, and lines. */
  readonly adminDoors: { readonly filter: AdminDoorFilter; readonly withAdmin: boolean };
  readonly io: { out(text: string): void; err(text: string): void };
  /** The --json envelope's fields, as the documents-dialect replay gives them (differences: the findings). */
  readonly record?: RecordFields;
}

export async function runDialectReplay(options: DialectReplayOptions): Promise<Ending> {
  const { target, io } = options;
  const dialects = Object.entries(target.services)
    .map(([service, entry]) => `${service} ${entry.dialect}`)
    .join(', ');
  io.out(
    `target ${target.name} (${target.source}): ${dialects}; each recorded exchange is sent as its afp operation through the target's dialect\n`,
  );
  const findings = new FindingsCollector();
  const deadline = new Deadline(SYSTEM_LIVE_CLOCK, MAX_SECONDS_LIMIT);
  const reproduce = secretFreeCurl(curlOf);
  const session = new LiveSession({
    target,
    clock: options.waitClock,
    deadline,
    paced: !options.recordedTime,
    timeoutMs: options.timeoutMs,
    onDeviation: (deviation) => findings.add(deviationFinding(deviation, reproduce)),
    onGateway: (meeting) => findings.add(gatewayFinding(meeting, reproduce)),
  });
  const replay = new OperationReplay({
    session,
    findings,
    curlOf,
    clock: options.waitClock,
    deadline,
    beforeSend: options.beforeSend,
    deposits: recordedDepositsOf(options.header),
  });
  const stop = await replay.run(options.exchanges);
  for (const { finding, count } of skippedDoorFindings(options.adminDoors.filter)) findings.add(finding, count);
  const totals = replay.totals();
  const list = findings.list();
  const paths = await writeFindingsReports(options.out, {
    command: 'replay',
    target: { name: target.name, source: target.source },
    seed: options.header.seed,
    failOn: options.failOn,
    findings: list,
    dropped: findings.dropped,
    checks: replayChecks(totals, list, stop),
    // Stopped (exit 4), the replay fails whatever its findings: the reports' verdict says so.
    ...(stop === null
      ? {}
      : { failure: { summary: `stopped at seq ${stop.seq}: ${stop.reason}`, reproduce: options.reproduce } }),
  });
  options.record?.({
    sent: totals.sent,
    differences: list.length,
    stopped: stop === null ? null : stop.reason,
    admin_skipped: options.adminDoors.filter.skippedDoors(),
    files: paths,
  });
  const doorLines = adminDoorLines(options.adminDoors.filter, options.adminDoors.withAdmin);
  io.out(`${[...summaryLines(options.header, totals, list), ...doorLines].join('\n')}\nreports: ${paths.join(', ')}\n`);
  if (stop !== null) {
    io.out(`STOPPED at seq ${stop.seq}: ${stop.reason}\nreproduce: ${options.reproduce}\n`);
    return unsettled();
  }
  const verdict = findingsEnding(list, options.failOn);
  if (!passed(verdict)) io.out(`reproduce: ${options.reproduce}\n`);
  return verdict;
}

function summaryLines(header: RecordHeader, totals: OperationReplayTotals, list: readonly Finding[]): string[] {
  const counts = (['critical', 'major', 'minor', 'info'] as const)
    .map((severity) => `${severity} ${list.filter((finding) => finding.severity === severity).length}`)
    .join(', ');
  const operations = totals.byOperation.map((row) => `${row.op} ${row.count}`).join(', ');
  const lines = [
    `exchanges: ${totals.exchanges} of ${header.exchanges} · sent as operations: ${totals.sent} · skipped: ${totals.skipped} · ids bound: ${totals.bindings}`,
    `operations: ${operations === '' ? 'none' : operations}`,
    `findings: ${list.length} (${counts})`,
  ];
  for (const finding of list.filter((item) => item.severity !== 'info').slice(0, SHOWN_FINDINGS))
    lines.push(`  ${finding.severity} ${finding.id}: ${finding.title}`);
  return lines;
}

/** One check per operation sent (a finding check when a semantic finding names it), and the skips. */
function replayChecks(
  totals: OperationReplayTotals,
  list: readonly Finding[],
  stop: { seq: number; reason: string } | null,
): ReportCheck[] {
  const checks: ReportCheck[] = totals.byOperation.map((row) => {
    const ids = list.filter((finding) => finding.id.startsWith(`replay:${row.op}:`)).map((finding) => finding.id);
    return {
      name: `replay ${row.op}`,
      group: 'replay',
      status: ids.length === 0 ? 'pass' : 'finding',
      findingIds: ids,
      detail: `${row.count} exchange(s)`,
    };
  });
  if (totals.skipped > 0)
    checks.push({
      name: 'replay skipped exchanges',
      group: 'replay',
      status: 'skipped',
      findingIds: [],
      detail: `${totals.skipped} exchange(s) not replayed; the info findings say why`,
    });
  if (stop !== null)
    checks.push({
      name: 'replay completed',
      group: 'replay',
      status: 'fail',
      findingIds: [],
      detail: `stopped at seq ${stop.seq}: ${stop.reason}`,
    });
  return checks;
}
