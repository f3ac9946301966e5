// Issue 17 (2): admin input is validated before anything happens. A clock move past the Date range
// answered 500 yet moved the clock; registration then created agents whose keys were never
// delivered, and with --data the move was logged, so every restart failed (RangeError). Every
// admin row answers bad input with a 4xx in the spec's error shape, applies nothing and logs nothing;
// the test serves with a real command log (node:sqlite) and restarts from it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve-flags.ts';
import { agentAccount } from '../../src/core/ledger.ts';
import type { CommandLog } from '../../src/server/command-log.ts';
import type { ServeHandle } from '../../src/server/listeners.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOG_SETTINGS, openedLog, servedOnLog } from '../fixtures/command-logs.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-admin-input-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

async function opened(file: string): Promise<CommandLog> {
  return openedLog(file, LOG_SETTINGS);
}

async function post(
  served: ServeHandle,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${served.urls.api as string}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test('bad clock, tier and deposit input: 400 in the error shape, nothing applied, nothing logged, restart serves', async () => {
  const file = join(DIR, 'admin.db');
  const first = await opened(file);
  const served = await servedOnLog(first);
  try {
    expect((await post(served, '/register', { agent_id: 'ada' })).status).toBe(201);
    const refusals: [string, unknown][] = [
      ['/_afp/clock', { to_ms: 8_640_000_000_000_001 }],
      ['/_afp/clock', { to_ms: 8_640_000_000_000_000 }],
      ['/_afp/clock', { advance_ms: 9_000_000_000_000_000 }],
      ['/_afp/clock', { to: '9999-12-31T23:59:59.999Z' }],
      ['/_afp/tier', { agent_id: 'ada', tier: 'platinum' }],
      ['/_afp/tier', { agent_id: 'x'.repeat(65), tier: 'pro' }],
      ['/_afp/casino/deposit', { agent_id: 'ada', chain: 'base', amount: '0.001' }],
      ['/_afp/casino/deposit', { agent_id: 'ada', chain: 'base', amount: '1000000.01' }],
      ['/_afp/casino/deposit', { agent_id: 'ada', chain: 'base', amount: '1e3' }],
      ['/_afp/casino/deposit', { agent_id: 'ada', chain: 'base', amount: 1e300 }],
      ['/_afp/casino/deposit', { agent_id: 'ada', chain: 'base', amount: '1', confirmed: 'yes' }],
    ];
    for (const [path, body] of refusals) {
      const answer = await post(served, path, body);
      expect(answer, `${path} ${JSON.stringify(body)}`).toMatchObject({
        status: 400,
        body: { code: 'BAD_REQUEST', error: expect.any(String) as string },
      });
    }
    expect(served.clock.nowMs()).toBe(START_MS);
    expect(served.platform.agents.get('ada')?.tier).toBe('free');
    // A deposit refused for the platform's state (100 pending at most) is logged neither.
    for (let deposit = 0; deposit < 100; deposit++)
      expect((await post(served, '/_afp/casino/deposit', { agent_id: 'ada', chain: 'base', amount: '1' })).status).toBe(
        200,
      );
    expect(await post(served, '/_afp/casino/deposit', { agent_id: 'ada', chain: 'base', amount: '1' })).toMatchObject({
      status: 409,
      body: { code: 'CONFLICT' },
    });
    const registered = await post(served, '/register', { agent_id: 'bea' });
    expect(registered).toMatchObject({ status: 201, body: { api_key: expect.any(String) as string } });
  } finally {
    await served.close();
    first.close();
  }
  const second = await opened(file);
  const again = await servedOnLog(second);
  try {
    // Two registrations and 100 deposits: no refused admin command was logged.
    expect(again.recovery).toMatchObject({ commands: 102, internalErrors: 0 });
    expect(again.clock.nowMs()).toBe(START_MS);
    expect((await post(again, '/register', { agent_id: 'cal' })).status).toBe(201);
    expect((await post(again, '/_afp/clock', { advance_ms: 1_000 })).body).toMatchObject({ now_ms: START_MS + 1_000 });
  } finally {
    await again.close();
    second.close();
  }
});

test("--start past the clock's last instant is a flag error", () => {
  expect(parseServeArgs(['--clock', 'manual', '--start', '9999-06-01'], START_MS)).toEqual({
    errors: ["--start must be no later than 9999-01-01T00:00:00.000Z, got '9999-06-01'"],
  });
  expect(parseServeArgs(['--clock', 'manual', '--start', '9998-12-31'], START_MS)).not.toHaveProperty('errors');
});

test('a deposit that arrives confirmed is credited at once, the clock unmoved, and a restart from the log credits it again', async () => {
  const file = join(DIR, 'confirmed.db');
  const balance = (served: ServeHandle): bigint => served.platform.ledger.balance(agentAccount('ada'));
  const first = await opened(file);
  const served = await servedOnLog(first);
  let credited = 0n;
  try {
    expect((await post(served, '/register', { agent_id: 'ada' })).status).toBe(201);
    const before = balance(served);
    const deposit = await post(served, '/_afp/casino/deposit', {
      agent_id: 'ada',
      chain: 'solana',
      amount: '5',
      confirmed: true,
    });
    expect(deposit).toMatchObject({ status: 200, body: { status: 'confirmed', confirm_at_ms: START_MS } });
    credited = balance(served);
    expect(credited).toBe(before + 5_000_000n);
    expect(served.clock.nowMs()).toBe(START_MS);
    // Without it, the same door's deposit waits for the chain's delay.
    expect(await post(served, '/_afp/casino/deposit', { agent_id: 'ada', chain: 'solana', amount: '1' })).toMatchObject(
      {
        status: 200,
        body: { status: 'pending', confirm_at_ms: START_MS + 60_000 },
      },
    );
    expect(balance(served)).toBe(credited);
  } finally {
    await served.close();
    first.close();
  }
  const second = await opened(file);
  const again = await servedOnLog(second);
  try {
    expect(again.recovery).toMatchObject({ commands: 3, internalErrors: 0 });
    expect(balance(again)).toBe(credited);
  } finally {
    await again.close();
    second.close();
  }
});
