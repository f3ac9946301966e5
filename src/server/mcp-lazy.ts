/**
 * A listener's `/mcp` handler, built on its first request. Why: mcp.ts brings the MCP SDK and, with
 * it, ajv, zod-to-json-schema and zod (about 230 modules); an `afp serve` imported them all at its
 * start (part of the 0.3 CPU s a serve start gave up, with openapi.ts and the scenario parser),
 * though most serves never meet an MCP request (a user's HTTP agents, every `afp serve` child of
 * the tests).
 * Invariant: one build per listener, never one per request: the first request starts it and every
 * request (concurrent first ones too) awaits that same build, so the listener keeps ONE McpServer
 * with its tools registered once (mcp.ts). A request's body is read once the build is done.
 */
import type { McpHandler, McpHandlerOptions } from './mcp.ts';

export function createLazyMcpHandler(options: McpHandlerOptions): McpHandler {
  let built: Promise<McpHandler> | undefined;
  return async (request, response, ip, forwarded) => {
    built ??= import('./mcp.ts').then(({ createMcpHandler }) => createMcpHandler(options));
    const handler = await built;
    return handler(request, response, ip, forwarded);
  };
}
