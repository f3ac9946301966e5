// Provenance at record time: the identifier rule, the index of produced values, the sites of
// later requests that reuse them, and values a request introduced itself (never rebound).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { TransportRequest, TransportResponse } from '../../src/client/transport.ts';
import { isIdentifierLike } from '../../src/replay/identifier-rule.ts';
import { ProvenanceIndex } from '../../src/replay/provenance.ts';
import type { RecordedExchange, RecordedRequest } from '../../src/replay/record-format.ts';
import { createRecorder } from '../../src/replay/recorder.ts';
import { requestSites, withSiteValue } from '../../src/replay/request-sites.ts';

const KEY = 'sk_live_8da4ae2b5fdf0441fe0621a47602b794ee7f0ce2c2817f0b';
const ADDRESS = '0x921c49318e4247772ac4d7eea3140f9a5d9d358f';
const ESCROW = 'esc_e4c0f439e9f53159';

function request(partial: Partial<RecordedRequest>): RecordedRequest {
  return { mount: 'api', method: 'POST', path: '/', query: {}, headers: {}, ...partial };
}

describe('the identifier rule', () => {
  test('ids, keys, addresses, hashes and codes are identifiers', () => {
    for (const value of [
      KEY,
      ADDRESS,
      ESCROW,
      'ref_f4c3a7f3',
      'ref_deadbeef',
      'buyer-0001',
      `0x${'ab'.repeat(32)}`,
      'AbCdEfGhXy',
    ]) {
      expect(isIdentifierLike(value), value).toBe(true);
    }
  });

  test('plain words, codes of the error table, amounts, times and sentences are not', () => {
    for (const value of [
      'released',
      'refunded',
      'INSUFFICIENT_BALANCE',
      'rate_limit_exceeded',
      'USDC',
      '10.00',
      '0.995',
      '12345678',
      '2025-03-01T00:00:00.000Z',
      '2025-03-01',
      'escrow esc_1234 not found',
      '/openapi.json',
      'short1',
    ]) {
      expect(isIdentifierLike(value), value).toBe(false);
    }
  });
});

describe('ProvenanceIndex', () => {
  test('ids and keys from responses are found in later paths, bodies, queries and the bearer header', () => {
    const index = new ProvenanceIndex();
    expect(index.observeRequest(request({ path: '/register', body: { agent_id: 'alice-0001' } })).introduced).toEqual([
      'body/agent_id',
    ]);
    index.observeResponse(1, {
      agent_id: 'alice-0001',
      agent_address: ADDRESS,
      api_key: KEY,
      referral_code: 'ref_f4c3a7f3',
    });
    index.observeResponse(2, { escrow_id: ESCROW, status: 'locked', amount: '2.50' });
    const later = index.observeRequest(
      request({
        path: `/escrow/${ESCROW}/release`,
        query: { ref: 'ref_f4c3a7f3' },
        headers: { authorization: `Bearer ${KEY}`, 'x-forwarded-for': '10.0.0.1' },
        body: { receiver: ADDRESS, nested: { list: [ESCROW] } },
      }),
    );
    expect(later.provenance).toEqual([
      { at: 'path/2', from: { seq: 2, pointer: '/escrow_id' } },
      { at: 'query/ref', from: { seq: 1, pointer: '/referral_code' } },
      { at: 'body/receiver', from: { seq: 1, pointer: '/agent_address' } },
      { at: 'body/nested/list/0', from: { seq: 2, pointer: '/escrow_id' } },
      { at: 'headers/authorization', from: { seq: 1, pointer: '/api_key' }, prefix: 'Bearer ' },
    ]);
    expect(later.introduced).toEqual([]);
  });

  test('the first producer wins; plain words and amounts are not indexed', () => {
    const index = new ProvenanceIndex();
    index.observeResponse(1, {
      escrows: [{ escrow_id: ESCROW, status: 'released', fee: '0.025', description: 'design work' }],
    });
    index.observeResponse(2, { escrow_id: ESCROW });
    expect(index.producerOf(ESCROW)).toEqual({ seq: 1, pointer: '/escrows/0/escrow_id' });
    const reuse = index.observeRequest(
      request({ body: { status: 'released', amount: '0.025', description: 'design work' } }),
    );
    expect(reuse.provenance).toEqual([]);
    expect(index.size).toBe(1);
  });

  test('a caller-chosen agent_id echoed by the response is not treated as produced', () => {
    const index = new ProvenanceIndex();
    const registration = index.observeRequest(request({ path: '/register', body: { agent_id: 'carol-0003' } }));
    expect(registration).toEqual({ provenance: [], introduced: ['body/agent_id'] });
    index.observeResponse(1, { agent_id: 'carol-0003', api_key: KEY });
    expect(index.producerOf('carol-0003')).toBeUndefined();
    const use = index.observeRequest(
      request({
        path: '/api/v1/agents/carol-0003',
        headers: { authorization: `Bearer ${KEY}` },
        body: { receiver: 'carol-0003' },
      }),
    );
    expect(use.provenance.map((entry) => entry.at)).toEqual(['headers/authorization']);
    expect(use.introduced).toEqual([]);
  });

  test('the index is bounded and counts what it dropped', () => {
    const index = new ProvenanceIndex({ indexValuesMax: 2 });
    index.observeResponse(1, { a: 'esc_0000000000000001', b: 'esc_0000000000000002', c: 'esc_0000000000000003' });
    expect(index.size).toBe(2);
    expect(index.droppedIndexValues).toBe(1);
    expect(index.producerOf('esc_0000000000000003')).toBeUndefined();
  });
});

describe('request sites', () => {
  test('sites are read decoded and written back encoded, prefix included', () => {
    const recorded = request({
      path: '/escrow/a%2Fb1234567/release',
      headers: { authorization: `Bearer ${KEY}` },
      body: { list: ['x'] },
    });
    expect(requestSites(recorded).sites).toEqual([
      { at: 'path/1', value: 'escrow', prefix: '' },
      { at: 'path/2', value: 'a/b1234567', prefix: '' },
      { at: 'path/3', value: 'release', prefix: '' },
      { at: 'body/list/0', value: 'x', prefix: '' },
      { at: 'headers/authorization', value: KEY, prefix: 'Bearer ' },
    ]);
    expect(withSiteValue(recorded, 'path/2', 'c/d')?.path).toBe('/escrow/c%2Fd/release');
    expect(withSiteValue(recorded, 'body/list/0', 'y')?.body).toEqual({ list: ['y'] });
    expect(withSiteValue(recorded, 'body/missing', 'y')).toBeNull();
    expect(recorded.body).toEqual({ list: ['x'] });
  });
});

describe('createRecorder', () => {
  const exchange = (
    path: string,
    body: unknown,
    responseBody: unknown,
  ): { request: TransportRequest; response: TransportResponse } => ({
    request: { mount: 'api', method: 'POST', path, headers: { Authorization: `Bearer ${KEY}` }, body },
    response: {
      status: 200,
      headers: { 'x-ratelimit-limit': '60', 'content-type': 'application/json', 'retry-after': '3' },
      body: responseBody,
    },
  });

  test('writes the header first with final counts, then one line per exchange with provenance', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'afp-recorder-'));
    try {
      const recorder = createRecorder({ scenario: 'unit', seed: 42, startMs: 1_000 });
      const first = exchange('/escrow', { amount: 1 }, { escrow_id: ESCROW });
      recorder.onExchange({ atMs: 1_000, agentId: 'alice-0001', ...first });
      const second = exchange(`/escrow/${ESCROW}/release`, undefined, { status: 'released' });
      recorder.onExchange({ atMs: 2_500, agentId: null, ...second });
      const path = join(directory, 'nested', 'run.jsonl');
      await recorder.finish(path);
      const lines = (await readFile(path, 'utf8'))
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines[0]).toEqual({
        format: 'afp-record/1',
        scenario: 'unit',
        seed: '42',
        start_ms: 1_000,
        end_ms: 2_500,
        exchanges: 2,
        complete: true,
        identifier_rule: 'afp-identifier/1',
        platform: { dispute_outcome: 'refund', faults: [] },
        dropped: { exchanges: 0, index_values: 0, bodies: 0, sites: 0 },
        tiers: {},
        deposits: {},
        mints: [],
      });
      const line2 = lines[2] as unknown as RecordedExchange;
      expect(line2.seq).toBe(2);
      expect(line2.request.headers).toEqual({ authorization: `Bearer ${KEY}` });
      expect(line2.request.body).toBeUndefined();
      expect(line2.response.headers).toEqual({ 'x-ratelimit-limit': '60', 'retry-after': '3' });
      expect(line2.provenance).toEqual([{ at: 'path/2', from: { seq: 1, pointer: '/escrow_id' } }]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('a line too long loses its response body; a record too large stops as a counted prefix', () => {
    const recorder = createRecorder(
      { scenario: 'unit', seed: '1', startMs: 0 },
      { lineBytesMax: 600, recordBytesMax: 1_200 },
    );
    recorder.onExchange({ atMs: 0, ...exchange('/a', { n: 1 }, { big: 'x'.repeat(1_000) }) });
    expect(recorder.header().dropped.bodies).toBe(1);
    recorder.onExchange({ atMs: 1, ...exchange('/b', { n: 2 }, { small: true }) });
    recorder.onExchange({ atMs: 2, ...exchange('/c', { n: 3 }, { small: true }) });
    recorder.onExchange({ atMs: 3, ...exchange('/d', { n: 4 }, { small: true }) });
    const header = recorder.header();
    expect(header.complete).toBe(false);
    expect(header.exchanges + header.dropped.exchanges).toBe(4);
    expect(header.dropped.exchanges).toBeGreaterThan(0);
  });

  test('a wallet mint is listed after the exchange that created the wallet; none is kept once the record stopped', () => {
    const recorder = createRecorder({ scenario: 'unit', seed: '1', startMs: 0 }, { recordBytesMax: 1_000 });
    const address = '0x52908400098527886E0F7030069857D2E4169EE7';
    recorder.onExchange({ atMs: 0, ...exchange('/v1/wallet/create', {}, { addresses: { ethereum: address } }) });
    recorder.onMint({ chain: 'ethereum', address, amount: '2', token: null });
    recorder.onMint({
      chain: 'ethereum',
      address,
      amount: '5000',
      token: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    });
    recorder.onExchange({
      atMs: 1,
      ...exchange('/v1/wallet/create', {}, { addresses: { ethereum: 'x'.repeat(1_000) } }),
    });
    recorder.onMint({ chain: 'ethereum', address: 'x'.repeat(1_000), amount: '2', token: null });
    const header = recorder.header();
    expect(header.complete).toBe(false);
    expect(header.mints).toEqual([
      { after_seq: 1, chain: 'ethereum', address, amount: '2', token: null },
      { after_seq: 1, chain: 'ethereum', address, amount: '5000', token: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
    ]);
  });

  test('time running backwards is a bug', () => {
    const recorder = createRecorder({ scenario: 'unit', seed: '1', startMs: 100 });
    expect(() => recorder.onExchange({ atMs: 99, ...exchange('/a', undefined, {}) })).toThrow(/never decrease/);
  });
});
