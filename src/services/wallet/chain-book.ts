/**
 * ChainBook: the state of the simulated chains (wallet-config.ts) — balances per (chain, asset, address) in base
 * units, what is minted, what is in flight, transactions by hash, each address's history, and the
 * blocks that have pending work.
 *
 * Invariant (src/sim/invariants/wallet/wallet-conservation.ts, and `checkConserved` here): per
 * chain and asset, the sum of balances (every address, the chain's fee account and the swap
 * aggregator's pool included) plus the amounts in flight equals what was minted. A send debits
 * the sender (amount, and fee in the native coin) into `inFlight` at once, so a balance is never
 * spent twice; its block moves the amount to the recipient (or back to the sender when the chain's
 * rule fails it) and the fee to the chain's fee account.
 * Addresses: EVM addresses are keyed lowercase (EIP-55 case is a checksum, not part of the
 * address); others exactly. Records keep the text as sent.
 * Bounds: addresses with a balance per chain, transactions kept (the oldest settled ones are
 * forgotten first), history entries per address.
 */
import { assert } from '../../core/assert.ts';
import type { Asset } from './wallet-assets.ts';
import { chainRow, isEvmChain, type SimChain, type WalletConfig } from './wallet-config.ts';

export type TxStatus = 'pending' | 'confirmed' | 'failed';
export type TxKind = 'send' | 'mint' | 'swap-payout' | 'swap-refund';

export interface WalletTx {
  readonly hash: string;
  readonly kind: TxKind;
  readonly chain: SimChain;
  /** The asset address (native sentinel or token contract). */
  readonly asset: string;
  readonly symbol: string;
  readonly decimals: number;
  /** null: a mint (no sender). */
  readonly from: string | null;
  readonly to: string;
  readonly amount: bigint;
  /** In base units of the chain's native coin. */
  readonly fee: bigint;
  readonly memo: string | null;
  readonly sentAtMs: number;
  /** The block instant that settles it (a mint: its own instant). */
  readonly blockAtMs: number;
  status: TxStatus;
  /** Why the chain failed it; null otherwise. */
  failure: string | null;
}

/** Pseudo-addresses of the book's own holders (never valid chain addresses, so no one sends from them). */
export const FEE_ACCOUNT = 'fee-account';
export const AGGREGATOR_POOL = 'aggregator-pool';

export function addressKey(chain: SimChain, address: string): string {
  return isEvmChain(chain) ? address.toLowerCase() : address;
}

function assetKey(chain: SimChain, asset: string): string {
  return `${chain}|${addressKey(chain, asset)}`;
}

export class ChainBook {
  private readonly config: WalletConfig;
  /** `${chain}|${asset}` → address key → balance. */
  private readonly balances = new Map<string, Map<string, bigint>>();
  private readonly minted = new Map<string, bigint>();
  private readonly inFlight = new Map<string, bigint>();
  private readonly txs = new Map<string, WalletTx>();
  /** `${chain}|${address key}` → hashes, oldest first. */
  private readonly history = new Map<string, string[]>();
  /** `${chain}|${blockAtMs}` → hashes of the pending transactions that block settles. */
  private readonly blocks = new Map<string, string[]>();
  /** `${chain}|${address key}` → transactions sent (the next nonce). */
  private readonly nonces = new Map<string, number>();

  constructor(config: WalletConfig) {
    this.config = config;
  }

  balanceOf(chain: SimChain, asset: string, address: string): bigint {
    return this.balances.get(assetKey(chain, asset))?.get(addressKey(chain, address)) ?? 0n;
  }

  nonceOf(chain: SimChain, address: string): number {
    return this.nonces.get(`${chain}|${addressKey(chain, address)}`) ?? 0;
  }

  get(hash: string): WalletTx | undefined {
    return this.txs.get(hash);
  }

  get size(): number {
    return this.txs.size;
  }

  /** The newest `limit` transactions touching `address` on `chain`, newest first. */
  historyOf(chain: SimChain, address: string, limit: number): WalletTx[] {
    const hashes = this.history.get(`${chain}|${addressKey(chain, address)}`) ?? [];
    const out: WalletTx[] = [];
    for (let index = hashes.length - 1; index >= 0 && out.length < limit; index--) {
      const tx = this.txs.get(hashes[index] as string);
      if (tx !== undefined) out.push(tx);
    }
    return out;
  }

  /**
   * Whether `address` has an account for `asset` on `chain`: it has held it once (a balance entry,
   * even at 0, is never removed). Solana's token accounts are these (wallet.ts, the rent rule).
   */
  hasAccount(chain: SimChain, asset: string, address: string): boolean {
    return this.balances.get(assetKey(chain, asset))?.has(addressKey(chain, address)) ?? false;
  }

  /** Opens `address`'s account for `asset` at 0 when it has none (a solana token send creates it). */
  openAccount(chain: SimChain, asset: string, address: string): void {
    if (!this.hasAccount(chain, asset, address)) this.add(chain, asset, address, 0n);
  }

  /** Whether a new address may receive on `chain` (the per-chain bound). */
  canHold(chain: SimChain, asset: string, address: string): boolean {
    const holders = this.balances.get(assetKey(chain, asset));
    return (
      holders === undefined ||
      holders.has(addressKey(chain, address)) ||
      holders.size < this.config.addressesPerChainMax
    );
  }

  /** New units at `to` (an admin mint or the aggregator's genesis liquidity). */
  mint(asset: Asset, to: string, amount: bigint): void {
    assert(amount > 0n, 'a mint is positive');
    const key = assetKey(asset.chain, asset.address);
    this.minted.set(key, (this.minted.get(key) ?? 0n) + amount);
    this.add(asset.chain, asset.address, to, amount);
  }

  /** Moves units at once between holders (the aggregator takes a confirmed deposit into its pool). */
  move(chain: SimChain, asset: string, from: string, to: string, amount: bigint): void {
    this.add(chain, asset, from, -amount);
    this.add(chain, asset, to, amount);
  }

  /** Records a transaction: a mint as confirmed, a send as pending with amount and fee in flight. */
  record(tx: WalletTx): void {
    assert(!this.txs.has(tx.hash), 'transaction hashes are unique');
    this.txs.set(tx.hash, tx);
    this.note(tx.chain, tx.to, tx.hash);
    if (tx.from !== null) {
      // A send to oneself is one entry of its address's history, not two.
      if (addressKey(tx.chain, tx.from) !== addressKey(tx.chain, tx.to)) this.note(tx.chain, tx.from, tx.hash);
      const nonceKey = `${tx.chain}|${addressKey(tx.chain, tx.from)}`;
      this.nonces.set(nonceKey, (this.nonces.get(nonceKey) ?? 0) + 1);
    }
    if (tx.status === 'pending') {
      assert(tx.from !== null, 'a pending transaction has a sender');
      this.add(tx.chain, tx.asset, tx.from, -tx.amount);
      this.shiftInFlight(tx.chain, tx.asset, tx.amount);
      const native = nativeOf(tx);
      if (tx.fee > 0n) {
        this.add(tx.chain, native, tx.from, -tx.fee);
        this.shiftInFlight(tx.chain, native, tx.fee);
      }
      const blockKey = `${tx.chain}|${tx.blockAtMs}`;
      const pending = this.blocks.get(blockKey);
      if (pending === undefined) this.blocks.set(blockKey, [tx.hash]);
      else pending.push(tx.hash);
    }
    this.forgetOldest();
  }

  /** Whether a block of `chain` at `atMs` already has work (its timer is scheduled). */
  hasBlock(chain: SimChain, atMs: number): boolean {
    return this.blocks.has(`${chain}|${atMs}`);
  }

  /** Takes the pending transactions of one block, in the order they were sent. */
  takeBlock(chain: SimChain, atMs: number): WalletTx[] {
    const key = `${chain}|${atMs}`;
    const hashes = this.blocks.get(key) ?? [];
    this.blocks.delete(key);
    return hashes.map((hash) => {
      const tx = this.txs.get(hash);
      assert(tx !== undefined && tx.status === 'pending', 'a block settles pending transactions it holds');
      return tx;
    });
  }

  /** Settles a pending transaction: confirmed → amount to `to`; failed → amount back to the sender. Fee to the fee account either way. */
  settle(tx: WalletTx, failure: string | null): void {
    assert(tx.status === 'pending' && tx.from !== null, 'only a pending send settles');
    this.shiftInFlight(tx.chain, tx.asset, -tx.amount);
    this.add(tx.chain, tx.asset, failure === null ? tx.to : tx.from, tx.amount);
    if (tx.fee > 0n) {
      const native = nativeOf(tx);
      this.shiftInFlight(tx.chain, native, -tx.fee);
      this.add(tx.chain, native, FEE_ACCOUNT, tx.fee);
    }
    tx.status = failure === null ? 'confirmed' : 'failed';
    tx.failure = failure;
  }

  /** Null when every (chain, asset) conserves: balances + in flight = minted, no balance negative. */
  checkConserved(): string | null {
    const keys = new Set([...this.minted.keys(), ...this.balances.keys(), ...this.inFlight.keys()]);
    for (const key of keys) {
      let sum = this.inFlight.get(key) ?? 0n;
      if (sum < 0n) return `${key}: negative in flight ${sum}`;
      for (const [address, balance] of this.balances.get(key) ?? []) {
        if (balance < 0n) return `${key}: ${address} holds ${balance}`;
        sum += balance;
      }
      const minted = this.minted.get(key) ?? 0n;
      if (sum !== minted) return `${key}: balances + in flight ${sum} ≠ minted ${minted}`;
    }
    return null;
  }

  /** Per (chain, asset): minted, in flight and the sum of balances (reports and tests). */
  totals(): { key: string; minted: bigint; inFlight: bigint; balances: bigint }[] {
    return [...this.minted.keys()].sort().map((key) => {
      let balances = 0n;
      for (const balance of this.balances.get(key)?.values() ?? []) balances += balance;
      return { key, minted: this.minted.get(key) ?? 0n, inFlight: this.inFlight.get(key) ?? 0n, balances };
    });
  }

  private add(chain: SimChain, asset: string, address: string, delta: bigint): void {
    const key = assetKey(chain, asset);
    let holders = this.balances.get(key);
    if (holders === undefined) {
      holders = new Map();
      this.balances.set(key, holders);
    }
    const holder = addressKey(chain, address);
    const next = (holders.get(holder) ?? 0n) + delta;
    assert(next >= 0n, `a balance never goes negative (${key} ${holder})`);
    holders.set(holder, next);
  }

  private shiftInFlight(chain: SimChain, asset: string, delta: bigint): void {
    const key = assetKey(chain, asset);
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0n) + delta);
  }

  private note(chain: SimChain, address: string, hash: string): void {
    const key = `${chain}|${addressKey(chain, address)}`;
    const hashes = this.history.get(key);
    if (hashes === undefined) {
      this.history.set(key, [hash]);
      return;
    }
    hashes.push(hash);
    if (hashes.length > this.config.historyPerAddressMax) hashes.shift();
  }

  /** Past `txMax`, the oldest settled transaction is forgotten (lookup by hash then answers 404). */
  private forgetOldest(): void {
    if (this.txs.size <= this.config.txMax) return;
    for (const [hash, tx] of this.txs) {
      if (tx.status === 'pending') continue;
      this.txs.delete(hash);
      return;
    }
  }
}

/** The native asset address of a transaction's chain (the fee's asset). */
function nativeOf(tx: WalletTx): string {
  return chainRow(tx.chain).nativeAsset;
}
