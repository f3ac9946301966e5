// The wallet replayed through the deployed dialect (issue 21): a small documents-style wallet run
// (register, create, balance, send, swap quote, swap; funds minted outside HTTP as the harness does) is
// recorded in-process and replayed by `afp replay FILE --target TARGET_FILE` against a real
// `afp serve --dialect deployed` on loopback. The recorded agent registers on the target's wallet
// (its own `pk_live_` key, bound to the recorded one), its created wallet is bound address by
// address, the first recorded balance is minted at the live address (POST /_afp/wallet/mint), and
// the send (its key redacted in the record) is re-signed with the live wallet's key: accepted,
// with no false difference. A send from an address no recorded balance funded is not replayed,
// with why. No mnemonic or key of either side is in any output file.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AfpClient } from '../../src/client/client.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import { main as replayEnding } from '../../src/cli/replay.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import { curlOf } from '../../src/live/curl.ts';
import { secretFreeCurl } from '../../src/replay/replay-exchange-parts.ts';
import { createRecorder } from '../../src/replay/recorder.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { shortfall } from '../../src/replay/wallet-replay.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { deployedTargetText } from '../fixtures/deployed-target.ts';
import { deriveWallet } from '../../src/services/wallet/keys/wallet-keys.ts';
import { nativeAsset } from '../../src/services/wallet/wallet-assets.ts';
import { EVM_NATIVE_ASSET } from '../../src/services/wallet/wallet-config.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(replayEnding);

const START_MS = Date.parse('2026-02-01T00:00:00.000Z');
const SOLANA_NATIVE = 'So11111111111111111111111111111111111111112';

interface Finding {
  readonly id: string;
  readonly severity: string;
  readonly title: string;
  readonly expected: unknown;
  readonly seen: unknown;
  readonly evidence: string;
}

let directory: string;
let recordPath: string;
/** Secrets of the recorded run's wallets (the record holds none of them). */
let recordedSecrets: string[] = [];

/** alice and bob register on the wallet and create wallets; alice is minted 1 ETH and 1 ETH on base outside HTTP, reads her balance, sends to bob twice, asks a quote and swaps to bob; bob reads what he received. */
async function recordRun(): Promise<void> {
  const clock = new VirtualClock(START_MS);
  const platform = new Platform({ seed: 'wallet-deployed', startMs: START_MS });
  const inner = inProcessTransport({
    dispatcher: new Dispatcher(platform, ALL_ROUTES),
    clock,
    checkJsonRoundTrip: true,
  });
  const recorder = createRecorder({ scenario: 'wallet-deployed', seed: 'wallet-deployed', startMs: START_MS });
  const as = (agentId: string, ip: string): AfpClient =>
    new AfpClient(
      async (request) => {
        const response = await inner(request);
        recorder.onExchange({ atMs: clock.nowMs(), agentId, request, response });
        return response;
      },
      { ip },
    );
  const open = async (agentId: string, ip: string): Promise<{ client: AfpClient; mnemonic: string }> => {
    const registered = await as(agentId, ip).raw({
      mount: 'wallet',
      method: 'POST',
      path: '/v1/auth/register',
      body: {},
    });
    const client = as(agentId, ip).withKey((registered.body as { api_key: string }).api_key);
    const created = await client.raw({ mount: 'wallet', method: 'POST', path: '/v1/wallet/create' });
    return { client, mnemonic: (created.body as { mnemonic: string }).mnemonic };
  };
  const alice = await open('alice', '10.0.0.1');
  const bob = await open('bob', '10.0.0.2');
  const mine = deriveWallet(alice.mnemonic);
  const theirs = deriveWallet(bob.mnemonic);
  recordedSecrets = [mine, theirs].flatMap((wallet) => [
    wallet.mnemonic,
    ...Object.values(wallet.privateKeys),
    wallet.monero.spendKey,
    wallet.monero.viewKey,
  ]);
  platform.wallet.mint(nativeAsset('ethereum'), mine.addresses.ethereum, 10n ** 18n, clock.nowMs());
  platform.wallet.mint(nativeAsset('base'), mine.addresses.ethereum, 10n ** 18n, clock.nowMs());
  clock.set(START_MS + 60_000);
  const eth = mine.addresses.ethereum;
  await alice.client.raw({
    mount: 'wallet',
    method: 'GET',
    path: `/v1/wallet/balance/${eth}`,
    query: { chain: 'ethereum' },
  });
  const sends = [
    await alice.client.raw({
      mount: 'wallet',
      method: 'POST',
      path: '/v1/wallet/send',
      body: {
        chain: 'ethereum',
        to: theirs.addresses.ethereum,
        amount: '0.25',
        private_key: mine.privateKeys.ethereum,
      },
    }),
    await alice.client.raw({
      mount: 'wallet',
      method: 'POST',
      path: '/v1/wallet/send',
      body: { chain: 'base', to: theirs.addresses.ethereum, amount: '0.5', private_key: mine.privateKeys.ethereum },
    }),
  ];
  if (sends.some((answer) => answer.status !== 200))
    throw new Error(`fixture: a recorded send was refused: ${JSON.stringify(sends.map((answer) => answer.body))}`);
  clock.set(START_MS + 10 * 60_000);
  await alice.client.raw({
    mount: 'wallet',
    method: 'GET',
    path: `/v1/wallet/balance/${eth}`,
    query: { chain: 'ethereum' },
  });
  // bob's first balance shows what alice sent him: on the target the replayed send brought it, so nothing is minted.
  await bob.client.raw({
    mount: 'wallet',
    method: 'GET',
    path: `/v1/wallet/balance/${theirs.addresses.ethereum}`,
    query: { chain: 'ethereum' },
  });
  await alice.client.raw({
    mount: 'wallet',
    method: 'GET',
    path: '/v1/wallet/swap/quote',
    query: {
      from_chain: 'ethereum',
      to_chain: 'solana',
      from_token: EVM_NATIVE_ASSET,
      to_token: SOLANA_NATIVE,
      amount: '0.05',
    },
  });
  const swap = await alice.client.raw({
    mount: 'wallet',
    method: 'POST',
    path: '/v1/wallet/swap',
    body: {
      from_chain: 'ethereum',
      to_chain: 'solana',
      from_token: EVM_NATIVE_ASSET,
      to_token: SOLANA_NATIVE,
      amount: '0.05',
      to_address: theirs.addresses.solana,
    },
  });
  if (swap.status !== 200 && swap.status !== 201)
    throw new Error(`fixture: the recorded swap was refused: ${JSON.stringify(swap.body)}`);
  await recorder.finish(recordPath);
}

/** targets/deployed.yaml on this serve's ports, no pacing limits (the serve's windows answer), its admin door named. */
async function targetFile(handle: ServeHandle): Promise<string> {
  const urls = handle.urls;
  let text = deployedTargetText(urls);
  text = text
    .replace(/^limits:\n(?: {2}.*\n)+/m, 'limits: {}\n')
    .replace('funding: { method: faucet }', `funding: { method: admin-deposit }\nadmin_url: ${urls.casino as string}`);
  const file = join(directory, 'deployed.yaml');
  await writeFile(file, text);
  return file;
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-replay-wallet-deployed-'));
  recordPath = join(directory, 'wallet.jsonl');
  await recordRun();
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('the wallet replayed through the deployed dialect', () => {
  test('register, create, balance, re-signed send, quote and swap replay with no false difference; no key in any output', async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: DEPLOYED_ROUTES,
      layout: DEPLOYED_LAYOUT,
      seed: '7',
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      log: () => undefined,
    });
    const out = join(directory, 'out');
    const chunks: string[] = [];
    let code: number;
    try {
      const file = await targetFile(handle);
      code = await main([recordPath, '--target', file, '--speed', 'max', '--out', out], {
        out: (text) => chunks.push(text),
        err: (text) => chunks.push(text),
      });
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
    const output = chunks.join('');
    const report = JSON.parse(await readFile(join(out, 'findings.json'), 'utf8')) as { findings: readonly Finding[] };
    const describe = (finding: Finding): string =>
      `${finding.severity} ${finding.id}: ${finding.title} — expected ${JSON.stringify(finding.expected)}, seen ${JSON.stringify(finding.seen)}; ${finding.evidence}`;
    expect(report.findings.filter((finding) => finding.severity !== 'info').map(describe)).toEqual([]);
    expect(code, output).toBe(0);
    const sent = /^operations: .*$/m.exec(output)?.[0] ?? '';
    for (const op of [
      'wallet.register 2',
      'wallet.create 2',
      'wallet.balance 3',
      'wallet.send 1',
      'wallet.quote 1',
      'wallet.swap 1',
    ])
      expect(sent).toContain(op);
    const ids = report.findings.map((finding) => finding.id);
    // The base send: its address was never shown funded in the record, so it is not replayed, with why.
    expect(ids).toContain('replay:skipped:unfunded:wallet.send');
    expect(report.findings.find((finding) => finding.id === 'replay:skipped:unfunded:wallet.send')?.title).toMatch(
      /no funding of .* on base/,
    );
    // Nothing the replay wrote holds a recorded secret or a live one (the live keys derive from mnemonics only the replay's memory held).
    const written = await Promise.all((await readdir(out)).map((name) => readFile(join(out, name), 'latin1')));
    for (const text of [...written, output]) {
      for (const secret of recordedSecrets) expect(text.includes(secret)).toBe(false);
      expect(text).not.toMatch(/private_key[^,}]{0,6}0x[0-9a-fA-F]{64}/);
      expect(text).not.toMatch(/\b(?:[a-z]{3,8} ){11}[a-z]{3,8}\b/);
    }
  });
});

describe('shortfall: what a live address lacks of a recorded balance', () => {
  test('decimal amounts of any scale, never negative, null for no plain decimal', () => {
    expect(shortfall('1', '0')).toBe('1');
    expect(shortfall('0.74958', '0.5')).toBe('0.24958');
    expect(shortfall('0.25', '0.25')).toBe('0');
    expect(shortfall('0.25', '1.000000000000000001')).toBe('0');
    expect(shortfall('2.000000000000000001', '1')).toBe('1.000000000000000001');
    expect(shortfall('1e3', '0')).toBeNull();
    expect(shortfall('1', '-1')).toBeNull();
  });
});

describe('secretFreeCurl: the reproduce line of a re-signed send', () => {
  test('shows the key redacted, the rest of the body as sent', () => {
    const key = `0x${'ab'.repeat(32)}`;
    const line = secretFreeCurl(curlOf)({
      method: 'POST',
      url: 'http://127.0.0.1:1/v1/wallet/send',
      auth: true,
      body: { chain: 'ethereum', to: '0x1', amount: '0.25', private_key: key },
    });
    expect(line).not.toContain(key);
    expect(line).toContain('"amount":"0.25"');
    expect(line).toMatch(/"private_key":"redacted/);
  });
});
