/**
 * The wallet's two further styles over the same WalletService (spec/wallet.md): style A (mount
 * 'wallet', /api/v1/...) and style B (mount 'api', /wallet-api/...). Both answer per agent, over the
 * public addresses of the caller's latest wallet (POST /v1/wallet/create; 404 before one exists):
 * the service keeps those addresses, never a key, so a send still carries its private_key.
 * afp's readings where the spec is silent (docs/decisions/wallet.md "Wallet"):
 * - A /swap: `from` and `to` are `<chain>:<token contract address>`; it opens an order paying the
 *   caller's own address on the output chain; received_usdc is the quoted output's USD value;
 *   slippage (percent, 0 to 50) must be at least the quote's allowance (1%), else 400.
 * - B moves USDC (the chain's USDC contract): its amounts are USDC numbers, its balance is per chain
 *   `usdc` and `eth` (polygon: bridged WETH) beside the native coin. Its four chains are simulated:
 *   ethereum, base, and polygon and arbitrum, which only B reaches (the same EVM address and key
 *   as ethereum). B's `to` may be an agent id (its latest wallet).
 */
import { assert } from '../../../core/assert.ts';
import { fail, isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import { parseNumber } from '../../../core/money.ts';
import type { WalletTx } from '../../../services/wallet/chain-book.ts';
import type { WalletChain } from '../../../services/wallet/keys/wallet-keys.ts';
import type { SwapOrder } from '../../../services/wallet/swap-desk.ts';
import { chainRow, keyChainOf, type SimChain } from '../../../services/wallet/wallet-config.ts';
import {
  assetByAddress,
  assetsOf,
  formatUnits,
  HISTORY_CHAINS,
  parseAmount,
  WALLET_CHAIN_NAMES,
  type Asset,
} from '../../../services/wallet/wallet-assets.ts';
import type { SendCommand, SwapCommand } from '../../../services/wallet/wallet.ts';
import type { Platform } from '../../../platform/platform.ts';
import type { Route, RouteContext } from '../../route.ts';
import { styleAFamily, styleBFamily } from '../../route-family.ts';
import {
  knownQuery,
  NO_KEYS,
  noInput,
  objectBody,
  optionalString,
  queryEnum,
  queryLimit,
  requiredString,
} from '../../validate.ts';
import { ADDRESS_TEXT_MAX, KEY_TEXT_MAX, logSendBody, MEMO_TEXT_MAX, parseSend } from './wallet-parse.ts';
import { walletCaller } from './wallet-primary.ts';
import { swapOrderBody, txBody, usdNumber } from './wallet-render.ts';

type Addresses = Readonly<Record<WalletChain, string>>;
const B_CHAINS = ['ethereum', 'polygon', 'arbitrum', 'base'] as const;
type ChainB = (typeof B_CHAINS)[number];
const SWAP_A_FIELDS = ['from', 'to', 'amount', 'slippage'];
const SEND_B_FIELDS = ['to', 'amount', 'chain', 'memo', 'private_key'];
const HISTORY_A_QUERY = ['limit'];
const HISTORY_B_QUERY = ['limit', 'type', 'chain'];
const BALANCE_B_QUERY = ['chain'];
const HISTORY_B_DEFAULT = 20;
const SLIPPAGE_PCT_MAX = 50;

function walletOf(context: RouteContext): Addresses | Failure {
  const addresses = context.platform.wallet.addressesOf(walletCaller(context));
  return addresses ?? fail('NOT_FOUND', 'no wallet yet: create one with POST /v1/wallet/create');
}

/** The agent's address on a simulated chain (polygon and arbitrum: its ethereum address). */
function addressOn(addresses: Addresses, chain: SimChain): string {
  return addresses[keyChainOf(chain)];
}

function usdcOf(chain: SimChain): Asset {
  const token = assetsOf(chain).find((asset) => asset.symbol === 'USDC');
  assert(token !== undefined, `style B's chains hold USDC (${chain})`);
  return token;
}

/** Per chain: every asset's amount and USD value at the caller's address. */
function balancesA(platform: Platform, addresses: Addresses, nowMs: number): JsonObject {
  const chains: JsonObject = {};
  let total = 0n;
  for (const chain of WALLET_CHAIN_NAMES) {
    let chainUsd = 0n;
    const assets: JsonObject = {};
    for (const asset of assetsOf(chain)) {
      const units = platform.wallet.chains.balanceOf(chain, asset.address, addresses[chain]);
      const usd = platform.wallet.usdValue(asset, units, nowMs);
      chainUsd += usd;
      assets[asset.symbol] = { amount: formatUnits(units, asset.decimals), usdc_equivalent: usdNumber(usd) };
    }
    total += chainUsd;
    chains[chain] = { address: addresses[chain], assets, usdc_equivalent: usdNumber(chainUsd) };
  }
  return { chains, total_usdc_equivalent: usdNumber(total) };
}

/** `<chain>:<token address>` of style A's swap. */
function chainAsset(value: unknown, name: string): Asset | Failure {
  const text = requiredString(value, name, ADDRESS_TEXT_MAX + 16);
  if (isFailure(text)) return text;
  const at = text.indexOf(':');
  const chain = WALLET_CHAIN_NAMES.find((one) => one === text.slice(0, at));
  if (at < 0 || chain === undefined)
    return fail(
      'BAD_REQUEST',
      `${name} must be <chain>:<token contract address>, chain one of ${WALLET_CHAIN_NAMES.join(', ')}`,
      { field: name },
    );
  return assetByAddress(chain, text.slice(at + 1), name);
}

function parseSwapA(body: unknown): { from: Asset; to: Asset; amount: bigint } | Failure {
  const fields = objectBody(body, SWAP_A_FIELDS);
  if (isFailure(fields)) return fields;
  const from = chainAsset(fields['from'], 'from');
  if (isFailure(from)) return from;
  const to = chainAsset(fields['to'], 'to');
  if (isFailure(to)) return to;
  if (typeof fields['amount'] !== 'number') return fail('BAD_REQUEST', 'amount must be a number', { field: 'amount' });
  const amount = parseAmount(fields['amount'], from.decimals, 'amount');
  if (isFailure(amount)) return amount;
  const slippage = fields['slippage'];
  if (
    slippage !== undefined &&
    slippage !== null &&
    (typeof slippage !== 'number' || !Number.isFinite(slippage) || slippage < 1 || slippage > SLIPPAGE_PCT_MAX)
  ) {
    return fail('BAD_REQUEST', `slippage must be a percentage from 1 (the quote's allowance) to ${SLIPPAGE_PCT_MAX}`, {
      field: 'slippage',
    });
  }
  return { from, to, amount };
}

/** Newest first across the caller's addresses on the history chains. */
function historyOf(
  platform: Platform,
  addresses: Addresses,
  chains: readonly SimChain[],
  limit: number,
  type: 'send' | 'receive' | 'all',
): WalletTx[] {
  const all: WalletTx[] = [];
  for (const chain of chains)
    all.push(
      ...platform.wallet.chains.historyOf(
        chain,
        addresses[keyChainOf(chain)],
        platform.wallet.config.historyPerAddressMax,
      ),
    );
  const mine = (tx: WalletTx, address: string): boolean =>
    tx.from !== null && tx.from.toLowerCase() === address.toLowerCase();
  return all
    .filter((tx) => type === 'all' || (type === 'send') === mine(tx, addressOn(addresses, tx.chain)))
    .sort((one, two) => two.sentAtMs - one.sentAtMs || (one.hash < two.hash ? -1 : 1))
    .slice(0, limit);
}

const rowA = styleAFamily('wallet');
const rowB = styleBFamily('wallet');

const rowsA: readonly Route[] = [
  rowA<null, Addresses>('balance', {
    method: 'GET',
    path: '/api/v1/balance',
    summary: 'Balances of your wallet on every chain, each asset with its usdc_equivalent.',
    parse: noInput,
    run: (context) => {
      const wallet = walletOf(context);
      return isFailure(wallet) ? wallet : succeed(wallet);
    },
    render: (addresses, context) => balancesA(context.platform, addresses, context.nowMs),
  }),
  rowA<null, Addresses>('addresses', {
    method: 'GET',
    path: '/api/v1/addresses',
    summary: 'Your deposit address on every chain (those of your latest wallet).',
    parse: noInput,
    run: (context) => {
      const wallet = walletOf(context);
      return isFailure(wallet) ? wallet : succeed(wallet);
    },
    render: (addresses) => ({ addresses: { ...addresses } }),
  }),
  rowA<SendCommand, WalletTx>('send', {
    method: 'POST',
    path: '/api/v1/send',
    limits: { serviceRowB: true, row: 'wallet-send' },
    summary: 'Send a coin or token on any chain, signed with the private key supplied (as POST /v1/wallet/send).',
    parse: (input, context) => parseSend(input.body, context),
    run: (context, command) => context.platform.wallet.send(command, context.nowMs),
    logBody: logSendBody,
    render: txBody,
  }),
  rowA<{ from: Asset; to: Asset; amount: bigint }, SwapOrder>('swap', {
    method: 'POST',
    path: '/api/v1/swap',
    limits: { serviceRowB: true, row: 'wallet-swap' },
    summary:
      'Swap from <chain>:<token> to <chain>:<token> paying your own address: an order (deposit, then status); received_usdc quoted.',
    parse: (input) => knownQuery(input.query, NO_KEYS) ?? parseSwapA(input.body),
    run: (context, command) => {
      const wallet = walletOf(context);
      if (isFailure(wallet)) return wallet;
      const swap: SwapCommand = { ...command, toAddress: addressOn(wallet, command.to.chain) };
      return context.platform.wallet.swap(swap, context.nowMs, walletCaller(context));
    },
    render: (order, context) => ({
      ...swapOrderBody(order),
      received_usdc: usdNumber(context.platform.wallet.usdValue(order.quote.to, order.quote.toAmount, context.nowMs)),
    }),
  }),
  rowA<number, WalletTx[]>('transactions', {
    method: 'GET',
    path: '/api/v1/transactions',
    summary: 'Your history on bitcoin, solana, base and ethereum, newest first (limit 10, max 100).',
    parse: (input, context) =>
      knownQuery(input.query, HISTORY_A_QUERY) ??
      queryLimit(
        input.query,
        context.platform.wallet.config.historyLimitDefault,
        context.platform.wallet.config.historyLimitMax,
      ),
    run: (context, limit) => {
      const wallet = walletOf(context);
      return isFailure(wallet) ? wallet : succeed(historyOf(context.platform, wallet, HISTORY_CHAINS, limit, 'all'));
    },
    render: (txs) => ({ transactions: txs.map(txBody), count: txs.length }),
  }),
];

function parseSendB(body: unknown, context: RouteContext): SendCommand | Failure {
  const fields = objectBody(body, SEND_B_FIELDS);
  if (isFailure(fields)) return fields;
  const evm = queryEnum(
    {
      chain:
        typeof fields['chain'] === 'string'
          ? fields['chain']
          : fields['chain'] === undefined || fields['chain'] === null
            ? 'ethereum'
            : '',
    },
    'chain',
    B_CHAINS,
    'ethereum',
  );
  if (isFailure(evm)) return evm;
  let to = requiredString(fields['to'], 'to', ADDRESS_TEXT_MAX);
  if (isFailure(to)) return to;
  if (!to.startsWith('0x')) {
    const agent = context.platform.agents.resolve(to);
    const addresses = agent === undefined ? null : context.platform.wallet.addressesOf(agent.id);
    if (addresses === null) return fail('NOT_FOUND', `recipient ${to} is not an agent with a wallet`, { field: 'to' });
    to = addressOn(addresses, evm);
  }
  if (typeof fields['amount'] !== 'number' || isFailure(parseNumberChecked(fields['amount'])))
    return fail('BAD_REQUEST', 'amount must be a positive number of USDC with at most 6 decimals', { field: 'amount' });
  const memo = optionalString(fields['memo'], 'memo', MEMO_TEXT_MAX);
  if (isFailure(memo)) return memo;
  const key = optionalString(fields['private_key'], 'private_key', KEY_TEXT_MAX);
  if (isFailure(key)) return key;
  const usdc = usdcOf(evm);
  return parseSend(
    {
      chain: evm,
      to,
      amount: fields['amount'],
      token: usdc.address,
      private_key: key,
      ...(memo === undefined ? {} : { memo }),
    },
    context,
    B_CHAINS,
  );
}

function parseNumberChecked(value: number): bigint | Failure {
  const parsed = parseNumber(value);
  return typeof parsed === 'bigint' && parsed > 0n ? parsed : fail('BAD_REQUEST', 'amount');
}

/** ETH on a B chain: its native coin, or on polygon (native POL) the bridged WETH token. */
function ethOf(chain: ChainB): Asset {
  const eth = assetsOf(chain).find((asset) => asset.symbol === 'ETH' || asset.symbol === 'WETH');
  assert(eth !== undefined, `style B's chains hold ETH or WETH (${chain})`);
  return eth;
}

function balanceB(platform: Platform, addresses: Addresses, chain: ChainB | 'all'): JsonObject {
  const chains: JsonObject = {};
  let total = 0n;
  for (const one of B_CHAINS) {
    if (chain !== 'all' && one !== chain) continue;
    const address = addressOn(addresses, one);
    const usdc = platform.wallet.chains.balanceOf(one, usdcOf(one).address, address);
    const eth = ethOf(one);
    const row = chainRow(one);
    total += usdc;
    chains[one] = {
      usdc: formatUnits(usdc, 6),
      eth: formatUnits(platform.wallet.chains.balanceOf(one, eth.address, address), eth.decimals),
      native: formatUnits(platform.wallet.chains.balanceOf(one, row.nativeAsset, address), row.decimals),
      native_symbol: row.symbol,
    };
  }
  return { usdc: formatUnits(total, 6), chains };
}

const rowsB: readonly Route[] = [
  rowB<ChainB | 'all', { addresses: Addresses; chain: ChainB | 'all' }>('balance', {
    method: 'GET',
    path: '/wallet-api/balance',
    summary: 'Your USDC total and, per chain, usdc and eth (chain ethereum, polygon, arbitrum or base; default all).',
    parse: (input) =>
      knownQuery(input.query, BALANCE_B_QUERY) ?? queryEnum(input.query, 'chain', [...B_CHAINS, 'all'] as const, 'all'),
    run: (context, chain) => {
      const wallet = walletOf(context);
      return isFailure(wallet) ? wallet : succeed({ addresses: wallet, chain });
    },
    render: (view, context) => balanceB(context.platform, view.addresses, view.chain),
  }),
  rowB<SendCommand, WalletTx>('send', {
    method: 'POST',
    path: '/wallet-api/send',
    limits: { serviceRowB: true, row: 'wallet-send' },
    summary: 'Send USDC to an EVM address or an agent id (chain default ethereum; memo optional; private_key signs).',
    parse: (input, context) => knownQuery(input.query, NO_KEYS) ?? parseSendB(input.body, context),
    run: (context, command) => context.platform.wallet.send(command, context.nowMs),
    logBody: logSendBody,
    render: (tx) => ({
      tx_hash: tx.hash,
      status: tx.status,
      amount: Number(formatUnits(tx.amount, tx.decimals)),
      fee: formatUnits(tx.fee, chainRow(tx.chain).decimals),
      fee_symbol: chainRow(tx.chain).symbol,
      chain: tx.chain,
      to: tx.to,
      memo: tx.memo,
    }),
  }),
  rowB<null, Addresses>('address', {
    method: 'GET',
    path: '/wallet-api/address',
    summary: 'Your deposit address per chain (ethereum, arbitrum, base, polygon: one EVM address).',
    parse: noInput,
    run: (context) => {
      const wallet = walletOf(context);
      return isFailure(wallet) ? wallet : succeed(wallet);
    },
    render: (addresses) => ({ addresses: Object.fromEntries(B_CHAINS.map((chain) => [chain, addresses.ethereum])) }),
  }),
  rowB<{ limit: number; type: 'send' | 'receive' | 'all'; chains: readonly SimChain[] }, WalletTx[]>('transactions', {
    method: 'GET',
    path: '/wallet-api/transactions',
    summary:
      'Your history (limit 20, max 100; type send, receive or all; chain ethereum, polygon, arbitrum or base, default all).',
    parse: (input, context) => {
      const unknown = knownQuery(input.query, HISTORY_B_QUERY);
      if (unknown !== null) return unknown;
      const limit = queryLimit(input.query, HISTORY_B_DEFAULT, context.platform.wallet.config.historyLimitMax);
      if (isFailure(limit)) return limit;
      const type = queryEnum(input.query, 'type', ['send', 'receive', 'all'] as const, 'all');
      if (isFailure(type)) return type;
      const chain = queryEnum(input.query, 'chain', [...B_CHAINS, 'all'] as const, 'all');
      if (isFailure(chain)) return chain;
      const chains = chain === 'all' ? B_CHAINS : [chain];
      return { limit, type, chains };
    },
    run: (context, command) => {
      const wallet = walletOf(context);
      return isFailure(wallet)
        ? wallet
        : succeed(historyOf(context.platform, wallet, command.chains, command.limit, command.type));
    },
    render: (txs) => ({ transactions: txs.map(txBody), count: txs.length }),
  }),
  rowB<{ hash: string }, WalletTx>('tx', {
    method: 'GET',
    path: '/wallet-api/tx/:hash',
    summary: 'A transaction by hash: pending, confirmed or failed.',
    parse: (input) => {
      const unknown = knownQuery(input.query, NO_KEYS);
      if (unknown !== null) return unknown;
      const hash = requiredString(input.params['hash'], 'hash', 130);
      return isFailure(hash) ? hash : { hash };
    },
    run: (context, command) => context.platform.wallet.transaction(command.hash),
    render: txBody,
  }),
];

export const walletStyleRoutes: readonly Route[] = [...rowsA, ...rowsB];
