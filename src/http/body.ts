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
 * the MCP door's), which buffers at most `maxBytes` and drains at most `drainBytes` more.
 */
import type { IncomingMessage } from 'node:http';
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

/** A body as read off the socket: its bytes, too large (drained: the connection may stay), abandoned (not drained: close it), or the client went away. */
export type BodyBytes =
  | { readonly kind: 'read'; readonly bytes: Buffer }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'abandoned' }
  | { readonly kind: 'failed' };

/**
 * Reads a request's body, buffering at most `maxBytes`; past them it reads on without keeping
 * anything up to `drainBytes` more (so a 413 can be answered on a connection still in step), then
 * gives up (`abandoned`). A declared Content-Length past both is abandoned before a byte is read.
 */
export function readBodyBytes(
  request: IncomingMessage,
  limits: { readonly maxBytes: number; readonly drainBytes: number },
): Promise<BodyBytes> {
  const { maxBytes, drainBytes } = limits;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyBytes): void => {
      if (done) return;
      done = true;
      request.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (size > maxBytes + drainBytes) finish({ kind: 'abandoned' });
    };
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > maxBytes + drainBytes) return finish({ kind: 'abandoned' });
    request.on('data', onData);
    request.once('end', () =>
      finish(size > maxBytes ? { kind: 'too-large' } : { kind: 'read', bytes: Buffer.concat(chunks, size) }),
    );
    request.once('error', () => finish({ kind: 'failed' }));
    request.once('close', () => finish({ kind: 'failed' }));
  });
}
