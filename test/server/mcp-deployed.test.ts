// The deployment's MCP doors on `afp serve --dialect deployed` (DEPLOYED.md §3, §4), driven by the
// MCP SDK's own Client and by raw requests as a curl line sends them, against real loopback
// listeners: the open GET descriptor, the deployment's tool names, event-stream answers, errors as
// `{ error, message }` without `_info`, the key as the `casino_api_key` argument. Each tool keeps
// its HTTP row's rule unless the deployment's flaw is asked for: `mcp-claim-skips-ip-cooldown`
// pays a second claim from one address, `mcp-release-credits-nobody` marks the escrow released and
// pays no one (the held money is gone: the platform's money no longer sums).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES, NO_PROXIES } from '../../src/http/trusted-proxies.ts';
import { deployedLayout } from '../../src/server/deployed-layout.ts';
import type { ServeHandle } from '../../src/server/listeners.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { manualServes } from '../fixtures/manual-serves.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const SERVE = {
  trustedProxies: NO_PROXIES,
  seed: '5',
  startMs: START_MS,
  routes: DEPLOYED_ROUTES,
  layout: deployedLayout({}),
};
const FLAWS: readonly DefectName[] = ['mcp-claim-skips-ip-cooldown', 'mcp-release-credits-nobody'];
/** Faithful as afp serve starts by default (no proxy trusted: the client is the socket); flawed behind a trusted loopback proxy that sends no forwarding header. */
const serves = {
  faithful: manualServes(SERVE),
  flawed: manualServes({ ...SERVE, trustedProxies: LOOPBACK_PROXIES, defects: FLAWS }),
};

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'afp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  clients.push(client);
  return client;
}

async function post(
  url: string,
  body: unknown,
  key?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== undefined) headers['authorization'] = `Bearer ${key}`;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const register = async (handle: ServeHandle): Promise<{ agent_id: string; api_key: string }> =>
  (await post(`${handle.urls.casino}/api/v1/auth/register`, {})).body as { agent_id: string; api_key: string };

async function balance(handle: ServeHandle, key: string): Promise<number> {
  const response = await fetch(`${handle.urls.casino}/api/v1/auth/balance`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return ((await response.json()) as { balance_usd: number }).balance_usd;
}

/** The ledger's sum and whether it balances (GET /_afp/state). */
async function ledger(handle: ServeHandle): Promise<{ sum_micro: string; balanced: boolean }> {
  const state = (await (await fetch(`${handle.urls.casino}/_afp/state`)).json()) as {
    ledger: { sum_micro: string; balanced: boolean };
  };
  return { sum_micro: state.ledger.sum_micro, balanced: state.ledger.balanced };
}

/** A tool result's JSON body (the deployment sends it as the one text content). */
function bodyOf(result: CallToolResult): Record<string, unknown> {
  expect(result.content).toHaveLength(1);
  const [content] = result.content;
  expect(content?.type).toBe('text');
  return JSON.parse((content as { text: string }).text) as Record<string, unknown>;
}

const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

/** An escrow of 0.50 from the key's agent to `counterparty`, created through create_escrow; its id. */
async function createEscrow(client: Client, key: string, counterparty: string): Promise<string> {
  const created = await call(client, 'create_escrow', {
    casino_api_key: key,
    amount_usd: 0.5,
    description: 'mcp deal',
    counterparty_agent_id: counterparty,
  });
  expect(created.isError).toBe(false);
  return bodyOf(created)['escrow_id'] as string;
}

describe('afp serve --dialect deployed: /mcp', () => {
  test('GET is the open descriptor; POST answers an event stream; the SDK client lists the deployment’s tools', async () => {
    const handle = await serves.faithful();
    const faucet = handle.urls.faucet as string;
    const escrow = handle.urls.escrow as string;
    const descriptor = await fetch(`${faucet}/mcp`);
    expect(descriptor.status).toBe(200);
    expect(await descriptor.json()).toEqual({
      service: 'agent-faucet',
      transport: 'streamable-http',
      endpoint: 'POST /mcp',
      tools: ['claim_faucet'],
      description: 'Claim the one-time 1.00 USDC credit for a casino agent.',
    });
    expect(((await (await fetch(`${escrow}/mcp`)).json()) as { tools: string[] }).tools).toEqual([
      'create_escrow',
      'get_escrow',
      'mark_complete',
      'release_escrow',
      'dispute_escrow',
    ]);
    // A stateless request with no initialize first, as a curl line sends it.
    const raw = await fetch(`${faucet}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }),
    });
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await raw.text()).toMatch(/^event: message\ndata: \{"result":\{"tools":\[\{"name":"claim_faucet"/m);
    const client = await connect(escrow);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('release_escrow');
  });

  test('faithful: the tools keep their rows’ rules — the cooldown, the key argument, a paid release', async () => {
    const handle = await serves.faithful();
    const [a, b, c] = [await register(handle), await register(handle), await register(handle)];
    expect((await post(`${handle.urls.faucet}/faucet/claim`, { agent_casino_id: a.agent_id })).status).toBe(200);
    const faucet = await connect(handle.urls.faucet as string);
    const refused = await call(faucet, 'claim_faucet', { agent_casino_id: b.agent_id });
    expect(refused.isError).toBe(true);
    expect(bodyOf(refused)).toEqual({
      error: 'ip_rate_limited',
      message: 'This IP address already claimed from the faucet in the last 24 hours',
    });
    const escrow = await connect(handle.urls.escrow as string);
    const escrowId = await createEscrow(escrow, a.api_key, c.agent_id);
    expect(
      bodyOf(await call(escrow, 'release_escrow', { casino_api_key: 'sk_live_nope', escrow_id: escrowId })),
    ).toEqual({ error: 'unauthorized' });
    const shortReason = await call(escrow, 'dispute_escrow', {
      casino_api_key: a.api_key,
      escrow_id: escrowId,
      reason: 'no',
    });
    expect(shortReason.isError).toBe(true);
    const before = await balance(handle, c.api_key);
    const released = await call(escrow, 'release_escrow', { casino_api_key: a.api_key, escrow_id: escrowId });
    expect(bodyOf(released)).toMatchObject({ escrow_id: escrowId, status: 'released', amount_released: 0.495 });
    expect(await balance(handle, c.api_key)).toBeCloseTo(before + 0.495, 6);
    expect(bodyOf(await call(escrow, 'get_escrow', { escrow_id: escrowId }))).toMatchObject({ status: 'released' });
    expect(await ledger(handle)).toEqual({ sum_micro: '0', balanced: true });
  });

  test('the deployment’s flaws: a second claim from one address is paid; a release pays nobody and the money is gone', async () => {
    const handle = await serves.flawed();
    const [a, b, c] = [await register(handle), await register(handle), await register(handle)];
    expect((await post(`${handle.urls.faucet}/faucet/claim`, { agent_casino_id: a.agent_id })).status).toBe(200);
    // HTTP still keeps the cooldown; the door skips it.
    expect((await post(`${handle.urls.faucet}/faucet/claim`, { agent_casino_id: b.agent_id })).status).toBe(429);
    const faucet = await connect(handle.urls.faucet as string);
    expect(bodyOf(await call(faucet, 'claim_faucet', { agent_casino_id: b.agent_id }))).toMatchObject({ credited: 1 });
    const escrow = await connect(handle.urls.escrow as string);
    const escrowId = await createEscrow(escrow, a.api_key, c.agent_id);
    const before = await balance(handle, c.api_key);
    const released = await call(escrow, 'release_escrow', { casino_api_key: a.api_key, escrow_id: escrowId });
    expect(bodyOf(released)).toMatchObject({ status: 'released' });
    expect(await balance(handle, c.api_key)).toBe(before);
    // The ledger's sum of every account is 0 while money is conserved: the held 0.50 is gone.
    expect(await ledger(handle)).toEqual({ sum_micro: '-500000', balanced: false });
  });
});
