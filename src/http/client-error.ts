/**
 * The answer to a request Node's HTTP parser refuses before any handler sees it (the server's
 * `clientError` event): oversized headers, a bad header name, conflicting Content-Length, a
 * garbled request line. Node's default answer is a status line with an empty body; this writes a
 * complete HTTP/1.1 response with a JSON error in the spec's shape (`{ error, code }`, code
 * BAD_REQUEST like every transport-level failure) and closes the connection (destroyed once the
 * answer is written): the parser's state is unknown, so nothing more is read from it.
 * Nothing is written when the socket is no longer writable (the client went away) or a response
 * on it has already begun (its bytes would corrupt that one); the socket is then only destroyed.
 * Non-goals: counting these requests against the rate limiter — no request was ever parsed, so
 * there is no identity to charge (the connection is closed instead).
 */
import type { Duplex } from 'node:stream';

/** Status, reason phrase and message for a parser error code (anything else: 400). */
const ANSWERS: Readonly<Record<string, readonly [number, string, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'request headers are too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large', 'chunk extensions are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'the request was not received in time'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'Request Timeout', 'the request headers were not received in time'],
};
const BAD_REQUEST: readonly [number, string, string] = [400, 'Bad Request', 'malformed HTTP request'];
/** Parser reasons are short; a bound keeps an answer small whatever the error says. */
const REASON_CHARS_MAX = 200;

interface ParserError extends Error {
  readonly code?: string;
  readonly reason?: string;
}

/** The server's `clientError` listener. */
export function answerClientError(error: ParserError, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const [status, phrase, message] = ANSWERS[error.code ?? ''] ?? BAD_REQUEST;
  const detail =
    typeof error.reason === 'string' && error.reason !== '' ? `: ${error.reason.slice(0, REASON_CHARS_MAX)}` : '';
  const body = JSON.stringify({ error: `${message}${detail}`, code: 'BAD_REQUEST' });
  // Destroyed once written, not only ended: an HTTP server's sockets allow half-open connections,
  // so after `end` a client that keeps sending held the socket, and a request whose body timed out
  // (Node's requestTimeout) held its in-flight slot, for as long as the client liked.
  socket.end(
    `HTTP/1.1 ${status} ${phrase}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
