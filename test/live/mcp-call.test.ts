// Reading a tool's answer out of an MCP answer (src/live/mcp-call.ts), with no network: plain
// JSON and event streams as the SDK's servers write them, tool errors with and without a stated
// status, JSON-RPC errors, and answers that are no MCP answer at all (left as they came).
import { describe, expect, test } from 'vitest';
import { KEY_PLACEHOLDER, mcpToolRequest, openMcpAnswer, withKey } from '../../src/live/mcp-call.ts';
import { answerText } from '../../src/audit/probes/probe-context.ts';
import { refusalWords } from '../../src/live/refusal-text.ts';

const result = (text: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id: 1,
  result: { content: [{ type: 'text', text }], ...extra },
});

describe('openMcpAnswer', () => {
  test('a JSON answer: the first text content as the body', () => {
    expect(openMcpAnswer({ status: 200, body: result('{"credited":1}') })).toEqual({
      status: 200,
      body: { credited: 1 },
      json: true,
    });
  });

  test('an event stream: the data of the event that carries our id, over several lines and events', () => {
    const text = [
      'event: message',
      'data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}',
      '',
      'event: message',
      `data: ${JSON.stringify(result('{"error":"ip_rate_limited","message":"once a day"}', { isError: true }))}`,
      '',
      '',
    ].join('\n');
    expect(openMcpAnswer({ status: 200, body: undefined, text })).toEqual({
      status: 400,
      body: { error: 'ip_rate_limited', message: 'once a day' },
      json: true,
    });
  });

  test("a tool error takes the status an afp serve's result names; a JSON-RPC error is a refusal", () => {
    const limited = result('{"error":"slow down","code":"RATE_LIMITED"}', {
      isError: true,
      _meta: { 'afp/status': 429 },
    });
    expect(openMcpAnswer({ status: 200, body: limited }).status).toBe(429);
    expect(
      openMcpAnswer({
        status: 200,
        body: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Tool nope not found' } },
      }),
    ).toEqual({ status: 400, body: { error: 'jsonrpc_-32602', message: 'Tool nope not found' }, json: true });
  });

  test("a tool error in words is the target's own text: the refusal's message, never an empty 400", () => {
    const failed = result('Error: Escrow service unavailable (upstream timeout)', { isError: true });
    expect(openMcpAnswer({ status: 200, body: failed })).toEqual({
      status: 400,
      body: { error: 'mcp_tool_error', message: 'Error: Escrow service unavailable (upstream timeout)' },
      json: true,
    });
    const empty = { jsonrpc: '2.0', id: 1, result: { content: [], isError: true } };
    expect(openMcpAnswer({ status: 200, body: empty }).body).toEqual({ error: 'mcp_tool_error', message: '(no text)' });
    const long = result('x'.repeat(5_000), { isError: true });
    expect((openMcpAnswer({ status: 200, body: long }).body as { message: string }).message).toHaveLength(300);
    // A probe line quotes it (probe-context.ts answerText).
    expect(
      answerText({
        kind: 'refused',
        refusal: { status: 400, name: 'mcp_tool_error', message: 'Escrow service unavailable', body: null },
        request: { method: 'POST', url: 'http://127.0.0.1:1/mcp' } as never,
      }),
    ).toBe('refused 400 mcp_tool_error: "Escrow service unavailable"');
  });

  test("refusalWords: the target's text beside a name that says nothing (tool, JSON-RPC, bare HTTP), never beside its own name", () => {
    const words = (name: string, message: string): string => refusalWords({ status: 503, name, message });
    expect(words('http_503', 'upstream escrow ledger timed out')).toBe(
      '503 http_503: "upstream escrow ledger timed out"',
    );
    expect(words('jsonrpc_-32603', 'Internal error')).toBe('503 jsonrpc_-32603: "Internal error"');
    // The target named it: the name says it (the message stays in a probe's evidence).
    expect(words('insufficient_balance', 'Not enough USDC')).toBe('503 insufficient_balance');
    expect(words('http_503', '')).toBe('503 http_503');
    // Bounded: at most 200 characters of the target's text, quoted as JSON (a newline stays one line).
    const long = words('mcp_tool_error', `a\n${'y'.repeat(1_000)}`);
    expect(long).toBe(`503 mcp_tool_error: ${JSON.stringify(`a\n${'y'.repeat(198)}`)}`);
    expect(long.split('\n')).toHaveLength(1);
  });

  test('no MCP answer: a 404, a stream without our id, a page — each left as it came', () => {
    expect(openMcpAnswer({ status: 404, body: { error: 'not_found' } })).toEqual({
      status: 404,
      body: { error: 'not_found' },
      json: true,
    });
    expect(openMcpAnswer({ status: 200, body: undefined, text: 'data: {"id":2,"result":{}}\n\n' })).toEqual({
      status: 200,
      body: 'data: {"id":2,"result":{}}\n\n',
      json: false,
    });
    expect(openMcpAnswer({ status: 200, body: undefined, text: '<html>' }).json).toBe(false);
  });

  test('a result whose text is not JSON: the structured content, else the text', () => {
    expect(openMcpAnswer({ status: 200, body: result('done', { structuredContent: { ok: true } }) }).body).toEqual({
      ok: true,
    });
    expect(openMcpAnswer({ status: 200, body: result('done') }).body).toBe('done');
  });

  test('a sentence before the data: the first text content that is a JSON object is the body', () => {
    // A prober's honest faucet door: a summary, then the claim (a major `credited` missing when the sentence was read).
    const content = [
      { type: 'text', text: 'Faucet claimed! $1.00 credited to ag_1' },
      { type: 'text', text: '{"credited":1,"agent_id":"ag_1"}' },
    ];
    expect(openMcpAnswer({ status: 200, body: { jsonrpc: '2.0', id: 1, result: { content } } }).body).toEqual({
      credited: 1,
      agent_id: 'ag_1',
    });
    // A text that is JSON but no object (a bare number) does not hide the structured content.
    expect(openMcpAnswer({ status: 200, body: result('1', { structuredContent: { credited: 1 } }) }).body).toEqual({
      credited: 1,
    });
    expect(openMcpAnswer({ status: 200, body: result('1') }).body).toBe(1);
  });
});

describe('mcpToolRequest and withKey', () => {
  test('the key goes where the door wants it, and only as the request goes out', () => {
    const header = mcpToolRequest('escrow', 'release_escrow', { escrow_id: 'esc_1' }, 'header');
    expect(header).toMatchObject({
      method: 'POST',
      path: '/mcp',
      auth: true,
      accept: 'application/json, text/event-stream',
    });
    expect('keyInBody' in header).toBe(false);
    const argument = mcpToolRequest('escrow', 'release_escrow', { casino_api_key: KEY_PLACEHOLDER }, 'argument');
    expect(argument).toMatchObject({ auth: false, keyInBody: true, envelope: 'mcp' });
    expect(withKey(argument.body ?? null, 'sk_live_1')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'release_escrow', arguments: { casino_api_key: 'sk_live_1' } },
    });
  });
});
