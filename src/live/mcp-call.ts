/**
 * A tool call through a target's `/mcp` door as one wire request, and its answer read back as the
 * tool's own JSON body. Why: the deployment's faucet and escrow serve MCP tools beside their HTTP
 * routes (DEPLOYED.md §3, §4), and a door whose rule differs from the route's (a cooldown skipped,
 * a release that pays nobody) is only seen by calling it. The call goes through the LiveSession
 * like every other operation (pacing, deadlines, evidence, a curl line).
 *
 * On the wire (the MCP Streamable HTTP transport, stateless, as the SDK's servers serve it): POST
 * `<service URL>/mcp` with `Accept: application/json, text/event-stream` and one JSON-RPC request
 * `tools/call { name, arguments }`; no `initialize` first (a stateless server answers each request
 * alone). The answer is JSON or one server-sent event stream (`data:` lines); either way, the
 * JSON-RPC response whose id is ours.
 * Read back: a result's first text content parsed as JSON is the body (its structured content where
 * the text is not JSON); `isError` makes it a refusal, with the HTTP status the result's
 * `_meta['afp/status']` names (an afp serve's documents door) or 400; a JSON-RPC error is a
 * refusal `{ error: 'jsonrpc_<code>', message }` with status 400. A non-2xx HTTP answer (no door:
 * 404, 405, 406) is left as it came, for the dialect's refusal reader.
 * A key that travels as an argument (the deployment's `casino_api_key`) is written KEY_PLACEHOLDER by
 * the dialect's row: the session puts the key there only as it sends, and a curl line reads it from
 * `$AFP_KEY`, so no report holds it.
 * Limits: the answer text is what the session's transport read (at most its answer limit); at most
 * SSE_EVENTS_MAX events are looked at. Non-goals: sessions, notifications, progress.
 */
import type { JsonObject, JsonValue } from '../core/errors.ts';
import type { ServiceName } from '../platform/platform.ts';
import type { DialectRequest } from './dialects/dialect.ts';
import { parseBoundedJson } from '../client/bounded-json.ts';

export const MCP_ACCEPT = 'application/json, text/event-stream';
/** Where a row puts the key in a body; replaced by the key as the request goes out, by `$AFP_KEY` in a curl line. */
export const KEY_PLACEHOLDER = '__AFP_KEY__';
const SSE_EVENTS_MAX = 1_000;
/** The content items of a tool result read for its body (a limit on what a target sends). */
const CONTENT_ITEMS_MAX = 100;
const REQUEST_ID = 1;
/** The status a tool error carries when its result names none. */
const TOOL_ERROR_STATUS = 400;

/**
 * The wire request of one `tools/call`; `key`: where the caller's key goes: nowhere, the MCP
 * request's Authorization header (the documents' door), or an argument the row wrote KEY_PLACEHOLDER
 * (the deployment's).
 */
export function mcpToolRequest(
  service: ServiceName,
  tool: string,
  args: JsonObject,
  key: 'none' | 'header' | 'argument',
): DialectRequest {
  return {
    service,
    method: 'POST',
    path: '/mcp',
    body: { jsonrpc: '2.0', id: REQUEST_ID, method: 'tools/call', params: { name: tool, arguments: args } },
    auth: key === 'header',
    accept: MCP_ACCEPT,
    envelope: 'mcp',
    ...(key === 'argument' ? { keyInBody: true } : {}),
  };
}

/** `value` with every string equal to KEY_PLACEHOLDER replaced by `key`. */
export function withKey(value: JsonValue, key: string): JsonValue {
  if (value === KEY_PLACEHOLDER) return key;
  if (Array.isArray(value)) return value.map((item) => withKey(item, key));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withKey(item, key)]));
  return value;
}

export interface McpAnswerIn {
  readonly status: number;
  /** The parsed JSON answer, when it was JSON. */
  readonly body: unknown;
  /** The answer's text, when it was not JSON (an event stream). */
  readonly text?: string;
}

export interface McpAnswerOut {
  readonly status: number;
  readonly body: unknown;
  readonly json: boolean;
}

/** The tool's answer inside an MCP answer (see the header); a non-2xx answer or an unreadable one as it came. */
export function openMcpAnswer(answer: McpAnswerIn): McpAnswerOut {
  const raw: McpAnswerOut =
    answer.text === undefined
      ? { status: answer.status, body: answer.body, json: true }
      : { status: answer.status, body: answer.text, json: false };
  if (answer.status < 200 || answer.status > 299) return raw;
  const message = answer.text === undefined ? responseIn(answer.body) : responseInStream(answer.text);
  if (message === null) return raw;
  const error = objectOf(message['error']);
  if (error !== null) {
    const code = typeof error['code'] === 'number' ? error['code'] : 'unknown';
    const text = typeof error['message'] === 'string' ? error['message'] : JSON.stringify(error);
    return { status: TOOL_ERROR_STATUS, body: { error: `jsonrpc_${code}`, message: text }, json: true };
  }
  const result = objectOf(message['result']);
  if (result === null) return raw;
  const body = toolBody(result);
  if (result['isError'] !== true) return { status: 200, body, json: true };
  const stated = objectOf(result['_meta'])?.['afp/status'];
  const status = typeof stated === 'number' && stated >= 400 && stated <= 599 ? stated : TOOL_ERROR_STATUS;
  // A tool error in words ("Escrow service unavailable") is the target's own text: kept as the refusal's message.
  const own =
    typeof body === 'object' && body !== null ? body : { error: TOOL_ERROR_NAME, message: toolErrorText(body) };
  return { status, body: own, json: true };
}

/** The name of a tool error that states no error name of its own. */
export const TOOL_ERROR_NAME = 'mcp_tool_error';
/** The characters of a tool error's text kept as its message. */
const TOOL_ERROR_TEXT_MAX = 300;

const toolErrorText = (body: unknown): string =>
  (typeof body === 'string' ? body : body === null ? '(no text)' : JSON.stringify(body)).slice(0, TOOL_ERROR_TEXT_MAX);

/**
 * The first text content that is a JSON object or list, else the structured content, else the
 * first text content (as JSON where it parses, else as it is). Why any text item, not only the
 * first: MCP lets a tool's content hold a sentence before its data, and a prober's honest faucet
 * door answered "Faucet claimed! $1.00 credited" then the claim's JSON, which afp read as the
 * sentence (a major `credited` missing, though the balance showed the claim paid).
 */
function toolBody(result: JsonObject): unknown {
  const content = Array.isArray(result['content']) ? result['content'] : [];
  const texts = content
    .slice(0, CONTENT_ITEMS_MAX)
    .map(objectOf)
    .flatMap((item) =>
      item !== null && item['type'] === 'text' && typeof item['text'] === 'string' ? [item['text']] : [],
    );
  for (const text of texts) {
    const parsed = parseJson(text);
    if (typeof parsed === 'object' && parsed !== null) return parsed;
  }
  if (result['structuredContent'] !== undefined) return result['structuredContent'];
  const first = texts[0];
  if (first === undefined) return null;
  const parsed = parseJson(first);
  return parsed === undefined ? first : parsed;
}

/** Our response in a JSON answer: the object itself, or ours in a batch. */
function responseIn(body: unknown): JsonObject | null {
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    const object = objectOf(message);
    if (object !== null && object['id'] === REQUEST_ID) return object;
  }
  return null;
}

/** Our response in an event stream: the `data:` of the first event that carries it. */
function responseInStream(text: string): JsonObject | null {
  const events = text.split(/\r?\n\r?\n/).slice(0, SSE_EVENTS_MAX);
  for (const event of events) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') continue;
    const found = responseIn(parseJson(data));
    if (found !== null) return found;
  }
  return null;
}

function objectOf(value: unknown): JsonObject | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

/** A tool's text as JSON, under afp's nesting limit; undefined when it is not JSON or too deep. */
function parseJson(text: string): unknown {
  const parsed = parseBoundedJson(text);
  return parsed.kind === 'json' ? parsed.value : undefined;
}
