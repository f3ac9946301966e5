/**
 * Wallet commands of `afp check` for the wallet's styles A and B (spec/wallet.md; the routes in
 * http/routes/wallet/wallet-styles.ts): A's addresses, B's address, balance, USDC send (to an
 * address or an agent id) and history. Both styles answer over the caller's latest wallet (404
 * before it has one), so the model's "latest wallet of a slot" is the last the slot created.
 * Why only ethereum and base for B's sends: the model never moves coin on polygon or arbitrum
 * (the mint door and the primary interface do not reach them), so B's rows there are predicted
 * as zero and empty — exact as long as no command sends there (docs/decisions/wallet.md "Wallet").
 * A's balance (USD values at the simulated prices) is not modelled yet.
 */
import type { CheckModel } from '../check-model.ts';
import { eq, failure, list, object, text, type Matcher, type Prediction } from '../expectation.ts';
import { expectAnswer, keyed } from '../model-command.ts';
import { SCOPES } from '../model-limits.ts';
import { chainRow } from '../../services/wallet/wallet-config.ts';
import { WALLET_CHAINS, type WalletChain } from '../../services/wallet/keys/wallet-keys.ts';
import { onAgent, walletAt } from './command-wallet.ts';
import {
  modelAddressKey,
  balanceOf,
  nativeOf,
  recordSend,
  sendFeeOf,
  tokensOf,
  txMatcher,
  modelUnitsText,
} from './model-wallet.ts';
import type { ModelWallet, ModelWalletTx, WalletAsset } from './wallet-state.ts';
import { walletSpec, type WalletCommandSpec } from './wallet-frame.ts';
import { secretsOf } from './wallet-keyring.ts';

export const B_CHAINS = ['ethereum', 'polygon', 'arbitrum', 'base'] as const;
export type ChainB = (typeof B_CHAINS)[number];
/** B's chains the model moves coin on (see the header). */
export type ModelledChainB = 'ethereum' | 'base';
const HISTORY_B_DEFAULT = 20;
/** platform.md Limits 7: list calls accept limit up to 100. */
const HISTORY_B_MAX = 100;
const B_READ_SCOPES = SCOPES.walletB;
const B_SEND_SCOPES = [...SCOPES.walletB, 'wallet-send' as const];

/** The slot's latest wallet (the one styles A and B answer over), if it has one. */
export function latestWalletOf(model: Readonly<CheckModel>, slot: number): ModelWallet | undefined {
  return model.wallet.wallets.filter((wallet) => wallet.slot === slot).at(-1);
}

const NO_WALLET: Prediction = failure(404, 'NOT_FOUND');

function usdcOf(chain: ModelledChainB): WalletAsset {
  const usdc = tokensOf(chain).find((token) => token.symbol === 'USDC');
  if (usdc === undefined) throw new Error(`style B's chains hold USDC (${chain})`);
  return usdc;
}

export function styleAddressesCommand(input: { slot: number; style: 'A' | 'B' }): WalletCommandSpec {
  const label = `walletAddresses${input.style}(a${input.slot})`;
  return walletSpec({
    label,
    ...onAgent(input.slot, input.style === 'A' ? SCOPES.walletPrimary : B_READ_SCOPES),
    execute: async (model, system) => {
      const wallet = latestWalletOf(model, input.slot);
      const client = keyed(model, system, input.slot).wallet;
      const answer = await client.call(input.style === 'A' ? 'wallet.A.addresses' : 'wallet.B.address', {});
      if (wallet === undefined) return expectAnswer(label, model, answer, NO_WALLET);
      const addresses: Record<string, Matcher> = {};
      if (input.style === 'A') for (const chain of WALLET_CHAINS) addresses[chain] = eq(wallet.addresses[chain]);
      else for (const chain of B_CHAINS) addresses[chain] = eq(wallet.addresses.ethereum);
      expectAnswer(label, model, answer, { expected: { status: 200, body: { addresses: object(addresses) } } });
    },
  });
}

/** B's row of one chain: usdc, eth (polygon: WETH), the native coin and its symbol. */
function balanceRowB(model: Readonly<CheckModel>, chain: ChainB, wallet: ModelWallet): { usdc: bigint; row: Matcher } {
  const native = chainRow(chain);
  if (chain === 'polygon' || chain === 'arbitrum')
    return {
      usdc: 0n,
      row: object({ usdc: eq('0'), eth: eq('0'), native: eq('0'), native_symbol: eq(native.symbol) }),
    };
  const address = wallet.addresses[chain];
  const usdc = balanceOf(model.wallet, usdcOf(chain), address);
  const coin = modelUnitsText(balanceOf(model.wallet, nativeOf(chain), address), native.decimals);
  return {
    usdc,
    row: object({
      usdc: eq(modelUnitsText(usdc, 6)),
      eth: eq(coin),
      native: eq(coin),
      native_symbol: eq(native.symbol),
    }),
  };
}

export function styleBBalanceCommand(input: { slot: number; chain: ChainB | 'all' | null }): WalletCommandSpec {
  const label = `walletBalanceB(a${input.slot}${input.chain === null ? '' : `, ${input.chain}`})`;
  return walletSpec({
    label,
    ...onAgent(input.slot, B_READ_SCOPES),
    execute: async (model, system) => {
      const wallet = latestWalletOf(model, input.slot);
      const answer = await keyed(model, system, input.slot).wallet.call(
        'wallet.B.balance',
        input.chain === null ? {} : { query: { chain: input.chain } },
      );
      if (wallet === undefined) return expectAnswer(label, model, answer, NO_WALLET);
      const chains: Record<string, Matcher> = {};
      let total = 0n;
      for (const chain of B_CHAINS) {
        if (input.chain !== null && input.chain !== 'all' && input.chain !== chain) continue;
        const { usdc, row } = balanceRowB(model, chain, wallet);
        total += usdc;
        chains[chain] = row;
      }
      expectAnswer(label, model, answer, {
        expected: { status: 200, body: { usdc: eq(modelUnitsText(total, 6)), chains: object(chains) } },
      });
    },
  });
}

/** Where a B send goes: a run wallet's address, or an agent slot by its id (its latest wallet; 404 without one). */
export type DestinationB =
  | { readonly kind: 'wallet'; readonly index: number }
  | { readonly kind: 'agent'; readonly slot: number };
/** part: a quarter of the wallet's USDC (at least 1 base unit); above: one base unit more than it holds (422). */
type AmountB = 'part' | 'above';

export interface SendBInput {
  readonly wallet: number;
  readonly chain: ModelledChainB;
  /** The first wallet from `wallet` on (cyclically) holding USDC on `chain`, else on the other modelled chain (so random runs meet balances). */
  readonly funded: boolean;
  readonly to: DestinationB;
  readonly amount: AmountB;
  readonly memo: boolean;
}

/** The sender and chain of a B send: as drawn, or with `funded` the first holder of USDC (none yet: the drawn ones). */
function senderB(
  model: Readonly<CheckModel>,
  input: SendBInput,
): { wallet: ModelWallet; chain: ModelledChainB } | undefined {
  const drawn = walletAt(model, input.wallet);
  if (!input.funded || drawn === undefined)
    return drawn === undefined ? undefined : { wallet: drawn, chain: input.chain };
  const wallets = model.wallet.wallets;
  for (const chain of [input.chain, input.chain === 'ethereum' ? 'base' : 'ethereum'] as const) {
    for (let step = 0; step < wallets.length; step++) {
      const wallet = wallets[(input.wallet + step) % wallets.length] as ModelWallet;
      if (balanceOf(model.wallet, usdcOf(chain), wallet.addresses[chain]) > 0n) return { wallet, chain };
    }
  }
  return { wallet: drawn, chain: input.chain };
}

function destinationB(
  model: Readonly<CheckModel>,
  input: SendBInput & { chain: ModelledChainB },
): { to: string; address: string | null } | undefined {
  if (input.to.kind === 'wallet') {
    const wallet = walletAt(model, input.to.index);
    return wallet === undefined
      ? undefined
      : { to: wallet.addresses[input.chain], address: wallet.addresses[input.chain] };
  }
  const agent = model.agents[input.to.slot];
  if (agent === undefined) return undefined;
  return { to: agent.id, address: latestWalletOf(model, input.to.slot)?.addresses[input.chain] ?? null };
}

export function styleBSendCommand(input: SendBInput): WalletCommandSpec {
  const toText = input.to.kind === 'wallet' ? `w${input.to.index}` : `agent a${input.to.slot}`;
  const label = `walletSendB(w${input.wallet}${input.funded ? '+' : ''}, ${input.chain}${input.funded ? '+' : ''} USDC, to ${toText}, ${input.amount}${input.memo ? ', memo' : ''})`;
  const resolved = (
    model: Readonly<CheckModel>,
  ):
    | { wallet: ModelWallet; chain: ModelledChainB; destination: { to: string; address: string | null } }
    | undefined => {
    const sender = senderB(model, input);
    const destination = sender === undefined ? undefined : destinationB(model, { ...input, chain: sender.chain });
    return sender === undefined || destination === undefined ? undefined : { ...sender, destination };
  };
  return walletSpec({
    label,
    applicable: (model) => resolved(model) !== undefined,
    charges: (model) => [{ slot: resolved(model)?.wallet.slot ?? 0, scopes: B_SEND_SCOPES }],
    parties: (model) => [resolved(model)?.wallet.slot ?? 0],
    execute: async (model, system) => {
      const send = resolved(model);
      if (send === undefined) throw new Error(`${label}: precondition broken`);
      const { wallet, chain, destination } = send;
      const asset = usdcOf(chain);
      const from = wallet.addresses[chain];
      const held = balanceOf(model.wallet, asset, from);
      const amount = input.amount === 'above' ? held + 1n : held / 4n > 0n ? held / 4n : 1n;
      const memo = input.memo ? 'afp check' : null;
      const body: Record<string, unknown> = {
        to: destination.to,
        amount: Number(modelUnitsText(amount, asset.decimals)),
        chain,
        private_key: secretsOf(model.wallet, wallet.index).privateKeys[chain],
      };
      if (memo !== null) body['memo'] = memo;
      const answer = await keyed(model, system, wallet.slot).wallet.call('wallet.B.send', { body });
      const described = `${label} (w${wallet.index} ${chain}, ${modelUnitsText(amount, asset.decimals)} USDC)`;
      if (destination.address === null) return expectAnswer(described, model, answer, NO_WALLET);
      const fee = sendFeeOf(model.wallet, asset, destination.address);
      if (held < amount || balanceOf(model.wallet, nativeOf(chain), from) < fee)
        return expectAnswer(described, model, answer, failure(422, 'INSUFFICIENT_BALANCE'));
      const row = chainRow(chain);
      const to = destination.address;
      const sentAtMs = model.nowMs;
      expectAnswer(described, model, answer, {
        expected: {
          status: 200,
          body: {
            tx_hash: text(),
            status: eq('pending'),
            amount: eq(Number(modelUnitsText(amount, asset.decimals))),
            fee: eq(modelUnitsText(fee, row.decimals)),
            fee_symbol: eq(row.symbol),
            chain: eq(chain),
            to: eq(to),
            memo: eq(memo),
          },
        },
        commit: (answered) => {
          recordSend(
            model.wallet,
            { kind: 'send', asset, from, to, amount, memo, hash: String(answered['tx_hash']) },
            sentAtMs,
          );
        },
      });
    },
  });
}

export type HistoryTypeB = 'send' | 'receive' | 'all';

export interface HistoryBInput {
  readonly slot: number;
  readonly chain: ChainB | 'all' | null;
  readonly type: HistoryTypeB | null;
  readonly limit: number | null;
}

/** The model's B history of `wallet`: the ethereum and base transactions touching its address, newest first, ties by hash. */
function historyB(model: Readonly<CheckModel>, wallet: ModelWallet, input: HistoryBInput): ModelWalletTx[] {
  const chains: readonly WalletChain[] =
    input.chain === null || input.chain === 'all'
      ? ['ethereum', 'base']
      : input.chain === 'ethereum' || input.chain === 'base'
        ? [input.chain]
        : [];
  const sent = (tx: ModelWalletTx): boolean =>
    tx.from !== null &&
    modelAddressKey(tx.asset.chain, tx.from) === modelAddressKey(tx.asset.chain, wallet.addresses[tx.asset.chain]);
  const touching = model.wallet.txs.filter(
    (tx) =>
      chains.includes(tx.asset.chain) &&
      (sent(tx) ||
        modelAddressKey(tx.asset.chain, tx.to) === modelAddressKey(tx.asset.chain, wallet.addresses[tx.asset.chain])),
  );
  const type = input.type ?? 'all';
  return touching
    .filter((tx) => type === 'all' || (type === 'send') === sent(tx))
    .sort((one, two) => two.sentAtMs - one.sentAtMs || ((one.hash ?? '') < (two.hash ?? '') ? -1 : 1));
}

/** The fields of the primary interface's transaction body (txMatcher) that B's history leaves out. */
const TX_FIELDS_NOT_IN_B: ReadonlySet<string> = new Set(['token', 'fee_symbol', 'sent_at', 'block_at', 'block_height']);

/** B's transaction body: the primary one's fields B shows (its history is read only once every hash is known). */
function txMatcherB(tx: ModelWalletTx): Matcher {
  return object(Object.fromEntries(Object.entries(txMatcher(tx)).filter(([name]) => !TX_FIELDS_NOT_IN_B.has(name))));
}

export function styleBHistoryCommand(input: HistoryBInput): WalletCommandSpec {
  const label = `walletHistoryB(a${input.slot}${input.chain === null ? '' : `, ${input.chain}`}${input.type === null ? '' : `, ${input.type}`}${input.limit === null ? '' : `, limit ${input.limit}`})`;
  // Ties in time are ordered by hash: only when every transaction it could show has a known hash.
  const hashesKnown = (model: Readonly<CheckModel>): boolean => {
    const wallet = latestWalletOf(model, input.slot);
    return wallet === undefined || historyB(model, wallet, { ...input, type: 'all' }).every((tx) => tx.hash !== null);
  };
  return walletSpec({
    label,
    applicable: (model) => model.agents[input.slot] !== undefined && hashesKnown(model),
    charges: () => [{ slot: input.slot, scopes: B_READ_SCOPES }],
    parties: () => [input.slot],
    execute: async (model, system) => {
      const query: Record<string, string> = {};
      if (input.chain !== null) query['chain'] = input.chain;
      if (input.type !== null) query['type'] = input.type;
      if (input.limit !== null) query['limit'] = String(input.limit);
      const answer = await keyed(model, system, input.slot).wallet.call('wallet.B.transactions', { query });
      const limit = input.limit ?? HISTORY_B_DEFAULT;
      if (limit < 1 || limit > HISTORY_B_MAX) return expectAnswer(label, model, answer, failure(400, 'BAD_REQUEST'));
      const wallet = latestWalletOf(model, input.slot);
      if (wallet === undefined) return expectAnswer(label, model, answer, NO_WALLET);
      const shown = historyB(model, wallet, input).slice(0, limit);
      expectAnswer(label, model, answer, {
        expected: { status: 200, body: { transactions: list(shown.map(txMatcherB)), count: eq(shown.length) } },
      });
    },
  });
}
