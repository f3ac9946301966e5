/**
 * The `/mcp` endpoint of the faucet and escrow listeners, over the official MCP TypeScript SDK's
 * streamable HTTP transport in stateless mode, as the real platform serves it (spec/NOTES.md), in
 * one of two shapes (mcp-doors.ts: the documents' door, or the deployment's under --dialect deployed):
 *   POST /mcp  → JSON-RPC through ONE McpServer per listener (tools registered once) and a fresh
 *                StreamableHTTPServerTransport per request (no session id; plain JSON answers on
 *                the documents' door, an event stream on the deployment's);
 *   GET  /mcp  → the documents' `{ tools: [{ name, description, inputSchema }] }` (bearer key
 *                required), or 405 when the client asks for an event stream (stateless: no
 *                server-initiated stream); the deployment's open JSON descriptor;
 *   other      → 405.
 * Each tool call is ONE request through the Dispatcher on the tool's route row (the documents'
 * style-B rows, src/server/mcp-tools.ts; the deployed rows, mcp-deployed-tools.ts), marked
 * `door: 'mcp'`, carrying the MCP request's Authorization header (or the key argument the tool
 * names), its client IP and its forwarding headers as the edge passes them on any request, at
 * `clock.nowMs()`: auth, rate limits, validation and `_info` are the route's. The POST itself needs
 * no key (`register_agent` and the first `claim_faucet` need none); each call is authorised by the
 * dispatcher. The result is the JSON body as text and `structuredContent`, `isError` for ≥ 400,
 * and the HTTP status and headers (rate limits) in `_meta` under `afp/status` and `afp/headers`.
 *
 * Rate limits: every request to /mcp is one request to the rate limiter, as any request is (a valid
 * key: its agent; otherwise the client IP), except a POST whose messages are all tool calls: each
 * call is charged as its route instead. The charge is a dispatch of `<METHOD> /mcp` on the mount
 * (no row matches: the limiter counts it, then 404, which is ignored), so afp serve --data logs
 * and replays it like every other request; a refusal answers the dispatcher's own 429.
 * One server: the SDK allows a server one transport at a time and a stateless transport one
 * request (reusing either mixes up JSON-RPC ids between clients), so requests take turns on the
 * server (`McpLane`): the body is read first (bounded), then connect, handle, close — the tools
 * are synchronous, so a turn lasts no longer than its dispatches; a slow client cannot hold it.
 * The request being handled (its Authorization header and IP) is the lane's `current`.
 * With a `gate` (afp serve --data's group commit) every answer waits for `gate.hold()` like any
 * answer of the edge: a tool call's result (503 result when it rejects; none is dispatched once the
 * gate is closed) and the transport charge's 429 (it wrote to the limiter, which is in the batch).
 * With a platform `lock` (afp serve, platform-lock.ts) a request's work on the platform (its charge
 * and its turn, after the body is read) holds the lock shared: no snapshot or revert copies the
 * platform in the middle of it, and while one does, the request waits (503 when the lock's queue is full).
 * Limits: the body is read up to config.maxBodyBytes (413 beyond), at most 100 messages per batch
 * (SDK), at most MAX_TOOL_INPUT_ELEMENTS values in one call's arguments, at most
 * MCP_WAITING_MAX requests waiting for the server (503 beyond).
 * afp serve imports this module on a listener's first /mcp request (mcp-lazy.ts), not at its start.
 * Non-goals: sessions, resumability, server-to-client notifications.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assert } from '../core/assert.ts';
import type { Clock } from '../core/clock.ts';
import type { ErrorCode } from '../core/errors.ts';
import type { ApiResponse, Dispatcher } from '../http/dispatcher.ts';
import { wallTimer, type AnswerGate, type RawHandler } from '../http/server.ts';
import { BODY_TIMEOUTS_DEFAULT, bodyTimeoutMessage, jsonTooDeep, readBodyBytes } from '../http/body.ts';
import type { Route } from '../http/route.ts';
import { MCP_DOORS, type McpDoor } from './mcp-doors.ts';
import { isLockBusy, type PlatformLock } from './platform-lock.ts';
import { resolveTools, toolAuthorization, toolRequest, type McpService, type McpToolRow } from './mcp-tools.ts';
import { MCP_PATH, type McpDoorName } from './mcp-path.ts';

/** Above the largest argument a route accepts (conditions: 256 values), so the route's message wins. */
export const MAX_TOOL_INPUT_ELEMENTS = 1_024;
export { MCP_PATH };
/** Requests that may wait for their turn on the server; beyond, 503 (each turn is short). */
export const MCP_WAITING_MAX = 1_000;
const SERVER_VERSION = '1.0.0';
const STOPPING = 'the server cannot make changes durable and is stopping';

export interface McpHandlerOptions {
  readonly dispatcher: Dispatcher;
  readonly clock: Clock;
  readonly service: McpService;
  /** The shape of the door (mcp-doors.ts); absent: the documents'. */
  readonly door?: McpDoorName;
  readonly log?: (line: string) => void;
  /** Holds each answer until it may leave (afp serve --data's group commit). */
  readonly gate?: AnswerGate;
  /** The platform lock (afp serve): a request's platform work holds it shared. */
  readonly lock?: PlatformLock;
}

export type McpHandler = RawHandler;

interface BoundTool {
  readonly tool: McpToolRow;
  readonly route: Route;
  readonly description: string;
}

interface Bound extends McpHandlerOptions {
  readonly shape: McpDoor;
  readonly tools: readonly BoundTool[];
  readonly log: (line: string) => void;
}

/** The request whose turn it is on the server: what its tool calls are sent with. */
interface Caller {
  readonly authorization: string | undefined;
  readonly ip: string;
  /** The forwarding headers as the dispatcher sees them on an HTTP request (RawHandler). */
  readonly forwarded: Readonly<Record<string, string>>;
}

/** The one server of a listener, and the turns requests take on it (see the header). */
class McpLane {
  readonly server: McpServer;
  current: Caller | null = null;
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  constructor(bound: Bound) {
    this.server = new McpServer(
      { name: `afp-${bound.service}`, version: SERVER_VERSION },
      { maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS },
    );
    for (const entry of bound.tools) {
      this.server.registerTool(
        entry.tool.name,
        { description: entry.description, inputSchema: entry.tool.input },
        (args: Record<string, unknown>) => {
          const caller = this.current;
          assert(caller !== null, "tool calls run during a request's turn");
          return callTool(bound, entry, args, caller);
        },
      );
    }
  }

  /** Runs `turn` once every earlier turn is over; false (nothing run) when MCP_WAITING_MAX wait already. */
  enqueue(turn: () => Promise<void>): Promise<void> | false {
    if (this.waiting >= MCP_WAITING_MAX) return false;
    this.waiting += 1;
    const done = this.tail.then(turn).finally(() => {
      this.waiting -= 1;
    });
    this.tail = done.catch(() => undefined);
    return done;
  }
}

export function createMcpHandler(options: McpHandlerOptions): McpHandler {
  const shape = MCP_DOORS[options.door ?? 'documents'];
  const routes = options.dispatcher.router.routes;
  const tools = resolveTools(shape.tools, shape.style, options.service, routes).map(({ tool, route }) => ({
    tool,
    route,
    description: shape.describe(tool, route),
  }));
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const bound: Bound = { ...options, shape, tools, log };
  const listText = JSON.stringify(shape.list(options.service, tools));
  const lane = new McpLane(bound);
  return async (request, response, ip, forwarded) => {
    const caller: Caller = { authorization: request.headers.authorization, ip, forwarded };
    if (request.method === 'POST') {
      const read = await readMcpBody(request, bound.dispatcher.platform.config.maxBodyBytes);
      if (read.kind === 'failed') return;
      if (read.kind === 'timed-out') return answerTimedOut(response, read.message);
      return holdingLock(bound, response, () => servePost(bound, lane, request, response, caller, read));
    }
    request.resume(); // nothing else reads a body: drain it so keep-alive connections stay usable
    return holdingLock(bound, response, () => serveOther(bound, listText, request, response, caller));
  };
}

/** Runs `work` holding the platform lock shared (at once without a lock); 503 when the lock's queue is full. */
async function holdingLock(bound: Bound, response: ServerResponse, work: () => Promise<void>): Promise<void> {
  const held = bound.lock === undefined ? work() : bound.lock.shared(work);
  if (!isLockBusy(held)) return held;
  writeJson(response, 503, jsonRpcError(-32000, held.message), { 'retry-after': String(held.retryAfterSeconds) });
}

/** GET (the tool list) and the other methods (405), charged like any request. */
async function serveOther(
  bound: Bound,
  listText: string,
  request: IncomingMessage,
  response: ServerResponse,
  caller: Caller,
): Promise<void> {
  const charged = await chargeTransport(bound, request, caller);
  if (charged.status === 429 || charged.status === 503)
    return writeJson(response, charged.status, JSON.stringify(charged.body), charged.headers);
  const rate = rateHeaders(charged);
  if (request.method !== 'GET')
    return writeError(
      bound,
      response,
      405,
      'BAD_REQUEST',
      `${request.method ?? '?'} is not allowed on /mcp; allowed: GET, POST`,
      { ...rate, allow: 'GET, POST' },
    );
  if (!bound.shape.listNeedsKey) return writeJson(response, 200, listText, rate);
  if ((request.headers.accept ?? '').includes('text/event-stream')) {
    return writeError(
      bound,
      response,
      405,
      'BAD_REQUEST',
      'this MCP endpoint is stateless: no server-initiated stream; POST JSON-RPC messages to /mcp',
      { ...rate, allow: 'GET, POST' },
    );
  }
  const agent = bound.dispatcher.platform.authenticate(request.headers.authorization);
  if (typeof agent !== 'object' || agent === null) {
    return writeError(
      bound,
      response,
      401,
      'UNAUTHORIZED',
      agent === 'invalid' ? 'invalid API key' : 'missing API key: send Authorization: Bearer <api_key>',
      rate,
    );
  }
  writeJson(response, 200, listText, rate);
}

async function servePost(
  bound: Bound,
  lane: McpLane,
  request: IncomingMessage,
  response: ServerResponse,
  caller: Caller,
  read: Exclude<McpBody, { kind: 'failed' | 'timed-out' }>,
): Promise<void> {
  const maxBodyBytes = bound.dispatcher.platform.config.maxBodyBytes;
  if (read.kind === 'too-large') {
    // Charged like any request; the connection closes (the rest of the body is not read).
    const charged = await chargeTransport(bound, request, caller);
    if (charged.status === 429 || charged.status === 503)
      return writeJson(response, charged.status, JSON.stringify(charged.body), {
        ...charged.headers,
        connection: 'close',
      });
    return writeJson(response, 413, jsonRpcError(-32000, `Payload too large: the body exceeds ${maxBodyBytes} bytes`), {
      connection: 'close',
    });
  }
  const tooDeep = jsonTooDeep(read.text);
  const parsed = tooDeep === null ? parseJson(read.text) : undefined;
  if (parsed === undefined || !onlyToolCalls(parsed.value)) {
    const charged = await chargeTransport(bound, request, caller);
    if (charged.status === 429 || charged.status === 503)
      return writeJson(response, charged.status, JSON.stringify(charged.body), charged.headers);
    // The SDK writes the answer; headers set here are merged into it.
    for (const [name, value] of Object.entries(rateHeaders(charged))) response.setHeader(name, value);
  }
  if (parsed === undefined)
    return writeJson(
      response,
      400,
      jsonRpcError(-32700, tooDeep === null ? 'Parse error: Invalid JSON' : `Parse error: ${tooDeep.message}`),
      {},
    );
  // JSON-RPC 2.0 answers an empty batch with one Invalid Request error; the SDK took it for a batch of
  // notifications (202, no body): a request that asked nothing must not look accepted.
  if (Array.isArray(parsed.value) && parsed.value.length === 0)
    return writeJson(response, 400, jsonRpcError(-32600, 'Invalid Request: an empty batch ([]) holds no message'), {});
  const turn = lane.enqueue(() => serveTurn(bound, lane, caller, request, response, parsed.value));
  if (turn === false)
    return writeJson(
      response,
      503,
      jsonRpcError(-32000, `the MCP server is busy: more than ${MCP_WAITING_MAX} requests wait; retry shortly`),
      { 'retry-after': '1' },
    );
  await turn;
}

/** One request's turn on the server: a fresh stateless transport, connected, handled, closed. */
async function serveTurn(
  bound: Bound,
  lane: McpLane,
  caller: Caller,
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
): Promise<void> {
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: bound.shape.jsonAnswers,
  });
  lane.current = caller;
  try {
    await lane.server.connect(transport);
    await transport.handleRequest(request, response, body);
  } catch (error) {
    bound.log(
      `afp serve: INTERNAL ERROR (a bug) on POST ${bound.service}:/mcp — seed ${bound.dispatcher.platform.seed}\n${describe(error)}`,
    );
    if (!response.headersSent) writeJson(response, 500, jsonRpcError(-32603, 'internal error'), {});
  } finally {
    lane.current = null;
    await transport.close(); // the server lets go of it: the next turn may connect
  }
}

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** The X-RateLimit-* headers of a charge's answer. */
function rateHeaders(charged: ApiResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of RATE_HEADERS) {
    const value = charged.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/**
 * Charges the request to the rate limiter through the dispatcher (see the header): its 429 when
 * refused, else an answer to ignore but for its X-RateLimit-* headers. With a gate, the answer
 * waits for the batch holding the charge; a closed or failing gate answers 503.
 */
async function chargeTransport(bound: Bound, request: IncomingMessage, caller: Caller): Promise<ApiResponse> {
  const unavailable: ApiResponse = {
    status: 503,
    headers: {},
    routeId: null,
    body: bound.shape.errorBody(bound.service, 'SERVICE_UNAVAILABLE', STOPPING),
  };
  if (bound.gate !== undefined && !bound.gate.open) return unavailable;
  const authorization = request.headers.authorization;
  const headers: Record<string, string> = {
    ...caller.forwarded,
    ...(authorization === undefined ? {} : { authorization }),
  };
  const charged = bound.dispatcher.handle(
    { mount: bound.service, method: request.method ?? 'POST', path: MCP_PATH, query: {}, headers, ip: caller.ip },
    bound.clock.nowMs(),
  );
  const held = bound.gate?.hold() ?? null;
  if (held === null) return charged;
  return held.then(
    () => charged,
    () => unavailable,
  );
}

/** True when the body is one tools/call request or a non-empty batch of them (each charged as its route). */
function onlyToolCalls(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return (
    messages.length > 0 &&
    messages.every(
      (message) =>
        typeof message === 'object' &&
        message !== null &&
        (message as Record<string, unknown>)['method'] === 'tools/call' &&
        'id' in message,
    )
  );
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

function jsonRpcError(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}

type McpBody =
  | { kind: 'read'; text: string }
  | { kind: 'too-large' }
  | { kind: 'timed-out'; message: string }
  | { kind: 'failed' };

/**
 * Reads the body as UTF-8 text, at most `maxBytes` (the SDK would read it otherwise; it is read
 * first so turns stay short): the server's one body reader, with nothing drained past the limit
 * and the HTTP edge's time bounds (BODY_TIMEOUTS_DEFAULT).
 */
async function readMcpBody(request: IncomingMessage, maxBytes: number): Promise<McpBody> {
  const timeouts = BODY_TIMEOUTS_DEFAULT;
  const read = await readBodyBytes(request, {
    maxBytes,
    drainBytes: 0,
    timeouts: { bounds: timeouts, timer: wallTimer },
  });
  switch (read.kind) {
    case 'read':
      return { kind: 'read', text: read.bytes.toString('utf8') };
    case 'too-large':
    case 'abandoned':
      return { kind: 'too-large' };
    case 'timed-out':
      return { kind: 'timed-out', message: bodyTimeoutMessage(timeouts, read.reason) };
    case 'failed':
      return { kind: 'failed' };
  }
}

/** A body not received in time: 408 with a JSON-RPC error, then the connection closes (nothing ran). */
function answerTimedOut(response: ServerResponse, message: string): void {
  const socket = response.socket;
  if (response.headersSent || socket === null || !socket.writable) {
    socket?.destroy();
    return;
  }
  response.once('finish', () => socket.destroy());
  writeJson(response, 408, jsonRpcError(-32000, `Request timeout: ${message}`), { connection: 'close' });
}

/** One tool call = one dispatcher request on the tool's route row. */
function callTool(
  bound: Bound,
  entry: BoundTool,
  args: Readonly<Record<string, unknown>>,
  caller: Caller,
): CallToolResult | Promise<CallToolResult> {
  const unavailable = (): CallToolResult =>
    bound.shape.result({
      status: 503,
      headers: {},
      body: bound.shape.errorBody(bound.service, 'SERVICE_UNAVAILABLE', STOPPING),
    });
  if (bound.gate !== undefined && !bound.gate.open) return unavailable();
  const result = dispatchTool(bound, entry, args, caller);
  const held = bound.gate?.hold() ?? null;
  return held === null ? result : held.then(() => result, unavailable);
}

function dispatchTool(
  bound: Bound,
  entry: BoundTool,
  args: Readonly<Record<string, unknown>>,
  caller: Caller,
): CallToolResult {
  const { path, query, body } = toolRequest(entry.tool, entry.route, args);
  const key = toolAuthorization(entry.tool, args, caller.authorization);
  // The forwarding headers too: the deployed dispatcher reads the client's address from them (DEPLOYED.md §1.3).
  const headers: Record<string, string> = { ...caller.forwarded, ...(key === undefined ? {} : { authorization: key }) };
  const ip = caller.ip;
  let answer: ApiResponse;
  try {
    answer = bound.dispatcher.handle(
      { mount: entry.route.mount, method: entry.route.method, path, query, headers, body, ip, door: 'mcp' },
      bound.clock.nowMs(),
    );
  } catch (error) {
    const seed = bound.dispatcher.platform.seed;
    bound.log(`afp serve: INTERNAL ERROR (a bug) in MCP tool ${entry.tool.name} — seed ${seed}\n${describe(error)}`);
    return bound.shape.result({
      status: 500,
      headers: {},
      body: bound.shape.errorBody(bound.service, 'INTERNAL_ERROR', `internal error (seed ${seed})`),
    });
  }
  return bound.shape.result(answer);
}

function writeError(
  bound: Bound,
  response: ServerResponse,
  status: number,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  writeJson(response, status, JSON.stringify(bound.shape.errorBody(bound.service, code, message)), headers);
}

function writeJson(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Readonly<Record<string, string>>,
): void {
  if (response.headersSent) return;
  response.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  });
  response.end(text);
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
