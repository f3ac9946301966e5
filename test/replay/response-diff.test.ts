// The response diff: status first, shape (keys, JSON types, array lengths), values, time-derived
// values skipped without an exact clock, rate-limit headers, and list items paired through ids.
import { describe, expect, test } from 'vitest';
import type { JsonValue } from '../../src/core/errors.ts';
import { Bindings } from '../../src/replay/bindings.ts';
import { diffResponse } from '../../src/replay/response-diff.ts';

const recorded = (body: JsonValue, status = 200, headers: Record<string, string> = {}) => ({ status, headers, body });
const live = (body: unknown, status = 200, headers: Record<string, string> = {}) => ({ status, headers, body });

describe('diffResponse', () => {
  test('a different status is one difference and the bodies are not compared', () => {
    const findings = diffResponse(
      recorded({ amount: '2.00' }),
      live({ error: 'already claimed', code: 'FAUCET_CLAIMED' }, 409),
      { bindings: new Bindings(), exactTime: true },
    );
    expect(findings).toEqual([
      {
        kind: 'status',
        pointer: 'status',
        expected: 200,
        actual: 409,
        note: 'live answered FAUCET_CLAIMED: already claimed',
      },
    ]);
  });

  test('shape: missing and extra keys, JSON types, array lengths (items compared up to the shorter)', () => {
    const findings = diffResponse(
      recorded({ a: 1, b: 'x', list: [1, 2, 3], nested: { c: true } }),
      live({ a: '1', list: [1, 5], nested: { c: true, d: null }, extra: 0 }),
      { bindings: new Bindings(), exactTime: true },
    );
    expect(findings).toEqual([
      { kind: 'shape', pointer: 'body/a', expected: 'number', actual: 'string' },
      { kind: 'shape', pointer: 'body/b', expected: 'present (string)', actual: 'missing' },
      { kind: 'shape', pointer: 'body/list', expected: 'length 3', actual: 'length 2' },
      { kind: 'value', pointer: 'body/list/1', expected: 2, actual: 5 },
      { kind: 'shape', pointer: 'body/nested/d', expected: 'absent', actual: 'present (null)' },
      { kind: 'shape', pointer: 'body/extra', expected: 'absent', actual: 'present (number)' },
    ]);
  });

  test('without an exact clock, time-derived values and rate-limit windows are skipped; with it they count', () => {
    const expected = recorded(
      {
        next_claim: '2025-03-02T00:00:00.000Z',
        seconds_until_next_claim: 60,
        retry_after_seconds: 5,
        created_at: '2025-03-01T00:00:00.000Z',
        balance: '10.00',
      },
      200,
      { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '100' },
    );
    const answer = live(
      {
        next_claim: '2025-03-02T00:00:07.000Z',
        seconds_until_next_claim: 53,
        retry_after_seconds: 4,
        created_at: '2025-03-01T00:00:07.000Z',
        balance: '10.00',
      },
      200,
      { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '107' },
    );
    expect(diffResponse(expected, answer, { bindings: new Bindings(), exactTime: false })).toEqual([]);
    const exact = diffResponse(expected, answer, { bindings: new Bindings(), exactTime: true });
    expect(exact.map((finding) => finding.pointer)).toEqual([
      'headers/x-ratelimit-remaining',
      'headers/x-ratelimit-reset',
      'body/next_claim',
      'body/seconds_until_next_claim',
      'body/retry_after_seconds',
      'body/created_at',
    ]);
  });

  test('the rate-limit limit header is always compared, and its absence is a shape difference', () => {
    const findings = diffResponse(
      recorded({}, 200, { 'x-ratelimit-limit': '10', 'retry-after': '3' }),
      live({}, 200, {}),
      { bindings: new Bindings(), exactTime: true },
    );
    expect(findings).toEqual([
      { kind: 'shape', pointer: 'headers/x-ratelimit-limit', expected: 'present', actual: 'missing' },
      { kind: 'shape', pointer: 'headers/retry-after', expected: 'present', actual: 'missing' },
    ]);
  });

  test('_info is compared', () => {
    const findings = diffResponse(
      recorded({ _info: { service: 'escrow', version: 'v1' } }),
      live({ _info: { service: 'escrow', version: 'v2' } }),
      { bindings: new Bindings(), exactTime: true },
    );
    expect(findings).toEqual([{ kind: 'value', pointer: 'body/_info/version', expected: 'v1', actual: 'v2' }]);
  });

  test('list items tied on time swap places under another seed: paired through their ids, no difference', () => {
    const bindings = new Bindings();
    bindings.bind('esc_1000000000000000', 'esc_f000000000000000');
    bindings.bind('esc_2000000000000000', 'esc_0000000000000001');
    const items = [
      { escrow_id: 'esc_1000000000000000', amount: '2.50' },
      { escrow_id: 'esc_2000000000000000', amount: '1.20' },
    ];
    const liveItems = [
      { escrow_id: 'esc_0000000000000001', amount: '1.20' },
      { escrow_id: 'esc_f000000000000000', amount: '2.50' },
    ];
    expect(
      diffResponse(recorded({ escrows: items }), live({ escrows: liveItems }), { bindings, exactTime: true }),
    ).toEqual([]);
  });

  test('a flip the ids do not explain (same seed, wrong sort) is an order difference', () => {
    const bindings = new Bindings();
    const items = [
      { escrow_id: 'esc_1000000000000000', amount: '2.50' },
      { escrow_id: 'esc_2000000000000000', amount: '1.20' },
    ];
    for (const item of items) bindings.bind(item.escrow_id, item.escrow_id);
    const findings = diffResponse(recorded({ escrows: items }), live({ escrows: [items[1], items[0]] }), {
      bindings,
      exactTime: true,
    });
    expect(findings).toEqual([
      expect.objectContaining({
        kind: 'value',
        pointer: 'body/escrows',
        expected: 'item 0 before item 1',
        actual: 'item 1 before item 0',
      }),
    ]);
  });

  test('an identifier answered by a plain value is a value difference', () => {
    const findings = diffResponse(recorded({ tx_hash: `0x${'a'.repeat(64)}` }), live({ tx_hash: 'pending' }), {
      bindings: new Bindings(),
      exactTime: true,
    });
    expect(findings).toEqual([expect.objectContaining({ kind: 'value', pointer: 'body/tx_hash', actual: 'pending' })]);
  });
});
