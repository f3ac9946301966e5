/**
 * The documents' wallet (spec/wallet.md, primary interface under /v1 on the wallet's address), as
 * afp serves it on every documents style: register (the key field is not named by the documents;
 * afp's is `api_key`), create (200), balance (`chain` required; the native amount under
 * `balance.native.amount`), send (`tx_hash`), swap quote and swap (token contract addresses), and
 * style A's `/api/v1/balance` / style B's `/wallet-api/balance`. The wallet's requests are built
 * here once (`DEPLOYED_WALLET_REQUESTS`); the deployed dialect (../deployed/wallet.ts) sends the same
 * paths and reads the deployment's answers.
 */
import type { DialectRequest } from '../dialect.ts';
import { row, type DialectTable } from '../dialect.ts';
import type { OperationInput, OperationResult } from '../../operations.ts';
import type { WireReader } from '../../wire-reader.ts';
import { deployedPath } from '../../../http/deployed/deployed-wire.ts';

type Input<O extends 'wallet.balance' | 'wallet.send' | 'wallet.quote' | 'wallet.swap' | 'wallet.style-balance'> =
  OperationInput<O>;

const swapFields = (input: Input<'wallet.quote'>): Record<string, string> => ({
  from_chain: input.fromChain,
  to_chain: input.toChain,
  from_token: input.fromToken,
  to_token: input.toToken,
  amount: input.amount,
});

/** The wallet's requests, the same paths on the documents' primary interface and on the deployment (§6). */
export const DEPLOYED_WALLET_REQUESTS = {
  register: (): DialectRequest => ({
    service: 'wallet',
    method: 'POST',
    path: deployedPath('wallet.deployed.register'),
    body: {},
    auth: false,
  }),
  create: (): DialectRequest => ({
    service: 'wallet',
    method: 'POST',
    path: deployedPath('wallet.deployed.create'),
    auth: true,
  }),
  balance: (input: Input<'wallet.balance'>): DialectRequest => ({
    service: 'wallet',
    method: 'GET',
    path: deployedPath('wallet.deployed.balance', { address: input.address }),
    ...(input.chain === null
      ? {}
      : { query: { chain: input.chain, ...(input.viewKey === undefined ? {} : { view_key: input.viewKey }) } }),
    auth: true,
  }),
  send: (input: Input<'wallet.send'>): DialectRequest => ({
    service: 'wallet',
    method: 'POST',
    path: deployedPath('wallet.deployed.send'),
    body: {
      chain: input.chain,
      to: input.to,
      amount: input.amount,
      ...(input.privateKey === undefined ? {} : { private_key: input.privateKey }),
      ...(input.monero === undefined
        ? {}
        : { from: input.monero.from, view_key: input.monero.viewKey, spend_key: input.monero.spendKey }),
      ...(input.token === undefined ? {} : { token: input.token }),
    },
    auth: true,
  }),
  quote: (input: Input<'wallet.quote'>): DialectRequest => ({
    service: 'wallet',
    method: 'GET',
    path: deployedPath('wallet.deployed.swap-quote'),
    query: swapFields(input),
    auth: true,
  }),
  swap: (input: Input<'wallet.swap'>): DialectRequest => ({
    service: 'wallet',
    method: 'POST',
    path: deployedPath('wallet.deployed.swap'),
    body: { ...swapFields(input), to_address: input.toAddress },
    auth: true,
  }),
  transactions: (input: OperationInput<'wallet.transactions'>): DialectRequest => ({
    service: 'wallet',
    method: 'GET',
    path: deployedPath('wallet.deployed.transactions', { address: input.address }),
    query: {
      ...(input.chain === null ? {} : { chain: input.chain }),
      ...(input.limit === null ? {} : { limit: String(input.limit) }),
    },
    auth: true,
  }),
  swapStatus: (input: OperationInput<'wallet.swap-status'>): DialectRequest => ({
    service: 'wallet',
    method: 'GET',
    path: deployedPath('wallet.deployed.swap-status', { orderId: input.orderId }),
    auth: true,
  }),
  chains: (): DialectRequest => ({
    service: 'wallet',
    method: 'GET',
    path: deployedPath('wallet.deployed.chains'),
    auth: false,
  }),
  styleBalance: (input: Input<'wallet.style-balance'>): DialectRequest => ({
    service: 'wallet',
    method: 'GET',
    path: input.style === 'A' ? '/api/v1/balance' : '/wallet-api/balance',
    auth: true,
  }),
} as const;

/** The addresses object of a create answer (six chains), or null. */
export function readAddresses(reader: WireReader): Record<string, string> | null {
  const addresses = reader.object('addresses');
  if (addresses === null) return null;
  const out: Record<string, string> = {};
  for (const [chain, address] of Object.entries(addresses)) if (typeof address === 'string') out[chain] = address;
  return out;
}

/**
 * The fields each answer may carry besides those read: the one thing in which the documents' and
 * the deployment's readers of these rows differ (an unknown field is a deviation finding).
 */
export interface WalletKnownFields {
  readonly register: readonly string[];
  readonly balance: readonly string[];
  readonly send: readonly string[];
  readonly swap: readonly string[];
}

/** A balance: the native coin's amount, and the tokens where the answer lists them (a deployment lists none). */
function readBalance(reader: WireReader, known: readonly string[]): OperationResult<'wallet.balance'> {
  const chain = reader.string('chain', { optional: true });
  const symbol = reader.string('balance.native.symbol', { optional: true });
  const amount = reader.string('balance.native.amount');
  reader.knows(...known);
  const tokens = reader.has('balance.tokens')
    ? reader.items('balance.tokens', (token) => {
        token.knows('base_units', 'decimals');
        return {
          contract: token.string('contract', { optional: true }),
          symbol: token.string('symbol', { optional: true }),
          amount: token.string('amount', { optional: true }),
        };
      })
    : null;
  return { chain, symbol, amount, tokens };
}

/** The wallet's rows read under `known`: the same paths and fields on the documents' primary interface and on the deployment. */
export function walletReaders(known: WalletKnownFields): DialectTable {
  return {
    'wallet.register': row('wallet.register', {
      request: DEPLOYED_WALLET_REQUESTS.register,
      read: (reader) => {
        const agentId = reader.string('agent_id');
        const apiKey = reader.string('api_key');
        reader.knows(...known.register);
        return agentId === null || apiKey === null ? null : { agentId, apiKey };
      },
    }),
    'wallet.create': row('wallet.create', {
      request: DEPLOYED_WALLET_REQUESTS.create,
      read: (reader) => {
        const addresses = readAddresses(reader);
        const mnemonic = reader.string('mnemonic');
        reader.knows('addresses', 'monero_keys', 'derivation_paths', 'warning');
        return addresses === null ? null : { addresses, mnemonic };
      },
    }),
    'wallet.balance': row('wallet.balance', {
      request: DEPLOYED_WALLET_REQUESTS.balance,
      read: (reader) => readBalance(reader, known.balance),
    }),
    'wallet.send': row('wallet.send', {
      request: DEPLOYED_WALLET_REQUESTS.send,
      read: (reader) => {
        const txHash = reader.string('tx_hash');
        const amount = reader.string('amount', { optional: true });
        reader.knows(...known.send);
        return txHash === null ? null : { txHash, amount };
      },
    }),
    'wallet.quote': row('wallet.quote', {
      request: DEPLOYED_WALLET_REQUESTS.quote,
      read: (reader) => {
        const fromAmount = reader.string('quote.fromAmount');
        const toAmount = reader.string('quote.toAmount');
        const integratorFee = reader.string('integrator_fee', { optional: true });
        reader.knows('quote', 'next_step');
        return { fromAmount, toAmount, integratorFee };
      },
    }),
    'wallet.swap': row('wallet.swap', {
      request: DEPLOYED_WALLET_REQUESTS.swap,
      read: (reader) => {
        const orderId = reader.string('order_id');
        const status = reader.string('status', { optional: true });
        const depositAddress = reader.string('deposit.address', { optional: true });
        reader.knows(...known.swap);
        return orderId === null ? null : { orderId, status, depositAddress };
      },
    }),
    'wallet.style-balance': row('wallet.style-balance', {
      request: DEPLOYED_WALLET_REQUESTS.styleBalance,
      // Style B's wallet calls live on the documents' shared api_url, not on the wallet's address.
      unsupported: (input) =>
        input.style === 'B'
          ? "style B's wallet calls are served on the documents' api_url (/wallet-api), not on the wallet's address"
          : null,
      read: (reader) => {
        reader.knows(...Object.keys(typeof reader.body === 'object' && reader.body !== null ? reader.body : {}));
        return { served: true };
      },
    }),
  };
}

/** A wallet transaction's fields besides its hash and amount (a send's answer, a transactions list's element). */
export const WALLET_TX_FIELDS: readonly string[] = [
  'chain',
  'type',
  'status',
  'from',
  'to',
  'symbol',
  'token',
  'fee',
  'fee_symbol',
  'memo',
  'sent_at',
  'block_at',
  'block_height',
  'failure',
  'explorer',
];

const DOCUMENTS_KNOWN: WalletKnownFields = {
  register: ['referral_code', 'created_at', 'message'],
  balance: ['address', 'balance'],
  send: WALLET_TX_FIELDS,
  swap: [
    'swap_id',
    'deposit',
    'output',
    'fee',
    'created_at',
    'updated_at',
    'expires_at',
    'deposit_tx',
    'payout_tx',
    'refund_tx',
    'reason',
    'check_status',
  ],
};

export const WALLET_DOCUMENTS: DialectTable = walletReaders(DOCUMENTS_KNOWN);
