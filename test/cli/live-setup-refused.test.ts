// A live target that will not set up the run's account is not a bug in afp: exit 4 (liveness),
// never 1, with the reason and what to do. The deployed stand-in behind the shipped
// targets/deployed.yaml (faucet funding), without --trust-proxy, so every call comes from one IP
// and the faucet's once-a-day-per-IP rule refuses the run's claim once this test has claimed:
// `afp audit money` and `afp check --target` (whose --json verdict says liveness) exit 4 naming the
// faucet's refusal and the target file's other funding ways; a --key the target refuses is invalid
// input (2). Real listeners on loopback, the manual clock.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { WaitClock } from '../../src/core/clock.ts';
import { EXIT } from '../../src/core/exit-codes.ts';
import { parseMoneyArgs, runMoney } from '../../src/cli/audit-money.ts';
import type { AuditIo } from '../../src/cli/audit-io.ts';
import { main as checkEnding } from '../../src/cli/check.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { NO_PROXIES } from '../../src/http/trusted-proxies.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { deployedTargetText } from '../fixtures/deployed-target.ts';
import { coded } from './ending-code.ts';
import { codeOf } from './ending-code.ts';

const checkMain = coded(checkEnding);

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const DIR = mkdtempSync(join(tmpdir(), 'afp-setup-refused-'));

let handle: ServeHandle;
let targetFile: string;
let clock: WaitClock;

const post = async (url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  handle = await startServe({
    trustedProxies: NO_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    seed: '11',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
  });
  const urls = handle.urls;
  targetFile = join(DIR, 'deployed.yaml');
  writeFileSync(targetFile, deployedTargetText(urls));
  const casino = urls.casino ?? '';
  let nowMs = START_MS;
  clock = {
    nowMs: () => nowMs,
    sleep: async (ms) => {
      nowMs += ms;
      await post(`${casino}/_afp/clock`, { to_ms: nowMs });
    },
  };
  // This IP's one faucet claim of the day: every later claim from it is 429 ip_rate_limited.
  const registered = await post(`${casino}/api/v1/auth/register`, {});
  expect(registered.status).toBe(201);
  const claimed = await post(`${urls.faucet ?? ''}/faucet/claim`, { agent_casino_id: registered.body['agent_id'] });
  expect(claimed.status).toBe(200);
});

afterAll(async () => {
  await handle.close({ forceAfterMs: 0 });
  rmSync(DIR, { recursive: true, force: true });
});

function sink(): { io: AuditIo; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { out: (text) => void (out += text), err: (text) => void (err += text) },
    out: () => out,
    err: () => err,
  };
}

describe('a live target that will not set up the run', () => {
  test('afp audit money: the faucet refuses the fresh account: exit 4, the refusal and the other funding ways', async () => {
    const flags = parseMoneyArgs(['--target', targetFile, '--out', join(DIR, 'money')], START_MS);
    if ('errors' in flags) throw new Error(flags.errors.join('; '));
    const run = sink();
    const code = await codeOf(runMoney(flags, run.io, clock), run.io);
    expect(code, run.err()).toBe(EXIT.liveness);
    expect(run.err()).toContain('the faucet claim failed: 429 ip_rate_limited');
    expect(run.err()).toContain("which refused (a deployment's faucet credits an IP once a day)");
    expect(run.err()).toContain('funding: { method: keys, keys: [...] } or keys_env');
  });

  test('afp audit money: a key the target refuses is invalid input (2)', async () => {
    const flags = parseMoneyArgs(
      ['--target', targetFile, '--key', 'sk_live_nobody', '--out', join(DIR, 'key')],
      START_MS,
    );
    if ('errors' in flags) throw new Error(flags.errors.join('; '));
    const run = sink();
    const code = await codeOf(runMoney(flags, run.io, clock), run.io);
    expect(code, run.err()).toBe(EXIT.invalidInput);
    expect(run.err()).toContain('the given key is refused by deployed: 401');
  });

  test('afp check --target: no account to check with: exit 4, and the --json verdict says liveness', async () => {
    const human = sink();
    const code = await checkMain(['--target', targetFile, '--runs', '1', '--seed', '5', '--quiet'], {
      ...human.io,
      clock,
    });
    expect(code, human.out() + human.err()).toBe(EXIT.liveness);
    expect(human.out()).toContain('FAILED: the check could not run');
    expect(human.out()).toContain('no account to check with');
    expect(human.out()).toContain('429 ip_rate_limited');
    const json = sink();
    expect(
      await checkMain(['--target', targetFile, '--runs', '1', '--seed', '5', '--json'], { ...json.io, clock }),
    ).toBe(EXIT.liveness);
    const record = JSON.parse(json.out()) as { verdict: string; exit_code: number; failure: { kind: string } };
    expect(record).toMatchObject({ verdict: 'liveness', exit_code: 4, failure: { kind: 'unavailable' } });
  });
});
