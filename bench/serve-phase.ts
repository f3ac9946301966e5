/**
 * The serve part of the bench's load part (issue 71 part 2): how much of a bare node:http server's
 * throughput `afp serve` keeps through its whole path (routing, auth, the limiter, the service, the
 * rendering), driven by wrk (wrk-run.ts), a generator that is not the bottleneck. Four endpoints:
 *   - read: `GET {casino}/api/v1/gossip`, no key;
 *   - balance: `GET {casino}/api/v1/auth/balance` with an enterprise key;
 *   - bet: `POST {casino}/api/v1/games/coin-flip` with that key (a 0.01 USDC bet on heads);
 *   - write: `POST {api}/register` with a fresh agent id (a new agent in the state; not judged).
 * The keyed agent is registered on the casino, raised to the enterprise tier and funded through the
 * admin doors before the run, as a team's stand-in would be. Every request comes from a fresh
 * X-Forwarded-For address, so no per-IP limit binds. The bare server answers the SAME BYTES as afp
 * serve: each endpoint's status, headers (content-type and the three X-RateLimit-*, SERVED_HEADERS)
 * and body are taken from one afp serve first (a `fixed` server,
 * load-servers.ts), which also reads and parses the request's body; the write's bare server keeps
 * the id and answers 201 (the `api` server). First the generator is shown to saturate the bare
 * server (one wrk thread against two). Then rounds, each on fresh servers in child processes, wrk
 * pinned to one core and the server to the other (cpu-pin.ts), the order of bare and serve
 * alternated; the verdict is the median of the per-round ratios, target >= 0.6 on the three judged
 * endpoints. Without wrk on PATH the part is skipped and says why.
 */
import { AdminClient } from '../src/client/admin-client.ts';
import { GENERATOR_CPU, SERVER_CPU } from './cpu-pin.ts';
import { serveInChild } from './load-server-child.ts';
import type { LoadServerKind } from './load-servers.ts';
import { startServeProcess, type ServeProcess } from './serve-process.ts';
import { wrkPath, wrkRun, type WrkOptions, type WrkRun } from './wrk-run.ts';

/** wrk threads in the rounds (the saturation check adds a run with two). */
export const SERVE_WRK_THREADS = 1;
const SERVE_START_MS = Date.UTC(2026, 0, 1);
/** Issue 71 part 2: afp serve keeps at least this share of bare node:http on each judged endpoint. */
export const TARGET_SERVE_OVER_BARE = 0.6;

export const SERVE_ENDPOINTS = ['read', 'balance', 'bet', 'write'] as const;
export type ServeEndpoint = (typeof SERVE_ENDPOINTS)[number];
/** The endpoints the target is about (the write is printed beside them). */
export const JUDGED_ENDPOINTS: readonly ServeEndpoint[] = ['read', 'balance', 'bet'];
export const ENDPOINT_LABELS: Readonly<Record<ServeEndpoint, string>> = {
  read: 'read (GET gossip, no key)',
  balance: 'balance (GET auth/balance, enterprise key)',
  bet: 'bet (POST games/coin-flip, enterprise key)',
  write: 'write (POST register)',
};
const KEYED_AGENT = 'bench-enterprise';
const BET_BODY = JSON.stringify({ side: 'heads', amount: 0.01 });
/** The keyed agent's funding (USDC): far more than a run's bets can lose. */
const KEYED_FUNDING = '1000000';
const SETUP_TIMEOUT_MS = 10_000;
/** An answer's body read for the bare server: at most this many characters. */
const SAMPLE_CHARS_MAX = 64 * 1024;
/**
 * The headers afp serve writes itself on a judged endpoint, which the bare server repeats: the rest
 * (Date, Connection, Keep-Alive, Content-Length) node:http writes for both alike.
 */
const SERVED_HEADERS = /^(content-type|x-ratelimit-[a-z]+)$/;

export interface ServeRound {
  readonly bare: WrkRun;
  readonly serve: WrkRun;
}

export interface ServePartResult {
  /** Why the part did not run (wrk missing); null when it ran. */
  readonly missing: string | null;
  readonly connections: number;
  readonly seconds: number;
  /** The bare server's read rate with one wrk thread and with two. */
  readonly saturation: { readonly oneThread: number; readonly twoThreads: number } | null;
  readonly rounds: Readonly<Record<ServeEndpoint, readonly ServeRound[]>>;
  /** The bytes each bare server answered (afp serve's answer on the endpoint). */
  readonly answerBytes: Readonly<Partial<Record<ServeEndpoint, number>>>;
  /** Runs that failed (a tool's exit, a server that did not start): their rounds are left out. */
  readonly troubles: readonly string[];
}

export interface ServePartOptions {
  readonly connections: number;
  readonly seconds: number;
  readonly rounds: number;
  readonly log: (line: string) => void;
}

/** What wrk sends to one endpoint of a started afp serve. */
interface Target {
  readonly url: string;
  readonly method: WrkOptions['method'];
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** A bounded JSON call to one of afp serve's doors: status and body text. */
async function call(
  url: string,
  method: 'GET' | 'POST',
  body?: unknown,
  headers: Readonly<Record<string, string>> = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    signal: AbortSignal.timeout(SETUP_TIMEOUT_MS),
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = (await response.text()).slice(0, SAMPLE_CHARS_MAX);
  const served: Record<string, string> = {};
  for (const [name, value] of response.headers) if (SERVED_HEADERS.test(name)) served[name] = value;
  return { status: response.status, headers: served, body: text };
}

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Each server's keyed agent, made once (the sample asks for it on two endpoints). */
const KEYS = new WeakMap<ServeProcess, Promise<string>>();

function keyedAgent(server: ServeProcess): Promise<string> {
  let key = KEYS.get(server);
  if (key === undefined) {
    key = newKeyedAgent(server);
    KEYS.set(server, key);
  }
  return key;
}

/** Registers the keyed agent on the casino, raises it to enterprise and funds it; its API key. */
async function newKeyedAgent(server: ServeProcess): Promise<string> {
  const casino = server.urls['casino'] ?? '';
  const admin = server.urls['api'] ?? '';
  const registered = await call(`${casino}/api/v1/auth/register`, 'POST', { agent_id: KEYED_AGENT });
  const key = (JSON.parse(registered.body) as { api_key?: unknown }).api_key;
  if (registered.status !== 201 || typeof key !== 'string')
    throw new Error(`casino registration answered ${registered.status}: ${registered.body.slice(0, 200)}`);
  // The admin doors through afp's own admin client, as a team's tools call them.
  const doors = AdminClient.ofUrl(admin, { timeoutMs: SETUP_TIMEOUT_MS });
  const tier = await doors.setTier(KEYED_AGENT, 'enterprise');
  if (!tier.ok) throw new Error(`POST /_afp/tier: ${tier.message}`);
  const funded = await doors.casinoDeposit({
    agentId: KEYED_AGENT,
    chain: 'base',
    amount: KEYED_FUNDING,
    confirmed: true,
  });
  if (!funded.ok) throw new Error(`POST /_afp/casino/deposit: ${funded.message}`);
  return key;
}

/** The endpoint's target on `server` (a keyed one gets its agent first). */
async function targetOf(server: ServeProcess, endpoint: ServeEndpoint): Promise<Target> {
  const casino = server.urls['casino'] ?? '';
  if (endpoint === 'read') return { url: `${casino}/api/v1/gossip`, method: 'GET' };
  if (endpoint === 'write') return { url: `${server.urls['api'] ?? ''}/register`, method: 'POST' };
  const headers = { Authorization: `Bearer ${await keyedAgent(server)}` };
  return endpoint === 'balance'
    ? { url: `${casino}/api/v1/auth/balance`, method: 'GET', headers }
    : { url: `${casino}/api/v1/games/coin-flip`, method: 'POST', headers, body: BET_BODY };
}

/** afp serve's answer on each judged endpoint, from one fresh serve: what each bare server answers. */
async function sampleAnswers(): Promise<Partial<Record<ServeEndpoint, Answer>>> {
  const server = await startServeProcess({ seed: '1', startMs: SERVE_START_MS });
  try {
    const answers: Partial<Record<ServeEndpoint, Answer>> = {};
    for (const endpoint of JUDGED_ENDPOINTS) {
      const target = await targetOf(server, endpoint);
      answers[endpoint] = await call(target.url, target.method, target.body, target.headers);
    }
    return answers;
  } finally {
    await server.stop();
  }
}

async function bareRun(wrk: string, kind: LoadServerKind, target: Omit<Target, 'url'>, options: WrkOptions) {
  const server = await serveInChild(kind, SERVER_CPU);
  try {
    const path = kind.kind === 'api' ? 'register' : 'endpoint';
    return await wrkRun(wrk, { ...options, ...target, url: `${server.url}${path}` });
  } finally {
    await server.stop();
  }
}

async function serveRun(wrk: string, endpoint: ServeEndpoint, options: WrkOptions): Promise<WrkRun | string> {
  const server = await startServeProcess({ seed: '1', startMs: SERVE_START_MS, cpu: SERVER_CPU });
  try {
    return await wrkRun(wrk, { ...options, ...(await targetOf(server, endpoint)) });
  } catch (error) {
    return `afp serve ${endpoint}: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await server.stop();
  }
}

/** One round of `endpoint`: bare and serve, in the order of the round. */
async function round(
  wrk: string,
  endpoint: ServeEndpoint,
  bareKind: LoadServerKind,
  options: WrkOptions & { readonly serveFirst: boolean },
): Promise<ServeRound | string[]> {
  const bareTarget = endpoint === 'write' ? { method: 'POST' as const } : bareShape(endpoint);
  const bare = (): Promise<WrkRun | string> => bareRun(wrk, bareKind, bareTarget, options);
  const serve = (): Promise<WrkRun | string> => serveRun(wrk, endpoint, options);
  const first = options.serveFirst ? await serve() : await bare();
  const second = options.serveFirst ? await bare() : await serve();
  const [bareRunResult, serveRunResult] = options.serveFirst ? [second, first] : [first, second];
  if (typeof bareRunResult === 'string' || typeof serveRunResult === 'string')
    return [bareRunResult, serveRunResult].filter((run): run is string => typeof run === 'string');
  return { bare: bareRunResult, serve: serveRunResult };
}

/** What wrk sends a bare server for `endpoint`: the same method, headers and body as to afp serve. */
function bareShape(endpoint: ServeEndpoint): Omit<Target, 'url'> {
  if (endpoint === 'read') return { method: 'GET' };
  const headers = { Authorization: 'Bearer sk_live_bench' };
  return endpoint === 'balance' ? { method: 'GET', headers } : { method: 'POST', headers, body: BET_BODY };
}

export async function servePart(options: ServePartOptions): Promise<ServePartResult> {
  const { connections, seconds, rounds, log } = options;
  const noRounds = { read: [], balance: [], bet: [], write: [] };
  const empty = { connections, seconds, saturation: null, rounds: noRounds, answerBytes: {}, troubles: [] };
  const wrk = wrkPath();
  if (wrk === null) {
    const missing =
      'wrk is not installed (Debian: apt-get install wrk); the serve part needs a generator that is not the bottleneck';
    log(`serve: skipped: ${missing}`);
    return { ...empty, missing };
  }
  log(
    `serve: afp serve over a bare node:http server answering the same bytes, wrk ${connections} connections, ${seconds} s runs`,
  );
  const answers = await sampleAnswers();
  const kinds = bareKinds(answers);
  const base = {
    url: '',
    method: 'GET' as const,
    threads: SERVE_WRK_THREADS,
    connections,
    seconds,
    cpu: GENERATOR_CPU,
  };
  const troubles: string[] = [];
  const saturation = await saturationOf(wrk, kinds.read, base, troubles);
  const result: Record<ServeEndpoint, ServeRound[]> = { read: [], balance: [], bet: [], write: [] };
  for (let index = 1; index <= rounds; index++) {
    for (const endpoint of SERVE_ENDPOINTS) {
      const run = await round(wrk, endpoint, kinds[endpoint], { ...base, serveFirst: index % 2 === 0 });
      if (Array.isArray(run)) {
        troubles.push(...run);
        continue;
      }
      result[endpoint].push(run);
      log(
        `serve round ${index}/${rounds} ${endpoint}: bare ${run.bare.perSecond.toFixed(0)}/s, serve ${run.serve.perSecond.toFixed(0)}/s (${run.serve.failed} failed)`,
      );
    }
  }
  const answerBytes = Object.fromEntries(
    Object.entries(answers).map(([endpoint, answer]) => [endpoint, Buffer.byteLength(answer.body)]),
  );
  return { ...empty, missing: null, saturation, rounds: result, answerBytes, troubles };
}

/** The bare server of each endpoint: the fixed answers of afp serve, and the `api` server for the write. */
function bareKinds(answers: Partial<Record<ServeEndpoint, Answer>>): Record<ServeEndpoint, LoadServerKind> {
  const fixed = (endpoint: ServeEndpoint): LoadServerKind => {
    const answer = answers[endpoint];
    if (answer === undefined) throw new Error(`no sample answer for ${endpoint}`);
    if (answer.status >= 300)
      throw new Error(`afp serve answered ${endpoint} with ${answer.status}: ${answer.body.slice(0, 200)}`);
    return { kind: 'fixed', status: answer.status, headers: answer.headers, body: answer.body };
  };
  return { read: fixed('read'), balance: fixed('balance'), bet: fixed('bet'), write: { kind: 'api' } };
}

/** The bare read's rate with one wrk thread and with two (the generator is not the bottleneck when two send no more). */
async function saturationOf(
  wrk: string,
  kind: LoadServerKind,
  base: WrkOptions,
  troubles: string[],
): Promise<ServePartResult['saturation']> {
  const one = await bareRun(wrk, kind, { method: 'GET' }, { ...base, threads: 1 });
  const two = await bareRun(wrk, kind, { method: 'GET' }, { ...base, threads: 2 });
  for (const run of [one, two]) if (typeof run === 'string') troubles.push(run);
  return typeof one === 'string' || typeof two === 'string'
    ? null
    : { oneThread: one.perSecond, twoThreads: two.perSecond };
}
