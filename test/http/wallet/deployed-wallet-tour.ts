// The deployed wallet's part of the deployed OpenAPI tour (test/http/openapi-tour.ts): one success
// for every deployed wallet row (spec/DEPLOYED.md §6), then the refusals its documents show
// (view_key_required, not_implemented, monero_keys_required, a short balance). Funds enter through
// the wallet's mint (the admin door's function); keys come from the created wallets' mnemonics.
import type { JsonObject } from '../../../src/core/errors.ts';
import type { Mount } from '../../../src/http/route.ts';
import type { Platform } from '../../../src/platform/platform.ts';
import { deriveWallet } from '../../../src/services/wallet/keys/wallet-keys.ts';
import { nativeAsset } from '../../../src/services/wallet/wallet-assets.ts';

type Send = (
  mount: Mount,
  method: string,
  path: string,
  options?: { key?: string; body?: unknown; query?: Record<string, string> },
) => JsonObject;

export function deployedWalletTour(send: Send, platform: Platform): void {
  const alice = send('wallet', 'POST', '/v1/auth/register', { body: { referral_code: 'nobody' } });
  const aliceKey = alice['api_key'] as string;
  const rita = send('wallet', 'POST', '/v1/auth/register', { body: {} });
  const mine = send('wallet', 'POST', '/v1/wallet/create', { key: aliceKey });
  const theirs = send('wallet', 'POST', '/v1/wallet/create', { key: rita['api_key'] as string });
  const addresses = mine['addresses'] as Record<string, string>;
  const other = theirs['addresses'] as Record<string, string>;
  const base = addresses['base'] as string;
  platform.wallet.mint(nativeAsset('base'), base, 10n ** 18n, platform.nowMs);
  send('wallet', 'GET', `/v1/wallet/balance/${base}`, { key: aliceKey });
  const privateKey = deriveWallet(mine['mnemonic'] as string).privateKeys.base;
  send('wallet', 'POST', '/v1/wallet/send', {
    key: aliceKey,
    body: { chain: 'base', to: other['base'], amount: '0.1', private_key: privateKey },
  });
  const quote = { from_chain: 'base', to_chain: 'ethereum', from_token: 'ETH', to_token: 'USDC', amount: '0.05' };
  send('wallet', 'GET', '/v1/wallet/swap/quote', { key: aliceKey, query: quote });
  const order = send('wallet', 'POST', '/v1/wallet/swap', {
    key: aliceKey,
    body: { ...quote, to_address: addresses['ethereum'] },
  });
  send('wallet', 'GET', `/v1/wallet/swap/status/${order['order_id'] as string}`, { key: aliceKey });
  send('wallet', 'GET', `/v1/wallet/transactions/${base}`, { key: aliceKey, query: { limit: '5' } });
  send('wallet', 'GET', '/v1/wallet/deposit-address', { key: aliceKey, query: { chain: 'solana' } });
  send('wallet', 'GET', '/v1/wallet/chains');
  send('wallet', 'GET', '/v1/gossip');
  send('wallet', 'GET', '/v1/referral/code', { key: aliceKey });
  send('wallet', 'GET', '/v1/referral/stats', { key: aliceKey });
  platform.referrals.accrue({
    referrerId: rita['agent_id'] as string,
    feeMicro: 1_000_000n,
    shareBps: 1_000n,
    reference: 'deployed-wallet-tour',
    service: 'wallet',
    level: 1,
  });
  send('wallet', 'POST', '/v1/referral/withdraw', {
    key: rita['api_key'] as string,
    body: { address: other['base'], chain: 'base' },
  });
  // The deployment's own refusals.
  send('wallet', 'GET', `/v1/wallet/balance/${addresses['monero'] as string}`, {
    key: aliceKey,
    query: { chain: 'monero' },
  });
  send('wallet', 'POST', '/v1/wallet/send', {
    key: aliceKey,
    body: { chain: 'bitcoin', to: addresses['bitcoin'], amount: '0.1', private_key: privateKey },
  });
  send('wallet', 'POST', '/v1/wallet/send', {
    key: aliceKey,
    body: { chain: 'monero', to: other['monero'], amount: '0.1' },
  });
  send('wallet', 'POST', '/v1/wallet/send', {
    key: aliceKey,
    body: { chain: 'base', to: base, amount: '5', private_key: privateKey },
  });
}
