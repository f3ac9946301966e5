/**
 * The bounds of a scenario's `load:` section (load-schema.ts) and of the flags that stand for it
 * (`afp load --duration`, a URL run's --rate and --vus: url-flags.ts): one place for both.
 * Why apart from load-schema.ts: that file's schema loads zod, and a command checking its flags
 * before its run should not pay for it.
 */
import { UNIT_MS } from './duration-text.ts';

export const LOAD_LIMITS = {
  rate: 1_000_000,
  vus: 100_000,
  maxInFlight: 100_000,
  stages: 100,
  thresholdsPerMetric: 20,
  thresholdKeys: 200,
  durationMs: { min: UNIT_MS.s, max: 7 * UNIT_MS.d },
  timeUnitMs: { min: 1, max: UNIT_MS.h },
} as const;
