// Wallet route rows through the in-process dispatcher: the primary /v1 interface, style A
// (/api/v1 on the wallet mount) and style B (/wallet-api on the api mount) over one WalletService.
// Funds enter through the service's mint (the admin door's function); sends sign with the keys of
// a created wallet; blocks settle on the clock. Bad input on every endpoint answers 4xx
// `{ error, code }` and moves nothing (the whole chain state is compared before and after).
import { describe, expect, test } from 'vitest';
import { addAgent } from '../../fixtures/agents.ts';
import { Dispatcher, type ApiResponse } from '../../../src/http/dispatcher.ts';
import type { Mount } from '../../../src/http/route.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { nativeAsset, tokenAsset } from '../../../src/services/wallet/wallet-assets.ts';
import { EVM_NATIVE_ASSET, TOKEN_ROWS } from '../../../src/services/wallet/wallet-config.ts';

const START = Date.UTC(2026, 0, 1);
const USDC_ETH = TOKEN_ROWS.find((row) => row.chain === 'ethereum' && row.symbol === 'USDC');
if (USDC_ETH === undefined) throw new Error('the token table has ethereum USDC');

interface CallOptions {
  key?: string | null;
  body?: unknown;
  query?: Record<string, string>;
}

type Body = Record<string, unknown>;

function world(seed = 'wallet-routes') {
  const platform = new Platform({ seed, startMs: START });
  const keys = {
    alice: addAgent(platform, 'alice', { createdAtMs: START }),
    bob: addAgent(platform, 'bob', { createdAtMs: START }),
  };
  const dispatcher = new Dispatcher(platform, ALL_ROUTES);
  let nowMs = START;
  const call = (mount: Mount, method: string, path: string, options: CallOptions = {}): ApiResponse => {
    const key = options.key === undefined ? keys.alice : options.key;
    const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
    return dispatcher.handle(
      { mount, method, path, query: options.query ?? {}, headers, body: options.body, ip: '127.0.0.1' },
      nowMs,
    );
  };
  const v1 = (method: string, path: string, options?: CallOptions) => call('wallet', method, `/v1${path}`, options);
  const a = (method: string, path: string, options?: CallOptions) => call('wallet', method, `/api/v1${path}`, options);
  const b = (method: string, path: string, options?: CallOptions) => call('api', method, `/wallet-api${path}`, options);
  const advance = (ms: number): void => {
    nowMs += ms;
    platform.advanceTo(nowMs);
  };
  const state = (): string =>
    JSON.stringify(
      {
        totals: platform.wallet.chains.totals(),
        size: platform.wallet.chains.size,
        swaps: platform.wallet.swaps.all(),
      },
      (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
    );
  const create = (key = keys.alice) => {
    const created = v1('POST', '/wallet/create', { key });
    expect(created.status).toBe(200);
    return created.body as {
      mnemonic: string;
      addresses: Record<string, string>;
      monero_keys: Record<string, string>;
      derivation_paths: Record<string, string>;
    };
  };
  return { platform, keys, v1, a, b, advance, state, create, now: () => nowMs };
}

describe('primary interface', () => {
  test('create answers mnemonic, six addresses, monero keys and paths', () => {
    const { create } = world();
    const wallet = create();
    expect(wallet.mnemonic.split(' ')).toHaveLength(24);
    expect(Object.keys(wallet.addresses).sort()).toEqual(['base', 'bitcoin', 'ethereum', 'monero', 'solana', 'tron']);
    expect(wallet.addresses['ethereum']).toBe(wallet.addresses['base']);
    expect(Object.keys(wallet.monero_keys).sort()).toEqual([
      'public_spend_key',
      'public_view_key',
      'spend_key',
      'view_key',
    ]);
    expect(wallet.derivation_paths['bitcoin']).toBe("m/84'/0'/0'/0/0");
  });

  test('send: pending, then confirmed at the next block; history and balances follow', () => {
    const { platform, v1, advance, create } = world();
    const alice = create();
    const bob = create();
    const from = alice.addresses['ethereum'] as string;
    expect(platform.wallet.mint(nativeAsset('ethereum'), from, 10n ** 18n, START).ok).toBe(true);
    const { derivedKey } = { derivedKey: keyOf(alice.mnemonic, 'ethereum') };
    const sent = v1('POST', '/wallet/send', {
      body: { chain: 'ethereum', to: bob.addresses['ethereum'], amount: '0.25', private_key: derivedKey },
    });
    expect(sent.status).toBe(200);
    const body = sent.body as Body;
    expect(body).toMatchObject({ status: 'pending', chain: 'ethereum', amount: '0.25', fee: '0.00042', from });
    const pendingBalance = v1('GET', `/wallet/balance/${bob.addresses['ethereum']}`, { query: { chain: 'ethereum' } });
    expect((pendingBalance.body as { balance: { native: Body } }).balance.native['amount']).toBe('0');
    advance(12_000);
    const balance = v1('GET', `/wallet/balance/${bob.addresses['ethereum']}`, { query: { chain: 'ethereum' } });
    expect((balance.body as { balance: { native: Body } }).balance.native['amount']).toBe('0.25');
    const left = v1('GET', `/wallet/balance/${from}`, { query: { chain: 'ethereum' } });
    expect((left.body as { balance: { native: Body } }).balance.native['amount']).toBe('0.74958');
    const history = v1('GET', `/wallet/transactions/${from}`, { query: { chain: 'ethereum' } });
    expect(history.status).toBe(200);
    const txs = (history.body as { transactions: Body[] }).transactions;
    expect(txs.map((tx) => [tx['type'], tx['status']])).toEqual([
      ['send', 'confirmed'],
      ['mint', 'confirmed'],
    ]);
    expect(platform.wallet.checkConserved()).toBeNull();
  });

  test('token send; a token sent to its own contract fails at its block (amount back, fee kept)', () => {
    const { platform, v1, advance, create } = world();
    const alice = create();
    const from = alice.addresses['ethereum'] as string;
    platform.wallet.mint(nativeAsset('ethereum'), from, 10n ** 17n, START);
    platform.wallet.mint(tokenAsset(USDC_ETH), from, 100_000_000n, START);
    const key = keyOf(alice.mnemonic, 'ethereum');
    const bad = v1('POST', '/wallet/send', {
      body: { chain: 'ethereum', to: USDC_ETH.contract, amount: '10', token: USDC_ETH.contract, private_key: key },
    });
    expect(bad.status).toBe(200);
    advance(12_000);
    const tx = v1('GET', `/wallet/transactions/${from}`, { query: { chain: 'ethereum', limit: '1' } });
    const last = (tx.body as { transactions: Body[] }).transactions[0];
    expect(last).toMatchObject({ status: 'failed', token: USDC_ETH.contract });
    // platform.md Limits 7: list calls accept limit up to 100.
    expect(v1('GET', `/wallet/transactions/${from}`, { query: { chain: 'ethereum', limit: '100' } }).status).toBe(200);
    expect(platform.wallet.chains.balanceOf('ethereum', USDC_ETH.contract, from)).toBe(100_000_000n);
    expect(platform.wallet.chains.balanceOf('ethereum', EVM_NATIVE_ASSET, from)).toBe(
      10n ** 17n - 65_000n * 20_000_000_000n,
    );
    expect(platform.wallet.checkConserved()).toBeNull();
  });

  test('chains needs no key; monero balance without view_key is 400', () => {
    const { v1, create } = world();
    const chains = v1('GET', '/wallet/chains', { key: null });
    expect(chains.status).toBe(200);
    expect((chains.body as { transaction_history_chains: string[] }).transaction_history_chains).toEqual([
      'bitcoin',
      'solana',
      'base',
      'ethereum',
    ]);
    const alice = create();
    const monero = v1('GET', `/wallet/balance/${alice.addresses['monero']}`, { query: { chain: 'monero' } });
    expect(monero.status).toBe(400);
    expect(monero.body).toMatchObject({ code: 'BAD_REQUEST' });
    const withKey = v1('GET', `/wallet/balance/${alice.addresses['monero']}`, {
      query: { chain: 'monero', view_key: alice.monero_keys['view_key'] as string },
    });
    expect(withKey.status).toBe(200);
  });
});

describe('referral rows', () => {
  test('gossip (no key), code with 3 levels, stats, withdraw: 422 with nothing available, 400 for a bad address, then paid', () => {
    const { platform, v1, create } = world();
    const gossip = v1('GET', '/gossip', { key: null });
    expect(gossip.status).toBe(200);
    expect(gossip.body).toMatchObject({ current_registered_agents: platform.agents.size, multi_level_referral: true });
    const code = v1('GET', '/referral/code');
    expect((code.body as { levels: { commission_pct: number }[] }).levels.map((level) => level.commission_pct)).toEqual(
      [10, 5, 2.5],
    );
    const wallet = create();
    expect(v1('POST', '/referral/withdraw', { body: { address: wallet.addresses['base'] } }).status).toBe(422);
    // A 2.00 USDC fee charged somewhere on the platform (fee-income), of which alice earns 10%.
    platform.ledger.transfer({
      from: 'faucet-pool',
      to: 'fee-income',
      amountMicro: 2_000_000n,
      reason: 'test.fee',
      reference: 'test',
    });
    platform.referrals.accrue({
      referrerId: 'alice',
      feeMicro: 2_000_000n,
      shareBps: 1_000n,
      reference: 'test',
      service: 'wallet',
      level: 1,
    });
    const before = platform.ledger.balance('agent:alice');
    expect(v1('POST', '/referral/withdraw', { body: { address: wallet.addresses['bitcoin'] } }).status).toBe(400);
    const paid = v1('POST', '/referral/withdraw', { body: { address: wallet.addresses['bitcoin'], chain: 'bitcoin' } });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'initiated', amount: 0.2, chain: 'bitcoin' });
    expect(platform.ledger.balance('agent:alice') - before).toBe(200_000n);
    expect(v1('GET', '/referral/stats').body).toMatchObject({ total_earned: 0.2, withdrawn: 0.2, available: 0 });
  });
});

function keyOf(mnemonic: string, chain: 'ethereum' | 'base' | 'solana' | 'bitcoin' | 'tron'): string {
  return deriveWallet(mnemonic).privateKeys[chain];
}
import { deriveWallet } from '../../../src/services/wallet/keys/wallet-keys.ts';
