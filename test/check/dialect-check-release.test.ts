// `afp check --target FILE` through the deployed dialect holds an escrow's release to what its
// creation stated, at the release: a target whose creation states a 2% commission while its release
// states (and charges) 1% fails naming the release, and one whose counterparty's balance reads 0.01
// short after each release fails naming the release too (the first failure, where shrinking then
// ends on the state it left behind). Both are a real `afp serve --dialect deployed` behind a
// rewriting proxy on loopback (the prober's `feelie` and `steal`).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { main as checkEnding } from '../../src/cli/check.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { adminFundedTargetText } from '../fixtures/deployed-target.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { rewritingProxy } from '../fixtures/rewriting-proxy.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(checkEnding);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

type Rewrite = (path: string, body: Record<string, unknown>) => void;

const deployedServe = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: DEPLOYED_ROUTES,
  layout: DEPLOYED_LAYOUT,
  seed: '5',
  startMs: Date.parse('2025-01-01T00:00:00.000Z'),
});

/** A proxy to `upstream` (test/fixtures/rewriting-proxy.ts) that hands every JSON object answer to `rewrite` before it goes back. */
async function jsonRewritingProxy(upstream: string, rewrite: Rewrite): Promise<string> {
  const proxy = await rewritingProxy(upstream, (request, answer) => {
    try {
      const body = JSON.parse(answer.text) as unknown;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return answer.text;
      rewrite(request.path, body as Record<string, unknown>);
      return JSON.stringify(body);
    } catch {
      return answer.text; // not JSON: passed through as it came
    }
  });
  closers.push(proxy.close);
  return proxy.url;
}

/** A deployed serve's casino, faucet and escrow, casino and escrow behind `rewrite`, as a target file. */
async function targetFile(directory: string, rewrite: Rewrite): Promise<string> {
  const handle = await deployedServe();
  const { casino, faucet, escrow } = handle.urls;
  const services = {
    casino: await jsonRewritingProxy(casino as string, rewrite),
    faucet: faucet as string,
    escrow: await jsonRewritingProxy(escrow as string, rewrite),
  };
  const file = join(directory, 'target.yaml');
  await writeFile(file, adminFundedTargetText('rewritten', services, casino as string));
  return file;
}

async function check(file: string): Promise<{ code: number; out: string }> {
  let out = '';
  const argv = ['--target', file, '--seed', '1', '--runs', '10', '--max-commands', '20'];
  const code = await main(argv, { out: (text) => (out += text), err: () => undefined });
  return { code, out };
}

const micro = (usd: number): number => Math.round(usd * 1e6) / 1e6;

describe('afp check through the deployed dialect: the release held to its creation, at the release', () => {
  test('a creation stating 2% while the release states and charges 1%: the failure names the release', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'afp-check-release-'));
    try {
      const file = await targetFile(directory, (path, body) => {
        const amount = body['amount_usd'];
        if (!/\/escrow\/create$/.test(path) || typeof amount !== 'number') return;
        const commission = micro(amount * 0.02);
        body['commission_usd'] = commission;
        body['net_to_counterparty'] = micro(amount - commission);
      });
      const { code, out } = await check(file);
      expect(code, out).toBe(3);
      expect(out).toMatch(
        /^error: escrowRelease(?:ThroughMcp)?\(escrow#\d+\): escrow \S+: the release states a fee of [\d.]+ and a net of [\d.]+, its creation stated a fee of /m,
      );
      // The release's request as a curl: the key as $AFP_KEY (a header, or the MCP door's argument), never literal.
      expect(out).toMatch(/^curl: curl -sS -X POST '[^']*(?:\/escrow\/release\/|\/mcp)'.*\$AFP_KEY/m);
      expect(out).not.toMatch(/sk_live_[0-9a-f]{8}/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test("a counterparty's balance read 0.01 short after each release: the failure names the release", async () => {
    const directory = await mkdtemp(join(tmpdir(), 'afp-check-release-'));
    const robbed = new Set<unknown>();
    try {
      const file = await targetFile(directory, (path, body) => {
        if (/\/escrow\/release\//.test(path) && body['counterparty_id'] !== undefined)
          robbed.add(body['counterparty_id']);
        if (/\/auth\/balance$/.test(path) && robbed.has(body['agent_id']) && typeof body['balance_usd'] === 'number')
          body['balance_usd'] = micro(body['balance_usd'] - 0.01);
      });
      const { code, out } = await check(file);
      expect(code, out).toBe(3);
      // Named at the release: the error itself, or the first failure where shrinking ended on the state it left.
      expect(out).toMatch(
        /^(?:error|first failure, before shrinking .*?): escrowRelease\(escrow#\d+\): the counterparty's balance after the release of escrow \S+: [\d.]+, expected /m,
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
