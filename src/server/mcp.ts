/**
 * The `/mcp` endpoint of the faucet and escrow listeners, over the official MCP TypeScript SDK's
 * streamable HTTP transport in stateless mode, as the real platform serves it (spec/NOTES.md):
 *   POST /mcp  → JSON-RPC through a fresh McpServer + StreamableHTTPServerTransport per request
 *                (no session id; answers as plain JSON, not an SSE stream);
 *   GET  /mcp  → `{ tools: [{ name, description, inputSchema }] }` (bearer key required), or 405
 *                when the client asks for an event stream (stateless: no server-initiated stream);
 *   other      → 405.
 * Each tool call is ONE request through the Dispatcher on the tool's style-B route row
 * (src/server/mcp-tools.ts), carrying the MCP request's Authorization header and client IP, at
 * `clock.nowMs()`: auth, rate limits, validation and `_info` are the route's. The POST itself needs
 * no key (`register_agent` and the first `claim_faucet` need none); each call is authorised by the
 * dispatcher. The result is the JSON body as text and `structuredContent`, `isError` for ≥ 400,
 * and the HTTP status and headers (rate limits) in `_meta` under `afp/status` and `afp/headers`.
 *
 * With a `gate` (afp serve --data) a tool call's result waits for `gate.hold()` like any answer
 * of the edge (503 result when it rejects; none is dispatched once the gate is closed).
 *
 * Limits: the body is read by the SDK up to config.maxBodyBytes (413 beyond), at most 100 messages
 * per batch (SDK), at most MAX_TOOL_INPUT_ELEMENTS values in one call's arguments.
 * Non-goals: sessions, resumability, server-to-client notifications.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { Clock } from '../core/clock.ts';
import type { JsonObject } from '../core/errors.ts';
import type { ApiResponse, Dispatcher } from '../http/dispatcher.ts';
import type { AnswerGate } from '../http/server.ts';
import type { Route } from '../http/route.ts';
import { INFO } from '../platform/info.ts';
import { resolveTools, toolDescription, toolRequest, type McpService, type McpToolRow } from './mcp-tools.ts';

/** Above the largest argument a route accepts (conditions: 256 values), so the route's message wins. */
export const MAX_TOOL_INPUT_ELEMENTS = 1_024;
export const MCP_PATH = '/mcp';
const SERVER_VERSION = '1.0.0';

export interface McpHandlerOptions {
  readonly dispatcher: Dispatcher;
  readonly clock: Clock;
  readonly service: McpService;
  readonly log?: (line: string) => void;
  /** Holds each tool call's result until it may leave (afp serve --data's group commit). */
  readonly gate?: AnswerGate;
}

export type McpHandler = (request: IncomingMessage, response: ServerResponse, ip: string) => Promise<void>;

interface BoundTool {
  readonly tool: McpToolRow;
  readonly route: Route;
  readonly description: string;
}

interface Bound extends McpHandlerOptions {
  readonly tools: readonly BoundTool[];
  readonly log: (line: string) => void;
}

export function createMcpHandler(options: McpHandlerOptions): McpHandler {
  const tools = resolveTools(options.service, options.dispatcher.router.routes).map(({ tool, route }) => ({ tool, route, description: toolDescription(route) }));
  const bound: Bound = { ...options, tools, log: options.log ?? ((line: string) => process.stderr.write(`${line}\n`)) };
  const listText = JSON.stringify(toolList(bound));
  return async (request, response, ip) => {
    if (request.method === 'POST') return servePost(bound, request, response, ip);
    request.resume(); // nothing else reads a body: drain it so keep-alive connections stay usable
    if (request.method !== 'GET') return writeError(bound, response, 405, 'BAD_REQUEST', `${request.method ?? '?'} is not allowed on /mcp; allowed: GET, POST`, { allow: 'GET, POST' });
    if ((request.headers.accept ?? '').includes('text/event-stream')) {
      return writeError(bound, response, 405, 'BAD_REQUEST', 'this MCP endpoint is stateless: no server-initiated stream; POST JSON-RPC messages to /mcp', { allow: 'GET, POST' });
    }
    const caller = options.dispatcher.platform.authenticate(request.headers.authorization);
    if (typeof caller !== 'object' || caller === null) {
      return writeError(bound, response, 401, 'UNAUTHORIZED', caller === 'invalid' ? 'invalid API key' : 'missing API key: send Authorization: Bearer <api_key>');
    }
    writeJson(response, 200, listText, {});
  };
}

/** The GET body: every tool with the JSON Schema the SDK lists for it (draft-07, input side). */
function toolList(bound: Bound): JsonObject {
  const tools = bound.tools.map(({ tool, description }) => ({
    name: tool.name,
    description,
    inputSchema: z.toJSONSchema(tool.input, { target: 'draft-7', io: 'input' }) as JsonObject,
  }));
  return { tools, _info: INFO[bound.service] };
}

async function servePost(bound: Bound, request: IncomingMessage, response: ServerResponse, ip: string): Promise<void> {
  const server = new McpServer({ name: `afp-${bound.service}`, version: SERVER_VERSION }, { maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS });
  const authorization = request.headers.authorization;
  for (const entry of bound.tools) {
    server.registerTool(entry.tool.name, { description: entry.description, inputSchema: entry.tool.input }, (args: Record<string, unknown>) => callTool(bound, entry, args, authorization, ip));
  }
  const maxRequestBodySize = bound.dispatcher.platform.config.maxBodyBytes;
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize });
  response.once('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(request, response);
  } catch (error) {
    bound.log(`afp serve: INTERNAL ERROR (a bug) on POST ${bound.service}:/mcp — seed ${bound.dispatcher.platform.seed}\n${describe(error)}`);
    if (!response.headersSent) writeJson(response, 500, JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }), {});
  }
}

/** One tool call = one dispatcher request on the tool's route row; its result held by the gate. */
function callTool(bound: Bound, entry: BoundTool, args: Readonly<Record<string, unknown>>, authorization: string | undefined, ip: string): CallToolResult | Promise<CallToolResult> {
  const unavailable = (): CallToolResult => toolResult({ status: 503, headers: {}, body: { error: 'the server cannot make changes durable and is stopping', code: 'SERVICE_UNAVAILABLE', _info: INFO[bound.service] } });
  if (bound.gate !== undefined && !bound.gate.open) return unavailable();
  const result = dispatchTool(bound, entry, args, authorization, ip);
  const held = bound.gate?.hold() ?? null;
  return held === null ? result : held.then(() => result, unavailable);
}

function dispatchTool(bound: Bound, entry: BoundTool, args: Readonly<Record<string, unknown>>, authorization: string | undefined, ip: string): CallToolResult {
  const { path, query, body } = toolRequest(entry.tool, entry.route, args);
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  let answer: ApiResponse;
  try {
    answer = bound.dispatcher.handle({ mount: entry.route.mount, method: entry.route.method, path, query, headers, body, ip }, bound.clock.nowMs());
  } catch (error) {
    const seed = bound.dispatcher.platform.seed;
    bound.log(`afp serve: INTERNAL ERROR (a bug) in MCP tool ${entry.tool.name} — seed ${seed}\n${describe(error)}`);
    return toolResult({ status: 500, headers: {}, body: { error: `internal error (seed ${seed})`, code: 'INTERNAL_ERROR', _info: INFO[bound.service] } });
  }
  return toolResult(answer);
}

/** The route's JSON body as text and as structured content; its status and headers (X-RateLimit-*, Retry-After) in `_meta`. */
export function toolResult(answer: Pick<ApiResponse, 'status' | 'headers' | 'body'>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(answer.body) }],
    structuredContent: answer.body,
    isError: answer.status >= 400,
    _meta: { 'afp/status': answer.status, 'afp/headers': answer.headers },
  };
}

function writeError(bound: Bound, response: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  writeJson(response, status, JSON.stringify({ error: message, code, _info: INFO[bound.service] }), headers);
}

function writeJson(response: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>>): void {
  if (response.headersSent) return;
  response.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  response.end(text);
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
