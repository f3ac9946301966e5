// `POST /_afp/casino/deposit` of `afp serve`, the door `afp audit house-edge --target` funds its
// fresh agent through: a simulated chain deposit credited on the server's clock (never by this
// row), strict bodies, 404 for an unknown agent, and with `--data` a deposit survives a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { DEFECT_NAMES } from '../../src/services/shared/context.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { openCommandLog, type CommandLog } from '../../src/server/command-log.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-audit-deposit-'));
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

async function serve(commandLog?: CommandLog): Promise<ServeHandle> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '3',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
    ...(commandLog === undefined ? {} : { commandLog }),
  });
  handles.push(handle);
  return handle;
}

async function post(
  handle: ServeHandle,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${handle.urls.api as string}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const balanceMicro = (handle: ServeHandle, agentId: string): bigint => handle.platform.casino.balanceMicro(agentId);

describe('POST /_afp/casino/deposit', () => {
  test('a deposit is pending until the clock reaches its confirmation instant; the row never moves the clock', async () => {
    const handle = await serve();
    const agent = (await post(handle, '/register', { agent_id: 'dep' })).body['agent_id'] as string;
    const before = balanceMicro(handle, agent);
    const deposit = await post(handle, '/_afp/casino/deposit', { agent_id: agent, chain: 'Solana', amount: '12.5' });
    expect(deposit.status).toBe(200);
    expect(deposit.body).toMatchObject({
      agent_id: agent,
      chain: 'solana',
      amount: '12.50',
      status: 'pending',
      created_at_ms: START_MS,
      confirm_at_ms: START_MS + 60_000,
    });
    expect(handle.clock.nowMs()).toBe(START_MS);
    expect(balanceMicro(handle, agent)).toBe(before);
    await post(handle, '/_afp/clock', { to_ms: START_MS + 59_999 });
    expect(balanceMicro(handle, agent)).toBe(before);
    await post(handle, '/_afp/clock', { to_ms: START_MS + 60_000 });
    expect(balanceMicro(handle, agent)).toBe(before + 12_500_000n);
    expect(
      (await post(handle, '/_afp/casino/deposit', { agent_id: agent, chain: 'base', amount: 3 })).body['amount'],
    ).toBe('3.00');
  });

  test('bad bodies are 400 naming the field; an unknown agent is 404; nothing is deposited', async () => {
    const handle = await serve();
    await post(handle, '/register', { agent_id: 'x' });
    const cases: Array<[unknown, number, RegExp]> = [
      [[], 400, /send \{"agent_id"/],
      [{ agent_id: 'x', chain: 'base', amount: '1', memo: 'hi' }, 400, /unknown field memo/],
      [{ chain: 'base', amount: '1' }, 400, /agent_id must be an agent id/],
      [{ agent_id: 'x', chain: 'bitcoin', amount: '1' }, 400, /chain must be one of base/],
      [{ agent_id: 'x', chain: 'base', amount: '0' }, 400, /amount must be a positive USDC amount/],
      [{ agent_id: 'x', chain: 'base', amount: '1.0000001' }, 400, /amount must be a positive USDC amount/],
      [{ agent_id: 'x', chain: 'base', amount: '5000000' }, 400, /amount must be between/],
      [{ agent_id: 'nobody', chain: 'base', amount: '1' }, 404, /no agent 'nobody'/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await post(handle, '/_afp/casino/deposit', body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body['error'], JSON.stringify(body)).toMatch(message);
    }
    expect(handle.platform.casino.account.deposits.pendingOf('x').count).toBe(0);
    const wrongMethod = await fetch(`${handle.urls.api as string}/_afp/casino/deposit`);
    expect(wrongMethod.status).toBe(405);
  });

  test('with --data the deposit is logged and replayed: credited after a restart', async () => {
    const file = join(DIR, 'deposit.db');
    const settings = {
      seed: '3',
      startMs: START_MS,
      clockMode: 'manual' as const,
      wallOffsetMs: 0,
      config: DEFAULT_CONFIG,
      faults: [],
      closures: [],
      defects: [],
    };
    const first = await openCommandLog(file, { knownDefects: DEFECT_NAMES });
    if ('error' in first) throw new Error(first.error);
    first.adopt(settings);
    const served = await serve(first);
    await post(served, '/register', { agent_id: 'kept' });
    const before = balanceMicro(served, 'kept');
    expect((await post(served, '/_afp/casino/deposit', { agent_id: 'kept', chain: 'base', amount: '7' })).status).toBe(
      200,
    );
    await served.close();
    handles.splice(0);
    first.close();
    const second = await openCommandLog(file, { knownDefects: DEFECT_NAMES });
    if ('error' in second) throw new Error(second.error);
    expect(second.adopt(settings)).toEqual([]);
    const again = await serve(second);
    try {
      expect(again.recovery).toMatchObject({ commands: 2, internalErrors: 0 });
      expect(again.platform.casino.account.deposits.pendingOf('kept')).toMatchObject({
        count: 1,
        amountMicro: 7_000_000n,
      });
      await post(again, '/_afp/clock', { advance_ms: 120_000 });
      expect(balanceMicro(again, 'kept')).toBe(before + 7_000_000n);
    } finally {
      await again.close();
      handles.splice(0);
      second.close();
    }
  });
});
