// The scenario's `load:` section: k6's executors and thresholds, validated as strictly as the rest
// of a scenario (every error at once, with its path), and kept as written on the parsed scenario.
import * as z from 'zod';
import { describe, expect, test } from 'vitest';
import { parseScenario, type ScenarioResult } from '../../src/scenario/scenario.ts';

const parse = (load: string): ScenarioResult =>
  parseScenario(
    ['name: load-test', 'duration: 1m', 'populations:', '  - agent: walker', '    count: 2', load].join('\n'),
    { fileName: 's.yaml', agentParams: () => z.strictObject({}) },
  );

describe('load section', () => {
  test('k6 executors, stages and thresholds in k6 syntax (abortOnFail keeps its spelling)', () => {
    const parsed = parse(`load:
  executor: ramping-arrival-rate
  start_rate: 5
  time_unit: 1s
  stages: [{ duration: 10s, target: 50 }, { duration: 20s, target: 50 }]
  max_in_flight: 100
  graceful_stop: 5s
  thresholds:
    http_req_duration: ['p(95)<300', 'p(99.9)<=1000']
    'http_req_duration{endpoint:escrow.B.create}': ['p(99)<200']
    http_req_failed: ['rate<0.01']
    checks: [{ threshold: 'rate>0.99', abortOnFail: true, delayAbortEval: 10s }]`);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.scenario.load).toMatchObject({
      executor: 'ramping-arrival-rate',
      start_rate: 5,
      max_in_flight: 100,
      thresholds: { http_req_failed: ['rate<0.01'] },
    });
    expect(parsed.scenario.load?.stages?.[0]?.duration).toBe(10_000);
    expect(parsed.scenario.load?.thresholds?.['checks']?.[0]).toEqual({
      threshold: 'rate>0.99',
      abortOnFail: true,
      delayAbortEval: 10_000,
    });
  });

  test('absent: null; every error at once with its path', () => {
    const none = parse('');
    expect(none.ok && none.scenario.load).toBe(null);
    const bad = parse(`load:
  executor: closed-loop
  rate: 0
  max_in_flight: 9999999
  colour: red
  thresholds:
    http_req_latency: ['p(99)<200']
    http_req_failed: ['rate less than 1%']`);
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    const text = bad.errors.map((error) => `${error.path}: ${error.message}`).join('\n');
    for (const expected of [
      'load.executor',
      'load.rate: rate must be at least 1',
      'load.max_in_flight: max_in_flight must be at most 100000',
      'load.colour',
      'load.thresholds.http_req_latency',
      "load.thresholds.http_req_failed[0]: a k6 threshold such as 'p(99)<200'",
    ]) {
      expect(text).toContain(expected);
    }
  });
});
