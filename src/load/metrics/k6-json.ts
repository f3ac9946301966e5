/**
 * `afp load --out json=FILE` in k6's own JSON output format: one line per metric declaration
 * (`{"type":"Metric","data":{"name","type","contains","thresholds","submetrics"},"metric"}`) and one
 * line per sample (`{"type":"Point","data":{"time","value","tags"},"metric"}`), so the tools that
 * read `k6 run --out json` (jq recipes, k6's own converters) read afp's runs. Per request: an
 * `http_reqs` point of 1, an `http_req_duration` point of its latency in ms (from the intended
 * start, afp's coordinated-omission-correct figure) and an `http_req_failed` point of 0 or 1, each
 * tagged `method`, `name`, `status`, `expected_response`, `scenario` and the run's labels (`testid`
 * and the --tag values). At the end: one `iterations` and one `dropped_iterations` point carrying
 * the run's totals (a counter's points add up; k6 writes one per iteration). A URL test's checks
 * are streamed as k6 writes them: a `checks` point of 1 (passed) or 0 per check per answer, tagged
 * `check` and the run's labels; a scenario run's agent checks are counted only (summary.json and
 * the Prometheus series' k6_checks_rate hold them).
 * An engine that hands no samples over (autocannon) gets its requests as one `http_reqs` point per
 * endpoint and status carrying the count, at the end.
 *
 * Bounded: points wait in memory at most BUFFERED_LINES_MAX lines before they are appended; one
 * append at a time, in order. Failures are returned to the caller (a note), never thrown.
 */
import { appendFile } from 'node:fs/promises';
import type { LoadSample, LoadSnapshot } from '../load-recorder.ts';
import { sampleMicros } from '../load-recorder.ts';
import { methodOf } from './endpoint-method.ts';

export const BUFFERED_LINES_MAX = 20_000;

const DECLARATIONS: ReadonlyArray<readonly [string, string, string]> = [
  ['http_reqs', 'counter', 'default'],
  ['http_req_duration', 'trend', 'time'],
  ['http_req_failed', 'rate', 'default'],
  ['iterations', 'counter', 'default'],
  ['dropped_iterations', 'counter', 'default'],
  ['checks', 'rate', 'default'],
];

const declaration = ([name, type, contains]: readonly [string, string, string]): string =>
  JSON.stringify({ type: 'Metric', data: { name, type, contains, thresholds: [], submetrics: null }, metric: name });

const point = (metric: string, timeMs: number, value: number, tags: Readonly<Record<string, string>>): string =>
  JSON.stringify({ type: 'Point', data: { time: new Date(timeMs).toISOString(), value, tags }, metric });

export class K6JsonStream {
  private readonly file: string;
  private readonly runLabels: Readonly<Record<string, string>>;
  private lines: string[] = DECLARATIONS.map(declaration);
  private samples = 0;
  private writing: Promise<string | null> = Promise.resolve(null);
  private failure: string | null = null;

  constructor(file: string, runLabels: Readonly<Record<string, string>>) {
    this.file = file;
    this.runLabels = runLabels;
  }

  /** One request's three points, appended once enough are waiting. */
  add(sample: LoadSample): void {
    this.samples += 1;
    const failed = sample.failed ? 1 : 0;
    const tags = {
      ...this.runLabels,
      method: methodOf(sample.endpoint),
      name: sample.endpoint,
      status: String(sample.status),
      expected_response: sample.failed ? 'false' : 'true',
    };
    this.lines.push(
      point('http_reqs', sample.endMs, 1, tags),
      point('http_req_duration', sample.endMs, sampleMicros(sample) / 1_000, tags),
      point('http_req_failed', sample.endMs, failed, tags),
    );
    if (this.lines.length >= BUFFERED_LINES_MAX) void this.flush();
  }

  /** One check's result: a `checks` point of 1 or 0. */
  addCheck(name: string, ok: boolean, atMs: number): void {
    this.lines.push(point('checks', atMs, ok ? 1 : 0, { ...this.runLabels, check: name }));
    if (this.lines.length >= BUFFERED_LINES_MAX) void this.flush();
  }

  /** Appends what waits; resolves with the first failure so far (null: none). */
  flush(): Promise<string | null> {
    if (this.lines.length === 0) return this.writing;
    const text = `${this.lines.join('\n')}\n`;
    this.lines = [];
    this.writing = this.writing.then(async () => {
      if (this.failure !== null) return this.failure;
      try {
        await appendFile(this.file, text);
      } catch (error) {
        this.failure = error instanceof Error ? error.message : String(error);
      }
      return this.failure;
    });
    return this.writing;
  }

  /** The run's totals at `endMs` (and its requests, when no sample came), then everything appended. */
  finish(snapshot: LoadSnapshot, endMs: number): Promise<string | null> {
    if (this.samples === 0) this.requestTotals(snapshot, endMs);
    this.lines.push(point('iterations', endMs, snapshot.iterations.completed, this.runLabels));
    this.lines.push(point('dropped_iterations', endMs, snapshot.iterations.dropped, this.runLabels));
    return this.flush();
  }

  private requestTotals(snapshot: LoadSnapshot, endMs: number): void {
    for (const row of snapshot.endpoints)
      for (const [status, count] of Object.entries(row.statuses))
        this.lines.push(
          point('http_reqs', endMs, count, {
            ...this.runLabels,
            method: methodOf(row.endpoint),
            name: row.endpoint,
            status,
          }),
        );
  }
}
