/**
 * Request-body reading shared by the HTTP server and the in-process transport's raw-body path, so
 * both answer bad bodies alike (DESIGN: what passes in-process passes live).
 *
 * Order: too large (413) before anything else, then an empty body (= no body, whatever its
 * content type), then the content type (415 unless application/json), then nesting deeper than
 * JSON_DEPTH_MAX (400: rows and copies walk values recursively, and a parameter thousands of
 * levels deep overflowed the stack, a 500), then the JSON text (400). The depth is measured on
 * the text in one pass, before parsing, without recursion.
 * All three statuses carry the code BAD_REQUEST (docs/decisions/serve.md "Serve and transports").
 * The result is a value, never a throw; the dispatcher answers `failure` at its step 5.
 * The bytes come off the socket through `readBodyBytes`, the one stream reader (the API server's and
 * the MCP door's), which buffers at most `maxBytes` and drains at most `drainBytes` more, and gives
 * up on a body that is not whole within `timeouts.totalMs` of the read's start or that pauses longer
 * than `timeouts.idleMs` between chunks (docs/decisions/serve.md "Availability"): a body sent one
 * byte every few seconds must not hold its connection, its buffer and its in-flight slot for long.
 */
import type { IncomingMessage } from 'node:http';
import { assert } from '../core/assert.ts';
import { fail, failWithStatus, type Failure } from '../core/errors.ts';

/** Deepest nesting of arrays and objects a body may have (escrow conditions use 4 levels under the body). */
export const JSON_DEPTH_MAX = 32;

export type BodyReadResult = { readonly body: unknown } | { readonly failure: Failure };

/** The failure for a body over `maxBytes`; the server uses it too when it stops reading early. */
export function bodyTooLarge(maxBytes: number): Failure {
  return failWithStatus(413, 'BAD_REQUEST', `request body is larger than ${maxBytes} bytes`);
}

/** True when a Content-Type header names JSON: `application/json`, parameters (charset) allowed. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semicolonAt = contentType.indexOf(';');
  const mediaType = (semicolonAt < 0 ? contentType : contentType.slice(0, semicolonAt)).trim().toLowerCase();
  return mediaType === 'application/json';
}

export function readJsonBody(text: string, contentType: string | undefined, maxBytes: number): BodyReadResult {
  if (utf8Exceeds(text, maxBytes)) return { failure: bodyTooLarge(maxBytes) };
  if (text.length === 0) return { body: undefined };
  if (!isJsonContentType(contentType)) {
    return {
      failure: failWithStatus(
        415,
        'BAD_REQUEST',
        `request body must be sent with Content-Type: application/json (got ${contentType === undefined ? 'none' : `'${contentType.slice(0, 100)}'`})`,
      ),
    };
  }
  const tooDeep = jsonTooDeep(text);
  if (tooDeep !== null) return { failure: tooDeep };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch (error) {
    return {
      failure: fail('BAD_REQUEST', `malformed JSON body: ${error instanceof Error ? error.message : String(error)}`),
    };
  }
}

/**
 * True when `text` takes more than `maxBytes` bytes in UTF-8. A UTF-16 code unit takes 1 to 3
 * bytes (a surrogate pair 4 for its 2 units), so the length bounds the byte count on both sides
 * and only a text between the bounds is measured: an oversized bad-input body is refused without
 * walking its megabytes.
 */
export function utf8Exceeds(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) return true;
  if (text.length * 3 <= maxBytes) return false;
  return Buffer.byteLength(text, 'utf8') > maxBytes;
}

/**
 * The 400 for a JSON text nesting arrays or objects deeper than JSON_DEPTH_MAX, else null. Counts
 * brackets outside strings (a backslash escapes the next character inside one); malformed text is
 * left to JSON.parse.
 */
export function jsonTooDeep(text: string): Failure | null {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > JSON_DEPTH_MAX) return fail('BAD_REQUEST', `request body nests deeper than ${JSON_DEPTH_MAX} levels`);
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return null;
}

/** How long a body may take: whole within `totalMs` of the read's start, no pause between chunks over `idleMs`. */
export interface BodyTimeouts {
  readonly totalMs: number;
  readonly idleMs: number;
}

/** Calls `callback` after `delayMs` unless the returned cancel runs first (the edge passes a real timer). */
export type BodyTimer = (callback: () => void, delayMs: number) => () => void;

/**
 * afp serve's bounds: a body is at most config.maxBodyBytes (64 KiB) plus a 1 MiB drain, which
 * even a 1 Mbit/s link sends in 10 s; a 5 s silence in the middle of a body is a stalled client,
 * not a slow network (TCP's retransmissions recover within a few seconds).
 */
export const BODY_TIMEOUTS_DEFAULT: BodyTimeouts = { totalMs: 10_000, idleMs: 5_000 };

/** The message of a body that did not arrive in time (the edge answers it 408). */
export function bodyTimeoutMessage(timeouts: BodyTimeouts, reason: 'total' | 'idle'): string {
  return reason === 'total'
    ? `the request body was not received within ${timeouts.totalMs} ms`
    : `the request body stalled for more than ${timeouts.idleMs} ms`;
}

/**
 * A body as read off the socket: its bytes, too large (drained: the connection may stay), abandoned
 * (not drained: close it), not received in time (timed out: answer 408 and close), or the client
 * went away.
 */
export type BodyBytes =
  | { readonly kind: 'read'; readonly bytes: Buffer }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'abandoned' }
  | { readonly kind: 'timed-out'; readonly reason: 'total' | 'idle' }
  | { readonly kind: 'failed' };

const EMPTY_BODY: BodyBytes = { kind: 'read', bytes: Buffer.alloc(0) };

/**
 * The body of a request already whole in its stream's buffer, at once: the parser met the
 * message's end (a GET, or a small body sent with the headers, once the loop has turned) and no one
 * reads the stream yet. Classified as readBodyBytes would (too large past `maxBytes`, abandoned past
 * `maxBytes + drainBytes`), without its listeners, timers and promise: a read costs its server
 * about a tenth less. Null when more may come: then readBodyBytes waits for it.
 */
export function bufferedBody(
  request: IncomingMessage,
  limits: { readonly maxBytes: number; readonly drainBytes: number },
): BodyBytes | null {
  if (!request.complete || request.readableFlowing !== null || request.destroyed || request.readableEncoding !== null)
    return null;
  const size = request.readableLength;
  if (size > limits.maxBytes + limits.drainBytes) return { kind: 'abandoned' };
  if (size > limits.maxBytes) return { kind: 'too-large' };
  if (size === 0) return EMPTY_BODY;
  // Ended and unencoded: read() gives the whole buffer as one Buffer.
  const bytes: unknown = request.read();
  assert(Buffer.isBuffer(bytes) && bytes.length === size, 'a whole, unencoded stream reads as one buffer');
  return { kind: 'read', bytes };
}

/**
 * Reads a request's body, buffering at most `maxBytes`; past them it reads on without keeping
 * anything up to `drainBytes` more (so a 413 can be answered on a connection still in step), then
 * gives up (`abandoned`). A declared Content-Length past both is abandoned before a byte is read.
 * With `timeouts`, a body not whole in time is `timed-out` (the caller answers and closes: the rest
 * of the body is never read, so the request is never run).
 */
export function readBodyBytes(
  request: IncomingMessage,
  limits: {
    readonly maxBytes: number;
    readonly drainBytes: number;
    readonly timeouts?: { readonly bounds: BodyTimeouts; readonly timer: BodyTimer };
  },
): Promise<BodyBytes> {
  const { maxBytes, drainBytes, timeouts } = limits;
  const noTimer = (): void => undefined;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    let cancelTotal = noTimer;
    let cancelIdle = noTimer;
    const finish = (result: BodyBytes): void => {
      if (done) return;
      done = true;
      cancelTotal();
      cancelIdle();
      request.off('data', onData);
      resolve(result);
    };
    const armIdle = (): void => {
      if (timeouts === undefined) return;
      cancelIdle();
      cancelIdle = timeouts.timer(() => finish({ kind: 'timed-out', reason: 'idle' }), timeouts.bounds.idleMs);
    };
    const onData = (chunk: Buffer): void => {
      armIdle();
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (size > maxBytes + drainBytes) finish({ kind: 'abandoned' });
    };
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > maxBytes + drainBytes) return finish({ kind: 'abandoned' });
    if (timeouts !== undefined) {
      cancelTotal = timeouts.timer(() => finish({ kind: 'timed-out', reason: 'total' }), timeouts.bounds.totalMs);
      armIdle();
    }
    request.on('data', onData);
    request.once('end', () =>
      finish(size > maxBytes ? { kind: 'too-large' } : { kind: 'read', bytes: Buffer.concat(chunks, size) }),
    );
    request.once('error', () => finish({ kind: 'failed' }));
    request.once('close', () => finish({ kind: 'failed' }));
  });
}
