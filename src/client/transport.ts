/**
 * Transport: the one seam between afp's typed client and a platform. A transport is a function
 * from a request to a response (Hono's client idea), so the same agents, checks, replay and bench
 * run in-process (src/client/in-process.ts: the dispatcher, no sockets, no JSON text) or live
 * (src/client/http-transport.ts: node:http keep-alive against base URLs, one per mount).
 *
 * Invariants: header names are lower-case both ways; `body` is a JSON value (undefined = no body);
 * `rawBody` exists only to send bad input (malformed JSON, a wrong content type, an oversized body)
 * and goes through the same body reader on both transports (src/http/body.ts).
 * A transport rejects only for transport trouble (network, timeout, a non-JSON answer unless it
 * keeps those as `text`) or a bug; every HTTP status, 4xx and 5xx included, is a resolved response.
 */
import type { HttpMethod, Mount } from '../http/route.ts';

export type { HttpMethod, Mount } from '../http/route.ts';

/**
 * A method a transport sends: the platform's route methods, and the other methods of HTTP a load
 * test of any URL may send (`afp load URL --method HEAD`). A platform answers the others 405.
 */
export type WireMethod = HttpMethod | 'HEAD' | 'PATCH' | 'OPTIONS';

export interface TransportRequest {
  readonly mount: Mount;
  readonly method: WireMethod;
  /** Path without the query string; parameters already URL-encoded. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  /** Lower-case names: 'authorization', 'x-forwarded-for'. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON value; undefined = no body. */
  readonly body?: unknown;
  /** Raw body text instead of `body` (bad-input tests: malformed JSON, wrong content type). */
  readonly rawBody?: { readonly text: string; readonly contentType: string };
}

export interface TransportResponse {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON (undefined when `text` is set). */
  readonly body: unknown;
  /**
   * The answer's text when it was not JSON; set only by a transport told to keep such answers
   * (httpTransport `nonJson: 'keep'`: live reads, where a non-JSON answer is a finding or a
   * "not afp serve" sign, not an exception). Any other transport rejects instead.
   */
  readonly text?: string;
  /** Set (to the limit) when the answer's body was longer than the transport reads (httpTransport `answerBytesMax`): body undefined. */
  readonly bodyOverBytes?: number;
  /** Set (to the limit) when the answer's JSON was nested deeper than afp reads (bounded-json.ts): body undefined. */
  readonly bodyTooDeep?: number;
  /** Set (to the limit) when the answer's JSON held more values than afp reads (bounded-json.ts): body undefined. */
  readonly bodyOverValues?: number;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** Base URL per mount: 'api' is the shared style-B api_url, the others style A's own addresses. */
export type MountUrls = Partial<Record<Mount, string>>;
