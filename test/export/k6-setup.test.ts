// The exported k6 script's setup() against what an afp serve announces at /_afp/mounts, with a
// fake k6 http (no socket): a serve in the deployed dialect is refused before any agent's request,
// by the same reading and with the same message as afp load (loadMounts over the Target
// resolve-target.ts builds); a documents serve goes on to its clock.
import { describe, expect, test } from 'vitest';
import { k6Setup, type K6SetupApi } from '../../src/export/k6/k6-setup.ts';
import { loadMounts } from '../../src/load/load-run.ts';
import { servedDialects } from '../../src/live/served-dialects.ts';

const DEPLOYED_MOUNTS = {
  dialect: 'deployed',
  mounts: { casino: 'http://127.0.0.1:9100', faucet: 'http://127.0.0.1:9106', escrow: 'http://127.0.0.1:9107' },
};

class Aborted extends Error {}

function api(mounts: unknown): { api: K6SetupApi; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    api: {
      http: {
        asyncRequest: (_method, url) => {
          asked.push(url);
          const body = url.endsWith('/_afp/mounts') ? mounts : { now_ms: 1_000 };
          return Promise.resolve({ status: 200, headers: {}, body: JSON.stringify(body) });
        },
      },
      expected: null,
      defaultTarget: 'http://127.0.0.1:9100',
      timeout: '30s',
      env: () => undefined,
      randomTag: () => 'tag',
      nowMs: () => 1_000,
      segment: () => null,
      abort: (message) => {
        throw new Aborted(message);
      },
    },
  };
}

describe('k6Setup', () => {
  test("a deployed serve is refused as afp load refuses it: the same message, before the clock or any agent's request", async () => {
    const { api: setupApi, asked } = api(DEPLOYED_MOUNTS);
    const refused = await k6Setup(setupApi).then(
      () => null,
      (error: unknown) => (error instanceof Aborted ? error.message : String(error)),
    );
    const dialects = servedDialects(DEPLOYED_MOUNTS);
    // In the order resolve-target.ts builds a serve's services (announcedMounts's).
    const services = Object.fromEntries(
      Object.entries(dialects).map(([service, dialect]) => [
        service,
        { url: DEPLOYED_MOUNTS.mounts[service as keyof typeof DEPLOYED_MOUNTS.mounts], dialect },
      ]),
    );
    const afpLoad = loadMounts({
      name: 'http://127.0.0.1:9100',
      source: 'http://127.0.0.1:9100',
      services,
      register: { service: 'casino' },
      funding: { method: 'admin-deposit' },
      limits: {},
      fairness: 'afp',
      afpServe: true,
      adminUrl: 'http://127.0.0.1:9100',
    });
    expect(afpLoad.ok).toBe(false);
    expect(refused).toBe(afpLoad.ok ? 'afp load took it' : afpLoad.message);
    expect(refused).toContain('faucet, escrow, casino speak the deployed dialect');
    expect(asked).toEqual(['http://127.0.0.1:9100/_afp/mounts']);
  });

  test('a documents serve (and a deployed dialect on one mount only) reads the mounts its way', async () => {
    const { api: setupApi, asked } = api({ mounts: { faucet: 'http://127.0.0.1:9101' } });
    expect((await k6Setup(setupApi)).urls).toEqual({ api: 'http://127.0.0.1:9100', faucet: 'http://127.0.0.1:9101' });
    expect(asked).toHaveLength(2);
    expect(
      servedDialects({ mounts: { faucet: 'http://x', casino: { url: 'http://y', dialect: 'deployed' } } }),
    ).toEqual({ faucet: 'A', casino: 'deployed' });
  });
});
