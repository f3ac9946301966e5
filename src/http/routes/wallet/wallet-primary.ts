/**
 * The wallet's primary interface (spec/wallet.md "Endpoints", mount 'wallet', paths under /v1),
 * one row per endpoint over the one WalletService. Rules of wallet.md: allowed chains per call
 * (transactions only on bitcoin, solana, base, ethereum), a monero balance needs view_key (400),
 * a monero send needs from, view_key and spend_key, swap tokens are contract addresses (a symbol
 * → 400), history limit 10 by default (max 100), /swap capped at 120 per minute, register 10 per
 * minute per IP. `POST /v1/wallet/create` answers the mnemonic, the six addresses, the monero keys
 * and the derivation paths once; nothing of it is stored (WalletService.create).
 * The referral rows (/v1/referral/*, /v1/gossip) are not here yet (docs/decisions/wallet.md "Wallet").
 */
import { assert } from '../../../core/assert.ts';
import { fail, isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { Registration } from '../../../services/faucet/faucet.ts';
import type { WalletTx } from '../../../services/wallet/chain-book.ts';
import {
  DERIVATION_PATHS,
  isValidAddress,
  viewKeyMatchesAddress,
  type DerivedWallet,
  type WalletChain,
} from '../../../services/wallet/keys/wallet-keys.ts';
import type { SwapOrder, SwapQuote } from '../../../services/wallet/swap-desk.ts';
import {
  assetByAddress,
  HISTORY_CHAINS,
  parseAmount,
  parseChain,
  WALLET_CHAIN_NAMES,
  type Asset,
} from '../../../services/wallet/wallet-assets.ts';
import { CHAIN_ROWS, DEFAULT_WALLET_CONFIG, TOKEN_ROWS } from '../../../services/wallet/wallet-config.ts';
import type { BalanceView, SendCommand, SwapCommand } from '../../../services/wallet/wallet.ts';
import { isoTime } from '../../render.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { routeFamily } from '../../route-family.ts';
import {
  bodyOnly,
  knownQuery,
  NO_KEYS,
  noInput,
  objectBody,
  optionalString,
  queryLimit,
  requiredString,
} from '../../validate.ts';
import { ADDRESS_TEXT_MAX, KEY_TEXT_MAX, logSendBody, parseSend } from './wallet-parse.ts';
import { registerAgent } from '../faucet/register-agent.ts';
import { amountBody, swapOrderBody, quoteBody, txBody } from './wallet-render.ts';

const BALANCE_QUERY = ['chain', 'view_key'];
const HISTORY_QUERY = ['chain', 'limit'];
const QUOTE_QUERY = ['from_chain', 'to_chain', 'from_token', 'to_token', 'amount'];
const SWAP_FIELDS = [...QUOTE_QUERY, 'to_address'];
const DEPOSIT_QUERY = ['chain'];
const REGISTER_FIELDS = ['referral_code'];
const VIEW_KEY_PATTERN = /^[0-9a-fA-F]{64}$/;

export function walletCaller(context: RouteContext): string {
  assert(context.caller !== null, 'bearer rows run with an authenticated caller');
  return context.caller.id;
}

function parseBalance(input: RouteInput): { chain: WalletChain; address: string } | Failure {
  const unknown = knownQuery(input.query, BALANCE_QUERY);
  if (unknown !== null) return unknown;
  const chain = parseChain(input.query['chain'], 'chain');
  if (isFailure(chain)) return chain;
  const address = requiredString(input.params['address'], 'address', ADDRESS_TEXT_MAX);
  if (isFailure(address)) return address;
  const viewKey = input.query['view_key'];
  if (viewKey === undefined && chain === 'monero')
    return fail('BAD_REQUEST', 'a monero balance needs view_key (the private view key in hex)', { field: 'view_key' });
  if (viewKey !== undefined && (viewKey.length > KEY_TEXT_MAX || !VIEW_KEY_PATTERN.test(viewKey)))
    return fail('BAD_REQUEST', 'view_key must be 64 hex characters', { field: 'view_key' });
  // A monero balance is read with the address's own view key (403, as a send with keys that do
  // not control `from`); an ill-formed address is left to the service's 400.
  if (
    chain === 'monero' &&
    viewKey !== undefined &&
    isValidAddress('monero', address) &&
    !viewKeyMatchesAddress(address, viewKey)
  ) {
    return fail('FORBIDDEN', `the view_key supplied is not the view key of ${address}`, { field: 'view_key' });
  }
  return { chain, address };
}

/** Swap fields from a query (quote) or a body (swap): chains, token contract addresses, amount. */
export function parseSwapFields(
  fields: Readonly<Record<string, unknown>>,
): { from: Asset; to: Asset; amount: bigint } | Failure {
  const fromChain = parseChain(fields['from_chain'], 'from_chain');
  if (isFailure(fromChain)) return fromChain;
  const toChain = parseChain(fields['to_chain'], 'to_chain');
  if (isFailure(toChain)) return toChain;
  const fromToken = requiredString(fields['from_token'], 'from_token', ADDRESS_TEXT_MAX);
  if (isFailure(fromToken)) return fromToken;
  const toToken = requiredString(fields['to_token'], 'to_token', ADDRESS_TEXT_MAX);
  if (isFailure(toToken)) return toToken;
  const from = assetByAddress(fromChain, fromToken, 'from_token');
  if (isFailure(from)) return from;
  const to = assetByAddress(toChain, toToken, 'to_token');
  if (isFailure(to)) return to;
  if (fields['amount'] === undefined) return fail('BAD_REQUEST', 'amount is required', { field: 'amount' });
  const amount = parseAmount(fields['amount'], from.decimals, 'amount');
  return isFailure(amount) ? amount : { from, to, amount };
}

function parseSwap(body: unknown): SwapCommand | Failure {
  const fields = objectBody(body, SWAP_FIELDS);
  if (isFailure(fields)) return fields;
  const swap = parseSwapFields(fields);
  if (isFailure(swap)) return swap;
  const toAddress = requiredString(fields['to_address'], 'to_address', ADDRESS_TEXT_MAX);
  return isFailure(toAddress) ? toAddress : { ...swap, toAddress };
}

function parseHistory(input: RouteInput): { chain: WalletChain; address: string; limit: number } | Failure {
  const unknown = knownQuery(input.query, HISTORY_QUERY);
  if (unknown !== null) return unknown;
  const chain = parseChain(input.query['chain'], 'chain', HISTORY_CHAINS);
  if (isFailure(chain)) return chain;
  const address = requiredString(input.params['address'], 'address', ADDRESS_TEXT_MAX);
  if (isFailure(address)) return address;
  const limit = queryLimit(
    input.query,
    DEFAULT_WALLET_CONFIG.historyLimitDefault,
    DEFAULT_WALLET_CONFIG.historyLimitMax,
  );
  return isFailure(limit) ? limit : { chain, address, limit };
}

function balanceBody(view: BalanceView): JsonObject {
  return {
    address: view.address,
    chain: view.chain,
    balance: {
      native: amountBody(view.native.asset, view.native.amount),
      tokens: view.tokens.map((token) => amountBody(token.asset, token.amount)),
    },
  };
}

function createBody(wallet: DerivedWallet): JsonObject {
  return {
    mnemonic: wallet.mnemonic,
    addresses: { ...wallet.addresses },
    monero_keys: {
      spend_key: wallet.monero.spendKey,
      view_key: wallet.monero.viewKey,
      public_spend_key: wallet.monero.publicSpendKey,
      public_view_key: wallet.monero.publicViewKey,
    },
    derivation_paths: { ...wallet.derivationPaths },
    warning: 'Store the mnemonic now: it is shown once and never stored by the service.',
  };
}

/** The service's derivation paths; monero has none (its keys come from the seed, said in DEPOSIT_METHODS). */
const DEPOSIT_PATHS: Readonly<Record<WalletChain, string>> = {
  ...DERIVATION_PATHS,
  monero: 'none (monero keys come from the BIP-39 seed directly)',
};

const DEPOSIT_METHODS: Readonly<Record<WalletChain, string>> = {
  ethereum: 'BIP-32 secp256k1; address = EIP-55 checksummed last 20 bytes of keccak256(public key)',
  base: 'BIP-32 secp256k1; the same EIP-55 address as on ethereum',
  solana: 'SLIP-10 ed25519 (hardened only); address = base58 of the public key',
  bitcoin: 'BIP-84; P2WPKH bech32 bc1 address of hash160(compressed public key)',
  tron: 'BIP-32 secp256k1; base58check of 0x41 + last 20 bytes of keccak256(uncompressed public key)',
  monero:
    'spend key = HMAC-SHA512("monero seed", BIP-39 seed)[0..32] mod l; view key = keccak256(spend key) mod l; address = monero base58 of 0x12 + public spend + public view + checksum',
};

function chainsBody(): JsonObject {
  return {
    wallet_chains: CHAIN_ROWS.filter((row) => (WALLET_CHAIN_NAMES as readonly string[]).includes(row.chain)).map(
      (row) => ({
        chain: row.chain,
        symbol: row.symbol,
        decimals: row.decimals,
        block_time_ms: row.blockMs,
        native_token: row.nativeAsset,
        tokens: TOKEN_ROWS.filter((token) => token.chain === row.chain).map((token) => ({
          symbol: token.symbol,
          contract: token.contract,
          decimals: token.decimals,
        })),
      }),
    ),
    swap_chains: [...WALLET_CHAIN_NAMES],
    transaction_history_chains: [...HISTORY_CHAINS],
  };
}

const rowPrimary = routeFamily({ service: 'wallet', style: 'primary', mount: 'wallet', auth: 'bearer' });

const rows: readonly Route[] = [
  rowPrimary<{ referrer: string | undefined }, Registration>('register', {
    method: 'POST',
    path: '/v1/auth/register',
    auth: 'none',
    limits: { registerPerIp: true },
    summary:
      'Create an account (one platform agent); optional referral_code credits the referrer. Returns the API key once.',
    parse: (input) => {
      const fields = bodyOnly(input, REGISTER_FIELDS);
      if (isFailure(fields)) return fields;
      const code = optionalString(fields['referral_code'], 'referral_code', 128);
      return isFailure(code) ? code : { referrer: code };
    },
    run: (context, command) => registerAgent(context, context.platform.context.ids.next('ag_', 12), command.referrer),
    successStatus: 201,
    render: (registration) => ({
      agent_id: registration.agent.id,
      api_key: registration.apiKey,
      referral_code: registration.agent.referralCode,
      created_at: isoTime(registration.agent.createdAtMs),
      message: 'Store the api_key: it is shown once.',
    }),
  }),
  rowPrimary<null, DerivedWallet>('create', {
    method: 'POST',
    path: '/v1/wallet/create',
    summary:
      'Generate a BIP-39 HD wallet: the mnemonic (shown once, never stored), six addresses, monero keys, derivation paths.',
    parse: noInput,
    run: (context) => succeed(context.platform.wallet.create(walletCaller(context), context.nowMs)),
    render: createBody,
  }),
  rowPrimary<{ chain: WalletChain; address: string }, BalanceView>('balance', {
    method: 'GET',
    path: '/v1/wallet/balance/:address',
    summary: 'Native (and token) balance of an address; query chain (required), view_key (required for monero).',
    parse: parseBalance,
    run: (context, command) => context.platform.wallet.balance(command.chain, command.address),
    render: balanceBody,
  }),
  rowPrimary<SendCommand, WalletTx>('send', {
    method: 'POST',
    path: '/v1/wallet/send',
    limits: { serviceRowB: true, row: 'wallet-send' },
    summary:
      'Sign with the private key supplied (monero: from, view_key, spend_key) and broadcast; pending until the next block.',
    parse: (input, context) => parseSend(input.body, context),
    run: (context, command) => context.platform.wallet.send(command, context.nowMs),
    logBody: logSendBody,
    render: txBody,
  }),
  rowPrimary<{ from: Asset; to: Asset; amount: bigint }, SwapQuote>('swap-quote', {
    method: 'GET',
    path: '/v1/wallet/swap/quote',
    summary: 'Quote a swap (token contract addresses, not symbols) with its fee breakdown (0.5%).',
    parse: (input) => knownQuery(input.query, QUOTE_QUERY) ?? parseSwapFields(input.query),
    run: (context, command) => context.platform.wallet.quote(command.from, command.to, command.amount, context.nowMs),
    render: quoteBody,
  }),
  rowPrimary<SwapCommand, SwapOrder>('swap', {
    method: 'POST',
    path: '/v1/wallet/swap',
    limits: { serviceRowB: true, row: 'wallet-swap' },
    summary: 'Open a swap order to to_address: send the input to its deposit address; 120 per minute.',
    parse: (input) => knownQuery(input.query, NO_KEYS) ?? parseSwap(input.body),
    run: (context, command) => context.platform.wallet.swap(command, context.nowMs, walletCaller(context)),
    render: swapOrderBody,
  }),
  rowPrimary<{ chain: WalletChain }, WalletChain>('deposit-address', {
    method: 'GET',
    path: '/v1/wallet/deposit-address',
    summary: 'How to derive your deposit address locally (derivation path and method); query chain (default base).',
    parse: (input) => {
      const unknown = knownQuery(input.query, DEPOSIT_QUERY);
      if (unknown !== null) return unknown;
      const chain = input.query['chain'] === undefined ? 'base' : parseChain(input.query['chain'], 'chain');
      return isFailure(chain) ? chain : { chain };
    },
    run: (_context, command) => succeed(command.chain),
    render: (chain) => ({
      chain,
      derivation_path: DEPOSIT_PATHS[chain],
      method: DEPOSIT_METHODS[chain],
      instructions:
        'The service keeps no keys: derive this address locally from your mnemonic (POST /v1/wallet/create returned it once) and send funds to it.',
    }),
  }),
  rowPrimary<
    { chain: WalletChain; address: string; limit: number },
    { chain: WalletChain; address: string; txs: WalletTx[] }
  >('transactions', {
    method: 'GET',
    path: '/v1/wallet/transactions/:address',
    summary:
      'Recent transactions of an address, newest first; chain bitcoin, solana, base or ethereum; limit 10 (max 100).',
    parse: parseHistory,
    run: (context, command) => {
      const txs = context.platform.wallet.transactions(command.chain, command.address, command.limit);
      return txs.ok ? succeed({ chain: command.chain, address: command.address, txs: txs.value }) : txs;
    },
    render: (view) => ({
      address: view.address,
      chain: view.chain,
      transactions: view.txs.map(txBody),
      count: view.txs.length,
    }),
  }),
  rowPrimary<{ orderId: string }, SwapOrder>('swap-status', {
    method: 'GET',
    path: '/v1/wallet/swap/status/:orderId',
    summary: "A swap order's status: waiting, confirming, exchanging, sending, finished, failed, refunded or expired.",
    parse: (input) => {
      const unknown = knownQuery(input.query, NO_KEYS);
      if (unknown !== null) return unknown;
      const orderId = requiredString(input.params['orderId'], 'orderId', 64);
      return isFailure(orderId) ? orderId : { orderId };
    },
    run: (context, command) => context.platform.wallet.swapStatus(command.orderId),
    render: swapOrderBody,
  }),
  rowPrimary<null, null>('chains', {
    method: 'GET',
    path: '/v1/wallet/chains',
    auth: 'none',
    summary: 'The wallet chains (with their tokens by contract address) and the swap chains.',
    parse: noInput,
    run: () => succeed(null),
    render: chainsBody,
  }),
];

export const walletPrimaryRoutes: readonly Route[] = rows;
