// The faucet and escrow `/mcp` endpoints, driven by the MCP SDK's own Client and
// StreamableHTTPClientTransport against real loopback servers (one per style-A mount, as `afp
// serve` mounts them) over a Dispatcher on the real route table and a virtual clock. Checks that
// tools answer exactly as their style-B route rows (bodies, 4xx messages, auth, rate limits) and
// that balances in the platform match what the tools reported. The listeners take afp serve's
// path: the handler is built on a listener's first request (src/server/mcp-lazy.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { agentAccount } from '../../src/core/ledger.ts';
import { formatDecimal } from '../../src/core/money.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { INFO } from '../../src/platform/info.ts';
import { Platform } from '../../src/platform/platform.ts';
import { MCP_PATH } from '../../src/server/mcp.ts';
import { createLazyMcpHandler } from '../../src/server/mcp-lazy.ts';
import type { McpService } from '../../src/server/mcp-tools.ts';

const START = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const FAUCET_TOOLS = ['register_agent', 'claim_faucet', 'faucet_status'];
const ESCROW_TOOLS = [
  'create_escrow',
  'release_escrow',
  'refund_escrow',
  'dispute_escrow',
  'get_escrow',
  'list_escrows',
];

interface World {
  platform: Platform;
  dispatcher: Dispatcher;
  clock: VirtualClock;
  urls: Record<McpService, string>;
  servers: Server[];
  clients: Client[];
}

let w: World;

async function listen(world: Omit<World, 'urls'>, service: McpService): Promise<string> {
  const handler = createLazyMcpHandler({ dispatcher: world.dispatcher, clock: world.clock, service, log: () => {} });
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === MCP_PATH) {
      void handler(request, response, '127.0.0.1', {});
      return;
    }
    response.writeHead(404).end('{}');
  });
  world.servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function connect(service: McpService, key?: string): Promise<Client> {
  const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
  const transport = new StreamableHTTPClientTransport(new URL(`${w.urls[service]}${MCP_PATH}`), {
    requestInit: { headers },
  });
  const client = new Client({ name: 'afp-test', version: '1.0.0' });
  await client.connect(transport);
  w.clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  // Text and structured content always carry the same JSON body.
  if (result.structuredContent !== undefined) {
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
  }
  return result;
}

function body(result: CallToolResult): Record<string, unknown> {
  expect(result.structuredContent, JSON.stringify(result.content)).toBeDefined();
  return result.structuredContent as Record<string, unknown>;
}

function expectToolError(
  result: CallToolResult,
  status: number,
  code: string,
  service: McpService,
): Record<string, unknown> {
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  expect(result._meta?.['afp/status']).toBe(status);
  const error = body(result);
  expect(error).toMatchObject({ error: expect.any(String) as string, code, _info: INFO[service] });
  return error;
}

function balanceText(agentId: string): string {
  return formatDecimal(w.platform.ledger.balance(agentAccount(agentId)));
}

beforeEach(async () => {
  const platform = new Platform({ seed: 'mcp-test', startMs: START });
  const base = {
    platform,
    dispatcher: new Dispatcher(platform, ALL_ROUTES),
    clock: new VirtualClock(START),
    servers: [] as Server[],
    clients: [] as Client[],
  };
  const urls = { faucet: await listen(base, 'faucet'), escrow: await listen(base, 'escrow') };
  w = { ...base, urls };
});

afterEach(async () => {
  for (const client of w.clients) await client.close();
  for (const server of w.servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

describe('tool lists', () => {
  test('tools/list names one tool per documented operation, with the same schemas as GET /mcp', async () => {
    const registered = body(await call(await connect('faucet'), 'register_agent', { agent_id: 'lister' }));
    const key = registered['api_key'] as string;
    for (const [service, names] of [
      ['faucet', FAUCET_TOOLS],
      ['escrow', ESCROW_TOOLS],
    ] as const) {
      const listed = await (await connect(service)).listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(names);
      const response = await fetch(`${w.urls[service]}${MCP_PATH}`, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      const json = (await response.json()) as {
        tools: { name: string; description: string; inputSchema: unknown }[];
        _info: unknown;
      };
      expect(json._info).toEqual(INFO[service]);
      expect(json.tools).toEqual(
        listed.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
      );
    }
    const escrowTools = (await (await connect('escrow')).listTools()).tools;
    const create = escrowTools.find((tool) => tool.name === 'create_escrow');
    expect(create?.inputSchema.required).toEqual(['amount', 'receiver']);
    expect(create?.inputSchema.properties?.['amount']).toMatchObject({ type: ['number', 'string'] });
    expect(create?.inputSchema['additionalProperties']).toBe(false);
    expect(create?.description).toContain('Authorization: Bearer');
    const release = escrowTools.find((tool) => tool.name === 'release_escrow');
    expect(release?.inputSchema.required).toEqual(['escrow_id']);
  });

  test('GET /mcp: the JSON list needs a valid key; an event-stream GET and other methods answer 405', async () => {
    const url = `${w.urls.escrow}${MCP_PATH}`;
    const missing = await fetch(url);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: 'missing API key: send Authorization: Bearer <api_key>',
      code: 'UNAUTHORIZED',
      _info: INFO.escrow,
    });
    const invalid = await fetch(url, { headers: { authorization: 'Bearer sk_live_nope' } });
    expect(invalid.status).toBe(401);
    expect(((await invalid.json()) as { error: string }).error).toBe('invalid API key');
    const stream = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(stream.status).toBe(405);
    expect(((await stream.json()) as { code: string }).code).toBe('BAD_REQUEST');
    const put = await fetch(url, { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    await put.json();
  });
});

describe('tool calls go through the route rows', () => {
  test('register → claim → create → get → list → release; balances match the platform', async () => {
    const faucet = await connect('faucet');
    const alice = await call(faucet, 'register_agent', { agent_id: 'alice', metadata: { framework: 'mcp' } });
    expect(alice.isError).toBe(false);
    expect(alice._meta?.['afp/status']).toBe(201);
    expect(alice._meta?.['afp/headers']).toMatchObject({
      'x-ratelimit-limit': expect.any(String) as string,
      'x-ratelimit-remaining': expect.any(String) as string,
    });
    expect(body(alice)).toMatchObject({
      agent_id: 'alice',
      amount: '10.00',
      currency: 'USDC',
      balance: '10.00',
      _info: INFO.faucet,
    });
    const aliceKey = body(alice)['api_key'] as string;
    expect(body(await call(faucet, 'register_agent', { agent_id: 'bob' }))['balance']).toBe('10.00');

    // A claim needs the key (a keyless one is 401 whoever it names); the 10 USDC grant starts the
    // 24 h cooldown: inside it a claim is a 409.
    const keyless = expectToolError(
      await call(faucet, 'claim_faucet', { agent_id: 'alice' }),
      401,
      'UNAUTHORIZED',
      'faucet',
    );
    expect(keyless['error']).toContain('the first claim is the registration grant');
    const aliceFaucet = await connect('faucet', aliceKey);
    expectToolError(await call(aliceFaucet, 'claim_faucet', { agent_id: 'alice' }), 409, 'FAUCET_CLAIMED', 'faucet');
    w.clock.set(START + DAY);
    const claimed = body(await call(aliceFaucet, 'claim_faucet', { agent_id: 'alice' }));
    expect(claimed).toMatchObject({ amount: '2.00', balance: '12.00' });
    expect(claimed['balance']).toBe(balanceText('alice'));

    const escrow = await connect('escrow', aliceKey);
    const created = await call(escrow, 'create_escrow', {
      amount: '5',
      receiver: 'bob',
      description: 'logo',
      conditions: { rounds: 2 },
    });
    expect(created._meta?.['afp/status']).toBe(201);
    expect(body(created)).toMatchObject({
      status: 'locked',
      amount: '5.00',
      fee: '0.05',
      net: '4.95',
      receiver: 'bob',
    });
    const escrowId = body(created)['escrow_id'] as string;
    expect(balanceText('alice')).toBe('7.00');

    const detail = body(await call(escrow, 'get_escrow', { escrow_id: escrowId }));
    expect(detail).toMatchObject({
      escrow_id: escrowId,
      status: 'locked',
      sender: 'alice',
      receiver: 'bob',
      description: 'logo',
      conditions: { rounds: 2 },
    });
    const listed = body(await call(escrow, 'list_escrows', { role: 'sender', limit: 5 }));
    expect(listed['count']).toBe(1);
    expect(body(await call(escrow, 'list_escrows', { status: 'released' }))['count']).toBe(0);

    const released = body(await call(escrow, 'release_escrow', { escrow_id: escrowId }));
    expect(released).toMatchObject({ escrow_id: escrowId, status: 'released', net: '4.95', fee: '0.05' });
    expect(balanceText('bob')).toBe('14.95');
    expectToolError(await call(escrow, 'release_escrow', { escrow_id: escrowId }), 409, 'CONFLICT', 'escrow');

    const status = body(await call(await connect('faucet', aliceKey), 'faucet_status'));
    expect(status).toMatchObject({ agent_id: 'alice', balance: '7.00' });
    expect(w.platform.ledger.balance(agentAccount('alice'))).toBe(7_000_000n);
  });

  test('dispute and refund answer as their rows', async () => {
    const faucet = await connect('faucet');
    const key = body(await call(faucet, 'register_agent', { agent_id: 'seller1' }))['api_key'] as string;
    await call(faucet, 'register_agent', { agent_id: 'buyer1' });
    const escrow = await connect('escrow', key);
    const first = body(await call(escrow, 'create_escrow', { amount: 1, receiver: 'buyer1', expires_in: 3600 }))[
      'escrow_id'
    ] as string;
    const refunded = body(await call(escrow, 'refund_escrow', { escrow_id: first }));
    expect(refunded).toMatchObject({ status: 'refunded', amount: '1.00' });
    const second = body(await call(escrow, 'create_escrow', { amount: 2, receiver: 'buyer1' }))['escrow_id'] as string;
    const disputed = body(await call(escrow, 'dispute_escrow', { escrow_id: second, reason: 'late', evidence: null }));
    expect(disputed).toMatchObject({ escrow_id: second, status: 'disputed', reason: 'late', evidence: null });
    expect(balanceText('seller1')).toBe('8.00');
  });

  test('a bad amount is the route row’s own 400, and moves nothing', async () => {
    const faucet = await connect('faucet');
    const key = body(await call(faucet, 'register_agent', { agent_id: 'carol' }))['api_key'] as string;
    await call(faucet, 'register_agent', { agent_id: 'dave' });
    const escrow = await connect('escrow', key);
    const before = new Map(w.platform.ledger.accounts());
    for (const amount of ['1.2345678', 'ten', -1, 0.05]) {
      const direct = w.dispatcher.handle(
        {
          mount: 'api',
          method: 'POST',
          path: '/escrow',
          query: {},
          headers: { authorization: `Bearer ${key}` },
          body: { amount, receiver: 'dave' },
          ip: '10.0.0.9',
        },
        w.clock.nowMs(),
      );
      const error = expectToolError(
        await call(escrow, 'create_escrow', { amount, receiver: 'dave' }),
        direct.status,
        String(direct.body['code']),
        'escrow',
      );
      expect(error).toEqual(direct.body);
      expect(direct.status).toBe(400);
    }
    expect(new Map(w.platform.ledger.accounts())).toEqual(before);
  });

  test('no key or a bad key on a bearer tool → 401; an unknown argument is refused before the route', async () => {
    const anonymous = await connect('escrow');
    const missing = expectToolError(
      await call(anonymous, 'create_escrow', { amount: 1, receiver: 'x' }),
      401,
      'UNAUTHORIZED',
      'escrow',
    );
    expect(missing['error']).toBe('missing API key: send Authorization: Bearer <api_key>');
    const wrong = await connect('escrow', 'sk_live_000');
    expect(expectToolError(await call(wrong, 'list_escrows'), 401, 'UNAUTHORIZED', 'escrow')['error']).toBe(
      'invalid API key',
    );
    expectToolError(await call(await connect('faucet'), 'faucet_status'), 401, 'UNAUTHORIZED', 'faucet');
    const unknown = await call(anonymous, 'get_escrow', { escrow_id: 'esc_1', extra: true });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toBeUndefined();
    expect(JSON.stringify(unknown.content)).toContain('Input validation error');
  });

  test('rate limits are the route’s: the 11th registration from one IP within a minute is a 429', async () => {
    const faucet = await connect('faucet');
    for (let index = 0; index < 10; index++)
      expect((await call(faucet, 'register_agent', { agent_id: `r${index}` })).isError).toBe(false);
    const limited = expectToolError(
      await call(faucet, 'register_agent', { agent_id: 'r10' }),
      429,
      'RATE_LIMIT',
      'faucet',
    );
    expect(limited['retry_after_seconds']).toBeGreaterThan(0);
    expect(
      (await faucet.callTool({ name: 'register_agent', arguments: { agent_id: 'r11' } }))._meta?.['afp/headers'],
    ).toMatchObject({ 'retry-after': expect.any(String) as string });
    expect(w.platform.agents.get('r10')).toBeUndefined();
  });
});

describe('transport limits', () => {
  test("an empty batch is JSON-RPC 2.0's Invalid Request (400), not accepted", async () => {
    const response = await fetch(`${w.urls.escrow}${MCP_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '[]',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: an empty batch ([]) holds no message' },
      id: null,
    });
  });

  test('a body over maxBodyBytes answers 413 and runs nothing', async () => {
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'register_agent',
        arguments: { agent_id: 'big', metadata: { pad: 'x'.repeat(w.platform.config.maxBodyBytes) } },
      },
    });
    const response = await fetch(`${w.urls.faucet}${MCP_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: huge,
    });
    expect(response.status).toBe(413);
    await response.text();
    expect(w.platform.agents.get('big')).toBeUndefined();
  });
});

// Issue 17 (4): POST /mcp tools/list needed no key and was not rate limited, and every POST built a
// new MCP server. Now every request to /mcp counts (a keyless one by the client IP) unless it holds
// only tool calls (each charged as its route), and one server per listener answers them all.
describe('the transport is rate limited, on one server', () => {
  const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const post = (service: McpService, text: string, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${w.urls[service]}${MCP_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: text,
    });

  test('keyless tools/list POSTs count against the IP: the 301st in one instant is a 429', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 300; index++) {
      const response = await post('faucet', LIST);
      statuses.push(response.status);
      const answer = (await response.json()) as { result?: { tools: unknown[] } };
      expect(answer.result?.tools).toHaveLength(FAUCET_TOOLS.length);
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
    const refused = await post('faucet', LIST);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      code: 'RATE_LIMIT',
      error: 'rate_limit_exceeded',
      _info: INFO.faucet,
    });
    // GET /mcp counts too; a tool call is charged as its route (the tier bucket is the IP's, empty).
    expect((await fetch(`${w.urls.faucet}${MCP_PATH}`)).status).toBe(429);
    w.clock.advance(600);
    const passed = await post('faucet', LIST);
    expect(passed.status).toBe(200);
    expect(passed.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  test('one server answers every request, concurrent ones each with its own caller', async () => {
    const registerTool = vi.spyOn(McpServer.prototype, 'registerTool');
    // The listener's first requests, side by side, share the one build of its server: each tool is
    // registered once, then never again.
    const firsts = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        post('faucet', JSON.stringify({ jsonrpc: '2.0', id: index, method: 'tools/list', params: {} })),
      ),
    );
    for (const response of firsts) {
      expect(response.status).toBe(200);
      expect(((await response.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(
        FAUCET_TOOLS.length,
      );
    }
    expect(registerTool.mock.calls.map((call: unknown[]) => String(call[0])).sort()).toEqual([...FAUCET_TOOLS].sort());
    registerTool.mockClear();
    const registered = body(await call(await connect('faucet'), 'register_agent', { agent_id: 'one' }));
    const key = registered['api_key'] as string;
    const answers = await Promise.all(
      Array.from({ length: 16 }, async (_, index) => {
        const text = JSON.stringify({
          jsonrpc: '2.0',
          id: index,
          method: 'tools/call',
          params: { name: 'faucet_status', arguments: {} },
        });
        const response = await post('faucet', text, index % 2 === 0 ? { authorization: `Bearer ${key}` } : {});
        return { index, answer: (await response.json()) as { id: number; result: CallToolResult } };
      }),
    );
    for (const { index, answer } of answers) {
      expect(answer.id).toBe(index);
      expect(answer.result._meta?.['afp/status']).toBe(index % 2 === 0 ? 200 : 401);
    }
    expect(registerTool).not.toHaveBeenCalled();
    registerTool.mockRestore();
  });
});
