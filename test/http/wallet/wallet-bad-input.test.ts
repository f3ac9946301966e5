// Bad input on every wallet endpoint (primary, A, B): unknown chains, chains not allowed for the
// call, bad addresses per chain, bad amounts, monero without its keys, symbols where a contract
// address is needed, a wrong or ill-formed private key, unknown fields. Each answers a 4xx JSON
// `{ error, code }` and moves nothing: the whole chain state is the same before and after.
import { describe, expect, test } from 'vitest';
import { addAgent } from '../../fixtures/agents.ts';
import { Dispatcher, type ApiResponse } from '../../../src/http/dispatcher.ts';
import type { Mount } from '../../../src/http/route.ts';
import { ALL_ROUTES } from '../../../src/http/routes/index.ts';
import { Platform } from '../../../src/platform/platform.ts';
import { deriveWallet } from '../../../src/services/wallet/keys/wallet-keys.ts';
import { nativeAsset, tokenAsset } from '../../../src/services/wallet/wallet-assets.ts';
import { EVM_NATIVE_ASSET, TOKEN_ROWS, type TokenRow } from '../../../src/services/wallet/wallet-config.ts';

const START = Date.UTC(2026, 0, 1);
const USDC: TokenRow = ethereumUsdc();

function ethereumUsdc(): TokenRow {
  const row = TOKEN_ROWS.find((one) => one.chain === 'ethereum' && one.symbol === 'USDC');
  if (row === undefined) throw new Error('the token table has ethereum USDC');
  return row;
}

function world() {
  const platform = new Platform({ seed: 'wallet-bad-input', startMs: START });
  const key = addAgent(platform, 'alice', { createdAtMs: START });
  const dispatcher = new Dispatcher(platform, ALL_ROUTES);
  // 4 s apart: under the 20-per-minute send row, so every answer is the row's own.
  let nowMs = START;
  const call = (
    mount: Mount,
    method: string,
    path: string,
    options: { body?: unknown; query?: Record<string, string> } = {},
  ): ApiResponse => {
    nowMs += 4_000;
    return dispatcher.handle(
      {
        mount,
        method,
        path,
        query: options.query ?? {},
        headers: { authorization: `Bearer ${key}` },
        body: options.body,
        ip: '127.0.0.1',
      },
      nowMs,
    );
  };
  const created = call('wallet', 'POST', '/v1/wallet/create').body as {
    mnemonic: string;
    addresses: Record<string, string>;
  };
  const other = call('wallet', 'POST', '/v1/wallet/create').body as {
    mnemonic: string;
    addresses: Record<string, string>;
  };
  const mine = deriveWallet(created.mnemonic);
  const theirs = deriveWallet(other.mnemonic);
  platform.wallet.mint(nativeAsset('ethereum'), mine.addresses.ethereum, 10n ** 18n, START);
  platform.wallet.mint(tokenAsset(USDC), mine.addresses.ethereum, 10n ** 9n, START);
  platform.wallet.mint(nativeAsset('monero'), mine.addresses.monero, 10n ** 13n, START);
  const state = (): string =>
    JSON.stringify(
      { totals: platform.wallet.chains.totals(), size: platform.wallet.chains.size, swaps: platform.wallet.swaps.size },
      (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
    );
  return { call, mine, theirs, state };
}

type Case = readonly [
  label: string,
  mount: Mount,
  method: string,
  path: string,
  options: { body?: unknown; query?: Record<string, string> },
  status: number,
  pattern: RegExp,
];

describe('bad input answers 4xx and moves nothing', () => {
  test('every wallet endpoint', () => {
    const { call, mine, theirs, state } = world();
    const eth = mine.addresses.ethereum;
    const send = (body: Record<string, unknown>): Record<string, unknown> => ({
      chain: 'ethereum',
      to: theirs.addresses.ethereum,
      amount: '0.1',
      private_key: mine.privateKeys.ethereum,
      ...body,
    });
    const quote = {
      from_chain: 'ethereum',
      to_chain: 'solana',
      from_token: EVM_NATIVE_ASSET,
      to_token: 'So11111111111111111111111111111111111111112',
      amount: '0.1',
    };
    const cases: readonly Case[] = [
      [
        'balance: unknown chain',
        'wallet',
        'GET',
        `/v1/wallet/balance/${eth}`,
        { query: { chain: 'dogecoin' } },
        400,
        /chain must be one of/,
      ],
      ['balance: no chain', 'wallet', 'GET', `/v1/wallet/balance/${eth}`, {}, 400, /chain must be one of/],
      [
        'balance: bitcoin address on ethereum',
        'wallet',
        'GET',
        `/v1/wallet/balance/${mine.addresses.bitcoin}`,
        { query: { chain: 'ethereum' } },
        400,
        /not a valid ethereum address/,
      ],
      [
        'balance: bad EIP-55 case',
        'wallet',
        'GET',
        `/v1/wallet/balance/${eth.slice(0, 2)}${swapCase(eth.slice(2))}`,
        { query: { chain: 'ethereum' } },
        400,
        /not a valid ethereum address/,
      ],
      [
        'balance: bad bech32 checksum',
        'wallet',
        'GET',
        `/v1/wallet/balance/${mine.addresses.bitcoin.slice(0, -1)}${mine.addresses.bitcoin.endsWith('q') ? 'p' : 'q'}`,
        { query: { chain: 'bitcoin' } },
        400,
        /not a valid bitcoin address/,
      ],
      [
        'balance: monero without view_key',
        'wallet',
        'GET',
        `/v1/wallet/balance/${mine.addresses.monero}`,
        { query: { chain: 'monero' } },
        400,
        /view_key/,
      ],
      [
        'balance: monero bad view_key',
        'wallet',
        'GET',
        `/v1/wallet/balance/${mine.addresses.monero}`,
        { query: { chain: 'monero', view_key: 'xyz' } },
        400,
        /view_key/,
      ],
      [
        "balance: monero with another wallet's view_key",
        'wallet',
        'GET',
        `/v1/wallet/balance/${mine.addresses.monero}`,
        { query: { chain: 'monero', view_key: theirs.monero.viewKey } },
        403,
        /not the view key/,
      ],
      [
        'send: unknown chain',
        'wallet',
        'POST',
        '/v1/wallet/send',
        { body: send({ chain: 'dogecoin' }) },
        400,
        /chain must be one of/,
      ],
      [
        'send: bad to',
        'wallet',
        'POST',
        '/v1/wallet/send',
        { body: send({ to: 'not-an-address' }) },
        400,
        /to is not a valid ethereum address/,
      ],
      [
        'send: solana address on tron',
        'wallet',
        'POST',
        '/v1/wallet/send',
        { body: send({ chain: 'tron', to: theirs.addresses.solana, private_key: mine.privateKeys.tron }) },
        400,
        /not a valid tron address/,
      ],
      ['send: negative amount', 'wallet', 'POST', '/v1/wallet/send', { body: send({ amount: '-1' }) }, 400, /amount/],
      ['send: zero amount', 'wallet', 'POST', '/v1/wallet/send', { body: send({ amount: '0' }) }, 400, /above 0/],
      [
        'send: too many decimals',
        'wallet',
        'POST',
        '/v1/wallet/send',
        { body: send({ amount: '0.1234567', token: USDC.contract }) },
        400,
        /more than 6 decimals/,
      ],
      ['send: not a number', 'wallet', 'POST', '/v1/wallet/send', { body: send({ amount: 'lots' }) }, 400, /amount/],
      [
        'send: token symbol',
        'wallet',
        'POST',
        '/v1/wallet/send',
        { body: send({ token: 'USDC' }) },
        400,
        /not a symbol/,
      ],
      [
        'send: unknown token',
        'wallet',
        'POST',
        '/v1/wallet/send',
        { body: send({ token: '0x0000000000000000000000000000000000000001' }) },
        400,
        /not a known token contract/,
      ],
      [
        'send: no private key',
        'wallet',
        'POST',
        '/v1/wallet/send',
        { body: send({ private_key: undefined }) },
        400,
        /private_key is required/,
      ],
      [
        'send: ill-formed private key',
        'wallet',
        'POST',
        '/v1/wallet/send',
        { body: send({ private_key: '0x1234' }) },
        400,
        /not a valid ethereum private key/,
      ],
      [
        'send: another key than from',
        'wallet',
        'POST',
        '/v1/wallet/send',
        { body: send({ from: eth, private_key: theirs.privateKeys.ethereum }) },
        403,
        /does not control/,
      ],
      [
        'send: monero without keys',
        'wallet',
        'POST',
        '/v1/wallet/send',
        { body: { chain: 'monero', from: mine.addresses.monero, to: theirs.addresses.monero, amount: '1' } },
        400,
        /view_key is required/,
      ],
      [
        'send: monero without from',
        'wallet',
        'POST',
        '/v1/wallet/send',
        {
          body: {
            chain: 'monero',
            to: theirs.addresses.monero,
            amount: '1',
            view_key: mine.monero.viewKey,
            spend_key: mine.monero.spendKey,
          },
        },
        400,
        /from/,
      ],
      [
        "send: monero with the other wallet's keys",
        'wallet',
        'POST',
        '/v1/wallet/send',
        {
          body: {
            chain: 'monero',
            from: mine.addresses.monero,
            to: theirs.addresses.monero,
            amount: '1',
            view_key: theirs.monero.viewKey,
            spend_key: theirs.monero.spendKey,
          },
        },
        403,
        /does not control/,
      ],
      [
        'send: monero with a private_key',
        'wallet',
        'POST',
        '/v1/wallet/send',
        {
          body: {
            chain: 'monero',
            from: mine.addresses.monero,
            to: theirs.addresses.monero,
            amount: '1',
            private_key: mine.privateKeys.ethereum,
          },
        },
        400,
        /not private_key/,
      ],
      ['send: more than held', 'wallet', 'POST', '/v1/wallet/send', { body: send({ amount: '5' }) }, 422, /holds/],
      [
        'send: unknown field',
        'wallet',
        'POST',
        '/v1/wallet/send',
        { body: send({ colour: 'blue' }) },
        400,
        /unknown field/,
      ],
      [
        'quote: symbol',
        'wallet',
        'GET',
        '/v1/wallet/swap/quote',
        { query: { ...quote, from_token: 'ETH' } },
        400,
        /not a symbol/,
      ],
      [
        'quote: unknown chain',
        'wallet',
        'GET',
        '/v1/wallet/swap/quote',
        { query: { ...quote, to_chain: 'dogecoin' } },
        400,
        /to_chain must be one of/,
      ],
      [
        'quote: bad amount',
        'wallet',
        'GET',
        '/v1/wallet/swap/quote',
        { query: { ...quote, amount: '-3' } },
        400,
        /amount/,
      ],
      [
        'quote: same asset',
        'wallet',
        'GET',
        '/v1/wallet/swap/quote',
        { query: { ...quote, to_chain: 'ethereum', to_token: EVM_NATIVE_ASSET } },
        400,
        /same asset/,
      ],
      [
        'swap: symbol',
        'wallet',
        'POST',
        '/v1/wallet/swap',
        { body: { ...quote, to_token: 'SOL', to_address: theirs.addresses.solana } },
        400,
        /not a symbol/,
      ],
      [
        'swap: bad to_address',
        'wallet',
        'POST',
        '/v1/wallet/swap',
        { body: { ...quote, to_address: theirs.addresses.ethereum } },
        400,
        /to_address is not a valid solana address/,
      ],
      ['swap: missing to_address', 'wallet', 'POST', '/v1/wallet/swap', { body: quote }, 400, /to_address is required/],
      ['swap status: unknown order', 'wallet', 'GET', '/v1/wallet/swap/status/swp_missing', {}, 404, /not known/],
      [
        'deposit-address: unknown chain',
        'wallet',
        'GET',
        '/v1/wallet/deposit-address',
        { query: { chain: 'dogecoin' } },
        400,
        /chain must be one of/,
      ],
      [
        'transactions: tron not allowed',
        'wallet',
        'GET',
        `/v1/wallet/transactions/${mine.addresses.tron}`,
        { query: { chain: 'tron' } },
        400,
        /bitcoin, solana, base, ethereum/,
      ],
      [
        'transactions: monero not allowed',
        'wallet',
        'GET',
        `/v1/wallet/transactions/${mine.addresses.monero}`,
        { query: { chain: 'monero' } },
        400,
        /chain must be one of/,
      ],
      [
        'transactions: limit too large',
        'wallet',
        'GET',
        `/v1/wallet/transactions/${eth}`,
        { query: { chain: 'ethereum', limit: '101' } },
        400,
        /limit/,
      ],
      [
        'A send: symbol token',
        'wallet',
        'POST',
        '/api/v1/send',
        { body: send({ token: 'usdc' }) },
        400,
        /not a symbol/,
      ],
      [
        'A swap: symbols',
        'wallet',
        'POST',
        '/api/v1/swap',
        { body: { from: 'ETH', to: 'USDC', amount: 1, slippage: 1 } },
        400,
        /<chain>:<token contract address>/,
      ],
      [
        'A swap: symbol after the chain',
        'wallet',
        'POST',
        '/api/v1/swap',
        { body: { from: 'ethereum:ETH', to: `base:${EVM_NATIVE_ASSET}`, amount: 1 } },
        400,
        /not a symbol/,
      ],
      [
        'A swap: slippage out of range',
        'wallet',
        'POST',
        '/api/v1/swap',
        { body: { from: `ethereum:${USDC.contract}`, to: `base:${EVM_NATIVE_ASSET}`, amount: 1, slippage: 90 } },
        400,
        /slippage/,
      ],
      ['A transactions: bad limit', 'wallet', 'GET', '/api/v1/transactions', { query: { limit: '0' } }, 400, /limit/],
      [
        'B balance: unknown chain',
        'api',
        'GET',
        '/wallet-api/balance',
        { query: { chain: 'solana' } },
        400,
        /chain must be one of/,
      ],
      [
        'B send: a chain outside B',
        'api',
        'POST',
        '/wallet-api/send',
        {
          body: { to: theirs.addresses.ethereum, amount: 1, chain: 'optimism', private_key: mine.privateKeys.ethereum },
        },
        400,
        /chain/,
      ],
      [
        'B send: unknown agent',
        'api',
        'POST',
        '/wallet-api/send',
        { body: { to: 'nobody', amount: 1, private_key: mine.privateKeys.ethereum } },
        404,
        /not an agent with a wallet/,
      ],
      [
        'B send: amount as text',
        'api',
        'POST',
        '/wallet-api/send',
        { body: { to: theirs.addresses.ethereum, amount: '1', private_key: mine.privateKeys.ethereum } },
        400,
        /amount/,
      ],
      [
        'B send: wrong key',
        'api',
        'POST',
        '/wallet-api/send',
        { body: { to: theirs.addresses.ethereum, amount: 1, private_key: '0xnothex' } },
        400,
        /private_key/,
      ],
      [
        'B transactions: bad type',
        'api',
        'GET',
        '/wallet-api/transactions',
        { query: { type: 'everything' } },
        400,
        /type must be one of/,
      ],
      ['B tx: unknown hash', 'api', 'GET', `/wallet-api/tx/0x${'0'.repeat(64)}`, {}, 404, /not known/],
    ];
    const before = state();
    for (const [label, mount, method, path, options, status, pattern] of cases) {
      const answer = call(mount, method, path, options);
      expect(answer.status, label).toBe(status);
      const body = answer.body as { error: string; code: string };
      expect(typeof body.code, label).toBe('string');
      expect(body.error, label).toMatch(pattern);
      expect(state(), label).toBe(before);
    }
  });
});

/** The same hex with every letter's case flipped: a broken EIP-55 checksum when the address has letters. */
function swapCase(hex: string): string {
  return [...hex].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join('');
}
