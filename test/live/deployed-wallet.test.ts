// afp's live side against `afp serve --dialect deployed`'s wallet (spec/DEPLOYED.md §6) on loopback:
// the deployed dialect's wallet rows read the stand-in's answers, refusals keep the deployment's
// names, `afp audit money`'s wallet probes run (not skipped) and report every disagreement of §6's
// table as an info rule finding with evidence and a curl (never a failure), and `afp target probe`
// recognizes the wallet's address as the deployed wallet.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { Deadline } from '../../src/core/deadline.ts';
import type { WaitClock } from '../../src/core/clock.ts';
import { main as targetEnding } from '../../src/cli/target.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_MARKERS } from '../../src/live/dialects/deployed/markers.ts';
import { LiveSession, type CallDeviation } from '../../src/live/live-session.ts';
import { loadTargetFile } from '../../src/live/target-file.ts';
import type { Target } from '../../src/live/target.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { deriveWallet } from '../../src/services/wallet/keys/wallet-keys.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { rewritingProxy } from '../fixtures/rewriting-proxy.ts';
import { moneyProbesOn } from '../fixtures/money-probes-run.ts';
import { coded } from '../cli/ending-code.ts';

const targetMain = coded(targetEnding);

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const scratch = mkdtempSync(join(tmpdir(), 'afp-deployed-wallet-'));
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 0 });
});

async function served(): Promise<{ target: Target; casino: string; wallet: string }> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: DEPLOYED_ROUTES,
    layout: DEPLOYED_LAYOUT,
    seed: '5',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    log: () => undefined,
  });
  handles.push(handle);
  const casino = handle.urls.casino as string;
  const wallet = handle.urls.wallet as string;
  const target: Target = {
    name: 'afp serve --dialect deployed',
    source: casino,
    afpServe: true,
    adminUrl: casino,
    services: { casino: { url: casino, dialect: 'deployed' }, wallet: { url: wallet, dialect: 'deployed' } },
    register: { service: 'casino' },
    funding: { method: 'faucet' },
    limits: {},
    fairness: 'deployed',
  };
  return { target, casino, wallet };
}

function session(target: Target, deviations: CallDeviation[] = []): LiveSession {
  let nowMs = 1_000_000;
  const clock: WaitClock = {
    nowMs: () => nowMs,
    sleep: async (ms) => {
      nowMs += ms;
    },
  };
  return new LiveSession({
    target,
    clock,
    deadline: new Deadline(clock, 3600),
    onDeviation: (deviation) => deviations.push(deviation),
  });
}

/** `afp audit money`'s probes against `target` with no casino account (the wallet probes open their own). */
function walletProbed(target: Target): ReturnType<typeof moneyProbesOn> {
  return moneyProbesOn(session(target), { apiKey: 'sk_live_unused', agentId: 'ag_unused' });
}

describe('the deployed dialect reads the wallet', () => {
  test("register, create, balance, send, quote by symbol, swap: no deviation but the error shape; refusals keep the deployment's names", async () => {
    const { target, casino } = await served();
    const deviations: CallDeviation[] = [];
    const live = session(target, deviations);
    const registered = await live.call('wallet.register', {}, null);
    expect(registered.kind === 'ok' && registered.value.apiKey).toMatch(/^pk_live_/);
    if (registered.kind !== 'ok') return;
    const key = registered.value.apiKey;
    const created = await live.call('wallet.create', {}, key);
    expect(created.kind === 'ok' && created.status).toBe(201);
    if (created.kind !== 'ok' || created.value.mnemonic === null) return;
    const base = created.value.addresses['base'] as string;
    const mint = await fetch(`${casino}/_afp/wallet/mint`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain: 'base', address: base, amount: '0.5' }),
    });
    expect(mint.status).toBe(200);
    expect(await live.call('wallet.balance', { address: base, chain: null }, key)).toMatchObject({
      kind: 'ok',
      value: { chain: 'base', symbol: 'ETH', amount: '0.5' },
    });
    const privateKey = deriveWallet(created.value.mnemonic).privateKeys.base;
    const sent = await live.call(
      'wallet.send',
      { chain: 'base', to: created.value.addresses['ethereum'] as string, amount: '0.1', privateKey },
      key,
    );
    expect(sent.kind === 'ok' && sent.value.amount).toBe('0.1');
    const quote = await live.call(
      'wallet.quote',
      { fromChain: 'base', toChain: 'base', fromToken: 'ETH', toToken: 'USDC', amount: '0.1' },
      key,
    );
    expect(quote.kind === 'ok' && quote.value).toMatchObject({ fromAmount: '0.1', integratorFee: '0.5%' });
    const swap = await live.call(
      'wallet.swap',
      { fromChain: 'base', toChain: 'base', fromToken: 'ETH', toToken: 'USDC', amount: '0.1', toAddress: base },
      key,
    );
    expect(swap.kind === 'ok' && swap.value.status).toBe('waiting');
    const bitcoin = await live.call(
      'wallet.send',
      { chain: 'bitcoin', to: created.value.addresses['bitcoin'] as string, amount: '0.1', privateKey },
      key,
    );
    expect(bitcoin.kind === 'refused' && bitcoin.refusal).toMatchObject({ status: 501, name: 'not_implemented' });
    const monero = await live.call(
      'wallet.balance',
      { address: created.value.addresses['monero'] as string, chain: 'monero' },
      key,
    );
    expect(monero.kind === 'refused' && monero.refusal).toMatchObject({ status: 400, name: 'view_key_required' });
    const styleA = await live.call('wallet.style-balance', { style: 'A' }, key);
    expect(styleA.kind === 'refused' && styleA.refusal).toMatchObject({ status: 404, name: 'not_found' });
    const seen = new Set(
      deviations.map(
        (deviation) =>
          `${deviation.op} ${deviation.deviation.kind} ${deviation.deviation.field}${deviation.deviation.documented ? ' (documented)' : ''}`,
      ),
    );
    expect([...seen].sort()).toEqual([
      'wallet.balance error-shape code (documented)',
      'wallet.send error-shape code (documented)',
      'wallet.style-balance error-shape code (documented)',
    ]);
  });
});

describe('afp audit money: the wallet probes against the deployed stand-in', () => {
  test("wrong key refused and nothing moved; each of §6's disagreements an info rule finding with evidence and a curl", async () => {
    const { target } = await served();
    const { results, findings } = await walletProbed(target);
    const wallet = results.filter((result) => result.name.startsWith('wallet-'));
    expect(wallet.map((result) => [result.name, result.status])).toEqual([
      ['wallet-wrong-key', 'ran'],
      ['wallet-documented', 'ran'],
    ]);
    expect(wallet[0]?.note).toMatch(
      /^wallet agent ag_[0-9a-f]{12}: a send from an empty address refused \(400 insufficient_balance\); receiver holds 0$/,
    );
    const listed = findings.list().filter((finding) => finding.id.includes('wallet'));
    expect(listed.map((finding) => [finding.id, finding.severity, finding.seen]).sort()).toEqual([
      ['rule:wallet.balance.chain-default:deployed', 'info', 'answered base'],
      ['rule:wallet.create.status:deployed', 'info', '201'],
      ['rule:wallet.style-a.served:deployed', 'info', 'not served'],
      ['rule:wallet.style-b.served:deployed', 'info', 'not served'],
      ['rule:wallet.swap.symbols:deployed', 'info', 'answered'],
      ['rule:wallet.swap.window:deployed', 'info', '30'],
    ]);
    for (const finding of listed) {
      expect(finding.endpoint, finding.id).toMatch(/^(GET|POST) \//);
      expect(finding.reproduce, finding.id).toMatch(/^curl /);
      expect(finding.evidence.length, finding.id).toBeGreaterThan(0);
    }
  });
});

describe('a wallet that answers a mnemonic no key can be derived from', () => {
  test('a major finding naming it, the probe skipped, never a crash (it was exit 1: an assertion)', async () => {
    const { target, wallet } = await served();
    // Every created wallet's mnemonic gets a word outside the BIP-39 list (the prober's server broke its checksum).
    const proxy = await rewritingProxy(wallet, (request, answer) => {
      if (!request.path.includes('/wallet/create')) return answer.text;
      const body = JSON.parse(answer.text) as { mnemonic: string };
      return JSON.stringify({ ...body, mnemonic: `${body.mnemonic} notaword` });
    });
    try {
      const proxied: Target = {
        ...target,
        services: { ...target.services, wallet: { url: proxy.url, dialect: 'deployed' } },
      };
      const { results, findings } = await walletProbed(proxied);
      const probe = results.find((result) => result.name === 'wallet-wrong-key');
      expect(probe?.status).toBe('skipped');
      expect(probe?.note).toMatch(/no valid BIP-39 mnemonic/);
      const found = findings.list().find((finding) => finding.id === 'shape:wallet.create:mnemonic:invalid');
      expect(found?.severity).toBe('major');
      expect(found?.title).toBe(
        "a created wallet's mnemonic (25 words) is no valid BIP-39 mnemonic: no key can be derived from it",
      );
      expect(found?.reproduce).toMatch(/^curl .*\/wallet\/create/);
      expect(JSON.stringify(found)).not.toMatch(/notaword/);
    } finally {
      await proxy.close();
    }
  });
});

describe('afp target probe and the deployed wallet', () => {
  test("every wallet marker is a row of the stand-in; the wallet's address is recognized as wallet, deployed, and the file loads", async () => {
    for (const marker of DEPLOYED_MARKERS.filter((candidate) => candidate.service === 'wallet')) {
      const row = DEPLOYED_ROUTES.find(
        (route) =>
          route.mount === 'wallet' &&
          route.method === marker.method &&
          route.path.replace(/:(\w+)/g, '{$1}') === marker.path,
      );
      expect(row, `${marker.method} ${marker.path}`).toBeDefined();
    }
    const { wallet } = await served();
    const out = join(scratch, 'wallet.yaml');
    let stdout = '';
    let stderr = '';
    const code = await targetMain(['probe', wallet, '--out', out], {
      out: (text) => (stdout += text),
      err: (text) => (stderr += text),
    });
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toContain('→ wallet deployed; dialect family deployed');
    const loaded = await loadTargetFile(out, { env: { AFP_KEYS: 'pk_live_a,pk_live_b' } });
    expect(loaded.ok, loaded.ok ? '' : loaded.message).toBe(true);
    if (loaded.ok) expect(loaded.value.services).toStrictEqual({ wallet: { url: wallet, dialect: 'deployed' } });
  });

  test("a wallet that answers 401 on every /v1 path it does not serve is still the wallet alone: its answers' _info.service names it", async () => {
    // A prober's wallet asked for a key on any /v1 path, so trading's and domains' markers held
    // there too, and the probe wrote all three services at the wallet's URL.
    const { wallet } = await served();
    const unauthorized = JSON.stringify({
      error: 'unauthorized',
      message: 'Missing or invalid Authorization header. Use: Bearer {api_key}',
      _info: { service: 'public-wallet', docs: 'https://wallet.purpleflea.com/llms.txt', version: '1.0.0' },
    });
    const proxy = await rewritingProxy(wallet, (request, answer) =>
      answer.status === 404 && request.path.startsWith('/v1/') ? { status: 401, text: unauthorized } : answer.text,
    );
    try {
      let stdout = '';
      const code = await targetMain(['probe', proxy.url, '--out', join(scratch, 'wallet-401.yaml')], {
        out: (text) => (stdout += text),
        err: (text) => (stdout += text),
      });
      expect(code, stdout).toBe(0);
      expect(stdout).toContain('→ wallet deployed; dialect family deployed');
      expect(stdout).not.toMatch(/→ .*(trading|domains)/);
      const loaded = await loadTargetFile(join(scratch, 'wallet-401.yaml'), { env: { AFP_KEYS: 'pk_live_a' } });
      expect(loaded.ok && loaded.value.services).toStrictEqual({ wallet: { url: proxy.url, dialect: 'deployed' } });
    } finally {
      await proxy.close();
    }
  });
});
