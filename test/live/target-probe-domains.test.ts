// `afp target probe` recognizes the deployed domains (spec/DEPLOYED.md §7) on a real
// `afp serve --dialect deployed` (in process, loopback, port 0): its public check/value/whois
// endpoints and `_info.service` agent-domains; the written target file lists it in the deployed
// dialect and loads. Only GETs are sent (the marker table's POST rows are looked for in openapi.json).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_MARKERS } from '../../src/live/dialects/deployed/markers.ts';
import { loadTargetFile } from '../../src/live/target-file.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { probeInProcess } from '../fixtures/target-probe-in-process.ts';

const scratch = mkdtempSync(join(tmpdir(), 'afp-probe-domains-'));
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 0 });
});

describe('afp target probe and the deployed domains', () => {
  test('every domains marker is a row of the deployed stand-in (method and path)', () => {
    const markers = DEPLOYED_MARKERS.filter((marker) => marker.service === 'domains');
    expect(markers.length).toBeGreaterThanOrEqual(4);
    for (const marker of markers) {
      const row = DEPLOYED_ROUTES.find(
        (route) =>
          route.mount === 'domains' &&
          route.method === marker.method &&
          route.path.replace(/:(\w+)/g, '{$1}') === marker.path,
      );
      expect(row, `${marker.method} ${marker.path}`).toBeDefined();
    }
  });

  test("the stand-in's domains address is recognized as domains, deployed; the file lists it (keys funding: no casino to register on) and loads", async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: DEPLOYED_ROUTES,
      layout: DEPLOYED_LAYOUT,
      seed: '5',
      port: 0,
      clockMode: 'manual',
      startMs: Date.parse('2025-03-01T00:00:00Z'),
      defects: [],
      log: () => undefined,
    });
    handles.push(handle);
    const domains = handle.urls.domains as string;
    const out = join(scratch, 'domains.yaml');
    const run = await probeInProcess([domains, '--out', out]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/GET \/v1\/domains\/check +400 +domains deployed/);
    expect(run.stdout).toContain('→ domains deployed; dialect family deployed');
    const loaded = await loadTargetFile(out, { env: { AFP_KEYS: 'sk_domains_a,sk_domains_b' } });
    expect(loaded.ok, loaded.ok ? '' : loaded.message).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.value.services).toStrictEqual({ domains: { url: domains, dialect: 'deployed' } });
    expect(readFileSync(out, 'utf8')).toContain(`domains: { url: "${domains}", dialect: deployed }`);
  });
});
