// `afp load --engine autocannon` flags, strictly parsed with every problem together, and where
// `--endpoint` points on a target: an operation through the target's dialect, SERVICE:/path, a URL.
// Then the whole path against a real `afp serve`: resolve the target, the endpoint, run autocannon.
import { describe, expect, test } from 'vitest';
import { parseArgs } from '../../src/cli/args.ts';
import { AUTOCANNON_FLAG_SPEC, endpointRequest, parseAutocannonFlags } from '../../src/cli/autocannon-flags.ts';
import { runAutocannon } from '../../src/load/autocannon-engine.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import type { Target } from '../../src/live/target.ts';
import { runCliChild } from '../fixtures/cli-child.ts';
import { TRUST_LOOPBACK_ARGS } from '../fixtures/serve-child.ts';

const parse = (argv: string[]): ReturnType<typeof parseAutocannonFlags> =>
  parseAutocannonFlags(parseArgs(argv, AUTOCANNON_FLAG_SPEC));

const target = (dialect: 'A' | 'deployed'): Target => ({
  name: 'fixture',
  source: 'fixture',
  services: {
    casino: { url: 'http://127.0.0.1:9001', dialect },
    escrow: { url: 'http://127.0.0.1:9002/base', dialect },
  },
  register: { service: 'casino' },
  funding: { method: 'faucet' },
  limits: {},
  fairness: 'afp',
  afpServe: false,
  adminUrl: null,
});

describe('parseAutocannonFlags', () => {
  test('defaults, and every value read', () => {
    expect(parse(['--endpoint', 'casino.games'])).toEqual({
      endpoint: 'casino.games',
      connections: 10,
      durationMs: null,
      amount: undefined,
      timeoutMs: 10_000,
      body: undefined,
    });
    expect(
      parse([
        '--endpoint',
        'POST escrow:/escrow',
        '--connections',
        '64',
        '--duration',
        '30s',
        '--amount',
        '5000',
        '--timeout',
        '2s',
        '--body',
        '{"a":1}',
      ]),
    ).toEqual({
      endpoint: 'POST escrow:/escrow',
      connections: 64,
      durationMs: 30_000,
      amount: 5_000,
      timeoutMs: 2_000,
      body: '{"a":1}',
    });
  });

  test('every problem together', () => {
    expect(parse(['--connections', '0', '--duration', '10', '--amount', '5', '--timeout', '500ms'])).toEqual({
      errors: [
        '--engine autocannon needs --endpoint OPERATION|SERVICE:/PATH|URL',
        "--connections must be a whole number in 1..10000, got '0'",
        "--duration: duration '10' has no unit: write an integer and a unit (ms, s, m, h, d), e.g. 30s, 6h, 7d",
        "--timeout must be from 1000 ms to 600000 ms, got '500ms'",
      ],
    });
    expect(parse(['--endpoint', 'x', '--connections', '8', '--amount', '5'])).toEqual({
      errors: ['--amount (5) must be at least --connections (8)'],
    });
  });
});

describe('endpointRequest', () => {
  test("an operation goes on the wire through the target's dialect; a key where it needs one", () => {
    expect(endpointRequest('casino.games', target('deployed'), null)).toEqual({
      url: 'http://127.0.0.1:9001/api/v1/games',
      method: 'GET',
      endpoint: 'casino.games',
      headers: {},
    });
    expect(endpointRequest('casino.games', target('A'), null)).toBe(
      '--endpoint casino.games needs an API key on fixture',
    );
    expect(endpointRequest('casino.balance', target('A'), 'k1')).toEqual({
      url: 'http://127.0.0.1:9001/api/v1/auth/balance',
      method: 'GET',
      endpoint: 'casino.balance',
      headers: { authorization: 'Bearer k1' },
    });
  });

  test('SERVICE:/path below the service base URL, and absolute URLs, with an optional method', () => {
    expect(endpointRequest('POST escrow:/escrow?x=1', target('A'), null)).toEqual({
      url: 'http://127.0.0.1:9002/base/escrow?x=1',
      method: 'POST',
      endpoint: 'POST /escrow',
      headers: {},
    });
    expect(endpointRequest('http://127.0.0.1:7/health', target('A'), 'k')).toEqual({
      url: 'http://127.0.0.1:7/health',
      method: 'GET',
      endpoint: 'GET /health',
      headers: { authorization: 'Bearer k' },
    });
    expect(endpointRequest('faucet:/claim', target('A'), null)).toBe(
      "--endpoint 'faucet:/claim': the target fixture has no faucet service",
    );
    expect(endpointRequest('bank:/x', target('A'), null)).toBe(
      "--endpoint 'bank:/x': no service 'bank' (faucet, escrow, trading, domains, wallet, casino)",
    );
    expect(endpointRequest('/api/v1/games', target('A'), null)).toBe(
      "--endpoint '/api/v1/games' is not an operation (casino.games, casino.balance, casino.seeds), a SERVICE:/path or a URL",
    );
  });
});

describe('against a real afp serve', () => {
  test('resolve the target by its URL, the endpoint on it, and run a capacity test', async () => {
    const run = await runCliChild(
      ['serve', '--port', '0', ...TRUST_LOOPBACK_ARGS, '--clock', 'manual', '--seed', '4'],
      {
        timeoutMs: 60_000,
        onReady: async (stdout, stop) => {
          try {
            const api = /^api: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1] ?? 'http://invalid';
            const resolved = await resolveTarget(api);
            expect(resolved.ok).toBe(true);
            if (!resolved.ok) return;
            const request = endpointRequest('casino:/api/v1/gossip', resolved.value, null);
            if (typeof request === 'string') throw new Error(request);
            const snapshot = await runAutocannon({
              ...request,
              connections: 4,
              amount: 200,
              durationMs: 10_000,
              timeoutMs: 5_000,
            });
            expect(snapshot.endpoints.map((row) => [row.endpoint, row.requests, row.failed, row.statuses])).toEqual([
              ['GET /api/v1/gossip', 200, 0, { '200': 200 }],
            ]);
          } finally {
            stop();
          }
        },
      },
    );
    expect(run.stderr).not.toContain('Error');
  });
});
