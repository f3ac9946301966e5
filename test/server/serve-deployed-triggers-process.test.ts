// A real `afp serve --dialect deployed` process (src/cli/main.ts) on 127.0.0.1 with the manual clock
// and a scenario file's BTC price shock: a trading agent's stop-loss set over HTTP fires at the
// shock's instant, closing the position, and a bad trigger is refused in the deployment's shape.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCliChild } from '../fixtures/cli-child.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-triggers-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const SHOCK_MS = START_MS + 2 * 3_600_000;
const SCENARIO = `name: trigger-shock
seed: 7
start: 2025-03-01T00:00:00Z
duration: 1d
populations:
  - { agent: faucet-farmer, count: 1 }
trading:
  shocks:
    - { market: BTC, at: 2h, move_bps: -2000 }
`;

async function call(
  method: string,
  url: string,
  options: { key?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  const response = await fetch(url, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('afp serve --dialect deployed, a real process', () => {
  test("a stop-loss set over HTTP fires at the scenario shock's instant", async () => {
    const scenario = join(DIR, 'trigger-shock.yaml');
    writeFileSync(scenario, SCENARIO);
    const seen: Record<string, unknown> = {};
    const run = await runCliChild(
      ['serve', '--dialect', 'deployed', '--port', '0', '--clock', 'manual', '--scenario', scenario],
      {
        timeoutMs: 60_000,
        onReady: async (stdout, stop) => {
          const url = (mount: string): string =>
            new RegExp(`^${mount}: (http://127\\.0\\.0\\.1:\\d+)$`, 'm').exec(stdout)?.[1] ?? 'http://invalid';
          const trading = url('trading');
          const casino = url('casino');
          const registered = await call('POST', `${trading}/v1/auth/register`, { body: {} });
          const key = registered.body['api_key'] as string;
          const deposit = await call('POST', `${casino}/_afp/casino/deposit`, {
            body: { agent_id: registered.body['agent_id'], chain: 'base', amount: '1000' },
          });
          await call('POST', `${casino}/_afp/clock`, { body: { to_ms: deposit.body['confirm_at_ms'] } });
          const opened = await call('POST', `${trading}/v1/trade/open`, {
            key,
            body: { coin: 'BTC', side: 'long', size_usd: 500, leverage: 2 },
          });
          const positionId = opened.body['position_id'] as string;
          const price = opened.body['current_price'] as number;
          seen['refused'] = await call('POST', `${trading}/v1/trade/stop-loss`, {
            key,
            body: { position_id: positionId, trigger_price: Math.round(price * 1.05) },
          });
          seen['set'] = await call('POST', `${trading}/v1/trade/stop-loss`, {
            key,
            body: { position_id: positionId, trigger_price: Math.round(price * 0.9) },
          });
          await call('POST', `${casino}/_afp/clock`, { body: { to_ms: SHOCK_MS - 60_000 } });
          seen['before'] = (await call('GET', `${trading}/v1/trade/positions`, { key })).body['count'];
          await call('POST', `${casino}/_afp/clock`, { body: { to_ms: SHOCK_MS + 600_000 } });
          seen['history'] = (await call('GET', `${trading}/v1/trade/history`, { key })).body['trades'];
          seen['positionId'] = positionId;
          stop();
        },
      },
    );
    expect(run.code).toBe(0);
    expect(seen['refused']).toMatchObject({
      status: 400,
      body: { error: 'invalid_trigger_price', _info: { service: 'agent-trading' } },
    });
    expect(seen['set']).toMatchObject({ status: 201, body: { type: 'stop_loss', status: 'active' } });
    expect(seen['before']).toBe(1);
    expect(seen['history']).toEqual([
      expect.objectContaining({
        position_id: seen['positionId'],
        status: 'closed',
        closed_at: new Date(SHOCK_MS).toISOString(),
      }),
    ]);
  });
});
