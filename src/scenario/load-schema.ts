/**
 * The scenario's `load:` section: how `afp load` drives a live target with the scenario's
 * populations, modelled on k6's executors (the open model, arrival rates, is the default), and the
 * thresholds that decide exit 5, in k6's own syntax so they paste both ways between afp and k6.
 *
 *   load:
 *     executor: ramping-arrival-rate        # constant-arrival-rate (default) | ramping-arrival-rate | constant-vus | ramping-vus
 *     time_unit: 1s
 *     start_rate: 10                        # iterations per time_unit at the start (ramping-arrival-rate)
 *     stages: [{ duration: 30s, target: 200 }, { duration: 1m, target: 200 }]
 *     max_in_flight: 200                    # iterations in flight at most (k6's maxVUs); an arrival past it is dropped
 *     graceful_stop: 10s                    # how long iterations in flight may finish after the end
 *     thresholds:
 *       http_req_duration: ['p(95)<300', 'p(99)<500']
 *       'http_req_duration{endpoint:escrow.B.create}': ['p(99)<200']
 *       http_req_failed: ['rate<0.01']
 *       checks: [{ threshold: 'rate>0.99', abortOnFail: true, delayAbortEval: 10s }]
 *
 * Keys are snake_case like the rest of a scenario; inside `thresholds` the expressions and the
 * object form keep k6's spelling (`abortOnFail`, `delayAbortEval`). Every number has a bound.
 * Non-goals: evaluating thresholds (thresholds.ts) and scheduling (the executors).
 */
import * as z from 'zod';
import { durationMs, UNIT_MS } from './duration.ts';
import { LOAD_LIMITS } from './load-limits.ts';
import { THRESHOLD_METRICS, THRESHOLD_TAGS, thresholdExpressionParts } from './threshold-expression.ts';

export const EXECUTORS = ['constant-arrival-rate', 'ramping-arrival-rate', 'constant-vus', 'ramping-vus'] as const;
export type ExecutorName = (typeof EXECUTORS)[number];

export { LOAD_LIMITS } from './load-limits.ts';

const THRESHOLD_KEY = new RegExp(
  `^(${THRESHOLD_METRICS.join('|')})(\\{(${THRESHOLD_TAGS.join('|')}):[^{}]{1,200}\\})?$`,
);

const boundedInt = (min: number, max: number, what: string): z.ZodInt =>
  z.int().min(min, `${what} must be at least ${min}`).max(max, `${what} must be at most ${max}`);

/** An optional field of the load section: a whole number in [min, max] (errors name `what`), described for editors. */
const optionalInt = (min: number, max: number, what: string, description: string) =>
  boundedInt(min, max, what).optional().describe(description);

/** An optional duration field in [minMs, maxMs], described for editors. */
const optionalDuration = (range: { minMs: number; maxMs: number }, description: string) =>
  durationMs(range).optional().describe(description);

const expression = z
  .string()
  .refine(
    (text) => thresholdExpressionParts(text) !== null,
    "a k6 threshold such as 'p(99)<200', 'rate<0.01' or 'count>10'",
  );

const thresholdSchema = z.union([
  expression,
  z.strictObject({
    threshold: expression,
    abortOnFail: z
      .boolean()
      .optional()
      .describe('stop the run as soon as this threshold fails (checked while the run goes)'),
    delayAbortEval: optionalDuration(
      { minMs: 0, maxMs: LOAD_LIMITS.durationMs.max },
      'wait this long into the run before abortOnFail may stop it',
    ),
  }),
]);

const stageSchema = z.strictObject({
  duration: durationMs({ minMs: 0, maxMs: LOAD_LIMITS.durationMs.max }).describe(
    'how long this stage ramps to its target',
  ),
  target: boundedInt(0, Math.max(LOAD_LIMITS.rate, LOAD_LIMITS.vus), 'stage target').describe(
    'iterations per time_unit (arrival-rate executors) or VUs (vus executors) at the end of the stage',
  ),
});

export const loadSchema = z
  .strictObject({
    executor: z.enum(EXECUTORS).optional().describe('k6 executor (default constant-arrival-rate: the open model)'),
    rate: optionalInt(1, LOAD_LIMITS.rate, 'rate', 'iterations per time_unit (constant-arrival-rate)'),
    time_unit: optionalDuration(
      { minMs: LOAD_LIMITS.timeUnitMs.min, maxMs: LOAD_LIMITS.timeUnitMs.max },
      'the rate is per this much time (default 1s)',
    ),
    start_rate: optionalInt(
      0,
      LOAD_LIMITS.rate,
      'start_rate',
      'iterations per time_unit at the start (ramping-arrival-rate; default 0)',
    ),
    vus: optionalInt(
      1,
      LOAD_LIMITS.vus,
      'vus',
      'concurrent virtual users, each running iterations back to back (constant-vus)',
    ),
    start_vus: optionalInt(0, LOAD_LIMITS.vus, 'start_vus', 'VUs at the start (ramping-vus; default 0)'),
    duration: optionalDuration(
      { minMs: LOAD_LIMITS.durationMs.min, maxMs: LOAD_LIMITS.durationMs.max },
      'how long the constant executors run (default the scenario duration, at most 7d)',
    ),
    stages: z
      .array(stageSchema)
      .min(1)
      .max(LOAD_LIMITS.stages)
      .optional()
      .describe('ramping executors: the stages, in order'),
    max_in_flight: optionalInt(
      1,
      LOAD_LIMITS.maxInFlight,
      'max_in_flight',
      'iterations in flight at most (k6 maxVUs; default 1000); an arrival beyond it is a dropped iteration',
    ),
    graceful_stop: optionalDuration(
      { minMs: 0, maxMs: UNIT_MS.h },
      'how long iterations in flight may finish after the end (default 30s)',
    ),
    thresholds: z
      .record(
        z
          .string()
          .regex(
            THRESHOLD_KEY,
            `a metric (${THRESHOLD_METRICS.join(', ')}) with an optional {tag:value} filter (${THRESHOLD_TAGS.join(', ')})`,
          ),
        z.array(thresholdSchema).min(1).max(LOAD_LIMITS.thresholdsPerMetric),
      )
      .optional()
      .describe("k6 thresholds: metric[{tag:value}] → ['p(99)<200', …]; any failure exits 5"),
  })
  .describe('how `afp load` drives a live target (k6 executors, thresholds); `afp run` ignores it');

export type LoadSection = z.output<typeof loadSchema>;
