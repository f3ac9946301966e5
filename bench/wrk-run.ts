/**
 * One run of wrk (the C load generator, Debian package `wrk`) for the serve part of the bench: a
 * generator that is not the bottleneck of a node:http server. Its Lua script gives every request a
 * fresh X-Forwarded-For address (one per request of a thread, the thread's number in the first
 * octet past 10), so afp serve's per-IP limits never bind, and for a write a fresh `agent_id` in a
 * JSON body (or the one body and headers a keyed endpoint's run gives every request: an API key, a
 * bet); its `done` hook prints one JSON line of the counts, which is all that is read.
 * `wrkPath` finds it on PATH (null: not installed, and the serve part says so and is skipped).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { tmpdir } from 'node:os';
import { pinned } from './cpu-pin.ts';
import { runTool } from './tool-process.ts';

const RUN_SLACK_MS = 30_000;

export interface WrkRun {
  /** 2xx and 3xx answers per second of wrk's measured duration. */
  readonly perSecond: number;
  readonly requests: number;
  /** Answers other than 2xx/3xx, and socket errors (connect, read, write, timeout). */
  readonly failed: number;
}

export interface WrkOptions {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly threads: number;
  readonly connections: number;
  readonly seconds: number;
  /** The core to pin wrk to (cpu-pin.ts; absent: unpinned). */
  readonly cpu?: number;
  /** Headers every request carries besides its address (an API key). */
  readonly headers?: Readonly<Record<string, string>>;
  /** One JSON body every POST carries (absent: a registration's body with a fresh agent id). */
  readonly body?: string;
}

export function wrkPath(): string | null {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const path = join(dir, 'wrk');
    if (dir !== '' && existsSync(path)) return path;
  }
  return null;
}

/** A Lua string literal of `text` (quotes and backslashes escaped). */
function luaString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The Lua table entries of `headers` (each `["name"] = "value", `). */
function luaHeaders(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}, `)
    .join('');
}

/** The Lua that builds one request: GET, POST of a fixed body, or POST of a fresh registration. */
function requestLua(options: Pick<WrkOptions, 'method' | 'headers' | 'body'>): string {
  const extra = luaHeaders(options.headers ?? {});
  if (options.method === 'GET') return `return wrk.format("GET", nil, { ${extra}["X-Forwarded-For"] = ip })`;
  const body =
    options.body === undefined ? `string.format('{"agent_id":"wrk%d-%d"}', tid, n)` : luaString(options.body);
  return `local body = ${body}
  return wrk.format("POST", nil, { ${extra}["X-Forwarded-For"] = ip, ["Content-Type"] = "application/json" }, body)`;
}

/** The script: an address per request, a body per write, and the counts as JSON at the end. */
function script(options: Pick<WrkOptions, 'method' | 'headers' | 'body'>): string {
  return `local thread_count = 0
function setup(thread)
  thread_count = thread_count + 1
  thread:set("tid", thread_count)
end
local n = 0
function request()
  n = n + 1
  local ip = string.format("%d.%d.%d.%d", 10 + tid, math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
  ${requestLua(options)}
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration_us":%d,"status_errors":%d,"socket_errors":%d}\\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout))
end
`;
}

export async function wrkRun(wrk: string, options: WrkOptions): Promise<WrkRun | string> {
  const dir = await mkdtemp(join(tmpdir(), 'afp-bench-wrk-'));
  try {
    const file = join(dir, 'run.lua');
    await writeFile(file, script(options));
    const args = ['-t', String(options.threads), '-c', String(options.connections), '-d', `${options.seconds}s`];
    args.push('--timeout', '10s', '-s', file, options.url);
    const command = pinned(options.cpu, wrk, args);
    const run = await runTool(command.command, command.args, options.seconds * 1000 + RUN_SLACK_MS);
    const line = run.stdout.split('\n').find((text) => text.startsWith('{"requests"'));
    if (run.code !== 0 || line === undefined)
      return `wrk: ${run.error ?? `exit ${String(run.code)}`}: ${(run.stderr || run.stdout).trim().slice(0, 300)}`;
    const counts = JSON.parse(line) as {
      requests: number;
      duration_us: number;
      status_errors: number;
      socket_errors: number;
    };
    const failed = counts.status_errors + counts.socket_errors;
    const seconds = counts.duration_us / 1e6;
    if (!(seconds > 0)) return 'wrk: no measured duration';
    return { perSecond: (counts.requests - counts.status_errors) / seconds, requests: counts.requests, failed };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
