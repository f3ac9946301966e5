// The face of src/load/: `afp load`'s generator, metrics and thresholds as the CLI, the k6 export
// and sweep use them. Why a face: the folder's other files are its internals, which no file outside
// src/load/ imports (.dependency-cruiser.cjs FACES, rule face-load). The light face,
// src/load/options.ts, holds what a command reads while it checks its flags. A command's import()
// names the module it loads (url-load.ts, thresholds.ts); k6-agent-run.ts, bundled for k6, imports
// live-turn.ts and load-run-pool.ts directly (K6_BUNDLED). Doors apart (APART_DOORS), imported
// directly by the commands that run them: load-run.ts, load-workers.ts, load-run-file.ts,
// merge-files.ts and autocannon-engine.ts (a scenario's run, its workers and files, autocannon):
// through this face `afp load URL` loaded them all.

// Planning a run: executors and arrivals
export { describePlan, LOAD_DEFAULTS, type LoadPlan, resolveLoadPlan, shardPlan } from './load/executors.ts';
export { arrivalSchedule } from './load/executors-arrival.ts';

// A run's live view and its stop
export { type LiveView, LiveWindow } from './load/load-run-view.ts';
export { LoadStop } from './load/generator.ts';

// A URL run
export { reachable } from './load/url-reach.ts';
export type { UrlRequest } from './load/url-source.ts';
export { checkName, type UrlCheck } from './load/url-checks.ts';

// Metrics, thresholds and the verdict
export {
  decodeHistogram,
  type LoadRecorder,
  type LoadSample,
  type LoadSnapshot,
  MAX_CHECKS,
  overallHistogram,
  percentilesOf,
} from './load/load-recorder.ts';
export { type MetricsOutputs, runMetricsOutputs } from './load/metrics/metrics-outputs.ts';
export { parseThresholds, type Threshold } from './load/threshold-parser.ts';
export { abortNow, evaluateThresholds, failedThresholds, type ThresholdResult } from './load/thresholds.ts';
export { type Concurrency, littleCheck, littleLine } from './load/littles-law.ts';
export { mostlyRefused, refusedAnswers, refusedFailure, refusedLine } from './load/refused-answers.ts';

// Reports
export type { LoadReport } from './load/report/load-report.ts';
export { writeLoadReports } from './load/report/write-load-reports.ts';
