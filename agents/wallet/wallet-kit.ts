/**
 * Shared moves of the wallet archetypes (wallet-holder, wallet-swapper): create a wallet once and
 * derive its keys locally, read a balance, sign a send, follow a transaction to its block.
 *
 * Non-custodial as a real client is: POST /v1/wallet/create answers the mnemonic once; the agent
 * derives its keys from it with the same audited key code (src/services/wallet/keys/) and keeps
 * only the keys, in its own memory — never in a report, an event or a published value (the
 * directory gets the public addresses only). The derived addresses must be the ones the service
 * answered: a mismatch is reported.
 * Funds: the scenario's `wallet.starting_funds` are minted at every new wallet by the harness.
 * Limits: CREATE_ATTEMPTS_MAX tries at creating the wallet (429 or an outage refuse it).
 */
import type { ApiResult } from '../../src/client/client.ts';
import type {
  WalletAmount,
  WalletChainName,
  WalletSendBody,
  WalletTransaction,
} from '../../src/client/wallet-client.ts';
import { isFailure } from '../../src/core/errors.ts';
import type { AgentContext } from '../../src/agent/agent.ts';
import { expectedRefusal, parseIsoMs, reportUnexpected, type FaucetMemory } from '../../src/agent/agent-kit.ts';
import {
  deriveWallet,
  warmKeyTables,
  WALLET_CHAINS,
  type SingleKeyChain,
  type WalletChain,
} from '../../src/services/wallet/keys/wallet-keys.ts';
import { formatUnits, HISTORY_CHAINS, parseAmount } from '../../src/services/wallet/wallet-assets.ts';

export const CREATE_ATTEMPTS_MAX = 20;

/** The wallet an agent holds: public addresses, and the keys that only its memory keeps. */
export interface HeldWallet {
  readonly addresses: Readonly<Record<WalletChain, string>>;
  readonly keys: Readonly<Record<SingleKeyChain, string>>;
  readonly monero: { readonly viewKey: string; readonly spendKey: string };
}

export interface WalletMemory extends FaucetMemory {
  wallet: HeldWallet | null;
  createAttempts: number;
}

/** A sent transaction the agent waits on: its hash, chain and the block instant it was told. */
export interface PendingTx {
  readonly hash: string;
  readonly chain: WalletChainName;
  readonly blockAtMs: number;
}

export function freshWalletFields(): Pick<WalletMemory, 'wallet' | 'createAttempts'> {
  return { wallet: null, createAttempts: 0 };
}

/**
 * Builds the key code's precomputed tables (secp256k1, ed25519 base-point multiples) before a live
 * run: in a k6 VU the first derivation cost about 0.35 s of CPU, half of it those tables, in the
 * iteration that creates the agent's wallet.
 */
export function warmWalletKeys(): void {
  warmKeyTables();
}

/** The agent's wallet, created on first use (once); null while creation is refused. */
export async function ensureWallet(context: AgentContext<unknown>, memory: WalletMemory): Promise<HeldWallet | null> {
  if (memory.wallet !== null) return memory.wallet;
  if (memory.createAttempts >= CREATE_ATTEMPTS_MAX) return null;
  memory.createAttempts++;
  const created = await context.client.wallet.create();
  if (!created.ok) {
    if (!expectedRefusal(context, created, 'wallet')) reportUnexpected(context, 'wallet creation', created, '200');
    return null;
  }
  const derived = deriveWallet(created.body.mnemonic);
  const wrong = WALLET_CHAINS.find((chain) => derived.addresses[chain] !== created.body.addresses[chain]);
  if (wrong !== undefined) {
    // The answer's addresses only: the mnemonic stays out of the report.
    context.report(`the ${wrong} address answered is not the one its mnemonic derives`, {
      addresses: created.body.addresses,
    });
    return null;
  }
  memory.wallet = {
    addresses: derived.addresses,
    keys: derived.privateKeys,
    monero: { viewKey: derived.monero.viewKey, spendKey: derived.monero.spendKey },
  };
  context.directory.publishAddresses(context.agentId, derived.addresses);
  return memory.wallet;
}

/** The balance of the agent's own address on `chain` (monero with its view key); null when not answered. */
export async function readWalletBalance(
  context: AgentContext<unknown>,
  wallet: HeldWallet,
  chain: WalletChain,
): Promise<{ native: WalletAmount; tokens: WalletAmount[] } | null> {
  const query = chain === 'monero' ? { chain, view_key: wallet.monero.viewKey } : { chain };
  const result = await context.client.wallet.balance(wallet.addresses[chain], query);
  if (!result.ok) {
    if (!expectedRefusal(context, result, 'wallet')) reportUnexpected(context, `its ${chain} balance`, result, '200');
    return null;
  }
  return result.body.balance;
}

/** A send signed with the agent's own key (monero: from, view and spend key). */
export function sendBody(
  wallet: HeldWallet,
  chain: WalletChain,
  to: string,
  amount: string,
  token: string | null,
): WalletSendBody {
  const asset = token === null ? {} : { token };
  if (chain === 'monero')
    return {
      chain,
      to,
      amount,
      from: wallet.addresses.monero,
      view_key: wallet.monero.viewKey,
      spend_key: wallet.monero.spendKey,
    };
  return { chain, to, amount, private_key: wallet.keys[chain], ...asset };
}

/** Base units of an amount text of `decimals` decimals, or null when unreadable. */
export function unitsOf(text: unknown, decimals: number): bigint | null {
  if (text === '0' || text === 0) return 0n;
  const units = parseAmount(text, decimals, 'amount');
  return isFailure(units) ? null : units;
}

/** `units` base units as the wire's whole-unit text. */
export function unitsText(units: bigint, decimals: number): string {
  return formatUnits(units, decimals);
}

/** What a sent transaction's answer promises: its hash and block instant; null when unreadable (reported). */
export function pendingOf(
  context: AgentContext<unknown>,
  result: ApiResult<WalletTransaction>,
  chain: WalletChainName,
): PendingTx | null {
  if (!result.ok) return null;
  const blockAtMs = parseIsoMs(result.body.block_at);
  if (result.body.status !== 'pending' || blockAtMs === null || blockAtMs <= context.clock.nowMs()) {
    context.report('a broadcast transaction is not pending until a later block', result.body);
    return null;
  }
  return { hash: result.body.tx_hash, chain, blockAtMs };
}

/**
 * A transaction once its block has passed: settled (confirmed or failed), never still pending; on
 * the chains with history, the sender's history lists it with the same status. Returns the
 * settled transaction, or null when not answered.
 */
export async function settledTx(
  context: AgentContext<unknown>,
  pending: PendingTx,
  sender: string,
): Promise<WalletTransaction | null> {
  const result = await context.client.wallet.tx(pending.hash);
  if (!result.ok) {
    if (!expectedRefusal(context, result, 'wallet'))
      reportUnexpected(context, `transaction ${pending.hash}`, result, '200');
    return null;
  }
  if (result.body.status === 'pending') {
    context.report(
      `transaction ${pending.hash} is still pending after its block (${new Date(pending.blockAtMs).toISOString()})`,
      result.body,
    );
    return null;
  }
  if (!(HISTORY_CHAINS as readonly string[]).includes(pending.chain)) return result.body;
  const history = await context.client.wallet.transactions(sender, {
    chain: pending.chain as 'bitcoin' | 'solana' | 'base' | 'ethereum',
    limit: 50,
  });
  if (!history.ok) {
    if (!expectedRefusal(context, history, 'wallet'))
      reportUnexpected(context, `the ${pending.chain} history of ${sender}`, history, '200');
    return result.body;
  }
  const listed = history.body.transactions.find((tx) => tx.tx_hash === pending.hash);
  // The history keeps the newest 50 of an address: an older one may have left it.
  if (listed !== undefined && listed.status !== result.body.status)
    context.report(`transaction ${pending.hash} is ${result.body.status} by hash but ${listed.status} in the history`, {
      tx: result.body,
      listed,
    });
  if (listed === undefined && history.body.count < 50)
    context.report(`transaction ${pending.hash} is missing from its sender's history`, { tx: result.body });
  return result.body;
}
