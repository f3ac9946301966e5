/**
 * `--out prometheus=URL` and `--out json=FILE`: the run's metrics (metric-series.ts) streamed while
 * it goes — every PUSH_EVERY_MS from the live tally, and once at the end from the final snapshot,
 * so the last values sent are summary.json's figures — to a Prometheus remote-write receiver
 * (remote-write.ts), named as k6's remote-write output names them; and `--out json=FILE` in k6's
 * own point-per-sample JSON format (k6-json.ts), appended every PUSH_EVERY_MS and at the end.
 *
 * Failures are counted, never thrown: a receiver that refuses or does not answer is a note in the
 * run's output, not a failed run. One push at a time per output (a slow receiver skips live pushes
 * rather than piling them up); timestamps strictly increase, as a receiver requires per series.
 * Bounded: at most OUTPUTS_MAX outputs; the series are bounded by the recorder's endpoint limit.
 * Non-goals: other outputs (InfluxDB, StatsD): k6 has them, through `afp export k6`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { LoadRecorder, LoadSample, LoadSnapshot } from '../load-recorder.ts';
import { seriesOf, seriesOfSnapshot, type MetricSeries } from './metric-series.ts';
import { MetricsTally } from './metrics-tally.ts';
import { pushRemoteWrite } from './remote-write.ts';
import { K6JsonStream } from './k6-json.ts';
import { loadRouteMethods } from './endpoint-method.ts';
import type { OutputSpec } from './out-flags.ts';

export const PUSH_EVERY_MS = 5_000;

export { OUTPUTS_MAX, parseOutFlags, type OutFlags, type OutputSpec } from './out-flags.ts';

interface Sink {
  readonly spec: OutputSpec;
  /** A json sink's k6-format stream (k6-json.ts); null for remote write. */
  readonly stream: K6JsonStream | null;
  pushes: number;
  failures: number;
  firstFailure: string | null;
  busy: Promise<void> | null;
}

/** What labels a run's series: its scenario (`default` for a URL run, as k6 names an unnamed one) and the --tag values. */
export interface RunLabelling {
  readonly scenario?: string;
  readonly tags?: Readonly<Record<string, string>>;
}

/**
 * The outputs of one `afp load` run (null for no --out): labelled `job="afp"`, `scenario`, the
 * --tag values, and `testid` (--tag testid=…, else the start time in base 36, so two runs pushed to
 * one receiver stay apart; the notes print it); stamped by `clock`.
 */
export function runMetricsOutputs(
  specs: readonly OutputSpec[],
  clock: { nowMs(): number },
  labelling: RunLabelling = {},
): MetricsOutputs | null {
  if (specs.length === 0) return null;
  const tags = labelling.tags ?? {};
  return new MetricsOutputs({
    specs,
    runLabels: {
      job: 'afp',
      ...tags,
      scenario: labelling.scenario ?? 'default',
      testid: tags['testid'] ?? Math.floor(clock.nowMs()).toString(36),
    },
    nowMs: () => clock.nowMs(),
  });
}

export class MetricsOutputs {
  private readonly sinks: Sink[];
  private readonly tally = new MetricsTally();
  private readonly runLabels: Readonly<Record<string, string>>;
  private readonly nowMs: () => number;
  private readonly everyMs: number;
  private recorder: LoadRecorder | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastTimestampMs = 0;

  constructor(options: {
    specs: readonly OutputSpec[];
    runLabels: Readonly<Record<string, string>>;
    nowMs: () => number;
    everyMs?: number;
  }) {
    this.runLabels = options.runLabels;
    this.sinks = options.specs.map((spec) => ({
      spec,
      stream: spec.kind === 'json' ? new K6JsonStream(spec.file, this.runLabels) : null,
      pushes: 0,
      failures: 0,
      firstFailure: null,
      busy: null,
    }));
    this.nowMs = options.nowMs;
    this.everyMs = options.everyMs ?? PUSH_EVERY_MS;
  }

  /** The JSON-lines files written (listed with the reports). */
  get files(): string[] {
    return this.sinks.flatMap((sink) => (sink.spec.kind === 'json' ? [sink.spec.file] : []));
  }

  /**
   * Empties the JSON-lines files (a run's stream starts with the run), so a bad path is found before
   * the run; loads the route table the series name a route id's method from (endpoint-method.ts).
   */
  async prepare(): Promise<string | null> {
    await loadRouteMethods();
    for (const file of this.files) {
      try {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, '');
      } catch (error) {
        return `--out json=${file}: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    return null;
  }

  start(recorder: LoadRecorder): void {
    this.recorder = recorder;
    this.timer = setInterval(() => this.pushLive(), this.everyMs);
  }

  add(sample: LoadSample): void {
    this.tally.add(sample);
    for (const sink of this.sinks) sink.stream?.add(sample);
  }

  /** One check's result (the recorder counts it; the Prometheus series read the counts). */
  check(name: string, ok: boolean, atMs: number): void {
    for (const sink of this.sinks) sink.stream?.addCheck(name, ok, atMs);
  }

  stopLive(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** The final push, from the run's snapshot; the notes on what was sent (and what failed). */
  async finish(snapshot: LoadSnapshot): Promise<string[]> {
    this.stopLive();
    await Promise.all(this.sinks.map((sink) => sink.busy ?? Promise.resolve()));
    const series = seriesOfSnapshot(snapshot, this.runLabels);
    const timestampMs = this.timestamp();
    await Promise.all(
      this.sinks.map((sink) =>
        sink.stream === null
          ? this.send(sink, series, timestampMs)
          : this.close(sink, sink.stream.finish(snapshot, timestampMs)),
      ),
    );
    return this.sinks.map((sink) => {
      const where = sink.spec.kind === 'prometheus' ? `prometheus ${sink.spec.url}` : `json ${sink.spec.file}`;
      const failed = sink.failures === 0 ? '' : `, ${sink.failures} failed (first: ${sink.firstFailure ?? '?'})`;
      return `metrics to ${where}: ${sink.pushes} pushes, testid ${this.runLabels['testid'] ?? ''}${failed}`;
    });
  }

  private pushLive(): void {
    if (this.recorder === null) return;
    const series = seriesOf(
      this.tally.figures(),
      this.recorder.iterationCounts(),
      this.runLabels,
      this.recorder.checkCounts(),
    );
    const timestampMs = this.timestamp();
    for (const sink of this.sinks) {
      if (sink.busy !== null) continue;
      sink.busy = this.send(sink, series, timestampMs).finally(() => (sink.busy = null));
    }
  }

  /** Now, in whole ms, strictly after the last push's instant. */
  private timestamp(): number {
    this.lastTimestampMs = Math.max(this.lastTimestampMs + 1, Math.floor(this.nowMs()));
    return this.lastTimestampMs;
  }

  private async send(sink: Sink, series: readonly MetricSeries[], timestampMs: number): Promise<void> {
    if (sink.spec.kind !== 'prometheus' || sink.stream !== null) return this.close(sink, sink.stream?.flush() ?? null);
    sink.pushes += 1;
    await this.close(sink, remoteWriteFailure(sink.spec.url, series, timestampMs));
  }

  /** Counts a write's failure on its sink (a json stream counts its appends as pushes). */
  private async close(sink: Sink, written: Promise<string | null> | null): Promise<void> {
    if (written === null) return;
    if (sink.stream !== null) sink.pushes += 1;
    const failure = await written;
    if (failure === null) return;
    sink.failures += 1;
    sink.firstFailure ??= failure;
  }
}

async function remoteWriteFailure(
  url: string,
  series: readonly MetricSeries[],
  timestampMs: number,
): Promise<string | null> {
  const outcome = await pushRemoteWrite(url, series, timestampMs);
  return outcome.ok ? null : outcome.message;
}
