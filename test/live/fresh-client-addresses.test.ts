// A target FILE whose faucet funds the accounts, on an afp serve (deployed dialect, real loopback
// listeners, manual clock) that counts this caller's X-Forwarded-For (`--trust-proxy`, its
// /_afp/mounts says `forwarded_for: trusted`): each invocation's account registers and claims from
// a fresh client address (Target.freshClientAddresses), so a second invocation is not refused as
// this host's second claim of the day (429 ip_rate_limited, exit 4 before). The same file on a serve
// that ignores the header, and on anything that is not an afp serve, announces nothing.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES, NO_PROXIES } from '../../src/http/trusted-proxies.ts';
import { openLiveAccount } from '../../src/live/live-account.ts';
import { LiveSession } from '../../src/live/live-session.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import type { Target } from '../../src/live/target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { manualServes, movingClock } from '../fixtures/manual-serves.ts';

const START_MS = Date.parse('2026-03-01T00:00:00.000Z');
const scratch = mkdtempSync(join(tmpdir(), 'afp-fresh-addresses-'));
const layout = { routes: DEPLOYED_ROUTES, layout: DEPLOYED_LAYOUT, seed: '7', startMs: START_MS };
const trusting = manualServes({ ...layout, trustedProxies: LOOPBACK_PROXIES });
const ignoring = manualServes({ ...layout, trustedProxies: NO_PROXIES });

function faucetFile(casino: string, faucet: string, name: string): string {
  const path = join(scratch, `${name}.yaml`);
  writeFileSync(
    path,
    [
      `name: ${name}`,
      'services:',
      `  casino: { url: ${casino}, dialect: deployed }`,
      `  faucet: { url: ${faucet}, dialect: deployed }`,
      'register: { service: casino }',
      'funding: { method: faucet }',
      'fairness: deployed',
      '',
    ].join('\n'),
  );
  return path;
}

/** One invocation: a new session on the target, one account opened the file's way. */
async function openOnce(target: Target, adminUrl: string): Promise<Awaited<ReturnType<typeof openLiveAccount>>> {
  const clock = movingClock(adminUrl, START_MS);
  const deadline = new Deadline(clock, 600);
  const session = new LiveSession({ target, clock, deadline });
  return openLiveAccount({ session, key: null, fundMicro: 1_000_000n, clock, deadline });
}

describe('a target file on an afp serve that trusts X-Forwarded-For', () => {
  test('two invocations each get a faucet-funded account: fresh client addresses, as for a URL target', async () => {
    const handle = await trusting();
    const casino = handle.urls.casino as string;
    const resolved = await resolveTarget(faucetFile(casino, handle.urls.faucet as string, 'trusting'));
    if (!resolved.ok) throw new Error(resolved.message);
    expect(resolved.value.freshClientAddresses).toBe(true);
    const first = await openOnce(resolved.value, casino);
    const second = await openOnce(resolved.value, casino);
    expect(first.ok, first.ok ? '' : first.message).toBe(true);
    expect(second.ok, second.ok ? '' : second.message).toBe(true);
    // The URL target of the same serve says the same.
    const viaUrl = await resolveTarget(casino);
    expect(viaUrl.ok && viaUrl.value.freshClientAddresses).toBe(true);
  });

  test('a serve that ignores the header: no fresh addresses, and the second invocation meets the per-IP claim limit', async () => {
    const handle = await ignoring();
    const casino = handle.urls.casino as string;
    const resolved = await resolveTarget(faucetFile(casino, handle.urls.faucet as string, 'ignoring'));
    if (!resolved.ok) throw new Error(resolved.message);
    expect(resolved.value.freshClientAddresses).toBeUndefined();
    const first = await openOnce(resolved.value, casino);
    expect(first.ok, first.ok ? '' : first.message).toBe(true);
    const second = await openOnce(resolved.value, casino);
    expect(second.ok ? '' : second.message).toContain('429');
  });

  test('not an afp serve (nothing answers /_afp/mounts): the file is kept as it is', async () => {
    const resolved = await resolveTarget(faucetFile('http://127.0.0.1:9', 'http://127.0.0.1:9', 'nothing'));
    expect(resolved.ok && resolved.value.freshClientAddresses).toBeFalsy();
  });
});
