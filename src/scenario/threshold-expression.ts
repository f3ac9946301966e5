/**
 * What a threshold says, as text: the metrics it may name, the tags it may filter on and its
 * expression (`p(99)<200`) read into aggregation, operator and number, in k6's own syntax. Why
 * apart from load-schema.ts: that file's schema loads zod, and `afp load URL --threshold …` parses
 * its thresholds with these alone (threshold-parser.ts), paying for no schema.
 */
import { k6Number } from './k6-number.ts';

/**
 * The metrics a threshold may name: k6's built-in names for what afp measures, and the exported
 * script's afp_late_agent_steps (an agent stepped later than afp load's ring would have: never in
 * afp load, which drops such an arrival instead), named so a scenario can relax the export's guard.
 */
export const THRESHOLD_METRICS = [
  'http_req_duration',
  'http_req_failed',
  'http_reqs',
  'iterations',
  'iteration_duration',
  'dropped_iterations',
  'checks',
  'afp_late_agent_steps',
] as const;
export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number];
/** Tags a threshold may filter on: `http_req_duration{endpoint:escrow.B.create}`. */
export const THRESHOLD_TAGS = ['endpoint', 'status', 'method', 'check'] as const;

/**
 * `p(99)<200`, `rate<0.01`, `count>=10`, `avg<100`, `med<=50`, `max<1000`, `min>0`, `value<5`; the
 * number is any text k6 reads as one (`1e3`, `.01`, `500.`, `+500`: k6-number.ts), checked apart.
 */
export const THRESHOLD_EXPRESSION =
  /^\s*(avg|min|max|med|count|rate|value|p\((?:\d{1,2}(?:\.\d{1,6})?|100)\))\s*(<=|>=|===|==|!=|<|>)\s*(\S{1,64})\s*$/;

/** A threshold's aggregation, operator and number, or null when k6 would not read it. */
export function thresholdExpressionParts(
  text: string,
): { readonly method: string; readonly operator: string; readonly bound: number } | null {
  const match = THRESHOLD_EXPRESSION.exec(text);
  const bound = match === null ? null : k6Number(match[3] ?? '');
  return match === null || bound === null ? null : { method: match[1] ?? '', operator: match[2] ?? '', bound };
}
