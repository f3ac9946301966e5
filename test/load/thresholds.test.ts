// Thresholds in k6's syntax judged against hand-made snapshots (recorded by a real LoadRecorder):
// every metric and tag afp can answer, with exact values; what it cannot answer refused with the
// reason, every error at once; k6's "no data reads 0"; abortOnFail after delayAbortEval.
import * as z from 'zod';
import { describe, expect, test } from 'vitest';
import { LoadRecorder, type LoadSnapshot } from '../../src/load/load-recorder.ts';
import type { LoadSection } from '../../src/scenario/load-schema.ts';
import {
  abortNow,
  endpointMethod,
  evaluateThresholds,
  failedThresholds,
  parseThresholds,
  type Threshold,
} from '../../src/load/thresholds.ts';
import { parseScenario } from '../../src/scenario/scenario.ts';

/**
 * 10 s from 1,000 ms: `POST /api/v1/escrow` 100 requests of 1.001 … 1.100 ms (exact in the
 * histogram), all 201; `escrow.B.create` 10 requests of 2 ms, 4 of them 500 (failed); 12
 * iterations started, 10 completed, 3 dropped; check `status ok` 9 passes 1 fail, `body ok` 10 passes.
 */
function snapshot(): LoadSnapshot {
  const recorder = new LoadRecorder(1_000);
  for (let index = 1; index <= 100; index++) {
    recorder.record({
      endpoint: 'POST /api/v1/escrow',
      intendedStartMs: 1_000 + index * 50,
      endMs: 1_000 + index * 50 + 1 + index / 1000,
      status: 201,
      failed: false,
    });
  }
  for (let index = 0; index < 10; index++) {
    const failed = index < 4;
    recorder.record({
      endpoint: 'escrow.B.create',
      intendedStartMs: 2_000 + index * 100,
      endMs: 2_002 + index * 100,
      status: failed ? 500 : 200,
      failed,
    });
  }
  for (let index = 0; index < 12; index++) recorder.iterationStarted();
  for (let index = 0; index < 10; index++) recorder.iterationCompleted();
  for (let index = 0; index < 3; index++) recorder.iterationDropped();
  for (let index = 0; index < 10; index++) {
    recorder.check('status ok', index !== 0);
    recorder.check('body ok', true);
  }
  recorder.finish(11_000);
  return recorder.snapshot();
}

function parsed(section: NonNullable<LoadSection['thresholds']>): Threshold[] {
  const result = parseThresholds(section);
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return [...result.thresholds];
}

const judged = (
  section: NonNullable<LoadSection['thresholds']>,
  atMs?: number,
): [string, string, number, boolean, boolean][] =>
  evaluateThresholds(parsed(section), snapshot(), atMs === undefined ? {} : { atMs }).map((result) => [
    result.metric,
    result.expression,
    result.value,
    result.ok,
    result.noData,
  ]);

describe('parseThresholds', () => {
  test('k6 forms: tags trimmed and unquoted, several tags, the object form with abortOnFail and delayAbortEval', () => {
    const thresholds = parsed({
      http_req_duration: ['p(99.9) <= 500', 'med<2'],
      'http_req_duration{ endpoint : "escrow.B.create" , method:POST}': ['avg<100'],
      'http_reqs{status:429}': ['count==0'],
      checks: [{ threshold: 'rate>0.99', abortOnFail: true, delayAbortEval: 10_000 }],
    });
    expect(
      thresholds.map((threshold) => [
        threshold.metric,
        threshold.kind,
        threshold.filter,
        threshold.aggregation,
        threshold.percentile,
        threshold.operator,
        threshold.bound,
        threshold.abortOnFail,
        threshold.delayAbortEvalMs,
      ]),
    ).toEqual([
      ['http_req_duration', 'trend', {}, 'percentile', 99.9, '<=', 500, false, null],
      ['http_req_duration', 'trend', {}, 'med', null, '<', 2, false, null],
      [
        'http_req_duration{ endpoint : "escrow.B.create" , method:POST}',
        'trend',
        { endpoint: 'escrow.B.create', method: 'POST' },
        'avg',
        null,
        '<',
        100,
        false,
        null,
      ],
      ['http_reqs{status:429}', 'counter', { status: 429 }, 'count', null, '==', 0, false, null],
      ['checks', 'rate', {}, 'rate', null, '>', 0.99, true, 10_000],
    ]);
    expect(parseThresholds(undefined)).toEqual({ ok: true, thresholds: [] });
  });

  test('what a snapshot cannot answer is refused with the reason, every error at once', () => {
    const result = parseThresholds({
      iteration_duration: ['p(95)<100'],
      'http_req_duration{status:200}': ['p(99)<200'],
      'http_req_failed{status:500}': ['rate<0.1'],
      'iterations{endpoint:x}': ['count>1'],
      'http_reqs{method:get,status:abc}': ['count>1'],
      'checks{check:}': ['rate>0.9'],
      'http_reqs{colour:red}': ['count>1'],
      'http_reqs{endpoint:a,endpoint:b}': ['count>1'],
      http_req_latency: ['p(99)<1'],
      checks: ['p(99)<1'],
      http_reqs: ['avg<1', 'value<1', 'rate less than 1'],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      'load.thresholds.iteration_duration: afp load does not measure iteration durations (its recorder keeps request latencies only): use http_req_duration',
      "load.thresholds.http_req_duration{status:200}: tag 'status' cannot filter http_req_duration: latencies are not kept per status (per endpoint and per second only); http_req_duration may be filtered by endpoint, method",
      "load.thresholds.http_req_failed{status:500}: tag 'status' cannot filter http_req_failed: failures are not kept per status; use http_reqs{status:N} to count a status; http_req_failed may be filtered by endpoint, method",
      "load.thresholds.iterations{endpoint:x}: tag 'endpoint' is not one afp load records; iterations takes no tag filter",
      "load.thresholds.http_reqs{method:get,status:abc}: method 'get' is not an upper-case HTTP method such as GET or POST",
      "load.thresholds.http_reqs{method:get,status:abc}: status 'abc' is not an HTTP status (0 for no answer, or 100–599)",
      "load.thresholds.checks{check:}: tag 'check' has no value; write {check:value}",
      "load.thresholds.http_reqs{colour:red}: tag 'colour' is not one afp load records; http_reqs may be filtered by endpoint, method, status",
      "load.thresholds.http_reqs{endpoint:a,endpoint:b}: tag 'endpoint' is given twice",
      'load.thresholds.http_req_latency: not a metric afp load records (http_req_duration, http_req_failed, http_reqs, iterations, dropped_iterations, checks, afp_late_agent_steps) with an optional {tag:value} filter',
      "load.thresholds.checks[0]: 'p(99)<1' uses p(N), which a rate metric such as checks does not have; use rate",
      "load.thresholds.http_reqs[0]: 'avg<1' uses avg, which a counter metric such as http_reqs does not have; use count, rate",
      "load.thresholds.http_reqs[1]: 'value<1' uses value, which a counter metric such as http_reqs does not have; use count, rate",
      "load.thresholds.http_reqs[2]: 'rate less than 1' is not a k6 threshold such as 'p(99)<200', 'rate<0.01' or 'count>10'",
    ]);
  });

  test("numbers as k6 1.3.0 reads them (Go's ParseFloat): every form below was run through the real k6", () => {
    const bounds = parsed({
      http_req_duration: [
        'p(95)<1e3',
        'p(95)<500.',
        'p(95)<+500',
        'p(95)<1E3',
        'p(95)<1_000',
        'p(95)<0x1.8p1',
        'p(95)< 5 ',
      ],
      http_req_failed: ['rate<.01', 'rate<-.5', 'rate<Inf'],
    }).map((threshold) => threshold.bound);
    expect(bounds).toEqual([1000, 500, 500, 1000, 1000, 3, 5, 0.01, -0.5, Infinity]);
    // k6 1.3.0 refuses these (exit 104, "failed parsing threshold expresion's"): afp too.
    for (const refused of [
      'p(95)<0x10',
      'p(95)<1e400',
      'p(95)<.',
      'p(95)<1e',
      'p(95)<0b101',
      'p(95)<_1',
      'p(95)<+nan',
      'p(95)<1_.5',
      'p(95)<1__0',
    ])
      expect(parseThresholds({ http_req_duration: [refused] }).ok, refused).toBe(false);
  });

  test("a scenario's load section, as parseScenario keeps it, parses", () => {
    const scenario = parseScenario(
      [
        'name: t',
        'duration: 1m',
        'populations:',
        '  - agent: walker',
        '    count: 1',
        'load:',
        '  rate: 5',
        '  thresholds:',
        "    http_req_failed: [{ threshold: 'rate<0.01', abortOnFail: true, delayAbortEval: 30s }]",
        "    http_req_duration: ['p(95)<1e3']",
      ].join('\n'),
      { fileName: 's.yaml', agentParams: () => z.strictObject({}) },
    );
    expect(scenario.ok).toBe(true);
    if (!scenario.ok) return;
    expect(
      parsed(scenario.scenario.load?.thresholds ?? {}).map((threshold) => [
        threshold.metric,
        threshold.expression,
        threshold.abortOnFail,
        threshold.delayAbortEvalMs,
      ]),
    ).toEqual([
      ['http_req_failed', 'rate<0.01', true, 30_000],
      ['http_req_duration', 'p(95)<1e3', false, null],
    ]);
  });

  test('the method of an endpoint name: METHOD /path says it, a route id does not', () => {
    expect([
      endpointMethod('POST /api/v1/escrow'),
      endpointMethod('escrow.B.create'),
      endpointMethod('post /x'),
      endpointMethod('GET'),
    ]).toEqual(['POST', null, null, null]);
  });
});

describe('evaluateThresholds', () => {
  test('http_req_duration: p(99)<1 fails on 1.099 ms, a loose p(99)<1000 passes; avg, min, max, med exact', () => {
    expect(
      judged({
        'http_req_duration{endpoint:POST /api/v1/escrow}': [
          'p(99)<1',
          'p(99)<1000',
          'avg==1.0505',
          'min==1.001',
          'max==1.1',
          'med==1.05',
          'p(0)==1.001',
          'p(100)==1.1',
        ],
      }),
    ).toEqual([
      ['http_req_duration{endpoint:POST /api/v1/escrow}', 'p(99)<1', 1.099, false, false],
      ['http_req_duration{endpoint:POST /api/v1/escrow}', 'p(99)<1000', 1.099, true, false],
      ['http_req_duration{endpoint:POST /api/v1/escrow}', 'avg==1.0505', 1.0505, true, false],
      ['http_req_duration{endpoint:POST /api/v1/escrow}', 'min==1.001', 1.001, true, false],
      ['http_req_duration{endpoint:POST /api/v1/escrow}', 'max==1.1', 1.1, true, false],
      ['http_req_duration{endpoint:POST /api/v1/escrow}', 'med==1.05', 1.05, true, false],
      ['http_req_duration{endpoint:POST /api/v1/escrow}', 'p(0)==1.001', 1.001, true, false],
      ['http_req_duration{endpoint:POST /api/v1/escrow}', 'p(100)==1.1', 1.1, true, false],
    ]);
  });

  test('overall, by endpoint (a route id), by method (only METHOD /path names), and both', () => {
    expect(
      judged({
        http_req_duration: ['max<=2', 'p(90)==1.099', 'p(95)==2'],
        'http_req_duration{endpoint:escrow.B.create}': ['avg==2'],
        'http_req_duration{method:POST}': ['max==1.1'],
        'http_req_duration{method:POST,endpoint:escrow.B.create}': ['max==0'],
      }),
    ).toEqual([
      ['http_req_duration', 'max<=2', 2, true, false],
      ['http_req_duration', 'p(90)==1.099', 1.099, true, false],
      ['http_req_duration', 'p(95)==2', 2, true, false],
      ['http_req_duration{endpoint:escrow.B.create}', 'avg==2', 2, true, false],
      ['http_req_duration{method:POST}', 'max==1.1', 1.1, true, false],
      ['http_req_duration{method:POST,endpoint:escrow.B.create}', 'max==0', 0, true, true],
    ]);
  });

  test('rates, counts and counter rates per second of the run (10 s, or up to atMs)', () => {
    const section = {
      http_req_failed: ['rate<0.01', 'rate>0.036'],
      'http_req_failed{endpoint:escrow.B.create}': ['rate<=0.4'],
      http_reqs: ['count==110', 'rate==11'],
      'http_reqs{status:500}': ['count==4'],
      'http_reqs{endpoint:escrow.B.create,status:200}': ['count==6'],
      iterations: ['count==10', 'rate==1'],
      dropped_iterations: ['count<1', 'rate<=0.3'],
      afp_late_agent_steps: ['count==0'],
      checks: ['rate>0.99', 'rate==0.95'],
      'checks{check:status ok}': ['rate>=0.9'],
    };
    expect(judged(section)).toEqual([
      ['http_req_failed', 'rate<0.01', 4 / 110, false, false],
      ['http_req_failed', 'rate>0.036', 4 / 110, true, false],
      ['http_req_failed{endpoint:escrow.B.create}', 'rate<=0.4', 0.4, true, false],
      ['http_reqs', 'count==110', 110, true, false],
      ['http_reqs', 'rate==11', 11, true, false],
      ['http_reqs{status:500}', 'count==4', 4, true, false],
      ['http_reqs{endpoint:escrow.B.create,status:200}', 'count==6', 6, true, false],
      ['iterations', 'count==10', 10, true, false],
      ['iterations', 'rate==1', 1, true, false],
      ['dropped_iterations', 'count<1', 3, false, false],
      ['dropped_iterations', 'rate<=0.3', 0.3, true, false],
      // The k6 script's late steps: afp load drops an arrival instead, so never one (no data, as in k6 with none).
      ['afp_late_agent_steps', 'count==0', 0, true, true],
      ['checks', 'rate>0.99', 0.95, false, false],
      ['checks', 'rate==0.95', 0.95, true, false],
      ['checks{check:status ok}', 'rate>=0.9', 0.9, true, false],
    ]);
    expect(judged({ http_reqs: ['rate==22'] }, 6_000)).toEqual([['http_reqs', 'rate==22', 22, true, false]]);
  });

  test("no data as in k6 1.3.0: a trend or counter reads 0 (a latency bound passes, count>0 fails), an empty rate passes whatever it asks; the result says 'noData'", () => {
    const empty = new LoadRecorder(0).snapshot();
    const thresholds = parsed({
      'http_req_duration{endpoint:typo}': ['p(99)<200'],
      checks: ['rate>0.99'],
      'http_req_failed{endpoint:typo}': ['rate<0', 'rate==1'],
      dropped_iterations: ['count<1'],
      http_reqs: ['rate<5', 'count>0'],
    });
    expect(
      evaluateThresholds(thresholds, empty).map((result) => [result.metric, result.value, result.ok, result.noData]),
    ).toEqual([
      ['http_req_duration{endpoint:typo}', 0, true, true],
      ['checks', 0, true, true],
      ['http_req_failed{endpoint:typo}', 0, true, true],
      ['http_req_failed{endpoint:typo}', 0, true, true],
      ['dropped_iterations', 0, true, true],
      ['http_reqs', 0, true, true],
      ['http_reqs', 0, false, true],
    ]);
  });
});

describe('abortNow', () => {
  const thresholds = parsed({
    http_req_failed: [
      { threshold: 'rate<0.01', abortOnFail: true, delayAbortEval: 10_000 },
      { threshold: 'rate<0.5', abortOnFail: true },
    ],
    'http_req_duration{endpoint:escrow.B.create}': [{ threshold: 'p(99)<1', abortOnFail: true }, 'p(99)<1.5'],
    'checks{check:never run}': [{ threshold: 'rate>0.99', abortOnFail: true }],
  });

  test('a failed abortOnFail threshold stops the run once the run is longer than its delayAbortEval; passing, plain and empty ones never', () => {
    const results = evaluateThresholds(thresholds, snapshot(), { atMs: 5_000 });
    expect(failedThresholds(results).map((result) => `${result.metric} ${result.expression}`)).toEqual([
      'http_req_failed rate<0.01',
      'http_req_duration{endpoint:escrow.B.create} p(99)<1',
      'http_req_duration{endpoint:escrow.B.create} p(99)<1.5',
    ]);
    const stopping = (elapsedMs: number): string[] =>
      abortNow(results, elapsedMs).map((result) => `${result.metric} ${result.expression}`);
    expect(stopping(0)).toEqual(['http_req_duration{endpoint:escrow.B.create} p(99)<1']);
    expect(stopping(10_000)).toEqual(['http_req_duration{endpoint:escrow.B.create} p(99)<1']);
    expect(stopping(10_001)).toEqual([
      'http_req_failed rate<0.01',
      'http_req_duration{endpoint:escrow.B.create} p(99)<1',
    ]);
  });

  test('while the run goes: the failures come as the snapshot grows', () => {
    const recorder = new LoadRecorder(0);
    const only = parsed({ http_req_failed: [{ threshold: 'rate<0.5', abortOnFail: true, delayAbortEval: 1_000 }] });
    const stopsAt: number[] = [];
    for (let second = 0; second < 5; second++) {
      recorder.record({
        endpoint: 'GET /',
        intendedStartMs: second * 1_000,
        endMs: second * 1_000 + 5,
        status: second < 2 ? 200 : 503,
        failed: second >= 2,
      });
      const atMs = second * 1_000 + 500;
      if (abortNow(evaluateThresholds(only, recorder.snapshot(), { atMs }), atMs).length > 0) stopsAt.push(atMs);
    }
    // Failed share 0, 0, 1/3, 2/4, 3/5: rate<0.5 fails from the 4th request on, past the 1 s delay.
    expect(stopsAt).toEqual([3_500, 4_500]);
  });
});
