// afp load merge: the shards' load.json files of one run merge into exactly what one machine
// recording every request would have measured; bad files are refused with every problem of every
// file at once (shape, bounds, rows that do not add up, histograms that do not decode, shards
// given twice or missing, files of different runs).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LoadRecorder, mergeSnapshots, overallHistogram, percentilesOf, type LoadSample, type LoadSnapshot } from '../../src/load/load-recorder.ts';
import { loadFileJson, mergeLoadFiles, parseLoadFile, type LoadFileHeader } from '../../src/load/merge-files.ts';
import { shardArrivals, type Shard } from '../../src/load/shard.ts';

const scratch = mkdtempSync(join(tmpdir(), 'afp-load-merge-'));
let written = 0;

function write(text: string): string {
  written += 1;
  const path = join(scratch, `load-${written}.json`);
  writeFileSync(path, text);
  return path;
}

const header = (shard: Shard | null, overrides: Partial<LoadFileHeader> = {}): LoadFileHeader => ({
  scenario: 'escrow-rush',
  target: { name: 'local', source: 'http://127.0.0.1:8080' },
  engine: 'afp',
  seed: '7',
  shard,
  thresholds: { http_req_duration: ['p(99)<200'], http_req_failed: [{ threshold: 'rate<0.01', abortOnFail: true, delayAbortEval: 10_000 }] },
  ...overrides,
});

/** 3 seconds at 100/s on two endpoints, latencies 1–40 ms, one 500 in 25 (deterministic). */
const samples: LoadSample[] = Array.from({ length: 300 }, (_, k) => ({
  endpoint: k % 3 === 0 ? 'escrow.B.create' : 'casino.A.bet',
  intendedStartMs: 10_000 + k * 10,
  endMs: 10_000 + k * 10 + 1 + ((k * 37) % 40),
  status: k % 25 === 0 ? 500 : 200,
  failed: k % 25 === 0,
}));

function recorded(sampled: Iterable<LoadSample>): LoadSnapshot {
  const recorder = new LoadRecorder(10_000);
  for (const sample of sampled) {
    recorder.iterationStarted();
    recorder.record(sample);
    recorder.iterationCompleted();
  }
  recorder.finish(13_100);
  return recorder.snapshot();
}

const shardFile = (shard: Shard, overrides: Partial<LoadFileHeader> = {}): string => write(loadFileJson(header(shard, overrides), recorded(shardArrivals(samples, shard))));

describe('mergeLoadFiles', () => {
  test("three shards merge into what one machine recording everything measured", async () => {
    const paths = [3, 1, 2].map((index) => shardFile({ index, count: 3 }));
    const merged = await mergeLoadFiles(paths);
    expect(merged.ok).toBe(true);
    if (!merged.ok) return;
    const whole = recorded(samples);
    expect(merged.header).toEqual(header(null));
    expect(merged.snapshot.endpoints.map((row) => [row.endpoint, row.requests, row.failed, row.statuses])).toEqual(whole.endpoints.map((row) => [row.endpoint, row.requests, row.failed, row.statuses]));
    expect(merged.snapshot.seconds.map((row) => [row.second, row.requests, row.failed])).toEqual([[0, 100, 4], [1, 100, 4], [2, 100, 4]]);
    expect(merged.snapshot.iterations).toEqual({ started: 300, completed: 300, dropped: 0 });
    expect(percentilesOf(overallHistogram(merged.snapshot))).toEqual(percentilesOf(overallHistogram(whole)));
  });

  test('one unsharded file is its own merge; the file text is byte-stable and reads back', async () => {
    const snapshot = recorded(samples);
    const text = loadFileJson(header(null), snapshot);
    expect(loadFileJson(header(null), snapshot)).toBe(text);
    expect(text.startsWith('{\n  "format": "afp-load/1",\n  "header": {')).toBe(true);
    expect(parseLoadFile(text)).toEqual({ ...snapshot, header: header(null) });
    expect(await mergeLoadFiles([write(text)])).toEqual({ ok: true, header: header(null), snapshot: mergeSnapshots([snapshot]) });
  });

  test('every problem of every file at once, each with its file', async () => {
    const good = JSON.parse(loadFileJson(header({ index: 1, count: 2 }), recorded(shardArrivals(samples, { index: 1, count: 2 })))) as Record<string, unknown> & { endpoints: Record<string, unknown>[]; seconds: Record<string, unknown>[] };
    const notJson = write('{"format": ');
    const shape = write(JSON.stringify({ ...good, format: 'afp-load/2', extra: 1, iterations: { started: -1, completed: 0, dropped: 0 } }));
    const rows = write(
      JSON.stringify({
        ...good,
        endpoints: [{ ...good.endpoints[0], failed: 10_000 }, { ...good.endpoints[1], statuses: { '200': 1 } }, { ...good.endpoints[1], latency: { count: 100, encoded: 'AAAA' } }],
      }),
    );
    const missing = join(scratch, 'no-such-file.json');
    const result = await mergeLoadFiles([notJson, shape, rows, missing]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const errors = result.errors.map((error) => error.replace(scratch, 'DIR'));
    expect(errors[0]).toMatch(/^DIR\/load-\d+\.json: not JSON: /);
    expect(errors.filter((error) => error.includes(shape.replace(scratch, 'DIR')))).toEqual([
      `${shape.replace(scratch, 'DIR')}: format: Invalid input: expected "afp-load/1"`,
      `${shape.replace(scratch, 'DIR')}: iterations.started: Too small: expected number to be >=0`,
      `${shape.replace(scratch, 'DIR')}: (file): Unrecognized key: "extra"`,
    ]);
    const rowsPath = rows.replace(scratch, 'DIR');
    expect(errors.filter((error) => error.startsWith(rowsPath)).map((error) => error.slice(rowsPath.length + 2))).toEqual([
      "endpoint 'escrow.B.create' appears more than once",
      "endpoint 'casino.A.bet': failed 10000 > requests 100",
      "endpoint 'escrow.B.create': statuses add up to 1, not requests 50",
      "endpoint 'escrow.B.create': latency.count 100 is not requests 50",
      "endpoint 'escrow.B.create': latency.encoded is not an HDR histogram",
      "the endpoints' requests (200) differ from the seconds' (150)",
      "the endpoints' failed (10004) differ from the seconds' (6)",
    ]);
    expect(errors.at(-1)).toMatch(/^DIR\/no-such-file\.json: cannot read: ENOENT/);
  });

  test('shards of one run, each once: duplicates, missing shards and other runs refused', async () => {
    const one = shardFile({ index: 1, count: 3 });
    const again = shardFile({ index: 1, count: 3 });
    const duplicate = await mergeLoadFiles([one, again]);
    expect(duplicate).toEqual({ ok: false, errors: [`shard 1/3 is given more than once: ${one}, ${again}`, 'shards 2/3, 3/3 missing: the merge would not be the whole run'] });
    const other = shardFile({ index: 2, count: 3 }, { scenario: 'other', seed: '8' });
    const otherRun = await mergeLoadFiles([one, other]);
    expect(otherRun).toEqual({ ok: false, errors: [`${other}: scenario other differs from ${one}'s escrow-rush`, `${other}: seed 8 differs from ${one}'s 7`] });
    const whole = write(loadFileJson(header(null), recorded(samples)));
    const wholeTwice = await mergeLoadFiles([whole, whole]);
    expect(wholeTwice).toEqual({ ok: false, errors: [`${whole}, ${whole}: not shards of one run (no --shard): merge the files of one run's --shard i/n machines`] });
    expect(await mergeLoadFiles([])).toEqual({ ok: false, errors: ['no load.json file given'] });
  });
});
