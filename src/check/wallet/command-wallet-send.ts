/**
 * The wallet send command of `afp check` (command-wallet.ts holds the others): sends of the native
 * coin and of tokens, signed with the right key (with or without `from`) or another wallet's key
 * naming `from` (403), amounts of part, all, above the balance and a dust amount, to a run wallet,
 * a token's own contract or a waiting order's deposit address. A send drawn `funded` moves to a
 * chain where the wallet holds coin, so sends meet balances in random runs.
 */
import type { AfpClient } from '../../client/client.ts';
import type { WalletChainName } from '../../client/wallet-client.ts';
import { WALLET_CHAINS, type WalletChain } from '../../services/wallet/keys/wallet-keys.ts';
import type { CheckModel } from '../check-model.ts';
import { eq, failure, type Prediction } from '../expectation.ts';
import { expectAnswer } from '../model-command.ts';
import { SCOPES } from '../model-limits.ts';
import {
  balanceOf,
  chainOf,
  feeOf,
  nativeOf,
  nextBlockMs,
  recordSend,
  sendFeeOf,
  txMatcher,
  modelUnitsText,
} from './model-wallet.ts';
import type { ModelWallet, ModelWalletTx, WalletAsset } from './wallet-state.ts';
import { waitingOrderAt } from './model-wallet-swaps.ts';
import { walletSpec, type WalletCommandSpec } from './wallet-frame.ts';
import { secretsOf } from './wallet-keyring.ts';
import { assetOf, otherSecrets, ownerClient, predictBalance, walletAt } from './command-wallet.ts';

/** Where a send goes: a run wallet (possibly its own), the token's own contract (reverts), or a waiting order's deposit address. */
export type Destination =
  | { readonly kind: 'wallet'; readonly index: number }
  | { readonly kind: 'contract' }
  | { readonly kind: 'deposit'; readonly index: number };
/** part: a quarter of the balance; all: everything the fee leaves; above: one unit more (422); dust: 1 base unit (solana: below rent). */
export type SendAmount = 'part' | 'all' | 'above' | 'dust';
/** right: private key only (monero: from, view and spend key); right-from: also `from`; wrong: another wallet's key naming this `from` (403). */
export type SendKey = 'right' | 'right-from' | 'wrong';

export interface SendInput {
  readonly wallet: number;
  readonly chain: WalletChain;
  /** The first wallet from `wallet` on holding native coin, and on it the first chain from `chain` on where it holds some (if any). */
  readonly funded: boolean;
  readonly token: number | null;
  readonly to: Destination;
  readonly amount: SendAmount;
  readonly key: SendKey;
  readonly memo: boolean;
}

interface ResolvedSend {
  readonly wallet: ModelWallet;
  readonly chain: WalletChain;
  readonly asset: WalletAsset;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

function depositOrder(
  model: Readonly<CheckModel>,
  chain: WalletChain,
  index: number,
): { address: string; asset: WalletAsset; amount: bigint } | undefined {
  const open = model.wallet.orders.filter(
    (order) =>
      order.status === 'waiting' && order.from.chain === chain && nextBlockMs(chain, model.nowMs) < order.expiresAtMs,
  );
  const order = open.length === 0 ? undefined : open[index % open.length];
  return order === undefined || waitingOrderAt(model.wallet, chain, order.depositAddress) !== order
    ? undefined
    : { address: order.depositAddress, asset: order.from, amount: order.fromAmount };
}

/** The drawn chain, or with `funded` the first chain from it on (cyclically) where the wallet holds native coin. */
function sendChain(model: Readonly<CheckModel>, wallet: ModelWallet, input: SendInput): WalletChain {
  if (!input.funded) return input.chain;
  const start = WALLET_CHAINS.indexOf(input.chain);
  for (let step = 0; step < WALLET_CHAINS.length; step++) {
    const chain = WALLET_CHAINS[(start + step) % WALLET_CHAINS.length] as WalletChain;
    if (balanceOf(model.wallet, nativeOf(chain), wallet.addresses[chain]) > 0n) return chain;
  }
  return input.chain;
}

/** The drawn wallet, or with `funded` the first wallet from it on (cyclically) that holds native coin somewhere. */
function sendWallet(model: Readonly<CheckModel>, input: SendInput): ModelWallet | undefined {
  const wallets = model.wallet.wallets;
  if (!input.funded) return walletAt(model, input.wallet);
  for (let step = 0; step < wallets.length; step++) {
    const wallet = wallets[(input.wallet + step) % wallets.length] as ModelWallet;
    if (WALLET_CHAINS.some((chain) => balanceOf(model.wallet, nativeOf(chain), wallet.addresses[chain]) > 0n))
      return wallet;
  }
  // No wallet holds anything yet: a funded send waits (unfunded draws cover the empty wallets' 422).
  return undefined;
}

function resolveSend(model: Readonly<CheckModel>, drawn: SendInput): ResolvedSend | undefined {
  const wallet = sendWallet(model, drawn);
  if (wallet === undefined) return undefined;
  const input = { ...drawn, chain: sendChain(model, wallet, drawn) };
  const from = wallet.addresses[input.chain];
  let asset = assetOf(input.chain, input.token);
  // `funded`: a token the wallet does not hold gives way to the native coin.
  if (input.funded && !asset.native && balanceOf(model.wallet, asset, from) === 0n) asset = nativeOf(input.chain);
  let to: string;
  let depositAmount: bigint | null = null;
  switch (input.to.kind) {
    case 'wallet':
      to = (walletAt(model, input.to.index) ?? wallet).addresses[input.chain];
      break;
    case 'contract':
      if (asset.native) return undefined;
      // On a live serve a token's own contract may hold an account an earlier run's send opened, which
      // decides the rent in this send's fee: the model of one run cannot know it (chains without rent: any).
      if (model.capabilities.freshChains === false && chainOf(input.chain).tokenAccountRent > 0n) return undefined;
      to = asset.address;
      break;
    case 'deposit': {
      const order = depositOrder(model, input.chain, input.to.index);
      if (order === undefined) return undefined;
      to = order.address;
      // A token draw deposits the order's own asset; a native draw another asset (refunded).
      if (input.token !== null) asset = order.asset;
      depositAmount = order.amount;
    }
  }
  const held = balanceOf(model.wallet, asset, from);
  const spendable = asset.native ? held - feeOf(asset) : held;
  let amount: bigint;
  if (depositAmount !== null && input.amount !== 'above')
    amount = input.amount === 'part' ? depositAmount : input.amount === 'all' ? depositAmount + 1n : depositAmount - 1n;
  else if (input.amount === 'part') amount = held / 4n;
  else if (input.amount === 'all') amount = spendable;
  else if (input.amount === 'above') amount = spendable + 1n;
  else amount = 1n;
  return { wallet, chain: input.chain, asset, from, to, amount: amount > 0n ? amount : 1n };
}

export function predictSend(
  model: Readonly<CheckModel>,
  send: ResolvedSend,
  key: SendKey,
  memo: string | null,
): { prediction: Prediction; draft: ModelWalletTx | null } {
  if (key === 'wrong') return { prediction: failure(403, 'FORBIDDEN'), draft: null };
  const { asset } = send;
  const native = nativeOf(asset.chain);
  const fee = sendFeeOf(model.wallet, asset, send.to);
  const nativeHeld = balanceOf(model.wallet, native, send.from);
  const needNative = asset.native ? send.amount + fee : fee;
  if (nativeHeld < needNative || (!asset.native && balanceOf(model.wallet, asset, send.from) < send.amount))
    return { prediction: failure(422, 'INSUFFICIENT_BALANCE'), draft: null };
  const draft: ModelWalletTx = {
    hash: null,
    kind: 'send',
    asset,
    from: send.from,
    to: send.to,
    amount: send.amount,
    fee,
    memo,
    sentAtMs: model.nowMs,
    blockAtMs: nextBlockMs(asset.chain, model.nowMs),
    status: 'pending',
  };
  return { prediction: { expected: { status: 200, body: { ...txMatcher(draft), failure: eq(null) } } }, draft };
}

function sendBody(
  model: Readonly<CheckModel>,
  input: SendInput,
  send: ResolvedSend,
  memo: string | null,
): Record<string, unknown> {
  const own = secretsOf(model.wallet, send.wallet.index);
  const keys = input.key === 'wrong' ? otherSecrets(model, send.wallet) : own;
  const body: Record<string, unknown> = {
    chain: send.chain,
    to: send.to,
    amount: modelUnitsText(send.amount, send.asset.decimals),
  };
  if (!send.asset.native) body['token'] = send.asset.address;
  if (memo !== null) body['memo'] = memo;
  if (send.chain === 'monero')
    return { ...body, from: send.from, view_key: keys.monero.viewKey, spend_key: keys.monero.spendKey };
  body['private_key'] = keys.privateKeys[send.chain];
  if (input.key !== 'right') body['from'] = send.from;
  return body;
}

function describeDestination(to: Destination): string {
  return to.kind === 'wallet' ? `w${to.index}` : to.kind === 'contract' ? 'its contract' : `deposit#${to.index}`;
}

export function sendCommand(input: SendInput): WalletCommandSpec {
  const asset = assetOf(input.chain, input.token);
  const label = `walletSend(w${input.wallet}${input.funded ? '+' : ''}, ${input.chain}${input.funded ? '+' : ''} ${input.to.kind === 'deposit' && input.token !== null ? 'order asset' : asset.symbol}, to ${describeDestination(input.to)}, ${input.amount}, key ${input.key}${input.memo ? ', memo' : ''})`;
  return walletSpec({
    label,
    applicable: (model) => resolveSend(model, input) !== undefined,
    // The send, and a balance read after a refused one.
    charges: (model) => [
      { slot: sendWallet(model, input)?.slot ?? 0, scopes: SCOPES.walletSend },
      { slot: sendWallet(model, input)?.slot ?? 0, scopes: SCOPES.walletPrimary },
    ],
    parties: (model) => [sendWallet(model, input)?.slot ?? 0],
    execute: async (model, system) => {
      const send = resolveSend(model, input);
      if (send === undefined) throw new Error(`${label}: precondition broken`);
      const memo = input.memo ? 'afp check' : null;
      const { prediction, draft } = predictSend(model, send, input.key, memo);
      const answer = await ownerClient(model, system, send.wallet).wallet.send(
        sendBody(model, input, send, memo) as unknown as Parameters<AfpClient['wallet']['send']>[0],
      );
      expectAnswer(
        `${label} (w${send.wallet.index} ${send.chain}, amount ${modelUnitsText(send.amount, send.asset.decimals)} ${send.asset.symbol})`,
        model,
        answer,
        {
          expected: prediction.expected,
          commit: (body) => {
            if (draft !== null)
              recordSend(
                model.wallet,
                {
                  kind: 'send',
                  asset: draft.asset,
                  from: draft.from ?? '',
                  to: draft.to,
                  amount: draft.amount,
                  memo: draft.memo,
                  hash: String(body['tx_hash']),
                },
                draft.sentAtMs,
              );
          },
        },
      );
      if (draft !== null) return;
      // Refused: nothing moved on the sender's chain.
      const viewKey =
        send.chain === 'monero' ? { view_key: secretsOf(model.wallet, send.wallet.index).monero.viewKey } : {};
      const balance = await ownerClient(model, system, send.wallet).wallet.balance(send.from, {
        chain: send.chain as WalletChainName,
        ...viewKey,
      });
      expectAnswer(
        `${label}, then the balance of w${send.wallet.index} on ${send.chain}`,
        model,
        balance,
        predictBalance(model, send.chain, send.from, 'own'),
      );
    },
  });
}
