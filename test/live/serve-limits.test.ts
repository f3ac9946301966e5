// A live command against an afp serve URL paces by the limits that serve announces, not by afp's
// copy of the deployment's: `GET /_afp/mounts` says `limits: deployed` for a deployed-dialect serve
// and `limits: lifted` for one started with --lift-deployed-limits, and resolveTarget paces under
// the deployment's windows only in the first case (the second used to wait minutes for nothing).
// Real loopback listeners, in-process.
import { describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LIMITS } from '../../src/live/dialects/deployed/limits.ts';
import { resolveTarget } from '../../src/live/resolve-target.ts';
import { DEPLOYED_LAYOUT, deployedLayout } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeLayout } from '../../src/server/listeners.ts';
import { NO_PROXIES } from '../../src/http/trusted-proxies.ts';

async function resolvedLimits(layout: ServeLayout): Promise<{ announced: unknown; paces: unknown }> {
  const handle = await startServe({
    trustedProxies: NO_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout,
    seed: '3',
    port: 0,
    clockMode: 'manual',
    startMs: Date.parse('2025-03-01T00:00:00Z'),
    log: () => undefined,
  });
  try {
    const casino = handle.urls.casino as string;
    const mounts = (await (await fetch(`${casino}/_afp/mounts`)).json()) as Record<string, unknown>;
    const resolved = await resolveTarget(casino);
    if (!resolved.ok) throw new Error(resolved.message);
    return { announced: mounts['limits'], paces: resolved.value.limits };
  } finally {
    await handle.close({ forceAfterMs: 0 });
  }
}

describe('a deployed afp serve announces its limits, and live commands pace by them', () => {
  test('the deployment windows: announced deployed, paced under every documented limit', async () => {
    const { announced, paces } = await resolvedLimits(DEPLOYED_LAYOUT);
    expect(announced).toBe('deployed');
    expect(paces).toStrictEqual(
      Object.fromEntries(
        Object.entries(DEPLOYED_LIMITS).map(([op, row]) => [
          op,
          { perMinute: row.perMinute, ...(row.bucket === undefined ? {} : { bucket: row.bucket }) },
        ]),
      ),
    );
  });

  test('--lift-deployed-limits: announced lifted, nothing to pace under', async () => {
    const { announced, paces } = await resolvedLimits(deployedLayout({ limitsLifted: true }));
    expect(announced).toBe('lifted');
    expect(paces).toStrictEqual({});
  });

  test('float money alone keeps the windows', async () => {
    const { announced, paces } = await resolvedLimits(deployedLayout({ floatMoney: true }));
    expect(announced).toBe('deployed');
    expect(Object.keys(paces as object).length).toBe(Object.keys(DEPLOYED_LIMITS).length);
  });
});
