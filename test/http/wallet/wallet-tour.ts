// One successful request for every wallet row (primary /v1, style A, style B), in an order where
// each succeeds: the OpenAPI tour's wallet part (test/http/openapi-tour.ts), also used by the route
// tests. Funds enter through the wallet's mint (the admin door's function), keys come from the
// created wallets' mnemonics (deriveWallet): the tour is the caller, holding its own keys.
import type { JsonObject } from '../../../src/core/errors.ts';
import type { Mount } from '../../../src/http/route.ts';
import type { Platform } from '../../../src/platform/platform.ts';
import { deriveWallet } from '../../../src/services/wallet/keys/wallet-keys.ts';
import { nativeAsset, tokenAsset } from '../../../src/services/wallet/wallet-assets.ts';
import { EVM_NATIVE_ASSET, TOKEN_ROWS } from '../../../src/services/wallet/wallet-config.ts';

type Send = (
  mount: Mount,
  method: string,
  path: string,
  options?: { key?: string; body?: unknown; query?: Record<string, string> },
) => JsonObject;

export const SOLANA_NATIVE = 'So11111111111111111111111111111111111111112';

export function walletTour(
  send: Send,
  keys: { readonly alice: string; readonly bob: string },
  platform: Platform,
): void {
  const { alice, bob } = keys;
  const usdc = TOKEN_ROWS.find((row) => row.chain === 'ethereum' && row.symbol === 'USDC');
  if (usdc === undefined) throw new Error('the token table has ethereum USDC');
  send('wallet', 'POST', '/v1/auth/register', { body: { referral_code: 'alice' } });
  const mine = send('wallet', 'POST', '/v1/wallet/create', { key: alice });
  const theirs = send('wallet', 'POST', '/v1/wallet/create', { key: bob });
  const addresses = mine['addresses'] as Record<string, string>;
  const bobAddresses = theirs['addresses'] as Record<string, string>;
  const eth = addresses['ethereum'] as string;
  const privateKey = deriveWallet(mine['mnemonic'] as string).privateKeys.ethereum;
  platform.wallet.mint(nativeAsset('ethereum'), eth, 2n * 10n ** 18n, platform.nowMs);
  platform.wallet.mint(tokenAsset(usdc), eth, 500_000_000n, platform.nowMs);
  send('wallet', 'GET', `/v1/wallet/balance/${eth}`, { key: alice, query: { chain: 'ethereum' } });
  const sent = send('wallet', 'POST', '/v1/wallet/send', {
    key: alice,
    body: { chain: 'ethereum', to: bobAddresses['ethereum'], amount: '0.1', private_key: privateKey },
  });
  const quote = {
    from_chain: 'ethereum',
    to_chain: 'solana',
    from_token: EVM_NATIVE_ASSET,
    to_token: SOLANA_NATIVE,
    amount: '0.05',
  };
  send('wallet', 'GET', '/v1/wallet/swap/quote', { key: alice, query: quote });
  const order = send('wallet', 'POST', '/v1/wallet/swap', {
    key: alice,
    body: { ...quote, amount: 0.05, to_address: bobAddresses['solana'] },
  });
  send('wallet', 'GET', '/v1/wallet/deposit-address', { key: alice, query: { chain: 'solana' } });
  send('wallet', 'GET', `/v1/wallet/transactions/${eth}`, { key: alice, query: { chain: 'ethereum', limit: '5' } });
  send('wallet', 'GET', `/v1/wallet/swap/status/${order['order_id'] as string}`, { key: alice });
  send('wallet', 'GET', '/v1/wallet/chains');
  send('wallet', 'GET', '/v1/gossip');
  send('wallet', 'GET', '/v1/referral/code', { key: alice });
  send('wallet', 'GET', '/v1/referral/stats', { key: alice });
  // A referral earning to withdraw: a level-1 share of a 1.00 USDC fee (the tour's earlier fees fund fee-income).
  const rita = send('wallet', 'POST', '/v1/auth/register', { body: {} });
  platform.referrals.accrue({
    referrerId: rita['agent_id'] as string,
    feeMicro: 1_000_000n,
    shareBps: 1_000n,
    reference: 'wallet-tour',
    service: 'wallet',
    level: 1,
  });
  send('wallet', 'POST', '/v1/referral/withdraw', {
    key: rita['api_key'] as string,
    body: { address: addresses['base'], chain: 'base' },
  });
  send('wallet', 'GET', '/api/v1/balance', { key: alice });
  send('wallet', 'GET', '/api/v1/addresses', { key: alice });
  send('wallet', 'POST', '/api/v1/send', {
    key: alice,
    body: {
      chain: 'ethereum',
      to: bobAddresses['ethereum'],
      amount: '2.5',
      token: usdc.contract,
      private_key: privateKey,
    },
  });
  send('wallet', 'POST', '/api/v1/swap', {
    key: alice,
    body: { from: `ethereum:${usdc.contract}`, to: `base:${EVM_NATIVE_ASSET}`, amount: 10, slippage: 1 },
  });
  send('wallet', 'GET', '/api/v1/transactions', { key: alice, query: { limit: '5' } });
  send('api', 'GET', '/wallet-api/balance', { key: alice, query: { chain: 'ethereum' } });
  send('api', 'POST', '/wallet-api/send', {
    key: alice,
    body: { to: 'bob', amount: 1.5, chain: 'ethereum', memo: 'thanks', private_key: privateKey },
  });
  send('api', 'GET', '/wallet-api/address', { key: alice });
  send('api', 'GET', '/wallet-api/transactions', { key: alice, query: { limit: '5', type: 'send' } });
  send('api', 'GET', `/wallet-api/tx/${sent['tx_hash'] as string}`, { key: alice });
}
