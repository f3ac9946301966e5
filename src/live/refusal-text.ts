/**
 * A refusal as lines and findings print it: its status and name, and the target's own text where
 * the name says nothing of it (an MCP tool error, a JSON-RPC error, a bare HTTP status). Why: an
 * escrow's MCP tools that failed with "Escrow service unavailable" were printed as `400 http_400`, a
 * label afp made up, and the target's words were nowhere (issue 68 part 7).
 * Non-goals: a refusal whose name is the target's own (`insufficient_balance`): the name says it,
 * and its message stays in the evidence where a probe quotes it.
 */
import { TOOL_ERROR_NAME } from './mcp-call.ts';
import type { Refusal } from './operations.ts';

/** The characters of the target's text quoted. */
const OWN_WORDS_MAX = 200;

/** The refusal's own text, quoted, where its name says nothing of it; '' otherwise. */
export function ownWords(refusal: Pick<Refusal, 'name' | 'message'>): string {
  const generic = refusal.name === TOOL_ERROR_NAME || /^(jsonrpc|http)_/.test(refusal.name);
  return generic && refusal.message !== '' ? `: ${JSON.stringify(refusal.message.slice(0, OWN_WORDS_MAX))}` : '';
}

/** `400 mcp_tool_error: "Escrow service unavailable"`, `409 insufficient_balance`. */
export const refusalWords = (refusal: Pick<Refusal, 'status' | 'name' | 'message'>): string =>
  `${refusal.status} ${refusal.name}${ownWords(refusal)}`;
