/**
 * Wallet commands of `afp check` (primary interface /v1, the style-B lookup by hash): create
 * (the six addresses and monero keys derived again from the mnemonic answered, with the keys
 * module, and compared; the keys kept in the command-side keyring only), mint (the admin door),
 * balances per chain and token in base units (monero with its own view key, none: 400, another's:
 * 403), sends of the native coin and of tokens signed with the right key (with or without `from`)
 * or another wallet's key naming `from` (403), amounts of part, all, above the balance and a dust
 * amount (a send drawn `funded` moves to a chain where the wallet holds coin, so sends meet
 * balances in random runs); history (limit and order) and the lookup by hash.
 * After every wallet command (wallet-frame.ts): the model's own conservation and, in-process, each
 * chain's fee account read back against the fees the model predicted.
 * One piece: a table, one row per wallet command, the list the generated sequences draw from.
 */
import type { AfpClient } from '../../client/client.ts';
import type { WalletChainName } from '../../client/wallet-client.ts';
import {
  DERIVATION_PATHS,
  isValidAddress,
  isValidMnemonic,
  WALLET_CHAINS,
  type WalletChain,
} from '../../services/wallet/keys/wallet-keys.ts';
import type { CheckModel } from '../check-model.ts';
import { eq, failure, list, object, text, type Matcher, type Prediction } from '../expectation.ts';
import { expectAnswer, inFaultWindow, keyed } from '../model-command.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import { derivedWallet } from './derived-wallets.ts';
import { SCOPES } from '../model-limits.ts';
import {
  balanceOf,
  chainOf,
  feeOf,
  historyOf,
  nativeOf,
  nextBlockMs,
  recordMint,
  recordSend,
  sendFeeOf,
  tokensOf,
  txMatcher,
  unitsText,
} from './model-wallet.ts';
import type { ModelWallet, ModelWalletTx, WalletAsset } from './wallet-state.ts';
import { waitingOrderAt } from './model-wallet-swaps.ts';
import { walletSpec, type WalletCommandSpec } from './wallet-frame.ts';
import { foreignSecrets, keepSecrets, secretsOf, type WalletSecrets } from './wallet-keyring.ts';

/** Wallets a run creates at most: commands then meet the same few, and each creation derives the six chains' keys twice (service and model, ~0.1 s). */
export const WALLETS_MAX = 3;

export function walletAt(model: Readonly<CheckModel>, index: number): ModelWallet | undefined {
  const wallets = model.wallet.wallets;
  return wallets.length === 0 ? undefined : wallets[index % wallets.length];
}

/** The frame of a command on the model's wallet `index`: drawn while it exists, charged to (and involving) the agent slot that created it. */
export function onWallet(
  index: number,
  scopes: (typeof SCOPES)[keyof typeof SCOPES],
): Pick<WalletCommandSpec, 'applicable' | 'charges' | 'parties'> {
  const slotOf = (model: Readonly<CheckModel>): number => walletAt(model, index)?.slot ?? 0;
  return {
    applicable: (model) => walletAt(model, index) !== undefined,
    charges: (model) => [{ slot: slotOf(model), scopes }],
    parties: (model) => [slotOf(model)],
  };
}

/** The frame of a command agent `slot` sends for itself: drawn while it is registered, charged to (and involving) it alone. */
export function onAgent(
  slot: number,
  scopes: (typeof SCOPES)[keyof typeof SCOPES],
): Pick<WalletCommandSpec, 'applicable' | 'charges' | 'parties'> {
  return {
    applicable: (model) => model.agents[slot] !== undefined,
    charges: () => [{ slot, scopes }],
    parties: () => [slot],
  };
}

/** A command on the model's wallet `index` (onWallet), run with that wallet, which its precondition made sure exists. */
function walletCommand(
  label: string,
  index: number,
  run: (model: CheckModel, system: Parameters<WalletCommandSpec['execute']>[1], wallet: ModelWallet) => Promise<void>,
): WalletCommandSpec {
  return walletSpec({
    label,
    ...onWallet(index, SCOPES.walletPrimary),
    execute: async (model, system) => {
      const wallet = walletAt(model, index);
      if (wallet === undefined) throw new Error(`${label}: precondition broken`);
      await run(model, system, wallet);
    },
  });
}

function ownerClient(
  model: Readonly<CheckModel>,
  system: Parameters<WalletCommandSpec['execute']>[1],
  wallet: ModelWallet,
): AfpClient {
  return keyed(model, system, wallet.slot);
}

export function createWalletCommand(slot: number): WalletCommandSpec {
  const label = `walletCreate(a${slot})`;
  return walletSpec({
    label,
    applicable: (model) => model.agents[slot] !== undefined && model.wallet.wallets.length < WALLETS_MAX,
    charges: () => [{ slot, scopes: SCOPES.walletPrimary }],
    parties: () => [slot],
    execute: async (model, system) => {
      const answer = await keyed(model, system, slot).wallet.create();
      // One of the target's fault windows: nothing was created.
      if (inFaultWindow(model, answer)) return;
      const body = (answer.body ?? {}) as Readonly<Record<string, unknown>>;
      const mnemonic = body['mnemonic'];
      if (
        answer.status !== 200 ||
        typeof mnemonic !== 'string' ||
        mnemonic.split(' ').length !== 24 ||
        !isValidMnemonic(mnemonic)
      ) {
        throw new CheckMismatch(
          `${label}: expected 200 with a valid 24-word BIP-39 mnemonic, got ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`,
        );
      }
      const derived = derivedWallet(mnemonic);
      const invalid = WALLET_CHAINS.filter((chain) => !isValidAddress(chain, derived.addresses[chain]));
      if (invalid.length > 0) throw new CheckMismatch(`${label}: derived addresses not valid on ${invalid.join(', ')}`);
      const addresses: Record<string, Matcher> = {};
      const paths: Record<string, Matcher> = {};
      for (const chain of WALLET_CHAINS) {
        addresses[chain] = eq(derived.addresses[chain]);
        paths[chain] = eq(DERIVATION_PATHS[chain]);
      }
      const monero = derived.monero;
      const prediction: Prediction = {
        expected: {
          status: 200,
          body: {
            addresses: object(addresses),
            monero_keys: object({
              spend_key: eq(monero.spendKey),
              view_key: eq(monero.viewKey),
              public_spend_key: eq(monero.publicSpendKey),
              public_view_key: eq(monero.publicViewKey),
            }),
            derivation_paths: object(paths),
            warning: text(),
          },
        },
        commit: () => {
          const index = model.wallet.wallets.length;
          model.wallet.wallets.push({ index, slot, addresses: { ...derived.addresses } });
          keepSecrets(model.wallet, index, {
            addresses: derived.addresses,
            privateKeys: derived.privateKeys,
            monero: { viewKey: monero.viewKey, spendKey: monero.spendKey },
          });
        },
      };
      expectAnswer(label, model, answer, prediction);
    },
  });
}

/** Which asset of a chain: its native coin (null) or its k-th token (modulo; the native coin where it has none). */
export function assetOf(chain: WalletChain, token: number | null): WalletAsset {
  const tokens = tokensOf(chain);
  return token === null || tokens.length === 0 ? nativeOf(chain) : (tokens[token % tokens.length] as WalletAsset);
}

/** Mint sizes in whole units: natives 1 or 20 (tron's 1 TRX is below a token send's fee), tokens 100 or 2,000. */
export type MintSize = 'small' | 'large';

function mintUnits(asset: WalletAsset, size: MintSize): bigint {
  const whole = asset.native ? (size === 'small' ? 1n : 20n) : size === 'small' ? 100n : 2_000n;
  return whole * 10n ** BigInt(asset.decimals);
}

export function mintCommand(input: {
  wallet: number;
  chain: WalletChain;
  token: number | null;
  size: MintSize;
}): WalletCommandSpec {
  const asset = assetOf(input.chain, input.token);
  const label = `walletMint(w${input.wallet}, ${input.chain} ${asset.symbol}, ${input.size})`;
  return walletSpec({
    label,
    applicable: (model) => walletAt(model, input.wallet) !== undefined,
    charges: () => [],
    parties: () => [],
    execute: async (model, system) => {
      const wallet = walletAt(model, input.wallet);
      if (wallet === undefined || system.walletMint === undefined)
        throw new Error(`${label}: precondition broken (no wallet or no mint door)`);
      const to = wallet.addresses[input.chain];
      const amount = mintUnits(asset, input.size);
      const answer = await system.walletMint({
        chain: input.chain,
        address: to,
        amount: unitsText(amount, asset.decimals),
        ...(asset.native ? {} : { token: asset.address }),
      });
      const nowMs = model.nowMs;
      expectAnswer(label, model, answer, {
        expected: {
          status: 200,
          body: {
            tx_hash: text(),
            chain: eq(input.chain),
            to: eq(to),
            symbol: eq(asset.symbol),
            amount: eq(unitsText(amount, asset.decimals)),
            status: eq('confirmed'),
          },
        },
        commit: (body) => recordMint(model.wallet, asset, to, amount, nowMs, String(body['tx_hash'])),
      });
    },
  });
}

function amountMatcher(asset: WalletAsset, units: bigint): Matcher {
  return object({
    symbol: eq(asset.symbol),
    contract: eq(asset.native ? null : asset.address),
    amount: eq(unitsText(units, asset.decimals)),
    base_units: eq(units.toString()),
    decimals: eq(asset.decimals),
  });
}

/** Monero: the address's own view key, none (400) or another wallet's (403); other chains send none. */
export type ViewKeyKind = 'own' | 'none' | 'other';

function otherSecrets(model: Readonly<CheckModel>, wallet: ModelWallet): WalletSecrets {
  const other = model.wallet.wallets.find((one) => one.index !== wallet.index);
  return other === undefined ? foreignSecrets() : secretsOf(model.wallet, other.index);
}

export function balanceCommand(input: { wallet: number; chain: WalletChain; viewKey: ViewKeyKind }): WalletCommandSpec {
  const monero = input.chain === 'monero';
  const label = `walletBalance(w${input.wallet}, ${input.chain}${monero ? `, view key ${input.viewKey}` : ''})`;
  return walletCommand(label, input.wallet, async (model, system, wallet) => {
    const address = wallet.addresses[input.chain];
    let viewKey: string | undefined;
    if (monero && input.viewKey === 'own') viewKey = secretsOf(model.wallet, wallet.index).monero.viewKey;
    if (monero && input.viewKey === 'other') viewKey = otherSecrets(model, wallet).monero.viewKey;
    const prediction = predictBalance(model, input.chain, address, monero ? input.viewKey : 'own');
    const answer = await ownerClient(model, system, wallet).wallet.balance(address, {
      chain: input.chain as WalletChainName,
      ...(viewKey === undefined ? {} : { view_key: viewKey }),
    });
    expectAnswer(label, model, answer, prediction);
  });
}

export function predictBalance(
  model: Readonly<CheckModel>,
  chain: WalletChain,
  address: string,
  viewKey: ViewKeyKind,
): Prediction {
  if (viewKey === 'none') return failure(400, 'BAD_REQUEST');
  if (viewKey === 'other') return failure(403, 'FORBIDDEN');
  const native = nativeOf(chain);
  return {
    expected: {
      status: 200,
      body: {
        address: eq(address),
        chain: eq(chain),
        balance: object({
          native: amountMatcher(native, balanceOf(model.wallet, native, address)),
          tokens: list(tokensOf(chain).map((token) => amountMatcher(token, balanceOf(model.wallet, token, address)))),
        }),
      },
    },
  };
}

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
    amount: unitsText(send.amount, send.asset.decimals),
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
        `${label} (w${send.wallet.index} ${send.chain}, amount ${unitsText(send.amount, send.asset.decimals)} ${send.asset.symbol})`,
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

/** wallet.md: history on bitcoin, solana, base, ethereum only. */
export const HISTORY_CHAINS: readonly WalletChain[] = ['bitcoin', 'solana', 'base', 'ethereum'];
const HISTORY_DEFAULT = 10;
/** platform.md Limits 7: list calls accept limit up to 100. */
const HISTORY_MAX = 100;

export function historyCommand(input: { wallet: number; chain: WalletChain; limit: number | null }): WalletCommandSpec {
  const label = `walletHistory(w${input.wallet}, ${input.chain}${input.limit === null ? '' : `, limit ${input.limit}`})`;
  return walletCommand(label, input.wallet, async (model, system, wallet) => {
    const address = wallet.addresses[input.chain];
    const answer = await ownerClient(model, system, wallet).wallet.transactions(address, {
      chain: input.chain as 'bitcoin',
      ...(input.limit === null ? {} : { limit: input.limit }),
    });
    const limit = input.limit ?? HISTORY_DEFAULT;
    if (!HISTORY_CHAINS.includes(input.chain) || limit < 1 || limit > HISTORY_MAX)
      return expectAnswer(label, model, answer, failure(400, 'BAD_REQUEST'));
    const shown = historyOf(model.wallet, input.chain, address).slice(0, limit);
    expectAnswer(label, model, answer, {
      expected: {
        status: 200,
        body: {
          address: eq(address),
          chain: eq(input.chain),
          transactions: list(shown.map((tx) => object(txMatcher(tx)))),
          count: eq(shown.length),
        },
      },
      commit: (body) => {
        const items = body['transactions'] as readonly Readonly<Record<string, unknown>>[];
        shown.forEach((tx, index) => {
          if (tx.hash === null) tx.hash = String(items[index]?.['tx_hash']);
        });
      },
    });
  });
}

/** An unknown hash: well formed, never issued. */
const UNKNOWN_HASH = `0x${'0'.repeat(64)}`;

export function txLookupCommand(input: { slot: number; tx: number | 'unknown' }): WalletCommandSpec {
  const label = `walletTx(a${input.slot}, ${input.tx === 'unknown' ? 'unknown hash' : `tx#${input.tx}`})`;
  const known = (model: Readonly<CheckModel>): ModelWalletTx[] => model.wallet.txs.filter((tx) => tx.hash !== null);
  return walletSpec({
    label,
    applicable: (model) =>
      model.agents[input.slot] !== undefined && (input.tx === 'unknown' || known(model).length > 0),
    charges: () => [{ slot: input.slot, scopes: SCOPES.walletB }],
    parties: () => [input.slot],
    execute: async (model, system) => {
      const txs = known(model);
      const tx = input.tx === 'unknown' ? undefined : txs[input.tx % txs.length];
      const answer = await keyed(model, system, input.slot).wallet.tx(tx?.hash ?? UNKNOWN_HASH);
      expectAnswer(
        `${label}${tx === undefined ? '' : ` (${tx.asset.chain} ${tx.kind})`}`,
        model,
        answer,
        tx === undefined ? failure(404, 'NOT_FOUND') : { expected: { status: 200, body: txMatcher(tx) } },
      );
    },
  });
}
