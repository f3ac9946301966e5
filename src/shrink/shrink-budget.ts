/**
 * How many candidate runs a shrink may spend. Why apart from shrink-run.ts: `afp shrink` and
 * `afp sweep --shrink` check `--max-runs` before they load the simulator the shrink runs.
 */

export const SHRINK_RUNS_DEFAULT = 200;
export const SHRINK_RUNS_MAX = 10_000;
