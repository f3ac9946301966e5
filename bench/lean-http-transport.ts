/**
 * A lean HTTP transport for the benchmark: node:http over keep-alive sockets (at most
 * `maxSockets` per mount), JSON in and out, a timeout on every request. Why not the project's
 * fetch transport: on a small shared machine fetch's own CPU cost per request is of the same
 * order as the server's, so the HTTP phase would measure the client; this one costs less.
 * Same contract as src/client/transport.ts: any JSON answer resolves, whatever its status;
 * a network error, a timeout or a non-JSON answer rejects.
 * Non-goals: raw bodies (the mix's bad-input requests keep their raw text: sent as is).
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { MountUrls, Transport, TransportRequest, TransportResponse } from '../src/client/transport.ts';

export interface LeanTransport {
  readonly transport: Transport;
  close(): void;
}

export function leanHttpTransport(options: { urls: MountUrls; maxSockets: number; timeoutMs: number }): LeanTransport {
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets });
  const bases = new Map<string, URL>();
  for (const [mount, url] of Object.entries(options.urls)) if (url !== undefined) bases.set(mount, new URL(url));
  const transport: Transport = (request) => {
    const base = bases.get(request.mount);
    if (base === undefined) return Promise.reject(new Error(`no URL for mount '${request.mount}'`));
    return send(agent, base, request, options.timeoutMs);
  };
  return { transport, close: () => agent.destroy() };
}

function send(agent: Agent, base: URL, request: TransportRequest, timeoutMs: number): Promise<TransportResponse> {
  const { text, contentType } = bodyOf(request);
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (contentType !== undefined) headers['content-type'] = contentType;
  const search = request.query === undefined ? '' : new URLSearchParams(request.query).toString();
  const path = search === '' ? request.path : `${request.path}?${search}`;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { agent, hostname: base.hostname, port: base.port, method: request.method, path, headers, timeout: timeoutMs },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const answer = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({
              status: response.statusCode ?? 0,
              headers: flatHeaders(response.headers),
              body: JSON.parse(answer) as unknown,
            });
          } catch {
            reject(new Error(`${request.method} ${path} answered ${response.statusCode ?? 0} with a non-JSON body`));
          }
        });
      },
    );
    outgoing.on('timeout', () =>
      outgoing.destroy(new Error(`${request.method} ${path}: no answer in ${timeoutMs} ms`)),
    );
    outgoing.on('error', reject);
    outgoing.end(text);
  });
}

function bodyOf(request: TransportRequest): { text: string | undefined; contentType: string | undefined } {
  if (request.rawBody !== undefined) return { text: request.rawBody.text, contentType: request.rawBody.contentType };
  if (request.body === undefined) return { text: undefined, contentType: undefined };
  return { text: JSON.stringify(request.body), contentType: 'application/json' };
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}
