/**
 * What every afp-engine load run shares at the terminal, whether its iterations are a scenario's
 * agents (load.ts) or requests to one URL (load-url.ts): the live view on stderr while it goes,
 * Ctrl-C (a graceful stop, then a cut), abortOnFail thresholds watched every ABORT_CHECK_MS, the
 * metrics outputs fed (src/load/metrics/), and at the end the reports, the summary lines, the
 * Little's-law line, the thresholds and the exit code. One mechanism for both sources: the run
 * itself is handed in as a function of the hooks.
 *
 * Live view: on a terminal one status line rewritten in place (elapsed, ETA, current rate, p99,
 * error rate), else a plain line every LOAD_PLAIN_EVERY_MS; none with --quiet.
 * Exit codes of a finished run, first that applies: 4 no request got an answer · 5 a threshold
 * failed, or a run without thresholds whose answers were mostly 429 or 5xx (refused-answers.ts,
 * which also puts its line first in the summary) · 0.
 */
import { againTo } from './process-interrupt.ts';
import { ABORT_CHECK_MS, LOAD_PLAIN_EVERY_MS, type LoadIo } from './load-io.ts';
import {
  overallHistogram,
  percentilesOf,
  decodeHistogram,
  type LoadRecorder,
  type LoadSample,
  type LoadSnapshot,
  LoadStop,
  type LoadPlan,
  LiveWindow,
  type LiveView,
  littleCheck,
  littleLine,
  type Concurrency,
  type MetricsOutputs,
  writeLoadReports,
  type LoadReport,
  abortNow,
  evaluateThresholds,
  failedThresholds,
  type Threshold,
  type ThresholdResult,
  mostlyRefused,
  refusedAnswers,
  refusedFailure,
  refusedLine,
} from '../load.ts';
import type { LoadRunResult } from '../load/load-run.ts';
import { formatDuration } from '../scenario/duration-text.ts';
import type { RecordFields } from './json-output.ts';
import { type Ending, PASSED, thresholdFailed, unsettled } from '../core/command-failure.ts';

const TTY_EVERY_MS = 250;
const ENDPOINTS_SHOWN = 30;

export { ABORT_CHECK_MS, LOAD_PLAIN_EVERY_MS, LOAD_PROCESS_IO, type LoadIo } from './load-io.ts';

/** What a run gets from the view: the stop (Ctrl-C, abortOnFail) and the hooks that feed the view and the outputs. */
export interface RunHooks {
  readonly stop: LoadStop;
  readonly onStart: (recorder: LoadRecorder) => void;
  readonly onSample: (sample: LoadSample) => void;
  /** A check judged (a URL test's: its recorder counted it), for the k6 JSON output's points. */
  readonly onCheck: (name: string, ok: boolean, atMs: number) => void;
}

export interface ViewedRun {
  readonly plan: LoadPlan;
  readonly io: LoadIo;
  readonly quiet: boolean;
  readonly thresholds: readonly Threshold[];
  readonly outputs: MetricsOutputs | null;
  readonly run: (hooks: RunHooks) => Promise<LoadRunResult>;
}

/** Runs `options.run` under the live view, Ctrl-C, the abortOnFail watch and the metrics outputs' live pushes. */
export async function runWithView(options: ViewedRun): Promise<LoadRunResult> {
  const { io, plan, outputs } = options;
  const stop = new LoadStop();
  let interrupts = 0;
  const stopListening = io.onInterrupt((signal) => {
    interrupts += 1;
    if (interrupts === 1) {
      stop.stop('interrupted');
      io.err(
        `\nafp load: stopping: iterations in flight get up to ${formatDuration(plan.gracefulStopMs)} (${againTo(signal, 'cut them now')})\n`,
      );
    } else {
      stop.hurry();
    }
  });
  let window: LiveWindow | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let abortWatch: ReturnType<typeof setInterval> | null = null;
  const aborting = options.thresholds.filter((threshold) => threshold.abortOnFail);
  const show = (final: boolean): void => {
    if (window === null) return;
    const line = viewLine(window.view(io.clock.nowMs()), plan.durationMs);
    if (io.errIsTty) io.err(`\r${line.padEnd(100)}${final ? '\n' : ''}`);
    else io.err(`${line}\n`);
  };
  try {
    return await options.run({
      stop,
      onStart: (recorder: LoadRecorder) => {
        outputs?.start(recorder);
        if (aborting.length > 0)
          abortWatch = setInterval(() => watchAborts(recorder, aborting, stop, io), ABORT_CHECK_MS);
        if (options.quiet) return;
        window = new LiveWindow(recorder.startMs);
        timer = setInterval(() => show(false), io.errIsTty ? TTY_EVERY_MS : LOAD_PLAIN_EVERY_MS);
      },
      onSample: (sample) => {
        window?.add(sample);
        outputs?.add(sample);
      },
      onCheck: (name, ok, atMs) => outputs?.check(name, ok, atMs),
    });
  } finally {
    if (timer !== null) clearInterval(timer);
    if (abortWatch !== null) clearInterval(abortWatch);
    outputs?.stopLive();
    if (io.errIsTty) show(true);
    stopListening();
  }
}

/** Stops the run when an abortOnFail threshold fails past its delayAbortEval (k6's abort). */
function watchAborts(recorder: LoadRecorder, thresholds: readonly Threshold[], stop: LoadStop, io: LoadIo): void {
  if (stop.reason !== null) return;
  const nowMs = io.clock.nowMs();
  const failing = abortNow(
    evaluateThresholds(thresholds, recorder.snapshot(), { atMs: nowMs }),
    nowMs - recorder.startMs,
  );
  const first = failing[0];
  if (first === undefined) return;
  stop.stop(`threshold ${first.metric}: ${first.expression} failed (abortOnFail)`);
  io.err(`\nafp load: stopping: threshold ${first.metric}: ${first.expression} failed with abortOnFail\n`);
}

const fixed = (value: number, digits: number): string => value.toFixed(digits);

function viewLine(view: LiveView, durationMs: number): string {
  const remainingMs = Math.max(0, durationMs - view.elapsedMs);
  return [
    `elapsed ${formatSeconds(view.elapsedMs)}`,
    `ETA ${formatSeconds(remainingMs)}`,
    `${view.requestsPerSecond} req/s`,
    `p99 ${fixed(view.p99Ms, 1)} ms`,
    `errors ${fixed(view.errorRate * 100, 2)}%`,
    `${view.requests} requests`,
  ].join(' · ');
}

function formatSeconds(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}

export const totalRequests = (snapshot: LoadSnapshot): number =>
  snapshot.endpoints.reduce((total, endpoint) => total + endpoint.requests, 0);

/**
 * Requests went out and not one got an answer: the target is unreachable, or takes connections and
 * never answers. Either every recorded request had no answer, or none was recorded while requests
 * were still waiting when the run ended (autocannon's closed loop stops its waiting requests
 * unrecorded: started iterations, none completed).
 */
export function unanswered(snapshot: LoadSnapshot): boolean {
  const total = totalRequests(snapshot);
  const noAnswer = snapshot.endpoints.reduce((sum, endpoint) => sum + (endpoint.statuses['0'] ?? 0), 0);
  if (total > 0) return noAnswer === total;
  return snapshot.iterations.started > 0 && snapshot.iterations.completed === 0;
}

/** What `unanswered` saw, in words: how many requests went without an answer. */
function unansweredWords(snapshot: LoadSnapshot): string {
  const total = totalRequests(snapshot);
  return total > 0
    ? `none of the run's ${total} requests`
    : `none of the run's requests (${snapshot.iterations.started} still waited for an answer when the run ended)`;
}

/** The --json figures of a run: what the summary prints, as numbers. */
export function loadFigures(
  result: LoadRunResult,
  judged: ReturnType<typeof evaluateThresholds>,
  files: readonly string[],
  target: string,
): Record<string, unknown> {
  const { snapshot, outcome } = result;
  const overall = percentilesOf(overallHistogram(snapshot));
  return {
    target,
    ended_by: outcome.endedBy,
    stop_reason: outcome.stopReason,
    seconds: (snapshot.endMs - snapshot.startMs) / 1000,
    requests: totalRequests(snapshot),
    failed: snapshot.endpoints.reduce((sum, endpoint) => sum + endpoint.failed, 0),
    refused: refusedFigures(snapshot),
    latency_ms: {
      p50: overall.p50Ms,
      p90: overall.p90Ms,
      p99: overall.p99Ms,
      p999: overall.p999Ms,
      max: overall.maxMs,
    },
    iterations: { ...snapshot.iterations, interrupted: outcome.interrupted, failed: outcome.failedIterations },
    thresholds: judged.map((threshold) => ({
      metric: threshold.metric,
      expression: threshold.expression,
      ok: threshold.ok,
    })),
    files,
  };
}

function summaryLines(result: LoadRunResult): string[] {
  const { snapshot, outcome } = result;
  const total = totalRequests(snapshot);
  const failed = snapshot.endpoints.reduce((sum, endpoint) => sum + endpoint.failed, 0);
  const seconds = Math.max(0.001, (snapshot.endMs - snapshot.startMs) / 1000);
  const overall = percentilesOf(overallHistogram(snapshot));
  const { started, completed, dropped } = snapshot.iterations;
  const refused = refusedLine(refusedAnswers(snapshot));
  const lines = [
    ...(refused === null ? [] : [refused]),
    `ended: ${outcome.endedBy === 'schedule' ? 'the schedule ran out' : `stopped (${outcome.stopReason ?? 'stopped'})`} after ${fixed(seconds, 1)} s`,
    `requests: ${total} (${fixed(total / seconds, 1)}/s), failed ${failed} (${fixed(total === 0 ? 0 : (failed / total) * 100, 2)}%)`,
    `latency from the intended start (ms): p50 ${fixed(overall.p50Ms, 2)} · p90 ${fixed(overall.p90Ms, 2)} · p99 ${fixed(overall.p99Ms, 2)} · p99.9 ${fixed(overall.p999Ms, 2)} · max ${fixed(overall.maxMs, 2)}`,
    `iterations: ${started} started, ${completed} completed, ${dropped} dropped, ${outcome.interrupted} interrupted, ${outcome.failedIterations} failed`,
  ];
  if (snapshot.firstError !== undefined) lines.push(`first request without an answer: ${snapshot.firstError}`);
  lines.push(...checkLines(snapshot.checks));
  if (snapshot.endpoints.length > 0) lines.push('endpoints:');
  for (const endpoint of snapshot.endpoints.slice(0, ENDPOINTS_SHOWN)) {
    const latency = percentilesOf(decodeHistogram(endpoint.latency));
    const statuses = Object.entries(endpoint.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    lines.push(
      `  ${endpoint.endpoint.padEnd(24)} ${String(endpoint.requests).padStart(7)} req  p99 ${fixed(latency.p99Ms, 2).padStart(8)} ms  ${statuses}`,
    );
  }
  if (snapshot.endpoints.length > ENDPOINTS_SHOWN)
    lines.push(`  … ${snapshot.endpoints.length - ENDPOINTS_SHOWN} more in load.json`);
  const kept = (title: string, list: { count: number; first: readonly string[] }): void => {
    if (list.count === 0) return;
    lines.push(`${title}: ${list.count}`);
    for (const item of list.first.slice(0, 5)) lines.push(`  ${item}`);
  };
  kept('rules the agents saw broken', {
    count: result.reports.count,
    first: result.reports.first.map((report) => `${report.agentId}: ${report.message}`),
  });
  kept('iterations that failed', result.iterationErrors);
  kept('set-up calls refused', result.setupTrouble);
  return lines;
}

/**
 * The checks as k6's summary shows them: the share passed with ✓ passes and ✗ fails, then each
 * check ✓ when it always passed, else ✗ with its own share and counts on a `↳` line.
 */
export function checkLines(checks: LoadSnapshot['checks']): string[] {
  const tallies = Object.entries(checks);
  if (tallies.length === 0) return [];
  const share = (passes: number, fails: number): string =>
    `${fixed(passes + fails === 0 ? 0 : (passes / (passes + fails)) * 100, 2)}%`;
  const passes = tallies.reduce((sum, [, tally]) => sum + tally.passes, 0);
  const fails = tallies.reduce((sum, [, tally]) => sum + tally.fails, 0);
  const lines = [`checks: ${share(passes, fails)} ✓ ${passes} ✗ ${fails}`];
  for (const [name, tally] of tallies) {
    lines.push(`  ${tally.fails === 0 ? '✓' : '✗'} ${name}`);
    if (tally.fails > 0) lines.push(`    ↳ ${share(tally.passes, tally.fails)} — ✓ ${tally.passes} / ✗ ${tally.fails}`);
  }
  return lines;
}

export interface Conclusion {
  readonly io: LoadIo;
  readonly result: LoadRunResult;
  /** The report's header; the snapshot and thresholds come from the run. */
  readonly report: Omit<LoadReport, 'snapshot' | 'thresholds'>;
  readonly out: string;
  /** Files written before the reports (load.json), listed first. */
  readonly written: readonly string[];
  readonly thresholds: readonly Threshold[];
  readonly outputs: MetricsOutputs | null;
  readonly record: RecordFields;
}

/** Writes the reports, pushes the final metrics, prints the summary; the run's exit code. */
export async function concludeRun(run: Conclusion): Promise<Ending> {
  const { io, result } = run;
  const judged = evaluateThresholds(run.thresholds, result.snapshot);
  const reports = await writeLoadReports(run.out, { ...run.report, snapshot: result.snapshot, thresholds: judged });
  const outputNotes = run.outputs === null ? [] : await run.outputs.finish(result.snapshot);
  const little = littleCheck(result.snapshot, run.report.concurrency ?? null);
  io.out(`${[...summaryLines(result), littleLine(little), ...thresholdLines(judged)].join('\n')}\n`);
  for (const note of outputNotes) io.out(`note: ${note}\n`);
  const files = [...run.written, ...reports, ...(run.outputs?.files ?? [])];
  io.out(`files: ${files.join(', ')}\n`);
  run.record({ ...loadFigures(result, judged, files, run.report.target.name), littles_law: little });
  return exitOf(result.snapshot, judged, run.report.target.name, io, result.outcome.stopReason === 'interrupted');
}

/**
 * A run's exit code (both engines): 4 when the target answered none of its requests, 5 when a
 * threshold failed, else 4 when Ctrl-C cut the run short: a load that did not run its course is no
 * pass, even if its part held (k6 exits 105 then; afp run exits 4). Its reports are written.
 */
export function exitOf(
  snapshot: LoadSnapshot,
  judged: readonly ThresholdResult[],
  targetName: string,
  io: Pick<LoadIo, 'out' | 'err'>,
  interrupted: boolean,
): Ending {
  // A run Ctrl-C cut before any answer could come says it was interrupted, not that nothing answered.
  if (unanswered(snapshot) && (totalRequests(snapshot) > 0 || !interrupted)) {
    const cause =
      snapshot.firstError === undefined ? '' : ` (the first failed before any answer: ${snapshot.firstError})`;
    return unsettled(`afp load: ${targetName} answered ${unansweredWords(snapshot)}${cause}`);
  }
  const failed = failedThresholds(judged);
  if (failed.length > 0) {
    io.out(`FAILED: ${failed.length} of ${judged.length} thresholds\n`);
    return thresholdFailed();
  }
  // Without thresholds, a run whose answers were mostly refusals is no pass: its figures measured the target saying no.
  const refused = refusedAnswers(snapshot);
  if (judged.length === 0 && mostlyRefused(refused)) {
    io.out(`${refusedFailure(refused)}\n`);
    return thresholdFailed();
  }
  if (interrupted)
    return unsettled(
      'afp load: interrupted: the run was cut short, so it is not a pass (exit 4); its reports are written',
    );
  return PASSED;
}

export type { Concurrency };

/** The --json `refused` field (both engines): the answers, the 429s and 5xx among them, whether they were most. */
export function refusedFigures(snapshot: LoadSnapshot): Record<string, unknown> {
  const refused = refusedAnswers(snapshot);
  return {
    answers: refused.answers,
    rate_limited: refused.rateLimited,
    server_errors: refused.serverErrors,
    mostly: mostlyRefused(refused),
  };
}

/** The thresholds as the terminal shows them (both engines). */
export function thresholdLines(results: readonly ThresholdResult[]): string[] {
  if (results.length === 0) return [];
  return [
    'thresholds:',
    ...results.map(
      (result) =>
        `  ${result.ok ? 'pass' : 'FAIL'} ${result.metric}: ${result.expression} (observed ${Number.isInteger(result.value) ? String(result.value) : result.value.toFixed(4)}${result.noData ? ', no data' : ''})`,
    ),
  ];
}
