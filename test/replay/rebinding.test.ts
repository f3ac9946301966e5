// Rebinding and the replay session against a fake live run whose generated ids all differ from
// the record's: requests get the live values, bindings stay consistent, and every real
// difference (a changed fee, an id that maps to two live ids, a missing value) is named.
import { describe, expect, test } from 'vitest';
import type { TransportRequest, TransportResponse } from '../../src/client/transport.ts';
import { Bindings } from '../../src/replay/bindings.ts';
import type { RecordedExchange } from '../../src/replay/record-format.ts';
import { rebindRequest } from '../../src/replay/rebinding.ts';
import { ReferenceIndex, ReplaySession } from '../../src/replay/replay-session.ts';
import { LivenessError, runReplay } from '../../src/replay/replay-run.ts';

const RECORDED = {
  key: 'sk_live_aaaaaaaaaaaaaaaaaaaaaaaa111111111111111111111111',
  address: '0x1111111111111111111111111111111111111111',
  escrow: 'esc_1111111111111111',
  tx: `0x${'1'.repeat(64)}`,
};
const LIVE = {
  key: 'sk_live_bbbbbbbbbbbbbbbbbbbbbbbb222222222222222222222222',
  address: '0x2222222222222222222222222222222222222222',
  escrow: 'esc_2222222222222222',
  tx: `0x${'2'.repeat(64)}`,
};
const INFO = { service: 'escrow', docs: '/openapi.json', version: 'v1' };

function exchange(
  seq: number,
  partial: Pick<RecordedExchange, 'request' | 'response'> & Partial<RecordedExchange>,
): RecordedExchange {
  return { seq, at_ms: 1_000 + seq, agent: 'alice-0001', provenance: [], introduced: [], ...partial };
}

/** The record: register, create an escrow to bob's address, release it, get it. */
function recordedRun(): RecordedExchange[] {
  return [
    exchange(1, {
      request: {
        mount: 'api',
        method: 'POST',
        path: '/register',
        query: {},
        headers: {},
        body: { agent_id: 'alice-0001' },
      },
      response: {
        status: 201,
        headers: {},
        body: { agent_id: 'alice-0001', api_key: RECORDED.key, agent_address: RECORDED.address, _info: INFO },
      },
      introduced: ['body/agent_id'],
    }),
    exchange(2, {
      request: {
        mount: 'api',
        method: 'POST',
        path: '/escrow',
        query: {},
        headers: { authorization: `Bearer ${RECORDED.key}` },
        body: { amount: '2.50', receiver: RECORDED.address },
      },
      response: {
        status: 201,
        headers: { 'x-ratelimit-limit': '60' },
        body: { escrow_id: RECORDED.escrow, status: 'locked', fee: '0.025', receiver: 'bob-0002', _info: INFO },
      },
      provenance: [
        { at: 'body/receiver', from: { seq: 1, pointer: '/agent_address' } },
        { at: 'headers/authorization', from: { seq: 1, pointer: '/api_key' }, prefix: 'Bearer ' },
      ],
    }),
    exchange(3, {
      request: {
        mount: 'api',
        method: 'POST',
        path: `/escrow/${RECORDED.escrow}/release`,
        query: {},
        headers: { authorization: `Bearer ${RECORDED.key}` },
      },
      response: {
        status: 200,
        headers: {},
        body: { escrow_id: RECORDED.escrow, status: 'released', tx_hash: RECORDED.tx, _info: INFO },
      },
      provenance: [
        { at: 'path/2', from: { seq: 2, pointer: '/escrow_id' } },
        { at: 'headers/authorization', from: { seq: 1, pointer: '/api_key' }, prefix: 'Bearer ' },
      ],
    }),
    exchange(4, {
      request: {
        mount: 'api',
        method: 'GET',
        path: `/escrow/${RECORDED.escrow}`,
        query: {},
        headers: { authorization: `Bearer ${RECORDED.key}` },
      },
      response: {
        status: 404,
        headers: {},
        body: { error: `escrow ${RECORDED.escrow} not found`, code: 'NOT_FOUND', _info: INFO },
      },
      provenance: [
        { at: 'path/2', from: { seq: 2, pointer: '/escrow_id' } },
        { at: 'headers/authorization', from: { seq: 1, pointer: '/api_key' }, prefix: 'Bearer ' },
      ],
    }),
  ];
}

/** A fake live target: same behaviour, other ids; `tweak` alters one answer. */
function fakeLive(
  tweak: (seq: number, body: Record<string, unknown>) => Record<string, unknown> = (_seq, body) => body,
): { sent: TransportRequest[]; send: (request: TransportRequest) => Promise<TransportResponse> } {
  const sent: TransportRequest[] = [];
  const answers: Record<string, unknown>[] = [
    { agent_id: 'alice-0001', api_key: LIVE.key, agent_address: LIVE.address, _info: INFO },
    { escrow_id: LIVE.escrow, status: 'locked', fee: '0.025', receiver: 'bob-0002', _info: INFO },
    { escrow_id: LIVE.escrow, status: 'released', tx_hash: LIVE.tx, _info: INFO },
    { error: `escrow ${LIVE.escrow} not found`, code: 'NOT_FOUND', _info: INFO },
  ];
  const statuses = [201, 201, 200, 404];
  return {
    sent,
    send: (request) => {
      const index = sent.length;
      sent.push(request);
      return Promise.resolve({
        status: statuses[index] ?? 500,
        headers: { 'x-ratelimit-limit': '60' },
        body: tweak(index + 1, answers[index] ?? {}),
      });
    },
  };
}

async function replay(records: RecordedExchange[], live: ReturnType<typeof fakeLive>): Promise<ReplaySession> {
  const references = new ReferenceIndex();
  for (const record of records) references.add(record);
  const session = new ReplaySession({ references, exactTime: true });
  const stop = await runReplay(records, session, { beforeSend: () => Promise.resolve(), send: live.send });
  expect(stop).toBeNull();
  return session;
}

describe('rebindRequest', () => {
  test('every provenance site gets the live value found at the producing pointer, prefix kept', () => {
    const [, create, release] = recordedRun() as [RecordedExchange, RecordedExchange, RecordedExchange];
    const live = new Map([
      ['1 /api_key', LIVE.key],
      ['1 /agent_address', LIVE.address],
      ['2 /escrow_id', LIVE.escrow],
    ]);
    const bindings = new Bindings();
    const values = { get: (seq: number, pointer: string) => live.get(`${seq} ${pointer}`) };
    const rebound = rebindRequest(create, values, bindings);
    expect(rebound.findings).toEqual([]);
    expect(rebound.request.body).toEqual({ amount: '2.50', receiver: LIVE.address });
    expect(rebound.request.headers).toEqual({ authorization: `Bearer ${LIVE.key}` });
    expect(rebindRequest(release, values, bindings).request.path).toBe(`/escrow/${LIVE.escrow}/release`);
    expect(create.request.body).toEqual({ amount: '2.50', receiver: RECORDED.address });
  });

  test('a value the live run never produced is sent as recorded and named as a binding difference', () => {
    const [, create] = recordedRun() as [RecordedExchange, RecordedExchange];
    const rebound = rebindRequest(create, { get: () => undefined }, new Bindings());
    expect(rebound.request.body).toEqual({ amount: '2.50', receiver: RECORDED.address });
    expect(rebound.findings.map((finding) => [finding.kind, finding.pointer])).toEqual([
      ['binding', 'request/body/receiver'],
      ['binding', 'request/headers/authorization'],
    ]);
  });

  test('introduced values bind to themselves and are not rebound', () => {
    const [register] = recordedRun() as [RecordedExchange];
    const bindings = new Bindings();
    const rebound = rebindRequest(register, { get: () => 'other' }, bindings);
    expect(rebound.request.body).toEqual({ agent_id: 'alice-0001' });
    expect(bindings.live('alice-0001')).toBe('alice-0001');
  });
});

describe('ReplaySession against a fake live run', () => {
  test('ids differ everywhere, bindings hold: zero differences, and the live ids were sent', async () => {
    const live = fakeLive();
    const session = await replay(recordedRun(), live);
    expect(session.totals().differences).toEqual([]);
    expect(session.totals().sent).toBe(4);
    expect(live.sent.map((request) => request.path)).toEqual([
      '/register',
      '/escrow',
      `/escrow/${LIVE.escrow}/release`,
      `/escrow/${LIVE.escrow}`,
    ]);
    expect(live.sent[3]?.headers).toEqual({ authorization: `Bearer ${LIVE.key}` });
    expect(session.totals().sentByEndpoint).toEqual([
      { endpoint: 'escrow.B.create', count: 1 },
      { endpoint: 'escrow.B.get', count: 1 },
      { endpoint: 'escrow.B.release', count: 1 },
      { endpoint: 'faucet.B.register', count: 1 },
    ]);
  });

  test('a changed fee is a value difference with its endpoint and pointer', async () => {
    const session = await replay(
      recordedRun(),
      fakeLive((seq, body) => (seq === 2 ? { ...body, fee: '0.05' } : body)),
    );
    expect(session.totals().differences).toEqual([
      { seq: 2, endpoint: 'escrow.B.create', kind: 'value', pointer: 'body/fee', expected: '0.025', actual: '0.05' },
    ]);
  });

  test('one recorded id answered with two live ids is a binding difference', async () => {
    const session = await replay(
      recordedRun(),
      fakeLive((seq, body) => (seq === 3 ? { ...body, escrow_id: 'esc_3333333333333333' } : body)),
    );
    expect(session.totals().differences).toEqual([
      expect.objectContaining({
        seq: 3,
        endpoint: 'escrow.B.release',
        kind: 'binding',
        pointer: 'body/escrow_id',
        expected: LIVE.escrow,
        actual: 'esc_3333333333333333',
      }),
    ]);
  });

  test('two recorded ids answered with one live id is a binding difference', async () => {
    const session = await replay(
      recordedRun(),
      fakeLive((seq, body) => (seq === 3 ? { ...body, tx_hash: LIVE.address } : body)),
    );
    expect(session.totals().byKind).toEqual({ status: 0, shape: 0, value: 0, binding: 1, setup: 0 });
  });

  test('ids quoted inside messages are compared through the bindings', async () => {
    const session = await replay(
      recordedRun(),
      fakeLive((seq, body) => (seq === 4 ? { ...body, error: `escrow ${RECORDED.escrow} not found` } : body)),
    );
    expect(session.totals().differences).toEqual([
      expect.objectContaining({
        seq: 4,
        kind: 'value',
        pointer: 'body/error',
        expected: `escrow ${LIVE.escrow} not found`,
        actual: `escrow ${RECORDED.escrow} not found`,
      }),
    ]);
  });

  test('a LivenessError stops the loop at its seq; other errors propagate', async () => {
    const records = recordedRun();
    const references = new ReferenceIndex();
    const failing = (error: Error) => () => Promise.reject(error);
    const stop = await runReplay(records, new ReplaySession({ references, exactTime: true }), {
      beforeSend: () => Promise.resolve(),
      send: failing(new LivenessError('gone')),
    });
    expect(stop).toEqual({ seq: 1, reason: 'gone' });
    await expect(
      runReplay(records, new ReplaySession({ references, exactTime: true }), {
        beforeSend: () => Promise.resolve(),
        send: failing(new Error('bug')),
      }),
    ).rejects.toThrow('bug');
  });
});
