/**
 * The MCP tool table of the faucet and escrow `/mcp` endpoints: one row per operation the
 * documents give each service, each naming the style-B route row that answers it. A tool call
 * is turned into exactly one request on that row (src/server/mcp.ts), so auth, rate limits,
 * validation, `_info` and every 4xx message are the route's own: tools re-implement nothing.
 *
 * Input schemas mirror the B request fields and stay loose on purpose (amount as number or
 * string, plain strings for enums): field content is checked by the route row, so a bad value
 * gets the same 400 message over MCP as over REST. Objects are strict (an unknown argument is
 * refused by the SDK rather than silently dropped).
 * Invariants: every row's route id exists in the route table (checked at handler creation);
 * path parameters are filled from named arguments; on GET rows the other arguments become the
 * query, on POST rows the body. Non-goals: the real platform's extra tools (mark_complete,
 * escrow_stats) — afp has no such operations.
 */
import * as z from 'zod';
import { assert } from '../core/assert.ts';
import type { JsonObject, JsonValue } from '../core/errors.ts';
import type { Route } from '../http/route.ts';

export type McpService = 'faucet' | 'escrow';

export interface McpToolRow {
  readonly name: string;
  readonly service: McpService;
  /** The style-B route row that answers the tool, e.g. `escrow.B.release`. */
  readonly routeId: string;
  readonly input: z.ZodObject;
  /** Path parameter of the route → the argument that fills it (`{ id: 'escrow_id' }`). */
  readonly pathParams?: Readonly<Record<string, string>>;
  /**
   * The argument that carries the API key (the deployment's `casino_api_key`): it becomes the
   * dispatched request's Bearer key and is not passed on. Absent: the MCP request's own
   * Authorization header is the key (the documents' tools).
   */
  readonly keyArgument?: string;
}

/** A tool call as a request on its route row. */
export interface ToolRequest {
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** The JSON body on POST rows; undefined when no argument is left for it, and on GET rows. */
  readonly body: JsonObject | undefined;
}

const agentReference = (what: string): z.ZodString =>
  z.string().describe(`${what}: an agent id, its 0x address or its referral code`);
const escrowId = z.string().min(1).describe('The escrow id (esc_...)');
const amount = z
  .union([z.number(), z.string()])
  .describe('USDC amount, a JSON number or a decimal string ("1.50"); at least 0.10, at most 6 decimals');

/** A tool whose one argument is the escrow its route's `:id` names. */
function oneEscrowTool(name: string, routeId: string): McpToolRow {
  return {
    name,
    service: 'escrow',
    routeId,
    input: z.strictObject({ escrow_id: escrowId }),
    pathParams: { id: 'escrow_id' },
  };
}

export const MCP_TOOLS: readonly McpToolRow[] = [
  {
    name: 'register_agent',
    service: 'faucet',
    routeId: 'faucet.B.register',
    input: z.strictObject({
      agent_id: z.string().describe('1 to 64 characters of A-Z a-z 0-9 _ . -'),
      referrer: agentReference('Optional referrer').nullish(),
      metadata: z
        .record(z.string(), z.unknown())
        .nullish()
        .describe('Optional object, e.g. { "framework": "langchain" }'),
    }),
  },
  {
    name: 'claim_faucet',
    service: 'faucet',
    routeId: 'faucet.B.claim',
    input: z.strictObject({
      agent_id: z.string().nullish().describe("Omit, or the caller's own id (a claim needs the agent's API key)"),
    }),
  },
  { name: 'faucet_status', service: 'faucet', routeId: 'faucet.B.status', input: z.strictObject({}) },
  {
    name: 'create_escrow',
    service: 'escrow',
    routeId: 'escrow.B.create',
    input: z.strictObject({
      amount,
      receiver: agentReference('The receiver'),
      description: z.string().nullish().describe('Optional description of the deal'),
      expires_in: z
        .number()
        .nullish()
        .describe('Optional whole seconds until automatic refund, 1..7776000 (default 86400)'),
      referrer: agentReference('Optional referrer of this escrow').nullish(),
      conditions: z
        .record(z.string(), z.unknown())
        .nullish()
        .describe('Optional release conditions: a JSON object, stored and shown, never interpreted'),
    }),
  },
  oneEscrowTool('release_escrow', 'escrow.B.release'),
  oneEscrowTool('refund_escrow', 'escrow.B.refund'),
  {
    name: 'dispute_escrow',
    service: 'escrow',
    routeId: 'escrow.B.dispute',
    input: z.strictObject({
      escrow_id: escrowId,
      reason: z.string().describe('Why the escrow is disputed'),
      evidence: z.string().nullish().describe('Optional evidence (text or a link)'),
    }),
    pathParams: { id: 'escrow_id' },
  },
  oneEscrowTool('get_escrow', 'escrow.B.get'),
  {
    name: 'list_escrows',
    service: 'escrow',
    routeId: 'escrow.B.list',
    input: z.strictObject({
      role: z.string().nullish().describe('sender, receiver or all (default all)'),
      status: z.string().nullish().describe('Optional filter: locked, released, refunded, expired or disputed'),
      limit: z.number().nullish().describe('1..100, default 20'),
    }),
  },
];

const AUTH_NOTE: Readonly<Record<Route['auth'], string>> = {
  none: 'No API key needed.',
  bearer: 'Needs the API key: send Authorization: Bearer <api_key> with the MCP request.',
  optional: 'Needs Authorization: Bearer <api_key> (register_agent needs none and pays the first grant).',
};

/** The tool's description: its route row's summary plus how it is authorised. */
export function toolDescription(route: Route): string {
  return `${route.summary} ${AUTH_NOTE[route.auth]}`;
}

/** The route row of each tool of `service` in `tools`, in table order; a missing row is a bug. */
export function resolveTools(
  tools: readonly McpToolRow[],
  style: Route['style'],
  service: McpService,
  routes: readonly Route[],
): readonly { readonly tool: McpToolRow; readonly route: Route }[] {
  return tools
    .filter((tool) => tool.service === service)
    .map((tool) => {
      const route = routes.find((candidate) => candidate.id === tool.routeId);
      assert(route !== undefined, `MCP tool ${tool.name} needs route row ${tool.routeId}`);
      assert(
        route.service === service && route.style === style,
        `MCP tool ${tool.name} answers through a style-${style} ${service} row`,
      );
      return { tool, route };
    });
}

/**
 * The Authorization a call of `tool` is dispatched with: the MCP request's own header, or, for a
 * tool whose key is an argument, `Bearer <that argument>` (none when it is not a string).
 */
export function toolAuthorization(
  tool: McpToolRow,
  args: Readonly<Record<string, unknown>>,
  header: string | undefined,
): string | undefined {
  if (tool.keyArgument === undefined) return header;
  const key = args[tool.keyArgument];
  return typeof key === 'string' ? `Bearer ${key}` : undefined;
}

/** The request a call of `tool` with parsed `args` makes on `route`. */
export function toolRequest(tool: McpToolRow, route: Route, args: Readonly<Record<string, unknown>>): ToolRequest {
  const pathArgs = new Set(Object.values(tool.pathParams ?? {}));
  const path = route.path.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    const argument = tool.pathParams?.[name];
    assert(argument !== undefined, `MCP tool ${tool.name} fills path parameter :${name}`);
    return encodeURIComponent(String(args[argument]));
  });
  const rest = Object.entries(args).filter(
    ([name, value]) => !pathArgs.has(name) && name !== tool.keyArgument && value !== undefined,
  );
  if (route.method === 'GET') {
    const query: Record<string, string> = {};
    for (const [name, value] of rest) if (value !== null) query[name] = String(value as string | number);
    return { path, query, body: undefined };
  }
  return {
    path,
    query: {},
    body: rest.length === 0 ? undefined : (Object.fromEntries(rest) as Record<string, JsonValue>),
  };
}
