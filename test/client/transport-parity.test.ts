// One request sequence, two transports: the in-process dispatcher and a real `afp serve` listener
// set over HTTP (127.0.0.1, ephemeral ports, manual clock, same seed). Every answer (status, body,
// X-RateLimit-* and the other platform headers) must be identical: what passes in-process passes live.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AfpClient } from '../../src/client/client.ts';
import type { Transport, TransportRequest, TransportResponse } from '../../src/client/transport.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';
import { inProcessSetup, servedSetup, type ServedSetup } from './fixtures.ts';

interface Step {
  readonly name: string;
  readonly response: TransportResponse;
}

const COMPARED_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'allow',
  'content-type',
];

function comparable(step: Step): { name: string; status: number; headers: Record<string, string>; body: unknown } {
  const headers: Record<string, string> = {};
  for (const name of COMPARED_HEADERS) {
    const value = step.response.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return { name: step.name, status: step.response.status, headers, body: step.response.body };
}

/** Faucet and escrow in both styles, then bad input of every transport-level kind. */
async function runSequence(transport: Transport): Promise<Step[]> {
  const steps: Step[] = [];
  const anonymous = new AfpClient(transport);
  const record = async (
    name: string,
    answer: Promise<{ status: number; headers: Readonly<Record<string, string>>; body: unknown }>,
  ): Promise<TransportResponse> => {
    const response = await answer;
    steps.push({ name, response });
    return response;
  };
  const keyOf = (response: TransportResponse): string => (response.body as { api_key: string }).api_key;

  const alice = anonymous.withKey(
    keyOf(
      await record(
        'B register alice',
        anonymous.faucetB.register({ agent_id: 'alice', metadata: { framework: 'langchain' } }),
      ),
    ),
  );
  const bob = anonymous.withKey(
    keyOf(
      await record(
        'B register bob',
        anonymous.withIp('10.0.0.2').faucetB.register({ agent_id: 'bob', referrer: 'alice' }),
      ),
    ),
  );
  const carol = anonymous.withKey(
    keyOf(await record('A register carol', anonymous.faucetA.register({ agent_id: 'carol' }))),
  );
  await record('A claim carol', carol.faucetA.claim());
  await record('A claim carol again', carol.faucetA.claim());
  await record('B claim alice in cooldown', alice.faucetB.claim());
  await record('B status alice', alice.faucetB.status());
  await record('A status carol', carol.faucetA.status());
  await record('A agent carol', carol.faucetA.agent('carol'));
  await record('A agent alice by carol', carol.faucetA.agent('alice'));
  const created = await record(
    'B escrow create',
    alice.escrowB.create({ amount: '2.50', receiver: 'bob', description: 'parity', expires_in: 3600 }),
  );
  const escrowId = (created.body as { escrow_id: string }).escrow_id;
  await record('B escrow get by bob', bob.escrowB.get(escrowId));
  await record('B escrow release by bob', bob.escrowB.release(escrowId));
  await record('B escrow release', alice.escrowB.release(escrowId));
  await record('B escrow release twice', alice.escrowB.release(escrowId));
  const createdA = await record(
    'A escrow create',
    carol.escrowA.create({ buyer: 'carol', seller: 'alice', amount: 0.5, memo: 'parity A' }),
  );
  await record(
    'A escrow release',
    carol.escrowA.release({ escrow_id: (createdA.body as { escrow_id: string }).escrow_id }),
  );
  await record('A escrow list', carol.escrowA.list({ role: 'sender' }));
  await record('B escrow list', alice.escrowB.list({ limit: 5 }));
  await record('B agents', anonymous.faucetB.agents({ limit: 2 }));
  await record('B referrals', alice.faucetB.referrals());
  await record('B escrow get unknown', alice.escrowB.get('esc_nope'));
  await record('B escrow get encoded id', alice.escrowB.get('esc/../x'));
  await record('no key', anonymous.escrowB.list());
  await record('bad key', anonymous.withKey('sk_live_nope').escrowB.list());
  await record('unknown field', alice.escrowB.create({ amount: 1, receiver: 'bob', colour: 'red' } as never));

  const raw = (name: string, request: TransportRequest): Promise<TransportResponse> => record(name, alice.raw(request));
  await raw('malformed JSON', {
    mount: 'api',
    method: 'POST',
    path: '/escrow',
    rawBody: { text: '{"amount": 1,', contentType: 'application/json' },
  });
  await raw('wrong content type', {
    mount: 'api',
    method: 'POST',
    path: '/escrow',
    rawBody: { text: 'amount=1', contentType: 'application/x-www-form-urlencoded' },
  });
  await raw('charset allowed', {
    mount: 'api',
    method: 'POST',
    path: '/escrow',
    rawBody: { text: '{"amount":"0.10","receiver":"carol"}', contentType: 'application/json; charset=utf-8' },
  });
  await raw('oversized body', {
    mount: 'api',
    method: 'POST',
    path: '/escrow',
    rawBody: { text: `{"description":"${'x'.repeat(DEFAULT_CONFIG.maxBodyBytes)}"}`, contentType: 'application/json' },
  });
  await raw('unknown route', { mount: 'api', method: 'GET', path: '/nowhere' });
  await raw('unknown route on faucet', { mount: 'faucet', method: 'GET', path: '/api/v1/nowhere' });
  await raw('405', { mount: 'api', method: 'DELETE', path: '/register' });
  await raw('405 with parameters', { mount: 'api', method: 'PUT', path: '/escrow/esc_1/release' });
  await raw('query on B list', { mount: 'api', method: 'GET', path: '/escrows', query: { status: 'bogus' } });
  for (let index = 0; index < 12; index++)
    await raw(`register flood ${index}`, {
      mount: 'api',
      method: 'POST',
      path: '/register',
      headers: { 'x-forwarded-for': '10.9.9.9' },
      body: { agent_id: `flood-${index}` },
    });
  return steps;
}

describe('in-process and HTTP transports answer alike', () => {
  let served: ServedSetup;
  beforeAll(async () => {
    served = await servedSetup();
  });
  afterAll(async () => {
    await served.serve.close();
  });

  test('the same sequence gives identical status, body and rate-limit headers', async () => {
    const inProcess = inProcessSetup();
    const local = await runSequence(inProcess.transport);
    const live = await runSequence(served.transport);
    expect(live.map(comparable)).toEqual(local.map(comparable));
    // The sequence really exercised what it claims to (guards against two equally broken runs).
    const status = Object.fromEntries(local.map((step) => [step.name, step.response.status]));
    expect(status).toMatchObject({
      'B register alice': 201,
      'A claim carol': 200,
      'A claim carol again': 409,
      'B claim alice in cooldown': 409,
      'A agent alice by carol': 403,
      'B escrow create': 201,
      'B escrow release by bob': 403,
      'B escrow release': 200,
      'B escrow release twice': 409,
      'A escrow release': 200,
      'B escrow get unknown': 404,
      'B escrow get encoded id': 400,
      'no key': 401,
      'bad key': 401,
      'unknown field': 400,
      'malformed JSON': 400,
      'wrong content type': 415,
      'charset allowed': 201,
      'oversized body': 413,
      'unknown route': 404,
      'unknown route on faucet': 404,
      '405': 405,
      '405 with parameters': 405,
      'query on B list': 400,
      'register flood 11': 429,
    });
    const byName = new Map(local.map((step) => [step.name, step.response]));
    expect(byName.get('405')?.headers['allow']).toBe('POST');
    expect(byName.get('register flood 11')?.headers['retry-after']).toMatch(/^\d+$/);
    for (const name of ['malformed JSON', 'wrong content type', 'oversized body', '405']) {
      expect((byName.get(name)?.body as { code: string } | undefined)?.code).toBe('BAD_REQUEST');
    }
    for (const step of local) expect(step.response.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
  });
});
