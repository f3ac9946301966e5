// The exported k6 script's setup() against what an afp serve announces at /_afp/mounts, with a
// fake k6 http (no socket): a serve in the deployed dialect is refused before any agent's request,
// by the same reading and with the same message as afp load (loadMounts over the Target
// resolve-target.ts builds); a documents serve goes on to its clock. A mount the agents send to
// (`needs`) without a URL, from AFP_TARGET_<SERVICE> or the mounts, aborts before any iteration
// with the fix; AFP_TARGET_<SERVICE> wins over what the serve announces.
import { describe, expect, test } from 'vitest';
import { k6Setup, type K6SetupApi } from '../../src/export/k6/k6-setup.ts';
import { k6Transport } from '../../src/export/k6/k6-transport.ts';
import { mountsNeeded } from '../../src/export/k6/k6-mounts.ts';
import { AGENTS } from '../../agents/index.ts';
import { loadMounts } from '../../src/load/load-run.ts';
import { servedDialects } from '../../src/live/afp-mounts.ts';

const DEPLOYED_MOUNTS = {
  dialect: 'deployed',
  mounts: { casino: 'http://127.0.0.1:9100', faucet: 'http://127.0.0.1:9106', escrow: 'http://127.0.0.1:9107' },
};

class Aborted extends Error {}

function api(
  mounts: unknown,
  given: { needs?: readonly string[]; env?: Readonly<Record<string, string>>; status?: number } = {},
): { api: K6SetupApi; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    api: {
      http: {
        asyncRequest: (_method, url) => {
          asked.push(url);
          const door = url.endsWith('/_afp/mounts');
          const body = door ? mounts : { now_ms: 1_000 };
          return Promise.resolve({
            status: door ? (given.status ?? 200) : 200,
            headers: {},
            body: JSON.stringify(body),
          });
        },
      },
      expected: null,
      defaultTarget: 'http://127.0.0.1:9100',
      timeout: '30s',
      env: (name) => given.env?.[name],
      randomTag: () => 'tag',
      nowMs: () => 1_000,
      segment: () => null,
      abort: (message) => {
        throw new Aborted(message);
      },
      needs: given.needs ?? [],
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

  test('AFP_TARGET_<SERVICE> wins over /_afp/mounts; a needed mount with no URL aborts with the fix, naming what the door answered', async () => {
    const env = { AFP_TARGET_FAUCET: 'http://pods.example:8081/', AFP_TARGET_ESCROW: 'http://pods.example:8082' };
    const { api: given } = api({ mounts: { faucet: 'http://127.0.0.1:9101' } }, { needs: ['faucet', 'escrow'], env });
    expect((await k6Setup(given)).urls).toEqual({
      api: 'http://127.0.0.1:9100',
      faucet: 'http://pods.example:8081',
      escrow: 'http://pods.example:8082',
    });
    const { api: locked } = api(
      { error: 'UNAUTHORIZED' },
      { needs: ['faucet', 'escrow'], status: 401, env: { AFP_TARGET_FAUCET: 'http://f' } },
    );
    const refused = await k6Setup(locked).then(
      () => 'ran',
      (error: unknown) => (error instanceof Aborted ? error.message : String(error)),
    );
    expect(refused).toBe(
      "no URL for mount 'escrow', which the scenario's agents send to (GET http://127.0.0.1:9100/_afp/mounts answered 401): set AFP_TARGET_ESCROW=<its URL> (the TestRun of afp export k6 --k8s sets them), or run against an afp serve whose /_afp/mounts this run can read",
    );
  });

  test('a request to a mount without a URL aborts the run with the fix, sending nothing', async () => {
    const sent: string[] = [];
    const transport = k6Transport({
      http: {
        asyncRequest: (_method, url) => {
          sent.push(url);
          return Promise.resolve({ status: 200, headers: {}, body: '{}' });
        },
      },
      urls: { api: 'http://127.0.0.1:9100' },
      timeout: '30s',
      expected: null,
      abort: (message) => {
        throw new Aborted(message);
      },
    });
    const refused = await transport({ mount: 'casino', method: 'POST', path: '/api/v1/games/dice' }).then(
      () => 'sent',
      (error: unknown) => (error instanceof Aborted ? error.message : String(error)),
    );
    expect(refused).toBe(
      "POST /api/v1/games/dice: no URL for mount 'casino', which the scenario's agents send to: set AFP_TARGET_CASINO=<its URL> (the TestRun of afp export k6 --k8s sets them), or run against an afp serve whose /_afp/mounts this run can read",
    );
    expect(sent).toEqual([]);
    expect((await transport({ mount: 'api', method: 'GET', path: '/status' })).status).toBe(200);
  });

  test("the mounts a scenario needs: each archetype's service, faucet where agents may speak style A, all for a cross-service archetype", () => {
    expect(mountsNeeded([{ agent: 'faucet-farmer', style: 'B' }], AGENTS)).toEqual(['faucet']);
    expect(
      mountsNeeded(
        [
          { agent: 'escrow-buyer', style: 'B' },
          { agent: 'fixed-bettor', style: 'B' },
        ],
        AGENTS,
      ),
    ).toEqual(['escrow', 'casino']);
    expect(mountsNeeded([{ agent: 'momentum-trader', style: 'mixed' }], AGENTS)).toEqual(['faucet', 'trading']);
    expect(mountsNeeded([{ agent: 'property', style: 'B' }], AGENTS)).toEqual([
      'faucet',
      'escrow',
      'trading',
      'domains',
      'wallet',
      'casino',
    ]);
  });
});
