/**
 * An incremental HTTP/1.1 response parser for the load client (http-client.ts): bytes go in as the
 * socket hands them over, whole responses come out (status, the raw head, the body as a Buffer,
 * whether the connection stays open), however the bytes were split across packets.
 *
 * Only what framing needs is read eagerly: the status line, Content-Length, Transfer-Encoding
 * (chunked) and Connection (close, or keep-alive on HTTP/1.0). The other headers stay in the raw
 * head until someone asks (`parseHeaderFields`): a load generator reads most answers' status only.
 * Bodies: by Content-Length, chunked (chunk extensions and trailers skipped), or until the
 * connection closes when neither is given; none for 204, 304 and answers to HEAD. 1xx interim
 * answers are skipped (101, a protocol switch, is refused).
 * Limits: the head (and the trailers) at most HEAD_BYTES_MAX, a chunk-size line at most
 * CHUNK_LINE_BYTES_MAX. A body is kept up to the caller's `bodyBytesMax` and the rest is read and
 * discarded, counted in `bodyBytesReceived` (`truncated` set): a large body is still an answer
 * (k6 counts a 200 of 8 MB as one), and memory stays bounded by the cap, not by the target; a
 * body past BODY_READ_BYTES_MAX (afp's answer limit, client/answer-limits.ts) is not read to its
 * end: an endless body is a `malformed` answer, not a connection drained at line rate forever. A
 * response that breaks the protocol or a limit is an expected failure, returned as its reason;
 * the parser is then dead (the connection is unusable) and says so for every later push.
 * Non-goals: requests, pipelining bookkeeping (the client sends one request per connection at a
 * time), content codings (the client sends no Accept-Encoding).
 */
import { assert } from '../core/assert.ts';
import { ANSWER_BYTES_MAX_DEFAULT } from '../client/answer-limits.ts';

export const HEAD_BYTES_MAX = 64 * 1024;
export const CHUNK_LINE_BYTES_MAX = 1024;
export const BODY_READ_BYTES_MAX = ANSWER_BYTES_MAX_DEFAULT;

export interface ParsedResponse {
  readonly status: number;
  /** The status line and header lines, latin1, without the blank line. */
  readonly head: string;
  /** The body's first `bodyBytesMax` bytes (all of it unless `truncated`). */
  readonly body: Buffer;
  /** Every body byte received, those discarded past `bodyBytesMax` included. */
  readonly bodyBytesReceived: number;
  /** True when the body was longer than `bodyBytesMax`: `body` holds its start only. */
  readonly truncated: boolean;
  /** False when the answer asked to close (or HTTP/1.0 without keep-alive, or a body read until close). */
  readonly keepAlive: boolean;
}

/** A problem with the bytes received: why the response (and the connection) cannot be used. */
type ParseFailure = string;

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'until-close' | 'failed';

interface Framing {
  readonly status: number;
  readonly contentLength: number | null;
  readonly chunked: boolean;
  readonly keepAlive: boolean;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: |$)/;
const DIGITS = /^\d{1,15}$/;
const HEX = /^[0-9a-fA-F]{1,12}$/;
/** A token of a comma-separated Connection list (lower-cased). */
const CLOSE_TOKEN = /(?:^|,)[ \t]*close[ \t]*(?:,|$)/;
const KEEP_ALIVE_TOKEN = /(?:^|,)[ \t]*keep-alive[ \t]*(?:,|$)/;

export class ResponseParser {
  /** Set by the client before each request: the answer to a HEAD has no body, whatever it says. */
  bodyless = false;
  private state: State = 'head';
  private failure: ParseFailure | null = null;
  /** Bytes of an incomplete head, chunk-size line or trailer, kept for the next push. */
  private held: Buffer | null = null;
  private framing: Framing | null = null;
  private head = '';
  private parts: Buffer[] = [];
  private bodyBytes = 0;
  /** Of bodyBytes, those kept in `parts` (at most bodyBytesMax). */
  private keptBytes = 0;
  private remaining = 0;
  private trailerBytes = 0;
  private readonly bodyBytesMax: number;
  private readonly onResponse: (response: ParsedResponse) => void;

  constructor(options: { bodyBytesMax: number; onResponse: (response: ParsedResponse) => void }) {
    assert(
      Number.isSafeInteger(options.bodyBytesMax) && options.bodyBytesMax >= 0,
      'a body limit is a whole number of bytes',
    );
    this.bodyBytesMax = options.bodyBytesMax;
    this.onResponse = options.onResponse;
  }

  /** True between responses: nothing of one has arrived yet. */
  get idle(): boolean {
    return this.state === 'head' && this.held === null;
  }

  /** Feeds the bytes received; calls onResponse for each response completed. Null, or why the bytes cannot be read. */
  push(chunk: Buffer): ParseFailure | null {
    if (this.failure !== null) return this.failure;
    const data = this.held === null ? chunk : Buffer.concat([this.held, chunk]);
    this.held = null;
    let at = 0;
    // Every step consumes bytes or returns: the loop is bounded by the data's length.
    while (at < data.length) {
      const next = this.step(data, at);
      if (typeof next === 'string') return this.fail(next);
      if (next === null) return null;
      assert(next > at, 'a parser step consumes bytes');
      at = next;
    }
    return null;
  }

  /** The connection ended: completes a body read until close; anything else cut short is a failure. */
  end(): ParseFailure | null {
    if (this.failure !== null) return this.failure;
    if (this.state === 'until-close') {
      this.complete(false);
      return null;
    }
    return this.idle ? null : this.fail('the connection closed in the middle of a response');
  }

  private fail(reason: ParseFailure): ParseFailure {
    this.state = 'failed';
    this.failure = reason;
    this.held = null;
    this.parts = [];
    return reason;
  }

  /** One step from `at`: the next offset, null when the rest is held for more bytes, or a failure. */
  private step(data: Buffer, at: number): number | null | ParseFailure {
    switch (this.state) {
      case 'head':
        return this.readHead(data, at);
      case 'length':
      case 'chunk-data':
      case 'until-close':
        return this.readBody(data, at);
      case 'chunk-size':
        return this.readChunkSize(data, at);
      case 'chunk-end':
        return this.readChunkEnd(data, at);
      case 'trailers':
        return this.readTrailer(data, at);
      case 'failed':
        return this.failure ?? 'the parser failed';
    }
  }

  private hold(data: Buffer, at: number, limit: number, what: string): null | ParseFailure {
    if (data.length - at > limit) return `${what} longer than ${limit} bytes`;
    this.held = data.subarray(at);
    return null;
  }

  private readHead(data: Buffer, at: number): number | null | ParseFailure {
    const end = data.indexOf(HEAD_END, at);
    if (end === -1) return this.hold(data, at, HEAD_BYTES_MAX, 'a response head');
    if (end - at > HEAD_BYTES_MAX) return `a response head longer than ${HEAD_BYTES_MAX} bytes`;
    const head = data.toString('latin1', at, end);
    const framing = readFraming(head);
    if (typeof framing === 'string') return framing;
    const next = end + HEAD_END.length;
    if (framing.status < 200) {
      // An interim answer (100 Continue, 103 Early Hints): the real one follows.
      return framing.status === 101 ? 'a protocol switch (101), which the load client does not speak' : next;
    }
    this.head = head;
    this.framing = framing;
    this.bodyBytes = 0;
    this.keptBytes = 0;
    if (this.bodyless || framing.status === 204 || framing.status === 304)
      return this.complete(framing.keepAlive, next);
    if (framing.chunked) {
      this.state = 'chunk-size';
      return next;
    }
    if (framing.contentLength === null) {
      this.state = 'until-close';
      return next;
    }
    if (framing.contentLength === 0) return this.complete(framing.keepAlive, next);
    this.state = 'length';
    this.remaining = framing.contentLength;
    return next;
  }

  private readBody(data: Buffer, at: number): number | ParseFailure {
    const untilClose = this.state === 'until-close';
    const take = untilClose ? data.length - at : Math.min(this.remaining, data.length - at);
    this.bodyBytes += take;
    if (this.bodyBytes > BODY_READ_BYTES_MAX)
      return `a body longer than ${BODY_READ_BYTES_MAX} bytes (afp's answer limit): not read to its end`;
    // Past the cap the bytes are counted and dropped: the answer is still read to its end.
    const keep = Math.min(take, this.bodyBytesMax - this.keptBytes);
    if (keep > 0) {
      this.parts.push(data.subarray(at, at + keep));
      this.keptBytes += keep;
    }
    if (untilClose) return at + take;
    this.remaining -= take;
    if (this.remaining > 0) return at + take;
    if (this.state === 'chunk-data') {
      this.state = 'chunk-end';
      return at + take;
    }
    return this.complete(this.framing?.keepAlive ?? false, at + take);
  }

  private readChunkSize(data: Buffer, at: number): number | null | ParseFailure {
    const end = data.indexOf(CRLF, at);
    if (end === -1) return this.hold(data, at, CHUNK_LINE_BYTES_MAX, 'a chunk-size line');
    if (end - at > CHUNK_LINE_BYTES_MAX) return `a chunk-size line longer than ${CHUNK_LINE_BYTES_MAX} bytes`;
    const line = data.toString('latin1', at, end);
    const sizeText = (line.split(';', 1)[0] ?? '').trim();
    if (!HEX.test(sizeText)) return `a chunk size that is not hexadecimal: '${line.slice(0, 40)}'`;
    const size = Number.parseInt(sizeText, 16);
    if (size === 0) {
      this.state = 'trailers';
      this.trailerBytes = 0;
    } else {
      this.state = 'chunk-data';
      this.remaining = size;
    }
    return end + CRLF.length;
  }

  private readChunkEnd(data: Buffer, at: number): number | null | ParseFailure {
    if (data.length - at < CRLF.length) return this.hold(data, at, CRLF.length, 'a chunk end');
    if (data[at] !== 13 || data[at + 1] !== 10) return 'a chunk not followed by CRLF';
    this.state = 'chunk-size';
    return at + CRLF.length;
  }

  private readTrailer(data: Buffer, at: number): number | null | ParseFailure {
    const end = data.indexOf(CRLF, at);
    if (end === -1) return this.hold(data, at, HEAD_BYTES_MAX - this.trailerBytes, 'the trailers');
    if (end === at) return this.complete(this.framing?.keepAlive ?? false, at + CRLF.length);
    this.trailerBytes += end + CRLF.length - at;
    return this.trailerBytes > HEAD_BYTES_MAX ? `trailers longer than ${HEAD_BYTES_MAX} bytes` : end + CRLF.length;
  }

  private complete(keepAlive: boolean, next = 0): number {
    const framing = this.framing;
    assert(framing !== null, 'a response completes after its head');
    const parts = this.parts;
    const body = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, this.keptBytes);
    const response: ParsedResponse = {
      status: framing.status,
      head: this.head,
      body,
      bodyBytesReceived: this.bodyBytes,
      truncated: this.bodyBytes > this.keptBytes,
      keepAlive,
    };
    this.state = 'head';
    this.framing = null;
    this.head = '';
    this.parts = [];
    this.bodyBytes = 0;
    this.keptBytes = 0;
    this.onResponse(response);
    return next;
  }
}

/** The status line and the three headers framing needs; the rest is skipped over. */
function readFraming(head: string): Framing | ParseFailure {
  const firstEnd = head.indexOf('\r\n');
  const statusLine = firstEnd === -1 ? head : head.slice(0, firstEnd);
  const match = STATUS_LINE.exec(statusLine);
  if (match === null) return `not an HTTP/1.x status line: '${statusLine.slice(0, 60)}'`;
  const http10 = match[1] === '0';
  let contentLength: number | null = null;
  let chunked = false;
  let connection = '';
  // One pass over the header lines (the head is bounded, so is the pass).
  for (let at = firstEnd === -1 ? head.length : firstEnd + 2; at < head.length;) {
    const lineEnd = head.indexOf('\r\n', at);
    const end = lineEnd === -1 ? head.length : lineEnd;
    const colon = head.indexOf(':', at);
    if (colon === -1 || colon > end || colon === at)
      return `a header line without a name: '${head.slice(at, Math.min(end, at + 60))}'`;
    // Only names of the three lengths that start with c or t can frame the body; the rest are skipped unread.
    const nameLength = colon - at;
    const first = head.charCodeAt(at) | 0x20;
    if ((nameLength === 14 || nameLength === 17 || nameLength === 10) && (first === 0x63 || first === 0x74)) {
      const name = head.slice(at, colon).toLowerCase();
      const value = head.slice(colon + 1, end).trim();
      if (name === 'content-length') {
        if (!DIGITS.test(value)) return `a Content-Length that is not a number: '${value.slice(0, 40)}'`;
        if (contentLength !== null && contentLength !== Number(value)) return 'two different Content-Length headers';
        contentLength = Number(value);
      } else if (name === 'transfer-encoding') {
        chunked = value.toLowerCase().split(',').at(-1)?.trim() === 'chunked';
      } else if (name === 'connection') {
        connection = `${connection},${value.toLowerCase()}`;
      }
    }
    at = end + 2;
  }
  // No Connection header: HTTP/1.1 stays open, HTTP/1.0 closes. Tokens are matched in the joined list, not split out.
  const keepAlive = http10 ? KEEP_ALIVE_TOKEN.test(connection) : !CLOSE_TOKEN.test(connection);
  // Transfer-Encoding wins over Content-Length (RFC 9112 6.3).
  return { status: Number(match[2]), contentLength: chunked ? null : contentLength, chunked, keepAlive };
}

/** Every header of a raw head, names lower-cased, values trimmed, repeated ones joined with ', ' (as node:http does). */
export function parseHeaderFields(head: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const lines = head.split('\r\n');
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index] as string;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    fields[name] = fields[name] === undefined ? value : `${fields[name]}, ${value}`;
  }
  return fields;
}
