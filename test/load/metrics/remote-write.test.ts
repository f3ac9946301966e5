// The remote-write 1.0 body, read back without Prometheus: Snappy's block format undone by
// snappyjs, then the protobuf WriteRequest decoded field by field by a reader written here from
// the .proto (so the encoder is checked against the format, not against itself): every series
// with its labels sorted by name (__name__ among them) and one sample (a double, an int64 ms).
// Also the metrics outputs' --out parsing, and a JSON-lines stream pushed live.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import snappy from 'snappyjs';
import { afterAll, describe, expect, test } from 'vitest';
import { LoadRecorder } from '../../../src/load/load-recorder.ts';
import { seriesOfSnapshot } from '../../../src/load/metrics/metric-series.ts';
import { loadRouteMethods } from '../../../src/load/metrics/endpoint-method.ts';
import { MetricsOutputs, parseOutFlags } from '../../../src/load/metrics/metrics-outputs.ts';
import { encodeWriteRequest } from '../../../src/load/metrics/remote-write.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-metrics-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

type Field = { field: number; wire: number; bytes?: Uint8Array; varint?: bigint; fixed64?: DataView };

function fields(bytes: Uint8Array): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[at++] ?? 0;
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const field = key >> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ field, wire, varint: varint() });
    else if (wire === 1) {
      out.push({ field, wire, fixed64: new DataView(bytes.buffer, bytes.byteOffset + at, 8) });
      at += 8;
    } else if (wire === 2) {
      const length = Number(varint());
      out.push({ field, wire, bytes: bytes.subarray(at, at + length) });
      at += length;
    } else throw new Error(`wire type ${wire} is not in a WriteRequest`);
  }
  return out;
}

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

function decode(body: Uint8Array): { labels: [string, string][]; value: number; timestampMs: bigint }[] {
  return fields(body).map((series) => {
    expect(series.field).toBe(1);
    const parts = fields(series.bytes ?? new Uint8Array());
    const labels = parts
      .filter((part) => part.field === 1)
      .map((part) => {
        const [name, value] = fields(part.bytes ?? new Uint8Array());
        return [text(name?.bytes), text(value?.bytes)] as [string, string];
      });
    const samples = parts.filter((part) => part.field === 2).map((part) => fields(part.bytes ?? new Uint8Array()));
    expect(samples).toHaveLength(1);
    const sample = samples[0] ?? [];
    return {
      labels,
      value: sample.find((part) => part.field === 1)?.fixed64?.getFloat64(0, true) ?? Number.NaN,
      timestampMs: sample.find((part) => part.field === 2)?.varint ?? -1n,
    };
  });
}

function snapshot(): ReturnType<LoadRecorder['snapshot']> {
  const recorder = new LoadRecorder(1_000);
  for (let index = 0; index < 10; index++) {
    recorder.iterationStarted();
    recorder.record({
      endpoint: 'POST /api/v1/games/coin-flip',
      intendedStartMs: 1_000 + index,
      sentMs: 1_000 + index,
      endMs: 1_010 + index,
      status: index === 9 ? 503 : 200,
      failed: index === 9,
    });
    recorder.iterationCompleted();
  }
  recorder.iterationDropped(2);
  recorder.finish(2_000);
  return recorder.snapshot();
}

describe('the remote-write body', () => {
  test('decodes to the series: labels sorted with __name__, one sample each at the push instant', () => {
    const series = seriesOfSnapshot(snapshot(), { job: 'afp', scenario: 'default', testid: 'r1' });
    const body = snappy.uncompress(snappy.compress(encodeWriteRequest(series, 1_795_000_000_123)));
    const decoded = decode(body);
    expect(decoded).toHaveLength(series.length);
    for (const one of decoded) {
      expect(one.timestampMs).toBe(1_795_000_000_123n);
      expect(one.labels.map(([name]) => name)).toEqual([...one.labels.map(([name]) => name)].sort());
    }
    const byName = (name: string, extra: Record<string, string> = {}): number | undefined =>
      decoded.find(
        (one) =>
          one.labels.some(([label, value]) => label === '__name__' && value === name) &&
          Object.entries(extra).every(([key, value]) =>
            one.labels.some(([label, seen]) => label === key && seen === value),
          ),
      )?.value;
    expect(decoded[0]?.labels).toEqual([
      ['__name__', 'k6_http_reqs_total'],
      ['job', 'afp'],
      ['method', 'POST'],
      ['name', 'POST /api/v1/games/coin-flip'],
      ['scenario', 'default'],
      ['status', '200'],
      ['testid', 'r1'],
    ]);
    expect(byName('k6_http_reqs_total', { status: '200' })).toBe(9);
    expect(byName('k6_http_reqs_total', { status: '503' })).toBe(1);
    expect(byName('k6_http_req_failed_rate')).toBeCloseTo(0.1, 9);
    expect(byName('k6_http_req_duration_med')).toBeCloseTo(0.01, 4);
    expect(byName('k6_http_req_duration_seconds_count')).toBe(10);
    expect(byName('k6_http_req_duration_seconds_sum')).toBeCloseTo(0.1, 3);
    // The 10 ms answers fall in the (0.005, 0.01] bucket: cumulative counts by `le`, +Inf the total.
    expect(byName('k6_http_req_duration_seconds_bucket', { le: '0.005' })).toBe(0);
    expect(byName('k6_http_req_duration_seconds_bucket', { le: '0.01' })).toBe(10);
    expect(byName('k6_http_req_duration_seconds_bucket', { le: '60' })).toBe(10);
    expect(byName('k6_http_req_duration_seconds_bucket', { le: '+Inf' })).toBe(10);
    expect(byName('k6_dropped_iterations_total')).toBe(2);
    expect(byName('k6_iterations_total')).toBe(10);
  });

  test('a route id names its method from the route table', async () => {
    await loadRouteMethods();
    const recorder = new LoadRecorder(0);
    recorder.record({
      endpoint: 'escrow.B.create',
      intendedStartMs: 0,
      sentMs: 0,
      endMs: 3,
      status: 201,
      failed: false,
    });
    recorder.finish(1_000);
    const series = seriesOfSnapshot(recorder.snapshot(), {});
    expect(series[0]).toMatchObject({
      name: 'k6_http_reqs_total',
      labels: { method: 'POST', name: 'escrow.B.create' },
    });
  });
});

describe('--out values', () => {
  test('one DIR, any prometheus=URL and json=FILE; every problem listed', () => {
    expect(parseOutFlags(['reports/x', 'prometheus=http://127.0.0.1:9090/api/v1/write', 'json=m.jsonl'])).toEqual({
      dir: 'reports/x',
      outputs: [
        { kind: 'prometheus', url: 'http://127.0.0.1:9090/api/v1/write' },
        { kind: 'json', file: 'm.jsonl' },
      ],
      tags: {},
      errors: [],
    });
    expect(parseOutFlags([]).dir).toBeUndefined();
    expect(parseOutFlags(['a', 'b', 'prometheus=ftp://x', 'json=', 'influxdb=http://x']).errors).toEqual([
      "--out prometheus=URL needs an http(s) remote-write URL, e.g. prometheus=http://127.0.0.1:9090/api/v1/write, got 'ftp://x'",
      '--out json=FILE needs a file name',
      "--out influxdb=…: unknown output 'influxdb' (afp streams to prometheus=URL and json=FILE; a plain --out DIR is where the reports go)",
      '--out DIR given 2 times (a, b): the reports go to one directory',
    ]);
  });
});

describe('--tag values', () => {
  test("NAME=VALUE labels; afp's own labels and bad forms refused, every problem listed", () => {
    expect(parseOutFlags([], ['testid=nightly-42', 'team=payments']).tags).toEqual({
      testid: 'nightly-42',
      team: 'payments',
    });
    expect(parseOutFlags([], ['status=x', 'no-equals', 'empty=', 'a=1', 'a=2']).errors).toEqual([
      '--tag status=…: afp sets status itself',
      "--tag needs NAME=VALUE (a name of letters, digits and _), got 'no-equals'",
      '--tag empty=…: a value has 1 to 256 characters',
      '--tag a is given twice',
    ]);
  });
});

describe('MetricsOutputs', () => {
  test('pushes live from the samples while the run goes, then the final snapshot; timestamps increase', async () => {
    const file = join(DIR, 'live.jsonl');
    let nowMs = 1_000;
    const outputs = new MetricsOutputs({
      specs: [{ kind: 'json', file }],
      runLabels: { job: 'afp' },
      nowMs: () => nowMs,
      everyMs: 20,
    });
    expect(await outputs.prepare()).toBeNull();
    const recorder = new LoadRecorder(1_000);
    outputs.start(recorder);
    const sample = {
      endpoint: 'GET /',
      intendedStartMs: 1_000,
      sentMs: 1_000,
      endMs: 1_002,
      status: 200,
      failed: false,
    };
    recorder.record(sample);
    outputs.add(sample);
    await new Promise((resolve) => setTimeout(resolve, 120));
    nowMs = 1_000;
    recorder.record(sample);
    outputs.add(sample);
    const notes = await outputs.finish(recorder.snapshot());
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            type: string;
            metric: string;
            data: { name?: string; time?: string; value?: number; tags?: Record<string, string> };
          },
      );
    // k6's JSON output: the metrics declared first (checks too: a URL test streams its checks), then a point per sample (three per request).
    expect(lines.filter((line) => line.type === 'Metric').map((line) => line.metric)).toEqual([
      'http_reqs',
      'http_req_duration',
      'http_req_failed',
      'iterations',
      'dropped_iterations',
      'checks',
    ]);
    const requests = lines.filter((line) => line.type === 'Point' && line.metric === 'http_reqs');
    expect(requests).toHaveLength(2);
    expect(requests[0]?.data).toEqual({
      time: new Date(1_002).toISOString(),
      value: 1,
      tags: { job: 'afp', method: 'GET', name: 'GET /', status: '200', expected_response: 'true' },
    });
    const durations = lines.filter((line) => line.type === 'Point' && line.metric === 'http_req_duration');
    expect(durations.map((line) => line.data.value)).toEqual([2, 2]);
    expect(notes).toEqual([expect.stringMatching(/^metrics to json .*live\.jsonl: \d+ pushes, testid $/)]);
  });
});
