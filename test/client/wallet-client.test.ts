// The wallet client's endpoint table is the server's wallet rows, id for id; and its typed calls
// reach them through the in-process transport: register, create, a funded send signed with the
// created wallet's key, confirmed at the next block, its status by hash, a quote and a swap order.
import { expect, test } from 'vitest';
import { AfpClient } from '../../src/client/client.ts';
import { inProcessTransport } from '../../src/client/in-process.ts';
import { WALLET_ENDPOINTS } from '../../src/client/wallet-client.ts';
import { Dispatcher } from '../../src/http/dispatcher.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { walletPrimaryRoutes } from '../../src/http/routes/wallet/wallet-primary.ts';
import { walletReferralRoutes } from '../../src/http/routes/wallet/wallet-referral.ts';
import { walletStyleRoutes } from '../../src/http/routes/wallet/wallet-styles.ts';
import { Platform } from '../../src/platform/platform.ts';
import { deriveWallet } from '../../src/services/wallet/keys/wallet-keys.ts';
import { nativeAsset } from '../../src/services/wallet/wallet-assets.ts';
import { EVM_NATIVE_ASSET } from '../../src/services/wallet/wallet-config.ts';

const START = Date.UTC(2026, 0, 1);

test('WALLET_ENDPOINTS lists exactly the wallet rows', () => {
  const rows = Object.fromEntries(
    [...walletPrimaryRoutes, ...walletReferralRoutes, ...walletStyleRoutes].map((route) => [
      route.id,
      { mount: route.mount, method: route.method, path: route.path, style: route.style },
    ]),
  );
  expect(WALLET_ENDPOINTS).toEqual(rows);
});

test('typed calls through the client', async () => {
  const platform = new Platform({ seed: 'wallet-client', startMs: START });
  let nowMs = START;
  const clock = { nowMs: (): number => (nowMs += 1000) };
  const client = new AfpClient(inProcessTransport({ dispatcher: new Dispatcher(platform, ALL_ROUTES), clock }));
  const registered = await client.wallet.register();
  if (!registered.ok) throw new Error('register');
  const ann = client.withKey(registered.body.api_key);
  const created = await ann.wallet.create();
  const other = await ann.wallet.create();
  if (!created.ok || !other.ok) throw new Error('create');
  const from = created.body.addresses.base;
  expect(platform.wallet.mint(nativeAsset('base'), from, 10n ** 18n, nowMs).ok).toBe(true);
  const sent = await ann.wallet.send({
    chain: 'base',
    to: other.body.addresses.base,
    amount: '0.3',
    private_key: deriveWallet(created.body.mnemonic).privateKeys.base,
  });
  expect(sent.ok && sent.body.status).toBe('pending');
  if (!sent.ok) throw new Error('send');
  nowMs += 5_000;
  const status = await ann.wallet.tx(sent.body.tx_hash);
  expect(status.ok && status.body.status).toBe('confirmed');
  const balance = await ann.wallet.balance(other.body.addresses.base, { chain: 'base' });
  expect(balance.ok && balance.body.balance.native.amount).toBe('0.3');
  const history = await ann.wallet.transactions(from, { chain: 'base', limit: 5 });
  expect(history.ok && history.body.count).toBe(2);
  const fields = {
    from_chain: 'base' as const,
    to_chain: 'solana' as const,
    from_token: EVM_NATIVE_ASSET,
    to_token: 'So11111111111111111111111111111111111111112',
    amount: '0.1',
  };
  const quote = await ann.wallet.quote(fields);
  expect(quote.ok && Number(quote.body.quote.toAmount)).toBeGreaterThan(0);
  const order = await ann.wallet.swap({ ...fields, to_address: other.body.addresses.solana });
  expect(order.ok && order.body.status).toBe('waiting');
  const symbol = await ann.wallet.quote({ ...fields, from_token: 'ETH' });
  expect(symbol.ok ? null : symbol.status).toBe(400);
});
