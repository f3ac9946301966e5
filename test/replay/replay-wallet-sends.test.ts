// Replay of recorded wallet sends. The record keeps no key (private_key, view_key, spend_key and
// the mnemonic are `redacted`), so before replay re-signed them a recorded send answered 400 on a
// fresh target. Now the wallets replay creates on the target are learnt in memory only and each
// send is signed with its live sender's key: against a fresh `afp serve` (same seed) the sends
// (primary ethereum, monero with view and spend keys, style B USDC on polygon to an agent id) are
// accepted and every exchange matches; against another seed (in-process, funded the target's
// way after each create) the addresses and hashes differ, bindings hold, zero differences. The
// record, the diff and its report hold no mnemonic and no key of either side. Sends and a balance
// refused for their keys (403: another's key; 400: a malformed one) are refused again on replay.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AfpClient } from '../../src/client/client.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import type { Transport } from '../../src/client/transport.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { main as replayEnding } from '../../src/cli/replay.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { Platform } from '../../src/platform/platform.ts';
import { parseExchangeLine } from '../../src/replay/record-reader.ts';
import type { RecordedExchange } from '../../src/replay/record-format.ts';
import { createRecorder } from '../../src/replay/recorder.ts';
import { runReplay } from '../../src/replay/replay-run.ts';
import { ReferenceIndex, ReplaySession } from '../../src/replay/replay-session.ts';
import { startServe } from '../../src/server/listeners.ts';
import { deriveWallet, type DerivedWallet } from '../../src/services/wallet/keys/wallet-keys.ts';
import { nativeAsset, tokenAsset } from '../../src/services/wallet/wallet-assets.ts';
import { TOKEN_ROWS } from '../../src/services/wallet/wallet-config.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(replayEnding);

const START_MS = Date.parse('2026-02-01T00:00:00.000Z');
const USDC_POLYGON = TOKEN_ROWS.find((row) => row.chain === 'polygon' && row.symbol === 'USDC');
if (USDC_POLYGON === undefined) throw new Error('polygon USDC');

let directory: string;
let recordPath: string;
/** The recorded run's wallets (known to the test only: the record holds none of their secrets). */
let recordedWallets: DerivedWallet[] = [];

/** What each created wallet is given on its chains (mints are the admin door's, never recorded). */
function fund(platform: Platform, addresses: Readonly<Record<string, string>>, atMs: number): void {
  platform.wallet.mint(nativeAsset('ethereum'), addresses['ethereum'] as string, 10n ** 18n, atMs);
  platform.wallet.mint(nativeAsset('monero'), addresses['monero'] as string, 5n * 10n ** 12n, atMs);
  platform.wallet.mint(nativeAsset('polygon'), addresses['ethereum'] as string, 10n ** 18n, atMs);
  platform.wallet.mint(
    tokenAsset(USDC_POLYGON as NonNullable<typeof USDC_POLYGON>),
    addresses['ethereum'] as string,
    100_000_000n,
    atMs,
  );
}

/** Two agents create wallets (funded on creation), then send: ethereum, monero, B USDC on polygon; then read back. */
async function recordWalletRun(seed: string): Promise<DerivedWallet[]> {
  const clock = new VirtualClock(START_MS);
  const platform = new Platform({ seed, startMs: START_MS });
  const inner = inProcessTransport({
    dispatcher: new Dispatcher(platform, ALL_ROUTES),
    clock,
    checkJsonRoundTrip: true,
  });
  const recorder = createRecorder({ scenario: 'wallet-sends', seed, startMs: START_MS });
  const as = (agentId: string, ip: string): AfpClient =>
    new AfpClient(
      async (request) => {
        const response = await inner(request);
        recorder.onExchange({ atMs: clock.nowMs(), agentId, request, response });
        return response;
      },
      { ip },
    );
  const register = async (agentId: string, ip: string): Promise<{ client: AfpClient; id: string }> => {
    const answer = await as(agentId, ip).raw({ mount: 'wallet', method: 'POST', path: '/v1/auth/register', body: {} });
    const body = answer.body as { api_key: string; agent_id: string };
    return { client: as(agentId, ip).withKey(body.api_key), id: body.agent_id };
  };
  const { client: alice } = await register('alice', '10.0.0.1');
  const { client: bob, id: bobId } = await register('bob', '10.0.0.2');
  const wallets: DerivedWallet[] = [];
  for (const client of [alice, bob]) {
    const created = await client.raw({ mount: 'wallet', method: 'POST', path: '/v1/wallet/create' });
    const wallet = deriveWallet((created.body as { mnemonic: string }).mnemonic);
    fund(platform, wallet.addresses, clock.nowMs());
    wallets.push(wallet);
  }
  const [mine, theirs] = wallets as [DerivedWallet, DerivedWallet];
  clock.set(START_MS + 60_000);
  const sends = [
    await alice.raw({
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
    await alice.raw({
      mount: 'wallet',
      method: 'POST',
      path: '/v1/wallet/send',
      body: {
        chain: 'monero',
        from: mine.addresses.monero,
        to: theirs.addresses.monero,
        amount: '1.5',
        view_key: mine.monero.viewKey,
        spend_key: mine.monero.spendKey,
      },
    }),
    await alice.raw({
      mount: 'api',
      method: 'POST',
      path: '/wallet-api/send',
      body: { to: bobId, amount: 12.5, chain: 'polygon', private_key: mine.privateKeys.ethereum },
    }),
  ];
  if (sends.some((answer) => answer.status !== 200))
    throw new Error(`fixture: a recorded send was refused: ${JSON.stringify(sends.map((answer) => answer.body))}`);
  // Refused for their keys: another's well-formed key (403, on ethereum, monero and a monero
  // balance) and a malformed one (400). Replay must draw the same refusals: the marker `redacted`
  // alone drew 400 for the 403s, and the balance got the live view key (200).
  const refused = [
    await alice.raw({
      mount: 'wallet',
      method: 'POST',
      path: '/v1/wallet/send',
      body: {
        chain: 'ethereum',
        from: mine.addresses.ethereum,
        to: theirs.addresses.ethereum,
        amount: '0.01',
        private_key: theirs.privateKeys.ethereum,
      },
    }),
    await alice.raw({
      mount: 'wallet',
      method: 'POST',
      path: '/v1/wallet/send',
      body: {
        chain: 'monero',
        from: mine.addresses.monero,
        to: theirs.addresses.monero,
        amount: '0.1',
        view_key: theirs.monero.viewKey,
        spend_key: theirs.monero.spendKey,
      },
    }),
    await alice.raw({
      mount: 'wallet',
      method: 'GET',
      path: `/v1/wallet/balance/${mine.addresses.monero}`,
      query: { chain: 'monero', view_key: theirs.monero.viewKey },
    }),
    await alice.raw({
      mount: 'wallet',
      method: 'POST',
      path: '/v1/wallet/send',
      body: { chain: 'ethereum', to: theirs.addresses.ethereum, amount: '0.01', private_key: '0x12' },
    }),
  ];
  if (refused.map((answer) => answer.status).join() !== '403,403,403,400')
    throw new Error(`fixture: the refused sends answered ${JSON.stringify(refused.map((answer) => answer.body))}`);
  clock.set(START_MS + 10 * 60_000);
  await bob.raw({ mount: 'api', method: 'GET', path: '/wallet-api/balance' });
  await bob.raw({
    mount: 'wallet',
    method: 'GET',
    path: `/v1/wallet/transactions/${theirs.addresses.ethereum}`,
    query: { chain: 'ethereum' },
  });
  await alice.raw({
    mount: 'api',
    method: 'GET',
    path: `/wallet-api/tx/${(sends[2]?.body as { tx_hash: string } | undefined)?.tx_hash ?? 'missing'}`,
  });
  await bob.raw({
    mount: 'wallet',
    method: 'GET',
    path: `/v1/wallet/balance/${theirs.addresses.monero}`,
    query: { chain: 'monero', view_key: theirs.monero.viewKey },
  });
  await recorder.finish(recordPath);
  return wallets;
}

/** Every mnemonic, private key and monero key of `wallets`. */
function secretsOf(wallets: readonly DerivedWallet[]): string[] {
  return wallets.flatMap((wallet) => [
    wallet.mnemonic,
    wallet.mnemonic.split(' ').slice(0, 4).join(' '),
    ...Object.values(wallet.privateKeys),
    wallet.privateKeys.ethereum.slice(2),
    wallet.monero.spendKey,
    wallet.monero.viewKey,
  ]);
}

async function readExchanges(path: string): Promise<RecordedExchange[]> {
  const lines = (await readFile(path, 'utf8')).split('\n');
  const exchanges: RecordedExchange[] = [];
  let previousAtMs = START_MS;
  for (const [index, line] of lines.entries()) {
    if (index === 0 || line === '') continue;
    const parsed = parseExchangeLine(line, { lineNumber: index + 1, expectedSeq: exchanges.length + 1, previousAtMs });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    previousAtMs = parsed.value.at_ms;
    exchanges.push(parsed.value);
  }
  return exchanges;
}

async function filesUnder(path: string): Promise<string[]> {
  const names = await readdir(path);
  return Promise.all(names.map((name) => readFile(join(path, name), 'latin1')));
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'afp-replay-wallet-'));
  recordPath = join(directory, 'wallet.jsonl');
  recordedWallets = await recordWalletRun('wallet-replay');
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('replay of recorded wallet sends', () => {
  test('the record holds no key: its sends carry `redacted`', async () => {
    const text = await readFile(recordPath, 'latin1');
    for (const secret of secretsOf(recordedWallets)) expect(text.includes(secret)).toBe(false);
    expect(text).toContain('"private_key":"redacted"');
    expect(text).toContain('"view_key":"redacted"');
  });

  test("against a fresh afp serve: the sends are re-signed with the target's keys, accepted, and every exchange matches", async () => {
    const handle = await startServe({
      trustedProxies: LOOPBACK_PROXIES,
      routes: ALL_ROUTES,
      seed: 'wallet-replay',
      port: 0,
      clockMode: 'manual',
      startMs: START_MS,
      defects: [],
      log: () => undefined,
    });
    // Same seed: the target creates the recorded wallets again; they are funded the target's way
    // (its admin mint) before the replay starts.
    for (const wallet of recordedWallets) fund(handle.platform, wallet.addresses, START_MS);
    const out = join(directory, 'same-seed');
    const chunks: string[] = [];
    let code: number;
    try {
      code = await main([recordPath, '--target', handle.urls.api as string, '--speed', 'max', '--out', out], {
        out: (text) => chunks.push(text),
        err: (text) => chunks.push(text),
      });
      const [mine, theirs] = recordedWallets as [DerivedWallet, DerivedWallet];
      // The sends moved money on the target: bob holds what alice sent, on three chains.
      expect(
        handle.platform.wallet.chains.balanceOf('ethereum', nativeAsset('ethereum').address, theirs.addresses.ethereum),
      ).toBe(10n ** 18n + 25n * 10n ** 16n);
      expect(handle.platform.wallet.chains.balanceOf('monero', 'native', theirs.addresses.monero)).toBe(
        5n * 10n ** 12n + 15n * 10n ** 11n,
      );
      expect(handle.platform.wallet.chains.balanceOf('polygon', USDC_POLYGON.contract, theirs.addresses.ethereum)).toBe(
        112_500_000n,
      );
      expect(handle.platform.wallet.chains.balanceOf('polygon', USDC_POLYGON.contract, mine.addresses.ethereum)).toBe(
        87_500_000n,
      );
    } finally {
      await handle.close({ forceAfterMs: 100 });
    }
    const diff = JSON.parse(await readFile(join(out, 'diff.json'), 'utf8')) as {
      differences_total: number;
      sent: number;
    };
    expect(code, chunks.join('')).toBe(0);
    expect(diff.differences_total).toBe(0);
    expect(diff.sent).toBe(15);
    for (const text of await filesUnder(out))
      for (const secret of secretsOf(recordedWallets)) expect(text.includes(secret)).toBe(false);
  });

  test('against another seed (in-process): other addresses and hashes, bindings hold, zero differences; the diff holds no key', async () => {
    const clock = new VirtualClock(START_MS);
    const platform = new Platform({ seed: 'another-seed', startMs: START_MS });
    const inner = inProcessTransport({
      dispatcher: new Dispatcher(platform, ALL_ROUTES),
      clock,
      checkJsonRoundTrip: true,
    });
    const liveMnemonics: string[] = [];
    const send: Transport = async (request) => {
      const answer = await inner(request);
      const mnemonic = (answer.body as { mnemonic?: unknown } | null)?.mnemonic;
      if (request.path === '/v1/wallet/create' && typeof mnemonic === 'string') {
        liveMnemonics.push(mnemonic);
        fund(platform, deriveWallet(mnemonic).addresses, clock.nowMs());
      }
      return answer;
    };
    const exchanges = await readExchanges(recordPath);
    const references = new ReferenceIndex();
    for (const exchange of exchanges) references.add(exchange);
    const session = new ReplaySession({ references, exactTime: true });
    const stop = await runReplay(exchanges, session, {
      beforeSend: (exchange) => Promise.resolve(clock.set(exchange.at_ms)),
      send,
    });
    expect(stop).toBeNull();
    const totals = session.totals();
    expect(totals.sent).toBe(15);
    expect(totals.differences, JSON.stringify(totals.differences)).toEqual([]);
    const live = liveMnemonics.map((mnemonic) => deriveWallet(mnemonic));
    expect(live.map((wallet) => wallet.addresses.ethereum)).not.toEqual(
      recordedWallets.map((wallet) => wallet.addresses.ethereum),
    );
    const [, theirs] = live as [DerivedWallet, DerivedWallet];
    expect(platform.wallet.chains.balanceOf('polygon', USDC_POLYGON.contract, theirs.addresses.ethereum)).toBe(
      112_500_000n,
    );
    const output = JSON.stringify(totals);
    for (const secret of secretsOf([...live, ...recordedWallets])) expect(output.includes(secret)).toBe(false);
  });
});
