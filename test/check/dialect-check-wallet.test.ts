// `afp check --target` through the deployed wallet (src/check/dialect/wallet-commands.ts) against a
// real `afp serve --dialect deployed --clock manual` on loopback: the check's own wallet agent and
// wallets (w0 funded by the serve's POST /_afp/wallet/mint), the balance, send, wrong-key and
// quote-fee rows drawn and held with info findings only; a target file that cannot fund a wallet
// address leaves the send out with the reason and still runs the rest; a wallet that answers a
// chain more than the documents' six (DEPLOYED.md does not close the list) still has every row.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { main as checkEnding } from '../../src/cli/check.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { rewritingProxy } from '../fixtures/rewriting-proxy.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(checkEnding);

const START_MS = Date.parse('2025-01-01T00:00:00.000Z');
const WALLET_ROWS = ['walletBalance', 'walletSend', 'walletWrongKey', 'walletQuoteFee'];
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close({ forceAfterMs: 1_000 });
});

async function deployed(): Promise<Readonly<Record<string, string | undefined>>> {
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
  return handle.urls;
}

/** A target file (funded by the faucet, so no wallet address can be funded) of the serve's casino, faucet, escrow and wallet URLs. */
async function faucetFundedTarget(
  directory: string,
  name: string,
  urls: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  const file = join(directory, `${name}.yaml`);
  const services = (['casino', 'faucet', 'escrow', 'wallet'] as const).map(
    (service) => `  ${service}: { url: ${urls[service] as string}, dialect: deployed }`,
  );
  const lines = ['register: { service: casino }', 'funding: { method: faucet }', 'fairness: deployed', ''];
  await writeFile(file, [`name: ${name}`, 'services:', ...services, ...lines].join('\n'));
  return file;
}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main([...argv, '--quiet'], {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

describe('afp check through the deployed wallet', () => {
  test('every wallet row drawn and held on the stand-in (w0 funded by the mint); only info findings', async () => {
    const urls = await deployed();
    const { code, out, err } = await run([
      '--target',
      urls.casino as string,
      '--seed',
      '11',
      '--runs',
      '4',
      '--max-commands',
      '40',
      '--fail-on',
      'minor',
    ]);
    expect([code, err]).toEqual([0, '']);
    const commands = /^commands: (.*)$/m.exec(out)?.[1]?.split(', ') ?? [];
    expect(commands).toEqual(expect.arrayContaining(WALLET_ROWS));
    expect(out).not.toMatch(/^note: command wallet/m);
    expect(out).toMatch(/^findings: (\d+) \(0 critical, 0 major, 0 minor, \1 info\)$/m);
    expect(out).toMatch(/^ok: 4 runs held \(at most 40 commands each, \d+ sent\)$/m);
  });

  test('a target file that cannot fund a wallet address: the send left out with the reason, the other wallet rows run', async () => {
    const urls = await deployed();
    const directory = await mkdtemp(join(tmpdir(), 'afp-dialect-wallet-'));
    try {
      const file = await faucetFundedTarget(directory, 'deployed-faucet', urls);
      const { code, out } = await run(['--target', file, '--seed', '3', '--runs', '2', '--max-commands', '20']);
      expect(code).toBe(0);
      expect(out).toMatch(
        /^note: command walletSend left out of the sequences: the wallet's chains are real on deployed-faucet/m,
      );
      const commands = /^commands: (.*)$/m.exec(out)?.[1]?.split(', ') ?? [];
      expect(commands).toEqual(expect.arrayContaining(['walletBalance', 'walletWrongKey', 'walletQuoteFee']));
      expect(commands).not.toContain('walletSend');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('a created wallet that answers a seventh chain: every wallet row still drawn (an extra chain is ignored)', async () => {
    const urls = await deployed();
    // The wallet's create answers gain an address on a chain the documents do not list.
    const proxy = await rewritingProxy(urls.wallet as string, (request, answer) => {
      if (request.method !== 'POST' || !request.path.endsWith('/wallet/create') || answer.status !== 200)
        return answer.text;
      const body = JSON.parse(answer.text) as { addresses?: Record<string, string> };
      if (body.addresses !== undefined) body.addresses['avalanche'] = '0x00000000000000000000000000000000000000aa';
      return JSON.stringify(body);
    });
    const directory = await mkdtemp(join(tmpdir(), 'afp-dialect-wallet-'));
    try {
      const file = await faucetFundedTarget(directory, 'seven-chains', { ...urls, wallet: proxy.url });
      const { code, out } = await run(['--target', file, '--seed', '3', '--runs', '2', '--max-commands', '20']);
      expect(code, out).toBe(0);
      expect(out).not.toMatch(/^note: command wallet(Balance|WrongKey|QuoteFee) left out/m);
      const commands = /^commands: (.*)$/m.exec(out)?.[1]?.split(', ') ?? [];
      expect(commands).toEqual(expect.arrayContaining(['walletBalance', 'walletWrongKey', 'walletQuoteFee']));
    } finally {
      await proxy.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
