/**
 * The two shapes of `/mcp` an afp serve offers, as data for mcp.ts (one handler, no dialect test
 * inside it): the documents' door (afp serve; NOTES.md) and the deployment's (afp serve --dialect
 * deployed; DEPLOYED.md §3, §4). They differ in
 *   - the tools: one per documents operation on the style-B rows, keyed by the request's
 *     Authorization header; or the deployment's tools on the deployed rows, keyed by an argument;
 *   - GET /mcp: the tool list with JSON Schemas, behind the key; or the deployment's open JSON
 *     descriptor `{ service, transport, endpoint, tools, description }`;
 *   - the door's own errors (405, 401, 503, 500): `{ error: message, code, _info }`; or the
 *     deployment's `{ error: snake_case, message }` (no `_info` on MCP, DEPLOYED.md §1.2);
 *   - a tool's result: the body as text and structured content, with the HTTP status and headers
 *     in `_meta`, in a plain JSON answer; or the body as text with `isError`, in an event stream
 *     (the SDK transport's default, which the deployment keeps).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { ErrorCode, JsonObject } from '../core/errors.ts';
import type { ApiResponse } from '../http/dispatcher.ts';
import type { Route } from '../http/route.ts';
import { INFO } from '../platform/info.ts';
import { DEPLOYED_MCP_TOOLS } from './mcp-deployed-tools.ts';
import type { McpDoorName } from './mcp-path.ts';
import { MCP_TOOLS, toolDescription, type McpService, type McpToolRow } from './mcp-tools.ts';

export interface McpDoor {
  readonly tools: readonly McpToolRow[];
  /** The route style the tools answer through. */
  readonly style: Route['style'];
  /** Whether GET /mcp needs a valid key (the documents' tool list) or is open (the deployment's descriptor). */
  readonly listNeedsKey: boolean;
  /** Whether a POST is answered with plain JSON (afp's documents door) or an event stream (the SDK's default, the deployment's). */
  readonly jsonAnswers: boolean;
  describe(tool: McpToolRow, route: Route): string;
  /** GET /mcp's body, from the bound tools. */
  list(service: McpService, tools: readonly { readonly tool: McpToolRow; readonly description: string }[]): JsonObject;
  /** An error of the door itself. */
  errorBody(service: McpService, code: ErrorCode, message: string): JsonObject;
  result(answer: Pick<ApiResponse, 'status' | 'headers' | 'body'>): CallToolResult;
}

/** The documents' result: the route's JSON body as text and as structured content; its status and headers (X-RateLimit-*, Retry-After) in `_meta`. */
export function toolResult(answer: Pick<ApiResponse, 'status' | 'headers' | 'body'>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(answer.body) }],
    structuredContent: answer.body,
    isError: answer.status >= 400,
    _meta: { 'afp/status': answer.status, 'afp/headers': answer.headers },
  };
}

const DOCUMENTS_DOOR: McpDoor = {
  tools: MCP_TOOLS,
  style: 'B',
  listNeedsKey: true,
  jsonAnswers: true,
  describe: (_tool, route) => toolDescription(route),
  // Every tool with the JSON Schema the SDK lists for it (draft-07, input side).
  list: (service, tools) => ({
    tools: tools.map(({ tool, description }) => ({
      name: tool.name,
      description,
      inputSchema: z.toJSONSchema(tool.input, { target: 'draft-7', io: 'input' }) as JsonObject,
    })),
    _info: INFO[service],
  }),
  errorBody: (service, code, message) => ({ error: message, code, _info: INFO[service] }),
  result: toolResult,
};

const DEPLOYED_DESCRIPTIONS: Readonly<Record<McpService, readonly [string, string]>> = {
  faucet: ['agent-faucet', 'Claim the one-time 1.00 USDC credit for a casino agent.'],
  escrow: ['agent-escrow', 'Escrow between casino agents: create, complete, release, dispute.'],
};

const DEPLOYED_DOOR: McpDoor = {
  tools: DEPLOYED_MCP_TOOLS,
  style: 'deployed',
  listNeedsKey: false,
  jsonAnswers: false,
  describe: (tool, route) =>
    tool.keyArgument === undefined ? route.summary : `${route.summary} Needs ${tool.keyArgument}.`,
  list: (service, tools) => ({
    service: DEPLOYED_DESCRIPTIONS[service][0],
    transport: 'streamable-http',
    endpoint: 'POST /mcp',
    tools: tools.map(({ tool }) => tool.name),
    description: DEPLOYED_DESCRIPTIONS[service][1],
  }),
  errorBody: (_service, code, message) => ({ error: code.toLowerCase(), message }),
  // The row's body without `_info` (the deployment sends none on MCP).
  result: (answer) => ({
    content: [{ type: 'text', text: JSON.stringify(withoutInfo(answer.body)) }],
    isError: answer.status >= 400,
  }),
};

function withoutInfo(body: JsonObject): JsonObject {
  const { _info: _dropped, ...rest } = body;
  return rest;
}

export const MCP_DOORS: Readonly<Record<McpDoorName, McpDoor>> = { documents: DOCUMENTS_DOOR, deployed: DEPLOYED_DOOR };
