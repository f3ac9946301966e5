/**
 * The wallet's rows of the `afp check` command table and its bad inputs. Draws favour what makes
 * later commands meaningful: creating a wallet and minting to it (so sends meet balances), the
 * first wallets (w0, w1), sends to the run's own wallets. Bad inputs (WALLET_BAD_INPUTS): each a
 * 4xx JSON answer that moves nothing — the wallet's balance on the row's chain is read back after
 * it (and the frame reads every agent's balance back).
 */
import fc from 'fast-check';
import type { WalletEndpointId } from '../../client/wallet-client.ts';
import { WALLET_CHAINS, type WalletChain } from '../../services/wallet/keys/wallet-keys.ts';
import type { CheckModel } from '../check-model.ts';
import { failure } from '../expectation.ts';
import { expectAnswer, keyed, type CommandSpec } from '../model-command.ts';
import { SCOPES } from '../model-limits.ts';
import {
  balanceCommand,
  createWalletCommand,
  historyCommand,
  mintCommand,
  predictBalance,
  txLookupCommand,
  walletAt,
  type MintSize,
  type ViewKeyKind,
} from './command-wallet.ts';
import { sendCommand, type Destination, type SendAmount, type SendKey } from './command-wallet-send.ts';
import {
  quoteCommand,
  swapCommand,
  swapStatusCommand,
  walletReferralCommand,
  type ReferralCall,
  type SwapSize,
} from './command-wallet-swaps.ts';
import { tokensOf } from './model-wallet.ts';
import { walletSpec } from './wallet-frame.ts';
import { secretsOf } from './wallet-keyring.ts';

interface WalletBadInput {
  readonly name: string;
  readonly endpoint: WalletEndpointId;
  readonly status: 400 | 404;
  /** The chain whose balance of the wallet is read back afterwards. */
  readonly chain: WalletChain;
  input(
    model: Readonly<CheckModel>,
    wallet: number,
  ): { params?: Record<string, string>; query?: Record<string, string>; body?: unknown };
}

const address = (model: Readonly<CheckModel>, wallet: number, chain: WalletChain): string =>
  walletAt(model, wallet)?.addresses[chain] ?? '';
const key = (model: Readonly<CheckModel>, wallet: number, chain: Exclude<WalletChain, 'monero'>): string =>
  secretsOf(model.wallet, walletAt(model, wallet)?.index ?? 0).privateKeys[chain];
const USDC_ETHEREUM = tokensOf('ethereum')[0]?.address ?? '';

function send(chain: Exclude<WalletChain, 'monero'>, fields: Record<string, unknown>): WalletBadInput['input'] {
  return (model, wallet) => ({
    body: {
      chain,
      to: address(model, wallet, chain),
      amount: '0.001',
      private_key: key(model, wallet, chain),
      ...fields,
    },
  });
}

/** A send the wallet must refuse (400): a valid send on `chain` from the wallet to itself, with `fields` changed. */
function badSend(name: string, chain: Exclude<WalletChain, 'monero'>, fields: Record<string, unknown>): WalletBadInput {
  return { name, endpoint: 'wallet.primary.send', status: 400, chain, input: send(chain, fields) };
}

export const WALLET_BAD_INPUTS: readonly WalletBadInput[] = [
  badSend('send amount 0', 'base', { amount: '0' }),
  badSend('send amount negative', 'base', { amount: '-1' }),
  badSend('send amount 7 decimals on tron', 'tron', { amount: '0.0000001' }),
  badSend('send token by symbol', 'ethereum', { token: 'USDC' }),
  badSend('send token on bitcoin', 'bitcoin', { token: USDC_ETHEREUM }),
  badSend('send without private_key', 'base', { private_key: undefined }),
  badSend('send ill-formed private_key', 'ethereum', { private_key: '0x1234' }),
  badSend('send view_key on solana', 'solana', { view_key: '00'.repeat(32) }),
  badSend('send unknown field', 'base', { fee: '0' }),
  badSend('send to an invalid address', 'ethereum', { to: '0x1234' }),
  {
    name: 'monero send without from',
    endpoint: 'wallet.primary.send',
    status: 400,
    chain: 'monero',
    input: (model, wallet) => {
      const secrets = secretsOf(model.wallet, walletAt(model, wallet)?.index ?? 0);
      return {
        body: {
          chain: 'monero',
          to: address(model, wallet, 'monero'),
          amount: '0.001',
          view_key: secrets.monero.viewKey,
          spend_key: secrets.monero.spendKey,
        },
      };
    },
  },
  {
    name: 'balance on polygon',
    endpoint: 'wallet.primary.balance',
    status: 400,
    chain: 'base',
    input: (model, wallet) => ({ params: { address: address(model, wallet, 'base') }, query: { chain: 'polygon' } }),
  },
  {
    name: 'balance of an invalid bitcoin address',
    endpoint: 'wallet.primary.balance',
    status: 400,
    chain: 'bitcoin',
    input: () => ({ params: { address: 'bc1qnotanaddress' }, query: { chain: 'bitcoin' } }),
  },
  {
    name: 'quote on polygon',
    endpoint: 'wallet.primary.swap-quote',
    status: 400,
    chain: 'ethereum',
    input: () => ({
      query: {
        from_chain: 'polygon',
        to_chain: 'ethereum',
        from_token: USDC_ETHEREUM,
        to_token: USDC_ETHEREUM,
        amount: '1',
      },
    }),
  },
  {
    name: 'quote without amount',
    endpoint: 'wallet.primary.swap-quote',
    status: 400,
    chain: 'ethereum',
    input: () => ({
      query: {
        from_chain: 'ethereum',
        to_chain: 'tron',
        from_token: USDC_ETHEREUM,
        to_token: tokensOf('tron')[0]?.address ?? '',
      },
    }),
  },
  {
    name: 'swap to an address of another chain',
    endpoint: 'wallet.primary.swap',
    status: 400,
    chain: 'ethereum',
    input: (model, wallet) => ({
      body: {
        from_chain: 'ethereum',
        to_chain: 'tron',
        from_token: USDC_ETHEREUM,
        to_token: tokensOf('tron')[0]?.address ?? '',
        amount: '1',
        to_address: address(model, wallet, 'ethereum'),
      },
    }),
  },
  {
    name: 'history limit not a number',
    endpoint: 'wallet.primary.transactions',
    status: 400,
    chain: 'base',
    input: (model, wallet) => ({
      params: { address: address(model, wallet, 'base') },
      query: { chain: 'base', limit: 'ten' },
    }),
  },
  {
    name: 'deposit-address on polygon',
    endpoint: 'wallet.primary.deposit-address',
    status: 400,
    chain: 'base',
    input: () => ({ query: { chain: 'polygon' } }),
  },
  {
    name: 'create with a body',
    endpoint: 'wallet.primary.create',
    status: 400,
    chain: 'base',
    input: () => ({ body: { force: true } }),
  },
  {
    name: 'referral withdraw to an invalid address',
    endpoint: 'wallet.primary.referral-withdraw',
    status: 400,
    chain: 'base',
    input: () => ({ body: { address: '0x1234', chain: 'base' } }),
  },
  {
    name: 'unknown swap order',
    endpoint: 'wallet.primary.swap-status',
    status: 404,
    chain: 'base',
    input: () => ({ params: { orderId: 'swp_0000000000000000' } }),
  },
];

export function walletBadInputCommand(row: WalletBadInput, wallet: number): CommandSpec {
  const label = `walletBadInput(w${wallet}, ${row.name})`;
  const scopes =
    row.endpoint === 'wallet.primary.send'
      ? SCOPES.walletSend
      : row.endpoint === 'wallet.primary.swap'
        ? SCOPES.walletSwap
        : SCOPES.walletPrimary;
  return walletSpec({
    label,
    applicable: (model) => walletAt(model, wallet) !== undefined,
    charges: (model) => [
      { slot: walletAt(model, wallet)?.slot ?? 0, scopes },
      { slot: walletAt(model, wallet)?.slot ?? 0, scopes: SCOPES.walletPrimary },
    ],
    parties: (model) => [walletAt(model, wallet)?.slot ?? 0],
    execute: async (model, system) => {
      const owner = walletAt(model, wallet);
      if (owner === undefined) throw new Error(`${label}: precondition broken`);
      const client = keyed(model, system, owner.slot).wallet;
      expectAnswer(
        label,
        model,
        await client.call(row.endpoint, row.input(model, wallet)),
        failure(row.status, row.status === 400 ? 'BAD_REQUEST' : 'NOT_FOUND'),
      );
      // Nothing moved: the wallet's balance on the row's chain is still the model's.
      const held = owner.addresses[row.chain];
      const viewKey = row.chain === 'monero' ? { view_key: secretsOf(model.wallet, owner.index).monero.viewKey } : {};
      expectAnswer(
        `${label}, then the balance of w${wallet} on ${row.chain}`,
        model,
        await client.balance(held, { chain: row.chain, ...viewKey }),
        predictBalance(model, row.chain, held, 'own'),
      );
    },
  });
}

/** w0 and w1 most. */
const walletIndex = fc.constantFrom(0, 0, 0, 1, 1, 2, 3);
const slot = fc.constantFrom(0, 0, 0, 1, 1, 2, 3);
const chain = fc.constantFrom<WalletChain>(...WALLET_CHAINS);
/** Chains with tokens twice as often (ERC-20, TRC-20 sends and their fees). */
const sendChain = fc.constantFrom<WalletChain>(
  'ethereum',
  'ethereum',
  'base',
  'base',
  'tron',
  'tron',
  'solana',
  'bitcoin',
  'monero',
);
const token = fc.option(fc.constantFrom(0, 1), { freq: 2, nil: null });
const assetPick = fc.record({ chain, token });
const destination: fc.Arbitrary<Destination> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('wallet' as const), index: walletIndex }) },
  { weight: 1, arbitrary: fc.constant<Destination>({ kind: 'contract' }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('deposit' as const), index: fc.integer({ min: 0, max: 3 }) }) },
);

/** The wallet rows of the command table (command-table.ts adds them to its own): weight 25 in all. */
export const WALLET_SPECS: readonly { weight: number; arbitrary: fc.Arbitrary<CommandSpec> }[] = [
  { weight: 2, arbitrary: slot.map(createWalletCommand) },
  {
    weight: 6,
    arbitrary: fc
      .record({
        wallet: walletIndex,
        chain: sendChain,
        token,
        size: fc.constantFrom<MintSize>('large', 'large', 'small'),
      })
      .map(mintCommand),
  },
  {
    weight: 10,
    arbitrary: fc
      .record({
        wallet: walletIndex,
        chain: sendChain,
        funded: fc.constantFrom(true, true, true, false),
        token,
        to: destination,
        amount: fc.constantFrom<SendAmount>('part', 'part', 'all', 'above', 'dust'),
        key: fc.constantFrom<SendKey>('right', 'right', 'right-from', 'wrong'),
        memo: fc.boolean(),
      })
      .map(sendCommand),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ wallet: walletIndex, chain, viewKey: fc.constantFrom<ViewKeyKind>('own', 'own', 'none', 'other') })
      .map(balanceCommand),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ wallet: walletIndex, chain, limit: fc.constantFrom<number | null>(null, null, 1, 2, 100, 0, 101) })
      .map(historyCommand),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        slot,
        tx: fc.oneof({ weight: 5, arbitrary: fc.nat(20) }, { weight: 1, arbitrary: fc.constant('unknown' as const) }),
      })
      .map(txLookupCommand),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        slot,
        from: assetPick,
        to: assetPick,
        size: fc.constantFrom<SwapSize>('unit', 'large', 'tiny'),
        symbols: fc.boolean(),
      })
      .map(quoteCommand),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        wallet: walletIndex,
        from: fc.nat(3),
        to: fc.nat(3),
        size: fc.constantFrom<SwapSize>('unit', 'unit', 'large', 'tiny'),
        toWallet: walletIndex,
      })
      .map(swapCommand),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        slot,
        order: fc.oneof({ weight: 5, arbitrary: fc.nat(7) }, { weight: 1, arbitrary: fc.constant('unknown' as const) }),
      })
      .map(swapStatusCommand),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc
        .record({ slot, row: fc.constantFrom<ReferralCall>('code', 'stats', 'stats', 'withdraw') })
        .map(walletReferralCommand),
      fc
        .tuple(fc.constantFrom(...WALLET_BAD_INPUTS), walletIndex)
        .map(([row, wallet]) => walletBadInputCommand(row, wallet)),
    ),
  },
];
