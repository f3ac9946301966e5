// The typed client: its endpoint table is the route table's (ids, mounts, methods, paths), it
// encodes ids into paths, turns queries into strings, carries identity (key, IP), reports `ok`
// as 2xx and normalizes foreign error bodies. The in-process transport's own rules (IP, raw
// bodies, the JSON round-trip check) are tested here too.
import { describe, expect, test } from 'vitest';
import { AfpClient, ENDPOINT_IDS, ENDPOINTS, endpointPath } from '../../src/client/client.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import type { TransportRequest, TransportResponse } from '../../src/client/transport.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { succeed } from '../../src/core/errors.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { defineRoute } from '../../src/http/route.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import { inProcessSetup, START_MS } from './fixtures.ts';

function recordingTransport(answer: TransportResponse = { status: 200, headers: {}, body: {} }): {
  sent: TransportRequest[];
  client: AfpClient;
} {
  const sent: TransportRequest[] = [];
  return { sent, client: new AfpClient((request) => (sent.push(request), Promise.resolve(answer))) };
}

describe('endpoint table', () => {
  test('every client endpoint is a route row with the same mount, method and path, and vice versa', () => {
    const rows = ALL_ROUTES.filter((route) => route.service === 'faucet' || route.service === 'escrow');
    expect(rows.map((route) => route.id).sort()).toEqual([...ENDPOINT_IDS].sort());
    for (const route of rows) {
      expect(ENDPOINTS[route.id as keyof typeof ENDPOINTS], route.id).toEqual({
        mount: route.mount,
        method: route.method,
        path: route.path,
        style: route.style,
      });
    }
  });

  test('path parameters are URL-encoded; a missing one is a bug', () => {
    expect(endpointPath('escrow.B.release', { id: 'a/b c?' })).toBe('/escrow/a%2Fb%20c%3F/release');
    expect(() => endpointPath('escrow.B.get')).toThrow(/path parameter 'id' is missing/);
  });
});

describe('AfpClient requests', () => {
  test('identity headers: withKey sets and removes the key, withIp sends X-Forwarded-For', async () => {
    const { sent, client } = recordingTransport();
    const keyed = client.withKey('sk_live_abc').withIp('10.1.2.3');
    await keyed.escrowB.get('esc_1');
    await keyed.withKey(undefined).faucetB.agents();
    expect(sent[0]).toEqual({
      mount: 'api',
      method: 'GET',
      path: '/escrow/esc_1',
      headers: { authorization: 'Bearer sk_live_abc', 'x-forwarded-for': '10.1.2.3' },
    });
    expect(sent[1]?.headers).toEqual({ 'x-forwarded-for': '10.1.2.3' });
    expect(keyed.apiKey).toBe('sk_live_abc');
  });

  test('queries become strings, undefined values are dropped, bodies pass as JSON values', async () => {
    const { sent, client } = recordingTransport();
    await client.escrowA.list({ limit: 5, role: undefined, status: 'locked' });
    await client.escrowA.list();
    await client.escrowB.dispute('esc 2', { reason: 'late' });
    await client.faucetB.claim();
    expect(sent[0]).toMatchObject({
      mount: 'escrow',
      path: '/api/v1/escrow/list',
      query: { limit: '5', status: 'locked' },
    });
    expect(sent[1]?.query).toBeUndefined();
    expect(sent[2]).toMatchObject({ method: 'POST', path: '/escrow/esc%202/dispute', body: { reason: 'late' } });
    expect(sent[3]?.body).toBeUndefined();
  });

  test('raw sends the request as given, with the client identity under its own headers', async () => {
    const { sent, client } = recordingTransport();
    await client.raw({
      mount: 'api',
      method: 'POST',
      path: '/escrow',
      rawBody: { text: '{', contentType: 'application/json' },
    });
    await client
      .withKey('k1')
      .raw({ mount: 'api', method: 'GET', path: '/status', headers: { authorization: 'Bearer other' } });
    expect(sent[0]).toEqual({
      mount: 'api',
      method: 'POST',
      path: '/escrow',
      rawBody: { text: '{', contentType: 'application/json' },
    });
    expect(sent[1]?.headers).toEqual({ authorization: 'Bearer other' });
  });

  test('ok is exactly 2xx; a foreign error body is wrapped with code UNKNOWN', async () => {
    const created = await recordingTransport({ status: 201, headers: {}, body: { escrow_id: 'e' } }).client.escrowB.get(
      'e',
    );
    expect(created.ok).toBe(true);
    const foreign = await recordingTransport({ status: 502, headers: {}, body: 'bad gateway' }).client.escrowB.get('e');
    expect(foreign).toEqual({
      ok: false,
      status: 502,
      headers: {},
      body: { error: 'error answer without {error, code}', code: 'UNKNOWN', body: 'bad gateway' },
    });
    const redirect = await recordingTransport({
      status: 304,
      headers: {},
      body: { error: 'x', code: 'Y' },
    }).client.escrowB.get('e');
    expect(redirect).toMatchObject({ ok: false, body: { error: 'x', code: 'Y' } });
  });
});

describe('AfpClient over the in-process platform', () => {
  test('faucet and escrow flows give the contract shapes, typed', async () => {
    const { client, clock } = inProcessSetup();
    const alice = await client.faucetB.register({ agent_id: 'alice' });
    const bob = await client.faucetB.register({ agent_id: 'bob' });
    if (!alice.ok || !bob.ok) throw new Error('registration failed');
    expect(alice.status).toBe(201);
    expect(alice.body).toMatchObject({ agent_id: 'alice', amount: '10.00', currency: 'USDC', balance: '10.00' });
    const asAlice = client.withKey(alice.body.api_key);
    const created = await asAlice.escrowB.create({ amount: 1, receiver: 'bob', expires_in: 60 });
    if (!created.ok) throw new Error(`create failed: ${created.body.code}`);
    expect(created.body).toMatchObject({ status: 'locked', amount: '1.00', fee: '0.01', net: '0.99', receiver: 'bob' });
    clock.advance(60_000);
    const detail = await asAlice.escrowB.get(created.body.escrow_id);
    expect(detail.ok && detail.body.status).toBe('expired');
    const again = await asAlice.escrowB.release(created.body.escrow_id);
    expect(again).toMatchObject({ ok: false, status: 409, body: { code: 'CONFLICT' } });
    expect(again.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  });
});

describe('in-process transport', () => {
  const probe = defineRoute<null, string>({
    id: 'test.B.probe',
    service: 'faucet',
    style: 'B',
    mount: 'api',
    method: 'POST',
    path: '/probe',
    auth: 'none',
    summary: 'echo the ip',
    parse: () => null,
    run: (context) => succeed(context.ip),
    successStatus: 200,
    render: (ip) => ({ ip }),
  });
  const broken = defineRoute<null, null>({
    id: 'test.B.broken',
    service: 'faucet',
    style: 'B',
    mount: 'api',
    method: 'GET',
    path: '/broken',
    auth: 'none',
    summary: 'renders undefined',
    parse: () => null,
    run: () => succeed(null),
    successStatus: 200,
    render: () => ({ missing: undefined }) as never,
  });
  const setup = (checkJsonRoundTrip: boolean): AfpClient => {
    const platform = new Platform({ seed: '1', startMs: START_MS });
    return new AfpClient(
      inProcessTransport({
        dispatcher: new Dispatcher(platform, [probe, broken]),
        clock: new VirtualClock(START_MS),
        checkJsonRoundTrip,
      }),
    );
  };

  test('the IP is the first X-Forwarded-For entry, else 127.0.0.1', async () => {
    const client = setup(true);
    expect((await client.raw({ mount: 'api', method: 'POST', path: '/probe' })).body).toMatchObject({
      ip: '127.0.0.1',
    });
    expect(
      (await client.withIp('10.0.0.9, 10.0.0.1').raw({ mount: 'api', method: 'POST', path: '/probe' })).body,
    ).toMatchObject({ ip: '10.0.0.9' });
  });

  test('raw bodies go through the HTTP body reader; body and rawBody together is a bug', async () => {
    const client = setup(true);
    const wrongType = await client.raw({
      mount: 'api',
      method: 'POST',
      path: '/probe',
      rawBody: { text: '{}', contentType: 'text/plain' },
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.headers['content-type']).toBe('application/json');
    await expect(
      client.raw({
        mount: 'api',
        method: 'POST',
        path: '/probe',
        body: {},
        rawBody: { text: '{}', contentType: 'application/json' },
      }),
    ).rejects.toThrow(/either body or rawBody/);
  });

  test('checkJsonRoundTrip rejects a body that JSON text would change', async () => {
    await expect(setup(true).raw({ mount: 'api', method: 'GET', path: '/broken' })).rejects.toThrow(
      /changes through JSON text/,
    );
    expect((await setup(false).raw({ mount: 'api', method: 'GET', path: '/broken' })).status).toBe(200);
  });
});
