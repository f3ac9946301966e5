/**
 * `node bench/transport-cpu.ts [--exchanges N] [--rounds R]`: the CPU one exchange costs the sender
 * and the server, through afp's HTTP transport (src/client/http-transport.ts: node:http keep-alive
 * pools) and through the global fetch it replaced (the same request and answer handling, fetch
 * underneath: rebuilt here, as it was, for the comparison). Why: replay, check, audit and the target
 * probe send one exchange after another, and on a 2-core machine fetch's own cost was of the order
 * of the server's answer (issue 42).
 * The target is a real `afp serve` in a child process (serve-process.ts), so the sender's CPU
 * (process.cpuUsage) and the server's (/proc/PID/stat) are apart. Each round sends N exchanges in
 * turn (GET /health, a POST answered 400, GET /_afp/clock) one at a time, as replay does; rounds
 * alternate the transports so drift of a shared machine hits both. Prints µs of CPU per exchange,
 * the median round of each. Not part of `npm run bench` (a question settled once, kept to re-ask).
 */
import { parseArgs } from 'node:util';
import { httpTransport } from '../src/client/http-transport.ts';
import type { Transport, TransportRequest, TransportResponse } from '../src/client/transport.ts';
import { roundCpuReading } from './server-cpu.ts';
import { startServeProcess } from './serve-process.ts';

const TIMEOUT_MS = 10_000;
const EXCHANGES_MAX = 100_000;
const ROUNDS_MAX = 20;

const REQUESTS: readonly TransportRequest[] = [
  { mount: 'api', method: 'GET', path: '/health' },
  { mount: 'api', method: 'POST', path: '/v1/agents/register', body: { name: '' } },
  { mount: 'api', method: 'GET', path: '/_afp/clock' },
];

/** The transport as it was before node:http: fetch, an AbortSignal timeout, the text parsed as JSON. */
function fetchTransport(api: string): Transport {
  return async (request): Promise<TransportResponse> => {
    const query = new URLSearchParams(request.query ?? {}).toString();
    const response = await fetch(`${api}${request.path}${query === '' ? '' : `?${query}`}`, {
      method: request.method,
      headers: {
        accept: 'application/json',
        ...request.headers,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return { status: response.status, headers, body: JSON.parse(await response.text()) as unknown };
  };
}

async function round(
  transport: Transport,
  exchanges: number,
  server: { pid: number; api: string },
): Promise<{ senderUs: number; serverUs: number }> {
  const before = await roundCpuReading(server.pid, server.api);
  for (let index = 0; index < exchanges; index++) {
    const answer = await transport(REQUESTS[index % REQUESTS.length] as TransportRequest);
    if (answer.status >= 500) throw new Error(`the server answered ${answer.status}`);
  }
  const after = await roundCpuReading(server.pid, server.api);
  return {
    senderUs: ((after.generatorMs - before.generatorMs) * 1000) / exchanges,
    serverUs: (((after.serverMs ?? 0) - (before.serverMs ?? 0)) * 1000) / exchanges,
  };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { exchanges: { type: 'string' }, rounds: { type: 'string' } } });
  const exchanges = Math.min(EXCHANGES_MAX, Number(values.exchanges ?? 3_000));
  const rounds = Math.min(ROUNDS_MAX, Number(values.rounds ?? 3));
  if (!Number.isSafeInteger(exchanges) || exchanges < 1 || !Number.isSafeInteger(rounds) || rounds < 1) {
    process.stderr.write('usage: node bench/transport-cpu.ts [--exchanges N] [--rounds R]\n');
    process.exitCode = 2;
    return;
  }
  const serve = await startServeProcess({ seed: '1', startMs: Date.UTC(2026, 0, 1) });
  try {
    const server = { pid: serve.pid, api: serve.urls.api as string };
    const transports: [string, Transport][] = [
      ['fetch (before)', fetchTransport(server.api)],
      ['node:http (http-transport.ts)', httpTransport({ urls: { api: server.api }, timeoutMs: TIMEOUT_MS })],
    ];
    const results = new Map<string, { senderUs: number; serverUs: number }[]>();
    for (const [, transport] of transports) await round(transport, Math.min(exchanges, 500), server); // warm-up
    for (let index = 0; index < rounds; index++) {
      for (const [name, transport] of transports) {
        results.set(name, [...(results.get(name) ?? []), await round(transport, exchanges, server)]);
      }
    }
    process.stdout.write(`${exchanges} exchanges × ${rounds} rounds, CPU µs per exchange (median round)\n`);
    for (const [name, list] of results) {
      const sender = median(list.map((entry) => entry.senderUs));
      const serverUs = median(list.map((entry) => entry.serverUs));
      process.stdout.write(
        `${name.padEnd(32)} sender ${sender.toFixed(0).padStart(5)}  server ${serverUs.toFixed(0).padStart(5)}\n`,
      );
    }
  } finally {
    await serve.stop();
  }
}

await main();
