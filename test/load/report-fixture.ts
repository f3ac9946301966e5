// A load report as `afp load` builds one: a snapshot recorded by a real LoadRecorder (endpoints,
// a second without requests, failures, checks, iterations) and its thresholds parsed and judged
// by the real parser and evaluator. `hostile` names an endpoint and a check with what a scenario
// or a target could put there (markup, quotes, commas, line breaks, control characters XML
// forbids, a lone surrogate, a would-be spreadsheet formula); small() is a report whose every
// figure a test can state exactly. readCsv reads RFC 4180 text back into cells.
import { expect } from 'vitest';
import { LoadRecorder, type LoadSnapshot } from '../../src/load/load-recorder.ts';
import type { LoadReport } from '../../src/load/report/load-report.ts';
import { evaluateThresholds, parseThresholds } from '../../src/load/thresholds.ts';

export const HOSTILE = `</td><script>alert("x")</script> ]]> & 'q' a,b\r\nline2 \u0000\u0007\u001b \ud800 \uffff 🎲 =cmd|' /C calc'!A0`;
export const FORMULA = `=HYPERLINK("http://evil")`;

/**
 * 4 s from 10,000 ms: second 0 `GET /api/v1/games` 10 × 1.000…1.009 ms (200); second 1
 * `escrow.B.create` 4 × 2 ms, 2 of them 500 and failed; second 2 nothing; second 3 `GET /api/v1/games`
 * 2 × 1.5 ms, one a 0 (no answer, failed). 5 iterations started, 4 completed, 1 dropped; check
 * `status is 2xx` 3 passes 1 fail.
 */
export function smallSnapshot(): LoadSnapshot {
  const recorder = new LoadRecorder(10_000);
  for (let index = 0; index < 10; index++)
    recorder.record({
      endpoint: 'GET /api/v1/games',
      intendedStartMs: 10_000 + index * 90,
      endMs: 10_001 + index * 90 + index / 1000,
      status: 200,
      failed: false,
    });
  for (let index = 0; index < 4; index++)
    recorder.record({
      endpoint: 'escrow.B.create',
      intendedStartMs: 11_000 + index * 100,
      endMs: 11_002 + index * 100,
      status: index < 2 ? 500 : 201,
      failed: index < 2,
    });
  recorder.record({
    endpoint: 'GET /api/v1/games',
    intendedStartMs: 13_000,
    endMs: 13_001.5,
    status: 200,
    failed: false,
  });
  recorder.record({ endpoint: 'GET /api/v1/games', intendedStartMs: 13_100, endMs: 13_101.5, status: 0, failed: true });
  for (let index = 0; index < 5; index++) recorder.iterationStarted();
  for (let index = 0; index < 4; index++) recorder.iterationCompleted();
  recorder.iterationDropped();
  for (let index = 0; index < 4; index++) recorder.check('status is 2xx', index !== 0);
  recorder.finish(14_000);
  return recorder.snapshot();
}

export const SMALL_THRESHOLDS = {
  http_req_duration: ['p(99)<1', 'p(99)<1000'],
  'http_req_duration{endpoint:escrow.B.create}': [{ threshold: 'max<5', abortOnFail: true, delayAbortEval: 2_000 }],
  http_req_failed: ['rate<0.01'],
  'http_reqs{endpoint:nowhere}': ['count<1'],
};

export function reportOf(
  snapshot: LoadSnapshot,
  thresholds: Parameters<typeof parseThresholds>[0],
  header: Partial<LoadReport> = {},
): LoadReport {
  const parsed = parseThresholds(thresholds);
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return {
    scenario: 'escrow-smoke',
    target: { name: 'local', source: 'http://127.0.0.1:8080' },
    seed: '42',
    engine: 'afp',
    afpVersion: '0.1.0',
    snapshot,
    thresholds: evaluateThresholds(parsed.thresholds, snapshot),
    ...header,
  };
}

export function small(): LoadReport {
  return reportOf(smallSnapshot(), SMALL_THRESHOLDS);
}

/** A run where the hostile name is an endpoint (with a formula-like one beside it) and a check, and a threshold names it. */
export function hostileReport(): LoadReport {
  const recorder = new LoadRecorder(0);
  for (let index = 0; index < 20; index++) {
    recorder.record({
      endpoint: HOSTILE,
      intendedStartMs: index * 100,
      endMs: index * 100 + 3,
      status: index % 5 === 0 ? 503 : 200,
      failed: index % 5 === 0,
    });
    recorder.record({
      endpoint: FORMULA,
      intendedStartMs: index * 100 + 50,
      endMs: index * 100 + 51,
      status: 200,
      failed: false,
    });
  }
  recorder.check(HOSTILE, true);
  recorder.finish(2_000);
  const report = reportOf(
    recorder.snapshot(),
    { http_req_failed: ['rate<0.1'] },
    { scenario: HOSTILE, target: { name: HOSTILE, source: HOSTILE }, seed: HOSTILE, stopReason: HOSTILE },
  );
  return {
    ...report,
    thresholds: [
      ...report.thresholds,
      {
        metric: `http_req_duration{endpoint:${HOSTILE}}`,
        expression: 'p(99)<1',
        value: 3,
        ok: false,
        noData: false,
        abortOnFail: false,
        delayAbortEvalMs: null,
      },
    ],
  };
}

export function readCsv(text: string): string[][] {
  const records: string[][] = [];
  const record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index] as string;
    if (quoted && character === '"' && text[index + 1] === '"') {
      field += '"';
      index++;
    } else if (character === '"' && (quoted || field === '')) {
      quoted = !quoted;
    } else if (quoted || (character !== ',' && character !== '\n')) {
      field += character;
    } else {
      record.push(field);
      field = '';
      if (character === '\n') records.push(record.splice(0));
    }
  }
  expect({ quoted, rest: field + record.join(',') }, 'the text ends with a complete record').toEqual({
    quoted: false,
    rest: '',
  });
  return records;
}
