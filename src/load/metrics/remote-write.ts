/**
 * Prometheus remote write 1.0 (the wire format every remote-write receiver takes: Prometheus with
 * --web.enable-remote-write-receiver, Mimir, Thanos receive, VictoriaMetrics): a protobuf
 * `prometheus.WriteRequest`, Snappy-compressed in the block format, POSTed with
 * `Content-Encoding: snappy`, `Content-Type: application/x-protobuf` and
 * `X-Prometheus-Remote-Write-Version: 0.1.0`.
 *
 *   message WriteRequest { repeated TimeSeries timeseries = 1; }
 *   message TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
 *   message Label        { string name = 1; string value = 2; }
 *   message Sample       { double value = 1; int64 timestamp = 2; }   // timestamp: ms since the epoch
 *
 * Four messages of two field kinds: encoded here by hand (varints and length-delimited fields)
 * rather than through a protobuf library and a .proto file. Snappy comes from snappyjs. Labels
 * are sorted by name with `__name__` among them, as the protocol requires.
 * Sending: one request at a time, a timeout on each; a failure is returned, never thrown (a
 * receiver that is down does not stop a load run).
 */
import snappy from 'snappyjs';
import type { MetricSeries } from './metric-series.ts';

export const REMOTE_WRITE_TIMEOUT_MS = 5_000;
/** Bigger pushes are a bug (the endpoints and statuses are bounded): the receiver would refuse them anyway. */
export const REMOTE_WRITE_BYTES_MAX = 32 * 1024 * 1024;

class ProtoWriter {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  varint(value: number | bigint): void {
    let rest = BigInt.asUintN(64, BigInt(value));
    const bytes: number[] = [];
    while (rest >= 0x80n) {
      bytes.push(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    bytes.push(Number(rest));
    this.push(Uint8Array.from(bytes));
  }

  tag(field: number, wireType: 0 | 1 | 2): void {
    this.varint((field << 3) | wireType);
  }

  bytes(field: number, bytes: Uint8Array): void {
    this.tag(field, 2);
    this.varint(bytes.length);
    this.push(bytes);
  }

  string(field: number, text: string): void {
    this.bytes(field, new TextEncoder().encode(text));
  }

  double(field: number, value: number): void {
    this.tag(field, 1);
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, value, true);
    this.push(bytes);
  }

  int64(field: number, value: number): void {
    this.tag(field, 0);
    this.varint(BigInt(value));
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

function labelsOf(series: MetricSeries): [string, string][] {
  return [['__name__', series.name] as [string, string], ...Object.entries(series.labels)].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
}

/** The protobuf WriteRequest of `series`, each with one sample at `timestampMs`. */
export function encodeWriteRequest(series: readonly MetricSeries[], timestampMs: number): Uint8Array {
  const request = new ProtoWriter();
  for (const one of series) {
    const timeSeries = new ProtoWriter();
    for (const [name, value] of labelsOf(one)) {
      const label = new ProtoWriter();
      label.string(1, name);
      label.string(2, value);
      timeSeries.bytes(1, label.finish());
    }
    const sample = new ProtoWriter();
    sample.double(1, one.value);
    sample.int64(2, Math.floor(timestampMs));
    timeSeries.bytes(2, sample.finish());
    request.bytes(1, timeSeries.finish());
  }
  return request.finish();
}

export type PushOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** POSTs `series` at `timestampMs` to a remote-write URL; the failure, if any, as a message. */
export async function pushRemoteWrite(
  url: string,
  series: readonly MetricSeries[],
  timestampMs: number,
): Promise<PushOutcome> {
  const body = snappy.compress(encodeWriteRequest(series, timestampMs));
  if (body.length > REMOTE_WRITE_BYTES_MAX)
    return { ok: false, message: `a push of ${body.length} bytes is over ${REMOTE_WRITE_BYTES_MAX}` };
  try {
    const answer = await fetch(url, {
      method: 'POST',
      headers: {
        'content-encoding': 'snappy',
        'content-type': 'application/x-protobuf',
        'x-prometheus-remote-write-version': '0.1.0',
        'user-agent': 'afp-load',
      },
      body,
      signal: AbortSignal.timeout(REMOTE_WRITE_TIMEOUT_MS),
    });
    const text = await answer.text();
    return answer.ok
      ? { ok: true }
      : { ok: false, message: `${url} answered ${answer.status}: ${text.slice(0, 200).trim()}` };
  } catch (error) {
    return { ok: false, message: `${url}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
