/**
 * The wallet part of the reference model of `afp check` (spec/wallet.md, NOTES.md "Wallet",
 * docs/decisions/wallet.md "Wallet"): the run's wallets (public addresses only: the keys live in the
 * commands' keyring, wallet-keyring.ts), balances per (chain, asset, address) in base units, the
 * run's transactions and their block instants, and the swap orders (model-wallet-swaps.ts).
 *
 * Chain rules, from the documents and the configured numbers (wallet-config.ts rows): a send is
 * pending until the chain's first block instant strictly after it (block instants are multiples
 * of the block time) and debits amount and fee at once; at the block it is confirmed (amount to
 * `to`) or failed (amount back): a token sent to its own contract reverts; a solana transfer that
 * opens an empty account with less than the rent-exempt minimum fails. The fee goes to the
 * chain's fee account either way. A solana token (SPL) send to an address with no account for the
 * mint pays the account's rent in its fee, and opens the account at broadcast (docs/decisions/
 * wallet.md): an address has an account once it held the mint (a balance entry, even at 0). The model never calls the service; it reads only the configured
 * chain rows and the key module (to derive addresses).
 * Invariant (`walletInvariantProblems`): per (chain, asset), what the run minted equals the sum of
 * the balances it knows, plus its amounts in flight, its fees and the aggregator pool's change.
 * Limits: a run's commands bound every list here (at most MAX_COMMANDS entries each).
 */
import { assert } from '../../core/assert.ts';
import type { WalletChain } from '../../services/wallet/keys/wallet-keys.ts';
import { CHAIN_ROWS, TOKEN_ROWS, type ChainRow } from '../../services/wallet/wallet-config.ts';
import { eq, text, time, type Matcher } from '../expectation.ts';
import type { CheckModel } from '../check-model.ts';
import type { ModelWalletTx, WalletAsset, WalletModel, WalletTxKind } from './wallet-state.ts';

/** The aggregator's pool as the wire names it (a payout's or refund's `from`). */
export const POOL = 'aggregator-pool';

export function chainOf(chain: WalletChain): ChainRow {
  const row = CHAIN_ROWS.find((one) => one.chain === chain);
  assert(row !== undefined, `every wallet chain has a row (${chain})`);
  return row;
}

export function nativeOf(chain: WalletChain): WalletAsset {
  const row = chainOf(chain);
  return { chain, address: row.nativeAsset, symbol: row.symbol, decimals: row.decimals, native: true };
}

/** The chain's tokens (ERC-20, TRC-20 by contract address), in the configured order. */
export function tokensOf(chain: WalletChain): WalletAsset[] {
  return TOKEN_ROWS.filter((token) => token.chain === chain).map((token) => ({
    chain,
    address: token.contract,
    symbol: token.symbol,
    decimals: token.decimals,
    native: false,
  }));
}

/** The chain's fee for a send of `asset`, in base units of its native coin (0 where the chain has no tokens), before any rent. */
export function feeOf(asset: WalletAsset): bigint {
  const row = chainOf(asset.chain);
  return asset.native ? row.feeNative : (row.feeToken ?? 0n);
}

/** Whether a send of `asset` to `to` opens a token account (solana: `to` has none for the mint), so pays its rent. */
function opensTokenAccount(wallet: WalletModel, asset: WalletAsset, to: string): boolean {
  return !asset.native && chainOf(asset.chain).tokenAccountRent > 0n && !hasAccount(wallet, asset, to);
}

/** The fee a send of `asset` to `to` pays: the chain's, plus a solana token account's rent where `to` has none. */
export function sendFeeOf(wallet: WalletModel, asset: WalletAsset, to: string): bigint {
  return feeOf(asset) + (opensTokenAccount(wallet, asset, to) ? chainOf(asset.chain).tokenAccountRent : 0n);
}

/** The first block instant strictly after `ms` on `chain`. */
export function nextBlockMs(chain: WalletChain, ms: number): number {
  const blockMs = chainOf(chain).blockMs;
  return (Math.floor(ms / blockMs) + 1) * blockMs;
}

export function modelAddressKey(chain: WalletChain, address: string): string {
  return chain === 'ethereum' || chain === 'base' ? address.toLowerCase() : address;
}

function assetKey(asset: WalletAsset): string {
  return `${asset.chain}|${modelAddressKey(asset.chain, asset.address)}`;
}

export function balanceOf(wallet: WalletModel, asset: WalletAsset, address: string): bigint {
  return wallet.balances.get(`${assetKey(asset)}|${modelAddressKey(asset.chain, address)}`) ?? 0n;
}

/** Whether `address` has held `asset` in this run (its account; the pool always has one). */
function hasAccount(wallet: WalletModel, asset: WalletAsset, address: string): boolean {
  return address === POOL || wallet.balances.has(`${assetKey(asset)}|${modelAddressKey(asset.chain, address)}`);
}

function shift(map: Map<string, bigint>, key: string, delta: bigint): void {
  map.set(key, (map.get(key) ?? 0n) + delta);
}

/** Moves `delta` base units at an address the run knows, or at the pool (tracked as its change). */
function addAt(wallet: WalletModel, asset: WalletAsset, address: string, delta: bigint): void {
  if (address === POOL) {
    shift(wallet.pool, assetKey(asset), delta);
    return;
  }
  const key = `${assetKey(asset)}|${modelAddressKey(asset.chain, address)}`;
  const next = (wallet.balances.get(key) ?? 0n) + delta;
  assert(next >= 0n, `model balances never go negative (${key})`);
  wallet.balances.set(key, next);
}

/** Base units → whole units, trailing zeros trimmed ("1.5", "0.00042", "3"): the wire's amount text. */
export function modelUnitsText(units: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const fraction = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${units / scale}${fraction === '' ? '' : `.${fraction}`}`;
}

export function recordMint(
  wallet: WalletModel,
  asset: WalletAsset,
  to: string,
  amount: bigint,
  nowMs: number,
  hash: string,
): void {
  shift(wallet.minted, assetKey(asset), amount);
  addAt(wallet, asset, to, amount);
  wallet.txs.push({
    hash,
    kind: 'mint',
    asset,
    from: null,
    to,
    amount,
    fee: 0n,
    memo: null,
    sentAtMs: nowMs,
    blockAtMs: nowMs,
    status: 'confirmed',
  });
}

/** A pending transfer: amount and fee leave the sender now and are in flight until the block. */
export function recordSend(
  wallet: WalletModel,
  parts: {
    kind: WalletTxKind;
    asset: WalletAsset;
    from: string;
    to: string;
    amount: bigint;
    memo: string | null;
    hash: string | null;
  },
  nowMs: number,
): ModelWalletTx {
  const fee = sendFeeOf(wallet, parts.asset, parts.to);
  // The account is opened at broadcast, kept if the send fails (as the fee is).
  if (opensTokenAccount(wallet, parts.asset, parts.to)) addAt(wallet, parts.asset, parts.to, 0n);
  const native = nativeOf(parts.asset.chain);
  addAt(wallet, parts.asset, parts.from, -parts.amount);
  shift(wallet.inFlight, assetKey(parts.asset), parts.amount);
  addAt(wallet, native, parts.from, -fee);
  shift(wallet.inFlight, assetKey(native), fee);
  const tx: ModelWalletTx = {
    ...parts,
    fee,
    sentAtMs: nowMs,
    blockAtMs: nextBlockMs(parts.asset.chain, nowMs),
    status: 'pending',
  };
  wallet.txs.push(tx);
  return tx;
}

/** Why the chain fails `tx` at its block (true) or not: the two rules of the header. */
function failsAtBlock(wallet: WalletModel, tx: ModelWalletTx): boolean {
  const { asset } = tx;
  if (!asset.native && modelAddressKey(asset.chain, tx.to) === modelAddressKey(asset.chain, asset.address)) return true;
  const rentMin = chainOf(asset.chain).rentExemptMin;
  return rentMin > 0n && asset.native && balanceOf(wallet, asset, tx.to) === 0n && tx.amount < rentMin;
}

/** Settles a pending transaction at its block; true when confirmed. */
export function settleTx(wallet: WalletModel, tx: ModelWalletTx): boolean {
  assert(tx.status === 'pending' && tx.from !== null, 'only a pending send settles');
  const failed = failsAtBlock(wallet, tx);
  const native = nativeOf(tx.asset.chain);
  shift(wallet.inFlight, assetKey(tx.asset), -tx.amount);
  addAt(wallet, tx.asset, failed ? tx.from : tx.to, tx.amount);
  shift(wallet.inFlight, assetKey(native), -tx.fee);
  shift(wallet.fees, assetKey(native), tx.fee);
  tx.status = failed ? 'failed' : 'confirmed';
  return !failed;
}

/** Moves units between holders at once (the aggregator takes a confirmed deposit into its pool). */
export function moveUnits(wallet: WalletModel, asset: WalletAsset, from: string, to: string, amount: bigint): void {
  addAt(wallet, asset, from, -amount);
  addAt(wallet, asset, to, amount);
}

/** The fees the run's transactions paid on `chain` (what its fee account gained from this run). */
export function feesOn(wallet: WalletModel, chain: WalletChain): bigint {
  return wallet.fees.get(assetKey(nativeOf(chain))) ?? 0n;
}

/** The wire body of a transaction (txBody): every field the model knows. */
export function txMatcher(tx: ModelWalletTx): Record<string, Matcher> {
  const row = chainOf(tx.asset.chain);
  return {
    tx_hash: tx.hash === null ? text() : eq(tx.hash),
    chain: eq(tx.asset.chain),
    type: eq(tx.kind),
    status: eq(tx.status),
    from: eq(tx.from),
    to: eq(tx.to),
    symbol: eq(tx.asset.symbol),
    token: eq(tx.asset.native ? null : tx.asset.address),
    amount: eq(modelUnitsText(tx.amount, tx.asset.decimals)),
    fee: eq(modelUnitsText(tx.fee, row.decimals)),
    fee_symbol: eq(row.symbol),
    memo: eq(tx.memo),
    sent_at: time(tx.sentAtMs),
    block_at: time(tx.blockAtMs),
    block_height: eq(Math.floor(tx.blockAtMs / row.blockMs)),
  };
}

/** The run's transactions touching `address` on `chain`, newest first (a self-send once). */
export function historyOf(wallet: WalletModel, chain: WalletChain, address: string): ModelWalletTx[] {
  const key = modelAddressKey(chain, address);
  const touching = wallet.txs.filter(
    (tx) =>
      tx.asset.chain === chain &&
      (modelAddressKey(chain, tx.to) === key || (tx.from !== null && modelAddressKey(chain, tx.from) === key)),
  );
  return touching.reverse();
}

/** Every difference between the model's own books (see the header); empty when they agree. */
export function walletInvariantProblems(model: Readonly<CheckModel>): string[] {
  const wallet = model.wallet;
  const problems: string[] = [];
  for (const key of new Set([
    ...wallet.minted.keys(),
    ...wallet.inFlight.keys(),
    ...wallet.fees.keys(),
    ...wallet.pool.keys(),
  ])) {
    const minted = wallet.minted.get(key) ?? 0n;
    let held = 0n;
    for (const [balanceKey, balance] of wallet.balances) if (balanceKey.startsWith(`${key}|`)) held += balance;
    const total = held + (wallet.inFlight.get(key) ?? 0n) + (wallet.fees.get(key) ?? 0n) + (wallet.pool.get(key) ?? 0n);
    if (total !== minted)
      problems.push(`${key}: balances ${held} + in flight + fees + pool change = ${total} ≠ minted ${minted}`);
  }
  for (const [key, amount] of wallet.inFlight) {
    const pending = wallet.txs.filter((tx) => tx.status === 'pending');
    const expected = pending.reduce(
      (sum, tx) =>
        sum +
        (assetKey(tx.asset) === key ? tx.amount : 0n) +
        (assetKey(nativeOf(tx.asset.chain)) === key ? tx.fee : 0n),
      0n,
    );
    if (amount !== expected) problems.push(`${key}: in flight ${amount} ≠ the pending transactions' ${expected}`);
  }
  return problems;
}
