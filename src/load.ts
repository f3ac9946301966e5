// FACE HEADER

// GROUP load
export {
  AUTOCANNON_LIMITS,
  AUTOCANNON_METHODS,
  type EngineCounts,
  HIGH_RESOLUTION_CLOCK,
  runAutocannonCounted,
} from './load/autocannon-engine.ts';
export { arrivalSchedule } from './load/executors-arrival.ts';
export { describePlan, type LoadPlan, resolveLoadPlan, shardPlan } from './load/executors.ts';
export { LoadStop } from './load/generator.ts';
export { type Concurrency, littleCheck, littleLine } from './load/littles-law.ts';
export { LiveTurn } from './load/live-turn.ts';
export {
  decodeHistogram,
  type LoadRecorder,
  type LoadSample,
  type LoadSnapshot,
  MAX_CHECKS,
  overallHistogram,
  percentilesOf,
} from './load/load-recorder.ts';
export { LOAD_RUN_FILE_NAME, loadRunFile, loadRunFileText } from './load/load-run-file.ts';
export { rulesCheckName } from './load/load-run-pool.ts';
export { type LiveView, LiveWindow } from './load/load-run-view.ts';
export { checkAgentCount, loadMounts, type LoadRunResult, runLoad } from './load/load-run.ts';
export { runLoadInWorkers, workerShard } from './load/load-workers.ts';
export { mergeLoadFiles } from './load/merge-files.ts';
export { mostlyRefused, refusedAnswers, refusedFailure, refusedLine } from './load/refused-answers.ts';
export { parseThresholds, type Threshold } from './load/threshold-parser.ts';
export { abortNow, evaluateThresholds, failedThresholds, type ThresholdResult } from './load/thresholds.ts';
export { checkName, type UrlCheck } from './load/url-checks.ts';
export { runUrlLoad } from './load/url-load.ts';
export { reachable } from './load/url-reach.ts';
export { type UrlRequest } from './load/url-source.ts';

// GROUP load/metrics
export { type MetricsOutputs, runMetricsOutputs } from './load/metrics/metrics-outputs.ts';

// GROUP load/report
export { type LoadReport } from './load/report/load-report.ts';
export { writeLoadReports } from './load/report/write-load-reports.ts';
