/**
 * The path of the MCP endpoint on the faucet and escrow listeners. Why a file of its own: the
 * listeners (listeners.ts, mcp-lazy.ts) name it without importing mcp.ts, which they load only on
 * a listener's first /mcp request.
 */
export const MCP_PATH = '/mcp';

/** The shapes of `/mcp` (mcp-doors.ts): the documents' and the deployment's. */
export type McpDoorName = 'documents' | 'deployed';
