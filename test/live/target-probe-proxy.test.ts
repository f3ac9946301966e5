// `afp target probe` where a proxy stands in front of an afp serve, and the evidence line of a
// service whose votes include another family's dialect. Real loopback listeners (in process,
// port 0, manual clock): a deployed serve with a small forwarding proxy for its casino and faucet
// only; a documents serve's wallet, whose primary interface shares the deployed wallet's paths.
//   - the URLs given win over the serve's announced mounts (the casino and faucet stay behind the
//     proxy); the services only the mounts name are used, with a note and a file comment saying
//     they go around the proxy;
//   - a given URL beats an announced one even where the announced one showed more evidence (pure);
//   - the documents wallet is A with A's votes ahead (its openapi `primary` tag reads as A), and an
//     evidence line whose other-family dialect has as many votes says why it was ruled out.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import type { UrlVerdict } from '../../src/live/probe/classify.ts';
import { decideTarget } from '../../src/live/probe/probe-target.ts';
import { renderTargetText } from '../../src/live/probe/target-text.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { probeInProcess } from '../fixtures/target-probe-in-process.ts';

const START_MS = Date.parse('2026-03-01T00:00:00.000Z');
const deployedServe = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: DEPLOYED_ROUTES,
  layout: DEPLOYED_LAYOUT,
  seed: '8',
  startMs: START_MS,
});
const documentsServe = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: ALL_ROUTES,
  seed: '8',
  startMs: START_MS,
});

const proxies: Server[] = [];
afterAll(async () => {
  for (const proxy of proxies) await new Promise((resolve) => proxy.close(resolve));
});

/** A forwarding proxy to `upstream` (one origin), as a user's reverse proxy in front of a service. */
async function proxyTo(upstream: string): Promise<string> {
  const target = new URL(upstream);
  const proxy = createServer((incoming, outgoing) => {
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  proxies.push(proxy);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

describe('afp target probe through a proxy in front of an afp serve', () => {
  test('keeps to the URLs given; the services only the mounts name are used and said to go around the proxy', async () => {
    const handle = await deployedServe();
    const casino = await proxyTo(handle.urls.casino as string);
    const faucet = await proxyTo(handle.urls.faucet as string);
    const run = await probeInProcess([casino, faucet]);
    expect(run.code, run.stderr).toBe(0);
    const file = run.stdout;
    expect(file).toContain(`casino: { url: "${casino}", dialect: deployed }`);
    expect(file).toContain(`faucet: { url: "${faucet}", dialect: deployed }`);
    const trading = handle.urls.trading as string;
    expect(file).toMatch(
      new RegExp(
        `trading: \\{ url: "${trading}", dialect: deployed \\}  # evidence: deployed \\d+; from the serve's announced mounts \\(${casino}/_afp/mounts\\), around the URL given: not through it`,
      ),
    );
    expect(file).not.toContain(`"${handle.urls.casino as string}"`);
    expect(file).toContain(`admin_url: "${casino}"`);
    expect(run.stderr).toMatch(
      new RegExp(
        `note: escrow \\(${handle.urls.escrow as string}\\), trading \\(${trading}\\), wallet \\(.*\\), domains \\(.*\\): taken from the afp serve's announced mounts \\(GET ${casino}/_afp/mounts\\), not from a URL given; ${casino} is not among the addresses the serve names for itself`,
      ),
    );
  });

  test('probing the serve itself: its announced mounts are its own addresses, named in the comments, no note', async () => {
    const handle = await deployedServe();
    const casino = handle.urls.casino as string;
    const run = await probeInProcess([casino]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`; announced by the afp serve at ${casino} (its /_afp/mounts)`);
    expect(run.stderr).not.toContain('not from a URL given');
  });
});

function verdict(
  url: string,
  evidence: number,
  mounts: UrlVerdict['mounts'],
  announcesItself: boolean | null,
): UrlVerdict {
  return {
    url,
    answered: true,
    mounts,
    announcesItself,
    catchAll: false,
    family: 'deployed',
    familyVotes: { documents: 0, deployed: evidence },
    services: [{ service: 'casino', dialect: 'deployed', votes: { deployed: evidence } }],
    endpoints: [],
    ruledOut: [],
    server: { software: null, answered: 1, probed: 1, statuses: [], mediaTypes: [], jsonBodies: 0, unreadBodies: 0 },
  };
}

describe('choosing between a given URL and an announced one (pure)', () => {
  test('the given URL wins though the announced one showed more evidence (a proxy may hide some)', () => {
    const proxy = 'http://127.0.0.1:1';
    const serve = 'http://127.0.0.1:2';
    const outcome = decideTarget(
      [verdict(proxy, 10, { casino: serve }, false), verdict(serve, 50, { casino: serve }, true)],
      { given: [proxy] },
    );
    expect(outcome.chosen.map((found) => found.url)).toStrictEqual([proxy]);
    expect(outcome.file?.admin_url).toBe(proxy);
  });
});

describe('the evidence line follows the choice', () => {
  test("the documents serve's wallet: A, with A's votes ahead of the deployed markers its primary interface also meets", async () => {
    const handle = await documentsServe();
    const run = await probeInProcess([handle.urls.wallet as string]);
    expect(run.code, run.stderr).toBe(0);
    const line = /wallet: \{ url: "[^"]+", dialect: (\w+) \} {2}# evidence: (\w+) (\d+)(?:, (\w+) (\d+))?/.exec(
      run.stdout,
    );
    expect(line?.[1]).toBe('A');
    expect(line?.[2]).toBe('A');
    expect(Number(line?.[3])).toBeGreaterThan(Number(line?.[5] ?? 0));
    expect(run.stderr).toContain('openapi: wallet A (tag) ×');
  });

  test('a dialect of the other family with as many votes is said to be ruled out by the family', () => {
    const text = renderTargetText(
      {
        name: 'x',
        services: { wallet: { url: 'http://127.0.0.1:1', dialect: 'A' } },
        register: 'none',
        funding: { method: 'keys', keys_env: 'AFP_KEYS' },
      },
      {
        urls: ['http://127.0.0.1:1'],
        chosen: [
          {
            service: 'wallet',
            url: 'http://127.0.0.1:1',
            dialect: 'A',
            votes: { deployed: 6, A: 5 },
            familyVotes: { documents: 80, deployed: 0 },
            announced: null,
          },
        ],
      },
    );
    expect(text).toContain(
      '# evidence: deployed 6, A 5 (deployed ruled out: the URL answers in the documents family, documents 80 : deployed 0)',
    );
  });
});
