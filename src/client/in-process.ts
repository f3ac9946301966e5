/**
 * In-process transport: hands a request straight to the dispatcher, the same single request path
 * `afp serve` mounts, with the time of the injected clock. No sockets, no Request objects and no
 * JSON text on the normal path (the hot path of simulations).
 *
 * What stays identical to HTTP: the originating IP (the X-Forwarded-For address, else 127.0.0.1, as
 * a server started with `--trust-proxy 127.0.0.1/32` reads the one address afp's tools send; the
 * in-process caller is trusted whole, so of a list it takes the first entry), raw bodies (read by src/http/body.ts, the server's own
 * reader), the content-type header of the answer. With `checkJsonRoundTrip` (tests) every answer
 * is passed through JSON text and must come back equal: a body that HTTP would change (undefined
 * fields, bigint, NaN) is a bug and rejects.
 * Hot path: the request itself is the dispatcher's request (same shape: no copy per request),
 * with the IP beside it; only a raw body makes a new one, carrying the body as read. The
 * dispatcher's answer is handed back as is (it already carries the content type).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Clock } from '../core/clock.ts';
import { readJsonBody } from '../http/body.ts';
import { DEFAULT_IP, firstForwarded } from '../http/client-ip.ts';
import type { DispatchRequest, Dispatcher } from '../http/dispatcher.ts';
import type { Transport, TransportRequest, TransportResponse } from './transport.ts';

export interface InProcessOptions {
  readonly dispatcher: Dispatcher;
  readonly clock: Clock;
  /** Debug: round-trip every answer through JSON text and reject when it changes. */
  readonly checkJsonRoundTrip?: boolean;
}

export function inProcessTransport(options: InProcessOptions): Transport {
  const { dispatcher, clock } = options;
  const maxBodyBytes = dispatcher.platform.config.maxBodyBytes;
  const roundTrip = options.checkJsonRoundTrip === true;
  return (request: TransportRequest): Promise<TransportResponse> => {
    try {
      const ip = firstForwarded(request.headers?.['x-forwarded-for']) ?? DEFAULT_IP;
      const rawBody = request.rawBody;
      const response = dispatcher.dispatch(
        rawBody === undefined ? request : withBodyRead(request, rawBody, maxBodyBytes),
        clock.nowMs(),
        ip,
      );
      // The dispatcher's answer already is a fresh TransportResponse (content-type included);
      // handing it over as is saves a copy per request on the simulator's hot path.
      if (!roundTrip) return Promise.resolve(response);
      return Promise.resolve({
        status: response.status,
        headers: response.headers,
        body: jsonRoundTrip(response.body, request),
      });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
}

/** The request with its raw body read as the server reads it: the parsed body, or why it failed. */
function withBodyRead(
  request: TransportRequest,
  rawBody: NonNullable<TransportRequest['rawBody']>,
  maxBodyBytes: number,
): DispatchRequest {
  if (request.body !== undefined) throw new Error('a transport request carries either body or rawBody, not both');
  const { mount, method, path, query, headers } = request;
  const read = readJsonBody(rawBody.text, rawBody.contentType, maxBodyBytes);
  return 'failure' in read
    ? { mount, method, path, query, headers, bodyFailure: read.failure }
    : { mount, method, path, query, headers, body: read.body };
}

function jsonRoundTrip(body: unknown, request: TransportRequest): unknown {
  const copy = JSON.parse(JSON.stringify(body)) as unknown;
  if (!isDeepStrictEqual(copy, body)) {
    throw new Error(
      `response body of ${request.method} ${request.mount}:${request.path} changes through JSON text (undefined, NaN or a non-plain value)`,
    );
  }
  return copy;
}
