/**
 * The `load:` section's thresholds read into data thresholds.ts evaluates: k6's syntax and k6's
 * rules (metrics/thresholds_parser.go, metrics/metric.go AddSubmetric, Thresholds.Validate), every
 * error at once, each with its path (`load.thresholds.<key>[i]`), as the scenario's own errors.
 *
 * What a threshold may ask is what a LoadSnapshot can answer:
 *   http_req_duration  trend (ms)   avg min max med p(N)  tags endpoint, method
 *   http_req_failed    rate         rate                  tags endpoint, method
 *   http_reqs          counter      count rate (per s)    tags endpoint, method, status
 *   iterations         counter      count rate            (completed iterations, as k6 counts them)
 *   dropped_iterations counter      count rate
 *   checks             rate         rate                  tag check
 *   afp_late_agent_steps counter    count rate            (the k6 script's; always 0 in afp load)
 * `iteration_duration` is refused: the recorder does not measure iterations' durations. A tag the
 * snapshot cannot split by (durations or failures by status) is refused with the reason, never
 * read as "no data". Tag filters follow k6: `{k:v,k2:v2}`, spaces around keys and values trimmed,
 * quotes `"'` around them stripped; every tag must match. `method` is read from endpoint names of
 * the form `METHOD /path` (an upper-case word, a space): a route id such as `escrow.B.create`
 * carries no method and never matches a method filter.
 * Non-goals: evaluating (thresholds.ts); the schema's own checks (load-schema.ts) run first.
 */
import { LOAD_LIMITS } from '../scenario/load-limits.ts';
import type { LoadSection } from '../scenario/load-schema.ts';
import { thresholdExpressionParts, THRESHOLD_METRICS, type ThresholdMetric } from '../scenario/threshold-expression.ts';

export type ThresholdKind = 'trend' | 'rate' | 'counter';
export type ThresholdTag = 'endpoint' | 'method' | 'status' | 'check';
export type ThresholdOperator = '<' | '<=' | '>' | '>=' | '==' | '===' | '!=';
export type ThresholdAggregation = 'avg' | 'min' | 'max' | 'med' | 'percentile' | 'count' | 'rate';

export interface ThresholdFilter {
  readonly endpoint?: string;
  readonly method?: string;
  readonly status?: number;
  readonly check?: string;
}

export interface Threshold {
  /** The key as written, e.g. `http_req_duration{endpoint:escrow.B.create}`. */
  readonly metric: string;
  readonly name: ThresholdMetric;
  readonly kind: ThresholdKind;
  readonly filter: ThresholdFilter;
  /** The expression as written, e.g. `p(99)<200`. */
  readonly expression: string;
  readonly aggregation: ThresholdAggregation;
  /** The N of `p(N)`; null for every other aggregation. */
  readonly percentile: number | null;
  readonly operator: ThresholdOperator;
  readonly bound: number;
  readonly abortOnFail: boolean;
  /** abortOnFail may stop the run only once it has run longer than this; null: at once. */
  readonly delayAbortEvalMs: number | null;
}

export type ThresholdsParse =
  | { readonly ok: true; readonly thresholds: readonly Threshold[] }
  | { readonly ok: false; readonly errors: readonly string[] };

interface MetricRule {
  readonly kind: ThresholdKind;
  readonly aggregations: readonly ThresholdAggregation[];
  readonly tags: readonly ThresholdTag[];
}

const TREND: readonly ThresholdAggregation[] = ['avg', 'min', 'max', 'med', 'percentile'];

/** Per metric what it is and what may be asked of it; a string is why it cannot be asked at all. */
const METRIC_RULES: Readonly<Record<ThresholdMetric, MetricRule | string>> = {
  http_req_duration: { kind: 'trend', aggregations: TREND, tags: ['endpoint', 'method'] },
  http_req_failed: { kind: 'rate', aggregations: ['rate'], tags: ['endpoint', 'method'] },
  http_reqs: { kind: 'counter', aggregations: ['count', 'rate'], tags: ['endpoint', 'method', 'status'] },
  iterations: { kind: 'counter', aggregations: ['count', 'rate'], tags: [] },
  dropped_iterations: { kind: 'counter', aggregations: ['count', 'rate'], tags: [] },
  afp_late_agent_steps: { kind: 'counter', aggregations: ['count', 'rate'], tags: [] },
  checks: { kind: 'rate', aggregations: ['rate'], tags: ['check'] },
  iteration_duration:
    'afp load does not measure iteration durations (its recorder keeps request latencies only): use http_req_duration',
};

/** Why a tag known to k6 cannot filter a metric here (the snapshot does not split it so). */
const TAG_REFUSALS: Readonly<Partial<Record<ThresholdMetric, Partial<Record<ThresholdTag, string>>>>> = {
  http_req_duration: { status: 'latencies are not kept per status (per endpoint and per second only)' },
  http_req_failed: { status: 'failures are not kept per status; use http_reqs{status:N} to count a status' },
};

const TAGS: readonly ThresholdTag[] = ['endpoint', 'method', 'status', 'check'];
const KEY = /^([a-z_]+)(?:\{([\s\S]*)\})?$/;
const METHOD = /^[A-Z]{1,20}$/;
const METHOD_PREFIX = /^([A-Z]{1,20}) /;

const AGGREGATION_TEXT: Readonly<Record<ThresholdAggregation, string>> = {
  avg: 'avg',
  min: 'min',
  max: 'max',
  med: 'med',
  percentile: 'p(N)',
  count: 'count',
  rate: 'rate',
};

/** The HTTP method an endpoint name says (`POST /api/v1/x` → POST), or null (a route id says none). */
export function endpointMethod(endpoint: string): string | null {
  return METHOD_PREFIX.exec(endpoint)?.[1] ?? null;
}

const unquote = (text: string): string => text.trim().replace(/^["']+|["']+$/g, '');

function parseFilter(
  name: ThresholdMetric,
  rule: MetricRule,
  inner: string,
  errors: string[],
  path: string,
): ThresholdFilter {
  const filter: { endpoint?: string; method?: string; status?: number; check?: string } = {};
  if (inner.trim() === '') errors.push(`${path}: the tag filter is empty; write {tag:value}`);
  for (const part of inner.split(',')) {
    if (part.trim() === '') continue;
    const colon = part.indexOf(':');
    const key = unquote(colon < 0 ? part : part.slice(0, colon));
    const value = colon < 0 ? '' : unquote(part.slice(colon + 1));
    const tag = TAGS.find((known) => known === key);
    if (tag === undefined || !rule.tags.includes(tag)) {
      const refusal = tag === undefined ? undefined : TAG_REFUSALS[name]?.[tag];
      const allowed =
        rule.tags.length === 0 ? `${name} takes no tag filter` : `${name} may be filtered by ${rule.tags.join(', ')}`;
      errors.push(
        `${path}: tag '${key}' ${refusal === undefined ? 'is not one afp load records' : `cannot filter ${name}: ${refusal}`}; ${allowed}`,
      );
      continue;
    }
    if (filter[tag] !== undefined) errors.push(`${path}: tag '${tag}' is given twice`);
    if (value === '') errors.push(`${path}: tag '${tag}' has no value; write {${tag}:value}`);
    else if (tag === 'status') {
      if (/^\d{1,3}$/.test(value)) filter.status = Number(value);
      else errors.push(`${path}: status '${value}' is not an HTTP status (0 for no answer, or 100–599)`);
    } else if (tag === 'method') {
      if (METHOD.test(value)) filter.method = value;
      else errors.push(`${path}: method '${value}' is not an upper-case HTTP method such as GET or POST`);
    } else filter[tag] = value;
  }
  return filter;
}

interface Expression {
  readonly aggregation: ThresholdAggregation;
  readonly percentile: number | null;
  readonly operator: ThresholdOperator;
  readonly bound: number;
}

function parseExpression(
  text: string,
  name: ThresholdMetric,
  rule: MetricRule,
  path: string,
  errors: string[],
): Expression | null {
  const parts = thresholdExpressionParts(text);
  if (parts === null) {
    errors.push(`${path}: '${text}' is not a k6 threshold such as 'p(99)<200', 'rate<0.01' or 'count>10'`);
    return null;
  }
  const method = parts.method;
  const percentile = method.startsWith('p(') ? Number(method.slice(2, -1)) : null;
  const aggregation = (percentile === null ? method : 'percentile') as ThresholdAggregation | 'value';
  if (aggregation === 'value' || !rule.aggregations.includes(aggregation)) {
    errors.push(
      `${path}: '${text}' uses ${aggregation === 'value' ? 'value' : AGGREGATION_TEXT[aggregation]}, which a ${rule.kind} metric such as ${name} does not have; use ${rule.aggregations.map((known) => AGGREGATION_TEXT[known]).join(', ')}`,
    );
    return null;
  }
  if (percentile !== null && !(percentile >= 0 && percentile <= 100)) {
    errors.push(`${path}: the percentile of '${text}' must be between 0 and 100`);
    return null;
  }
  return { aggregation, percentile, operator: parts.operator as ThresholdOperator, bound: parts.bound };
}

type Entry = NonNullable<LoadSection['thresholds']>[string][number];

function parseKey(
  key: string,
  errors: string[],
): { name: ThresholdMetric; rule: MetricRule; filter: ThresholdFilter } | null {
  const path = `load.thresholds.${key}`;
  const match = KEY.exec(key);
  const name = THRESHOLD_METRICS.find((known) => known === match?.[1]);
  if (match === null || name === undefined) {
    errors.push(
      `${path}: not a metric afp load records (${THRESHOLD_METRICS.filter((known) => typeof METRIC_RULES[known] !== 'string').join(', ')}) with an optional {tag:value} filter`,
    );
    return null;
  }
  const rule = METRIC_RULES[name];
  if (typeof rule === 'string') {
    errors.push(`${path}: ${rule}`);
    return null;
  }
  const filter = match[2] === undefined ? {} : parseFilter(name, rule, match[2], errors, path);
  return { name, rule, filter };
}

/**
 * The section's thresholds in the order written (keys in insertion order, then each key's list),
 * or every error found. No thresholds (absent or empty) is an empty list.
 */
export function parseThresholds(section: LoadSection['thresholds'] | null | undefined): ThresholdsParse {
  const errors: string[] = [];
  const thresholds: Threshold[] = [];
  const keys = Object.entries(section ?? {});
  if (keys.length > LOAD_LIMITS.thresholdKeys)
    return {
      ok: false,
      errors: [`load.thresholds: at most ${LOAD_LIMITS.thresholdKeys} metrics may have thresholds, got ${keys.length}`],
    };
  for (const [key, entries] of keys) {
    const parsedKey = parseKey(key, errors);
    if (entries.length > LOAD_LIMITS.thresholdsPerMetric)
      errors.push(
        `load.thresholds.${key}: at most ${LOAD_LIMITS.thresholdsPerMetric} thresholds a metric, got ${entries.length}`,
      );
    if (parsedKey === null) continue;
    entries.slice(0, LOAD_LIMITS.thresholdsPerMetric).forEach((entry: Entry, index) => {
      const config = typeof entry === 'string' ? { threshold: entry } : entry;
      const expression = parseExpression(
        config.threshold,
        parsedKey.name,
        parsedKey.rule,
        `load.thresholds.${key}[${index}]`,
        errors,
      );
      if (expression === null) return;
      thresholds.push({
        metric: key,
        name: parsedKey.name,
        kind: parsedKey.rule.kind,
        filter: parsedKey.filter,
        expression: config.threshold,
        ...expression,
        abortOnFail: config.abortOnFail ?? false,
        delayAbortEvalMs: config.delayAbortEval ?? null,
      });
    });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, thresholds };
}
