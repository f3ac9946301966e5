// Record validation: the header and each exchange line, every problem named with its line, plus
// the pure pacing arithmetic and the report text.
import { describe, expect, test } from 'vitest';
import { diffText, type ReplayReportInput } from '../../src/replay/diff-report.ts';
import { dueOffsetMs, parseSpeed } from '../../src/replay/pacing.ts';
import { parseExchangeLine, parseRecordHeader } from '../../src/replay/record-reader.ts';

const HEADER = {
  format: 'afp-record/1',
  scenario: 's',
  seed: '7',
  start_ms: 1_000,
  end_ms: 2_000,
  exchanges: 1,
  complete: true,
  identifier_rule: 'afp-identifier/1',
  dropped: { exchanges: 0, index_values: 0, bodies: 0, sites: 0 },
};
const LINE = {
  seq: 1,
  at_ms: 1_500,
  agent: 'alice-0001',
  request: {
    mount: 'api',
    method: 'POST',
    path: '/escrow',
    query: {},
    headers: { authorization: 'Bearer k' },
    body: { amount: 1 },
  },
  response: { status: 201, headers: {}, body: { escrow_id: 'esc_1' } },
  provenance: [],
  introduced: [],
};
const context = { lineNumber: 2, expectedSeq: 1, previousAtMs: 1_000 };

describe('parseRecordHeader', () => {
  test('accepts a valid header', () => {
    expect(parseRecordHeader(JSON.stringify(HEADER))).toEqual({ ok: true, value: HEADER });
  });

  test('names the format it reads, and every bad field', () => {
    expect(parseRecordHeader(JSON.stringify({ ...HEADER, format: 'afp-record/9' }))).toEqual({
      ok: false,
      errors: [`line 1 (header): format is "afp-record/9"; this afp reads 'afp-record/1'`],
    });
    const bad = parseRecordHeader(JSON.stringify({ ...HEADER, start_ms: -1, exchanges: 'two', extra: 1 }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.errors).toContain('line 1 (header): header has unknown key extra');
      expect(bad.errors).toContain('line 1 (header): start_ms must be a non-negative integer');
      expect(bad.errors).toContain('line 1 (header): exchanges must be a non-negative integer');
    }
    expect(parseRecordHeader('{')).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^line 1 \(header\): not JSON/)],
    });
  });

  test('casino starting deposits: agent id → { chain, amount } with a positive USDC text of at most 6 decimals', () => {
    const deposits = {
      'bettor-0-ab12': { chain: 'base', amount: '25.00' },
      'bettor-1-cd34': { chain: 'base', amount: '0.000001' },
    };
    expect(parseRecordHeader(JSON.stringify({ ...HEADER, deposits }))).toEqual({
      ok: true,
      value: { ...HEADER, deposits },
    });
    for (const deposit of [
      { chain: 'base', amount: '0' },
      { chain: 'base', amount: '1.0000001' },
      { chain: 'base', amount: -1 },
      { chain: '', amount: '1' },
      { chain: 'base' },
      { chain: 'base', amount: '1', extra: 1 },
      'base:1',
    ]) {
      const parsed = parseRecordHeader(JSON.stringify({ ...HEADER, deposits: { 'bettor-0-ab12': deposit } }));
      expect(parsed, JSON.stringify(deposit)).toEqual({
        ok: false,
        errors: [
          'line 1 (header): deposits must map agent ids to { chain, amount } with a positive USDC amount text (1 bad, first "bettor-0-ab12")',
        ],
      });
    }
    expect(parseRecordHeader(JSON.stringify({ ...HEADER, deposits: [] }))).toMatchObject({ ok: false });
  });

  test('wallet mints: [{ after_seq, chain, address, amount, token }] after an exchange of the record, in order', () => {
    const header = { ...HEADER, exchanges: 3 };
    const mints = [
      {
        after_seq: 1,
        chain: 'ethereum',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        amount: '2',
        token: null,
      },
      {
        after_seq: 3,
        chain: 'tron',
        address: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
        amount: '0.5',
        token: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      },
    ];
    expect(parseRecordHeader(JSON.stringify({ ...header, mints }))).toEqual({ ok: true, value: { ...header, mints } });
    const first = mints[0] as (typeof mints)[number];
    for (const [bad, message] of [
      [{ ...first, after_seq: 4 }, "mints[0].after_seq must be an exchange's seq (1 to 3), never below the one before"],
      [{ ...first, after_seq: 0 }, "mints[0].after_seq must be an exchange's seq (1 to 3), never below the one before"],
      [{ ...first, amount: '-1' }, 'mints[0].amount must be a decimal text'],
      [{ ...first, amount: 2 }, 'mints[0].amount must be a decimal text'],
      [{ ...first, address: '' }, 'mints[0] must have chain and address texts and a token text or null'],
      [{ ...first, token: 7 }, 'mints[0] must have chain and address texts and a token text or null'],
    ] as const) {
      expect(parseRecordHeader(JSON.stringify({ ...header, mints: [bad] })), JSON.stringify(bad)).toEqual({
        ok: false,
        errors: [`line 1 (header): ${message}`],
      });
    }
    expect(parseRecordHeader(JSON.stringify({ ...header, mints: [mints[1], mints[0]] }))).toMatchObject({
      ok: false,
      errors: [expect.stringContaining('mints[1].after_seq')],
    });
    expect(parseRecordHeader(JSON.stringify({ ...header, mints: [{ ...first, extra: 1 }] }))).toEqual({
      ok: false,
      errors: ['line 1 (header): mints[0] has unknown key extra'],
    });
    expect(parseRecordHeader(JSON.stringify({ ...header, mints: {} }))).toMatchObject({ ok: false });
  });
});

describe('parseExchangeLine', () => {
  test('accepts a valid line', () => {
    expect(parseExchangeLine(JSON.stringify(LINE), context)).toEqual({ ok: true, value: LINE });
  });

  test('reports every problem of a line with its line number', () => {
    const line = {
      ...LINE,
      seq: 3,
      at_ms: 999,
      request: { ...LINE.request, method: 'PATCH', raw_body: { text: '{', content_type: 'application/json' } },
      response: { status: 42, headers: { a: 1 } },
      provenance: [
        { at: 'body/x', from: { seq: 1, pointer: '/a' } },
        { at: 'cookie/x', from: { seq: 1, pointer: '' } },
      ],
    };
    const parsed = parseExchangeLine(JSON.stringify(line), { ...context, lineNumber: 7 });
    expect(parsed).toEqual({
      ok: false,
      errors: [
        'line 7: seq is 3, expected 1',
        "line 7: at_ms 999 is before the previous exchange's 1000",
        'line 7: request.method must be one of GET, POST, PUT, DELETE',
        'line 7: request carries body and raw_body; at most one',
        'line 7: response.status must be an HTTP status',
        'line 7: response.headers must be an object of strings',
        'line 7: response.body is missing',
        'line 7: provenance[0].from.seq must name an earlier exchange',
        'line 7: provenance[1].at must be a request site',
      ],
    });
  });
});

describe('pacing', () => {
  test('recorded gaps divided by the speed; 0 and max send at once', () => {
    expect(parseSpeed(undefined)).toBe(1);
    expect(parseSpeed('2.5')).toBe(2.5);
    expect(parseSpeed('0')).toBe('max');
    expect(parseSpeed('max')).toBe('max');
    expect(parseSpeed('-1')).toMatch(/--speed must be/);
    expect(dueOffsetMs(11_000, 1_000, 1)).toBe(10_000);
    expect(dueOffsetMs(11_000, 1_000, 4)).toBe(2_500);
    expect(dueOffsetMs(11_000, 1_000, 'max')).toBeNull();
  });
});

describe('diff.txt', () => {
  test('is a pure function of the run: header, counts by kind and endpoint, the first differences', () => {
    const input: ReplayReportInput = {
      recordPath: 'run.jsonl',
      header: { ...HEADER, format: 'afp-record/1' },
      target: 'http://127.0.0.1:8700',
      speed: 'max',
      clock: { synced: true, exact: true, note: 'manual' },
      totals: {
        sent: 1,
        differencesTotal: 1,
        byKind: { status: 0, shape: 0, value: 1, binding: 0, setup: 0 },
        byEndpoint: [{ endpoint: 'escrow.B.create', count: 1 }],
        sentByEndpoint: [{ endpoint: 'escrow.B.create', count: 1 }],
        differences: [
          {
            seq: 1,
            endpoint: 'escrow.B.create',
            kind: 'value',
            pointer: 'body/fee',
            expected: '0.025',
            actual: '0.05',
          },
        ],
        omitted: 0,
        bindings: 0,
        setupCalls: 1,
        setupByEndpoint: [{ endpoint: '_afp/platform', count: 1 }],
        notes: [],
      },
      stop: null,
      reproduce: 'npx afp replay run.jsonl --target http://127.0.0.1:8700',
    };
    const text = diffText(input);
    expect(text).toBe(diffText(input));
    expect(text.split('\n')[0]).toBe('afp replay: seed 7 · scenario s · record run.jsonl');
    expect(text).toContain('differences: 1 (status 0, shape 0, value 1, binding 0, setup 0)');
    expect(text).toContain('  seq 1 escrow.B.create value at body/fee: expected "0.025", actual "0.05"');
  });
});

describe('parseRecordHeader: the platform lists', () => {
  const errorsOf = (platform: unknown): readonly string[] => {
    const parsed = parseRecordHeader(JSON.stringify({ ...HEADER, platform }));
    return parsed.ok ? [] : parsed.errors;
  };
  const PLATFORM = { dispute_outcome: 'refund', faults: [] };

  test('every item of faults, casino and market closures and trading shocks named with its index', () => {
    expect(
      errorsOf({
        ...PLATFORM,
        faults: [
          { service: 'escrow', from_ms: 5, until_ms: 5, status: 500 },
          'x',
          { service: 'nope', from_ms: 0, until_ms: 1, status: 404, more: 1 },
        ],
        casino_closures: [{ game: 'dice', from_ms: 2, until_ms: 1 }],
        trading_shocks: [{ base: 'BTC', at_ms: -1, move_bps: -10_000 }],
        market_closures: [{ symbol: 'BTC-PERP', from_ms: 0, until_ms: 10, why: 1 }],
      }),
    ).toEqual([
      'line 1 (header): platform.faults[0] must have integers 0 ≤ from_ms < until_ms',
      'line 1 (header): platform.faults[1] must be { service, from_ms, until_ms, status }',
      'line 1 (header): platform.faults[2] has unknown key more',
      'line 1 (header): platform.faults[2].service must be one of faucet, escrow, trading, domains, wallet, casino',
      'line 1 (header): platform.faults[2].status must be 500 or 503',
      'line 1 (header): platform.casino_closures[0] must have integers 0 ≤ from_ms < until_ms',
      'line 1 (header): platform.trading_shocks[0].at_ms must be a non-negative integer',
      'line 1 (header): platform.trading_shocks[0].move_bps must be an integer above -10000 and at most 100000',
      'line 1 (header): platform.market_closures[0] has unknown key why',
    ]);
  });

  test('a list that is no list is one problem; faults that are none stop the platform check there', () => {
    expect(errorsOf({ ...PLATFORM, faults: 'none', casino_closures: 'x' })).toEqual([
      'line 1 (header): platform.faults must be a list of at most 100 fault windows',
    ]);
    expect(errorsOf({ ...PLATFORM, casino_closures: {}, trading_shocks: 1, market_closures: null })).toEqual([
      expect.stringMatching(
        /^line 1 \(header\): platform\.casino_closures must be a list of at most \d+ game closures$/,
      ),
      expect.stringMatching(/^line 1 \(header\): platform\.trading_shocks must be a list of at most \d+ price shocks$/),
      expect.stringMatching(
        /^line 1 \(header\): platform\.market_closures must be a list of at most \d+ market closures$/,
      ),
    ]);
  });
});
