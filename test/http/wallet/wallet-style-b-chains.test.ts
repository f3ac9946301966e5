// Style B's four EVM chains (wallet.md: ethereum, polygon, arbitrum, base) are all simulated:
// polygon (native POL, 2 s blocks) and arbitrum (native ETH, 0.25 s blocks) hold USDC by its real
// contract, answer balances, take sends that settle at their own pace with fees in their native
// coin, and share the agent's one EVM address. The /v1 interface and style A keep wallet.md's six
// chains: polygon and arbitrum are 400 there.
import { describe, expect, test } from 'vitest';
import { addAgent } from '../../fixtures/agents.ts';
import { Dispatcher, type ApiResponse } from '../../../src/http/dispatcher.ts';
import type { Mount } from '../../../src/http/route.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { deriveWallet } from '../../../src/services/wallet/keys/wallet-keys.ts';
import { nativeAsset, tokenAsset } from '../../../src/services/wallet/wallet-assets.ts';
import { TOKEN_ROWS, type TokenRow } from '../../../src/services/wallet/wallet-config.ts';

const START = Date.UTC(2026, 0, 1);
type Body = Record<string, unknown>;

function usdcRow(chain: string): TokenRow {
  const row = TOKEN_ROWS.find((one) => one.chain === chain && one.symbol === 'USDC');
  if (row === undefined) throw new Error(`USDC on ${chain}`);
  return row;
}

function world() {
  const platform = new Platform({ seed: 'wallet-b-chains', startMs: START });
  const keys = {
    alice: addAgent(platform, 'alice', { createdAtMs: START }),
    bob: addAgent(platform, 'bob', { createdAtMs: START }),
  };
  const dispatcher = new Dispatcher(platform, ALL_ROUTES);
  let nowMs = START;
  const call = (
    mount: Mount,
    method: string,
    path: string,
    options: { key?: string; body?: unknown; query?: Record<string, string> } = {},
  ): ApiResponse =>
    dispatcher.handle(
      {
        mount,
        method,
        path,
        query: options.query ?? {},
        headers: { authorization: `Bearer ${options.key ?? keys.alice}` },
        body: options.body,
        ip: '127.0.0.1',
      },
      nowMs,
    );
  const create = (key: string) => {
    const created = call('wallet', 'POST', '/v1/wallet/create', { key });
    expect(created.status).toBe(200);
    const mnemonic = (created.body as { mnemonic: string }).mnemonic;
    return deriveWallet(mnemonic);
  };
  const advance = (ms: number): void => {
    nowMs += ms;
    platform.advanceTo(nowMs);
  };
  return { platform, keys, call, create, advance };
}

describe('style B: polygon and arbitrum', () => {
  test('balance per chain: usdc, eth (polygon: WETH) and the native coin; the total adds every chain', () => {
    const { platform, keys, call, create } = world();
    const alice = create(keys.alice);
    const address = alice.addresses.ethereum;
    platform.wallet.mint(tokenAsset(usdcRow('polygon')), address, 7_000_000n, START);
    platform.wallet.mint(tokenAsset(usdcRow('arbitrum')), address, 2_500_000n, START);
    platform.wallet.mint(tokenAsset(usdcRow('ethereum')), address, 1_000_000n, START);
    platform.wallet.mint(nativeAsset('polygon'), address, 3n * 10n ** 18n, START);
    platform.wallet.mint(nativeAsset('arbitrum'), address, 10n ** 17n, START);
    const all = call('api', 'GET', '/wallet-api/balance');
    expect(all.status).toBe(200);
    const body = all.body as { usdc: string; chains: Record<string, Body> };
    expect(body.usdc).toBe('10.5');
    expect(Object.keys(body.chains)).toEqual(['ethereum', 'polygon', 'arbitrum', 'base']);
    expect(body.chains['polygon']).toEqual({ usdc: '7', eth: '0', native: '3', native_symbol: 'POL' });
    expect(body.chains['arbitrum']).toEqual({ usdc: '2.5', eth: '0.1', native: '0.1', native_symbol: 'ETH' });
    const one = call('api', 'GET', '/wallet-api/balance', { query: { chain: 'arbitrum' } });
    expect(one.body).toMatchObject({ usdc: '2.5', chains: { arbitrum: { usdc: '2.5' } } });
    expect(Object.keys((one.body as { chains: Body }).chains)).toEqual(['arbitrum']);
  });

  test('sends on polygon (fee in POL, 2 s block) and arbitrum (fee in ETH, 0.25 s block) settle at their pace', () => {
    const { platform, keys, call, create, advance } = world();
    const alice = create(keys.alice);
    const bob = create(keys.bob);
    const from = alice.addresses.ethereum;
    platform.wallet.mint(tokenAsset(usdcRow('polygon')), from, 50_000_000n, START);
    platform.wallet.mint(nativeAsset('polygon'), from, 10n ** 18n, START);
    platform.wallet.mint(tokenAsset(usdcRow('arbitrum')), from, 50_000_000n, START);
    platform.wallet.mint(nativeAsset('arbitrum'), from, 10n ** 16n, START);
    advance(10);
    const onPolygon = call('api', 'POST', '/wallet-api/send', {
      body: { to: 'bob', amount: 12.5, chain: 'polygon', memo: 'rent', private_key: alice.privateKeys.ethereum },
    });
    expect(onPolygon.status).toBe(200);
    expect(onPolygon.body).toMatchObject({
      status: 'pending',
      chain: 'polygon',
      amount: 12.5,
      fee: '0.00195',
      fee_symbol: 'POL',
      to: bob.addresses.ethereum,
    });
    const onArbitrum = call('api', 'POST', '/wallet-api/send', {
      body: { to: bob.addresses.ethereum, amount: 3, chain: 'arbitrum', private_key: alice.privateKeys.ethereum },
    });
    expect(onArbitrum.body).toMatchObject({
      status: 'pending',
      chain: 'arbitrum',
      fee: '0.00000065',
      fee_symbol: 'ETH',
    });
    const arbitrumHash = (onArbitrum.body as { tx_hash: string }).tx_hash;
    const polygonHash = (onPolygon.body as { tx_hash: string }).tx_hash;
    advance(240);
    expect(call('api', 'GET', `/wallet-api/tx/${arbitrumHash}`).body).toMatchObject({
      status: 'confirmed',
      chain: 'arbitrum',
      explorer: `https://arbiscan.io/tx/${arbitrumHash}`,
    });
    expect(call('api', 'GET', `/wallet-api/tx/${polygonHash}`).body).toMatchObject({ status: 'pending' });
    advance(1_750);
    expect(call('api', 'GET', `/wallet-api/tx/${polygonHash}`).body).toMatchObject({
      status: 'confirmed',
      block_height: (START + 2_000) / 2_000,
    });
    const bobs = call('api', 'GET', '/wallet-api/balance', { key: keys.bob });
    expect(bobs.body).toMatchObject({ usdc: '15.5', chains: { polygon: { usdc: '12.5' }, arbitrum: { usdc: '3' } } });
    const history = call('api', 'GET', '/wallet-api/transactions', { query: { chain: 'polygon', type: 'send' } });
    expect((history.body as { transactions: Body[] }).transactions.map((tx) => [tx['chain'], tx['memo']])).toEqual([
      ['polygon', 'rent'],
    ]);
    expect(platform.wallet.chains.balanceOf('polygon', nativeAsset('polygon').address, from)).toBe(
      10n ** 18n - 65_000n * 30_000_000_000n,
    );
    expect(platform.wallet.checkConserved()).toBeNull();
  });

  test('without POL for the fee a polygon send is 422; the address row names one EVM address for the four chains', () => {
    const { platform, keys, call, create } = world();
    const alice = create(keys.alice);
    platform.wallet.mint(tokenAsset(usdcRow('polygon')), alice.addresses.ethereum, 50_000_000n, START);
    const refused = call('api', 'POST', '/wallet-api/send', {
      body: { to: 'bob', amount: 1, chain: 'polygon', private_key: alice.privateKeys.ethereum },
    });
    // bob has no wallet: 404 comes first; to an address, the missing POL is 422.
    expect(refused.status).toBe(404);
    const noFee = call('api', 'POST', '/wallet-api/send', {
      body: { to: alice.addresses.ethereum, amount: 1, chain: 'polygon', private_key: alice.privateKeys.ethereum },
    });
    expect(noFee.status).toBe(422);
    expect((noFee.body as { error: string }).error).toMatch(/POL on polygon/);
    const addresses = call('api', 'GET', '/wallet-api/address').body as { addresses: Record<string, string> };
    expect(addresses.addresses).toEqual({
      ethereum: alice.addresses.ethereum,
      polygon: alice.addresses.ethereum,
      arbitrum: alice.addresses.ethereum,
      base: alice.addresses.ethereum,
    });
  });
});

describe("the /v1 interface and style A keep wallet.md's six chains", () => {
  test('polygon and arbitrum are 400 on /v1 balance, send and swap, and on style A send; /v1/wallet/chains lists six', () => {
    const { keys, call, create } = world();
    const alice = create(keys.alice);
    const address = alice.addresses.ethereum;
    for (const chain of ['polygon', 'arbitrum']) {
      expect(call('wallet', 'GET', `/v1/wallet/balance/${address}`, { query: { chain } }).status).toBe(400);
      expect(
        call('wallet', 'POST', '/v1/wallet/send', {
          body: { chain, to: address, amount: '1', private_key: alice.privateKeys.ethereum },
        }).status,
      ).toBe(400);
      expect(
        call('wallet', 'POST', '/api/v1/send', {
          body: { chain, to: address, amount: '1', private_key: alice.privateKeys.ethereum },
        }).status,
      ).toBe(400);
      expect(
        call('wallet', 'GET', '/v1/wallet/swap/quote', {
          query: {
            from_chain: chain,
            to_chain: 'base',
            from_token: usdcRow(chain).contract,
            to_token: usdcRow('base').contract,
            amount: '1',
          },
        }).status,
      ).toBe(400);
    }
    const chains = call('wallet', 'GET', '/v1/wallet/chains').body as {
      wallet_chains: { chain: string }[];
      swap_chains: string[];
    };
    expect(chains.wallet_chains.map((row) => row.chain)).toEqual([
      'ethereum',
      'base',
      'solana',
      'bitcoin',
      'tron',
      'monero',
    ]);
    expect(chains.swap_chains).toEqual(['ethereum', 'base', 'solana', 'bitcoin', 'tron', 'monero']);
  });
});
