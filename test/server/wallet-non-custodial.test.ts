/**
 * The wallet is non-custodial at rest: wallets are created and sent from (an ethereum send signed
 * with a private key, a monero send with view and spend keys) through afp serve's logged
 * dispatcher, funded through the 'wallet-mint' admin command, and settled on the clock. Then the
 * command log file (`afp serve --data`), and a replay record (`afp run --record`) of the same
 * traffic, are scanned for the mnemonics and every private key: none is found. The log still
 * replays to the same chain state (a send's keys are logged as its verified sender), and a
 * redacted key sent by a live caller is refused (400), nothing moves.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ApiRequest, ApiResponse } from '../../src/http/dispatcher.ts';
import type { HttpMethod } from '../../src/http/route.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { createRecorder } from '../../src/replay/recorder.ts';
import { applyClockMove, applyWalletMint } from '../../src/server/admin.ts';
import type { CommandLog, LogSettings } from '../../src/server/command-log.ts';
import { deriveWallet } from '../../src/services/wallet/keys/wallet-keys.ts';
import { SEED, START_MS } from '../client/fixtures.ts';
import { LOG_SETTINGS, openedLog, recoveredLog } from '../fixtures/command-logs.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-wallet-custody-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const SETTINGS: LogSettings = LOG_SETTINGS;

const opened = (file: string): Promise<CommandLog> => openedLog(file, SETTINGS);

const recovered = recoveredLog;

function chainState(platform: Platform): string {
  const wallet = platform.wallet;
  return JSON.stringify(
    { totals: wallet.chains.totals(), size: wallet.chains.size, created: wallet.walletsCreated },
    (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value),
  );
}

/** A file's bytes as latin1 text (every byte one character); null when it does not exist (a WAL after its checkpoint). */
function readIfThere(path: string): string | null {
  try {
    return readFileSync(path).toString('latin1');
  } catch {
    return null;
  }
}

function bobsMoneroKeys(derived: ReturnType<typeof deriveWallet>): { view_key: string; spend_key: string } {
  return { view_key: derived.monero.viewKey, spend_key: derived.monero.spendKey };
}

interface Exchange {
  request: ApiRequest;
  response: ApiResponse;
  atMs: number;
}

describe('non-custodial at rest', () => {
  test('the command log and a replay record hold no mnemonic and no private key; the log replays the sends', async () => {
    const file = join(DIR, 'wallet.db');
    const log = await opened(file);
    const served = recovered(log);
    let nowMs = START_MS;
    const exchanges: Exchange[] = [];
    const send = (request: Partial<ApiRequest> & { path: string }, key?: string): ApiResponse => {
      const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
      const full: ApiRequest = { mount: 'wallet', method: 'POST', query: {}, headers, ip: '10.0.0.1', ...request };
      const response = served.dispatcher.handle(full, nowMs);
      exchanges.push({ request: full, response, atMs: nowMs });
      return response;
    };
    const mint = (chain: string, address: string, amount: string): void => {
      log.appendAdmin({ kind: 'wallet-mint', chain, address, amount, token: null, atMs: nowMs });
      expect(applyWalletMint(served.platform, { chain, address, amount, token: null }, nowMs).ok).toBe(true);
    };
    const key = (send({ path: '/v1/auth/register', body: {} }).body as { api_key: string }).api_key;
    const created = [1, 2].map(
      () => send({ path: '/v1/wallet/create' }, key).body as { mnemonic: string; addresses: Record<string, string> },
    );
    const [alice, bob] = created.map((body) => ({ body, derived: deriveWallet(body.mnemonic) }));
    if (alice === undefined || bob === undefined) throw new Error('two wallets');
    mint('ethereum', alice.body.addresses['ethereum'] as string, '1');
    mint('monero', alice.body.addresses['monero'] as string, '3');
    const sentEth = send(
      {
        path: '/v1/wallet/send',
        body: {
          chain: 'ethereum',
          to: bob.body.addresses['ethereum'],
          amount: '0.5',
          private_key: alice.derived.privateKeys.ethereum,
        },
      },
      key,
    );
    expect(sentEth.status).toBe(200);
    const moneroBody = {
      chain: 'monero',
      from: alice.body.addresses['monero'],
      to: bob.body.addresses['monero'],
      amount: '1.25',
      view_key: alice.derived.monero.viewKey,
      spend_key: alice.derived.monero.spendKey,
    };
    expect(send({ path: '/v1/wallet/send', body: moneroBody }, key).status).toBe(200);
    // A live caller cannot pass the log's marker off as a key.
    const before = chainState(served.platform);
    const forged = send(
      {
        path: '/v1/wallet/send',
        body: {
          chain: 'ethereum',
          to: bob.body.addresses['ethereum'],
          amount: '0.1',
          private_key: `redacted:${alice.body.addresses['ethereum'] as string}`,
        },
      },
      key,
    );
    expect(forged.status).toBe(400);
    expect(chainState(served.platform)).toBe(before);
    // Bob's keys naming Alice's monero address: refused (403), and refused again when the log is
    // replayed (its log names the address the keys control; it used to name the claim, and the replay sent).
    const stolen = send({ path: '/v1/wallet/send', body: { ...moneroBody, ...bobsMoneroKeys(bob.derived) } }, key);
    expect(stolen.status).toBe(403);
    expect(chainState(served.platform)).toBe(before);
    log.appendAdmin({ kind: 'clock', fromMs: nowMs, toMs: nowMs + 600_000 });
    nowMs += 600_000;
    applyClockMove(served.platform, nowMs);
    expect(served.platform.wallet.chains.balanceOf('monero', 'native', bob.body.addresses['monero'] as string)).toBe(
      1_250_000_000_000n,
    );
    expect(served.platform.wallet.checkConserved()).toBeNull();
    const liveState = chainState(served.platform);
    expect(log.commit()).toMatchObject({ ok: true });
    log.close();

    const recordFile = join(DIR, 'wallet.afp-record');
    const recorder = createRecorder({ scenario: 'wallet-custody', seed: SEED, startMs: START_MS });
    for (const exchange of exchanges) {
      recorder.onExchange({
        atMs: exchange.atMs,
        request: {
          mount: exchange.request.mount,
          method: exchange.request.method as HttpMethod,
          path: exchange.request.path,
          query: exchange.request.query,
          headers: {},
          body: exchange.request.body,
        },
        response: { status: exchange.response.status, headers: {}, body: exchange.response.body },
      });
    }
    await recorder.finish(recordFile);

    const secrets = [alice, bob].flatMap(({ derived }) => [
      derived.mnemonic,
      derived.privateKeys.ethereum,
      derived.privateKeys.ethereum.slice(2),
      derived.privateKeys.solana,
      derived.privateKeys.bitcoin,
      derived.privateKeys.tron,
      derived.monero.spendKey,
      derived.monero.viewKey,
    ]);
    for (const path of [file, `${file}-wal`, recordFile]) {
      const text = readIfThere(path);
      if (text === null) continue;
      for (const secret of secrets) expect(text.includes(secret), `${path} holds a secret`).toBe(false);
      // The first words of a mnemonic, as a phrase, are not there either.
      for (const { derived } of [alice, bob])
        expect(text.includes(derived.mnemonic.split(' ').slice(0, 4).join(' '))).toBe(false);
    }
    // The addresses are public and stay: the record is still a record of the sends.
    expect(readFileSync(recordFile, 'utf8')).toContain(alice.body.addresses['ethereum'] as string);

    const reopened = await opened(file);
    const replayed = recovered(reopened);
    expect(replayed.stats.internalErrors).toBe(0);
    expect(chainState(replayed.platform)).toBe(liveState);
    reopened.close();
  });
});
