/**
 * WalletService: the non-custodial multi-chain wallet (spec/wallet.md, NOTES.md "Wallet") over
 * the simulated chains (ChainBook: the six of the keys, and polygon and arbitrum for style B) and a
 * simulated swap aggregator (SwapDesk).
 *
 * - create: a 24-word mnemonic from the seeded rng, its six addresses, monero keys and paths —
 *   returned to the caller once and never kept (nothing of it enters the state).
 * - send: the key supplied signs the transfer (wallet-signing.ts); balance (amount, and the fee in
 *   the native coin) checked; the transfer is pending until its chain's next block instant, where
 *   it is confirmed, or failed by the chain's rule (the amount returns, the fee is kept):
 *   a token sent to its own contract reverts (EVM, tron); a solana transfer that opens an account
 *   below the rent-exempt minimum fails. A solana token (SPL) send to an address without an account
 *   for that mint creates it: the sender pays its rent in the fee, and the account exists from then
 *   on (held at 0 while the transfer is pending, kept if it fails: the fee is kept too).
 * - mint: new coins or tokens at an address (the admin door POST /_afp/wallet/mint; the only way
 *   money enters a chain besides the aggregator's genesis liquidity).
 * - swaps: quote, order, status (swap-desk.ts), moving on the clock; a finished order's 0.5 % fee
 *   is wallet revenue whose referral shares are paid (wallet-referral-fee.ts).
 * Failures in precedence order: 400 bad input, 403 a key that does not control `from`, 404 unknown,
 * 422 INSUFFICIENT_BALANCE. Every check runs before the first write: a refused call moves nothing.
 * Timers: 'wallet.block' (chain, atMs) for each block with pending work; 'wallet.swap' per order step.
 * A swap's settlement on the chains (deposit, payout, refund) is swap-settlement.ts.
 * Non-goals: HTTP (src/http/routes/wallet/), keys (./keys/, a pure module).
 */
import { assert } from '../../core/assert.ts';
import { fail, succeed, type Outcome } from '../../core/errors.ts';
import type { Rng } from '../../core/rng.ts';
import type { PlatformTimer, ServiceContext } from '../shared/context.ts';
import type { PriceBook } from '../trading/price-book.ts';
import { addressKey, AGGREGATOR_POOL, ChainBook, type TxKind, type WalletTx } from './chain-book.ts';
import { DepositKeyring } from './keys/deposit-keyring.ts';
import {
  deriveWallet,
  generateMnemonic,
  isValidAddress,
  type DerivedWallet,
  type WalletChain,
} from './keys/wallet-keys.ts';
import { assetPrice, quoteSwap, SwapDesk, type SwapOrder, type SwapQuote } from './swap-desk.ts';
import {
  depositKeyOf,
  emitSwap,
  moveSwap,
  payOutSwap,
  swapTransferConfirmed,
  type SwapHost,
} from './swap-settlement.ts';
import { assetsOf, nativeAsset, type Asset } from './wallet-assets.ts';
import {
  CHAIN_ROWS,
  chainRow,
  DEFAULT_WALLET_CONFIG,
  isEvmChain,
  keyChainOf,
  type SimChain,
  type WalletConfig,
} from './wallet-config.ts';
import { authorizedSender, signTransfer, transferBytes, transferHash, type SenderKey } from './wallet-signing.ts';

export type WalletTimer = Extract<PlatformTimer, { kind: 'wallet.block' | 'wallet.swap' }>;

export interface SendCommand {
  readonly asset: Asset;
  /** The sender the caller named (monero: required by the route), or null. */
  readonly from: string | null;
  readonly to: string;
  readonly amount: bigint;
  readonly key: SenderKey;
  readonly memo: string | null;
}

export interface BalanceView {
  readonly chain: SimChain;
  readonly address: string;
  readonly native: { readonly asset: Asset; readonly amount: bigint };
  readonly tokens: readonly { readonly asset: Asset; readonly amount: bigint }[];
}

export interface SwapCommand {
  readonly from: Asset;
  readonly to: Asset;
  readonly amount: bigint;
  readonly toAddress: string;
}

export class WalletService implements SwapHost {
  readonly config: WalletConfig;
  readonly chains: ChainBook;
  readonly swaps = new SwapDesk();
  /** Read by the swap settlement through SwapHost (swap-settlement.ts), as are config, chains and swaps. */
  readonly context: ServiceContext;
  readonly prices: PriceBook;
  private readonly rng: Rng;
  /** The aggregator's own stream: its master key does not shift the mnemonics wallets are created with. */
  private readonly aggregatorRng: Rng;
  /** The aggregator's deposit keys, drawn at the first swap (one PBKDF2 per platform, not per order). */
  private depositKeys: DepositKeyring | null = null;
  /** Wallets created. Of a wallet only its public addresses are kept (below), never a key. */
  private created = 0;
  /** Agent → the public addresses of its latest wallet: style A and B answer per agent, not per address. */
  private readonly addressBook = new Map<string, Readonly<Record<WalletChain, string>>>();

  constructor(context: ServiceContext, prices: PriceBook, config: WalletConfig = DEFAULT_WALLET_CONFIG) {
    this.context = context;
    this.prices = prices;
    this.config = config;
    this.rng = context.rng.fork('wallet');
    this.aggregatorRng = context.rng.fork('wallet-aggregator');
    this.chains = new ChainBook(config);
    for (const row of CHAIN_ROWS) {
      for (const asset of assetsOf(row.chain)) {
        const whole = asset.token === null ? row.liquidityWhole : asset.token.liquidityWhole;
        this.chains.mint(asset, AGGREGATOR_POOL, whole * 10n ** BigInt(asset.decimals));
      }
    }
  }

  get walletsCreated(): number {
    return this.created;
  }

  /** A fresh HD wallet from the seeded rng; the caller gets it once, the service keeps nothing of it. */
  create(agentId: string, nowMs: number): DerivedWallet {
    const wallet = deriveWallet(generateMnemonic(this.rng));
    this.created++;
    this.addressBook.set(agentId, { ...wallet.addresses });
    this.context.emit({ type: 'wallet.created', atMs: nowMs, agentId });
    return wallet;
  }

  /** The public addresses of the agent's latest wallet; null before it created one. */
  addressesOf(agentId: string): Readonly<Record<WalletChain, string>> | null {
    return this.addressBook.get(agentId) ?? null;
  }

  /** The USD value (8 decimals) of `amount` base units of `asset` now. */
  usdValue(asset: Asset, amount: bigint, nowMs: number): bigint {
    return (amount * assetPrice(this.prices, asset, nowMs)) / 10n ** BigInt(asset.decimals);
  }

  balance(chain: SimChain, address: string): Outcome<BalanceView> {
    if (!isValidAddress(keyChainOf(chain), address)) return badAddress(chain, address, 'address');
    const [native, ...tokens] = assetsOf(chain).map((asset) => ({
      asset,
      amount: this.chains.balanceOf(chain, asset.address, address),
    }));
    assert(native !== undefined, 'every chain has a native asset');
    return succeed({ chain, address, native, tokens });
  }

  /** New units at `address` (the admin mint), recorded as a confirmed transaction without sender. */
  mint(asset: Asset, address: string, amount: bigint, nowMs: number): Outcome<WalletTx> {
    if (!isValidAddress(keyChainOf(asset.chain), address)) return badAddress(asset.chain, address, 'address');
    if (!this.chains.canHold(asset.chain, asset.address, address))
      return fail('CONFLICT', `${asset.chain} holds its maximum number of addresses`);
    const hash = this.context.ids.txHash();
    const tx: WalletTx = {
      hash: isEvmChain(asset.chain) ? hash : hash.slice(2),
      kind: 'mint',
      chain: asset.chain,
      asset: asset.address,
      symbol: asset.symbol,
      decimals: asset.decimals,
      from: null,
      to: address,
      amount,
      fee: 0n,
      memo: null,
      sentAtMs: nowMs,
      blockAtMs: nowMs,
      status: 'confirmed',
      failure: null,
    };
    this.chains.mint(asset, address, amount);
    this.chains.record(tx);
    this.context.emit({
      type: 'wallet.minted',
      atMs: nowMs,
      chain: asset.chain,
      asset: asset.address,
      to: address,
      amount,
    });
    return succeed(tx);
  }

  /** Signs with the key supplied and broadcasts: pending until the chain's next block. */
  send(command: SendCommand, nowMs: number): Outcome<WalletTx> {
    const { asset } = command;
    const chain = asset.chain;
    if (!isValidAddress(keyChainOf(chain), command.to)) return badAddress(chain, command.to, 'to');
    if (command.from !== null && !isValidAddress(keyChainOf(chain), command.from))
      return badAddress(chain, command.from, 'from');
    const sender = authorizedSender(chain, command.key, command.from);
    if (!sender.ok) return sender;
    const from = sender.value;
    const fee = this.context.defects.has('wallet-fee-uncharged') ? 0n : this.feeOf(asset, command.to);
    const bytes = transferBytes(
      { chain, to: command.to, asset: asset.address, amount: command.amount, fee, memo: command.memo },
      from,
      this.chains.nonceOf(chain, from),
    );
    const signed = signTransfer(chain, command.key, from, bytes);
    if (!signed.ok) return signed;
    const funds = this.checkFunds(asset, from, command.amount, fee);
    if (funds !== null) return funds;
    if (!this.chains.canHold(chain, asset.address, command.to))
      return fail('CONFLICT', `${chain} holds its maximum number of addresses`);
    return succeed(
      this.broadcast(
        {
          kind: 'send',
          asset,
          from,
          to: command.to,
          amount: command.amount,
          fee,
          memo: command.memo,
          hash: transferHash(chain, bytes),
        },
        nowMs,
      ),
    );
  }

  transactions(chain: SimChain, address: string, limit: number): Outcome<WalletTx[]> {
    if (!isValidAddress(keyChainOf(chain), address)) return badAddress(chain, address, 'address');
    return succeed(this.chains.historyOf(chain, address, limit));
  }

  transaction(hash: string): Outcome<WalletTx> {
    const tx = this.chains.get(hash);
    return tx === undefined ? fail('NOT_FOUND', `transaction ${hash} is not known`) : succeed(tx);
  }

  quote(from: Asset, to: Asset, amount: bigint, nowMs: number): Outcome<SwapQuote> {
    if (from.chain === to.chain && from.address === to.address)
      return fail('BAD_REQUEST', 'from_token and to_token are the same asset', { field: 'to_token' });
    const quote = quoteSwap(this.prices, this.config, from, to, amount, nowMs);
    if (quote.toAmount <= 0n)
      return fail('BAD_REQUEST', 'amount is too small to swap (the output rounds to 0)', { field: 'amount' });
    return succeed(quote);
  }

  /** An order of `payerId` waiting for its deposit at its own address on the input chain (the aggregator's child key number = order number). */
  swap(command: SwapCommand, nowMs: number, payerId: string): Outcome<SwapOrder> {
    if (!isValidAddress(keyChainOf(command.to.chain), command.toAddress))
      return badAddress(command.to.chain, command.toAddress, 'to_address');
    const quote = this.quote(command.from, command.to, command.amount, nowMs);
    if (!quote.ok) return quote;
    if (this.swaps.openCount >= this.config.openSwapsMax)
      return fail('CONFLICT', 'the aggregator holds its maximum number of open orders');
    this.depositKeys ??= DepositKeyring.fromRng(this.aggregatorRng);
    const depositAddress = this.depositKeys.address(keyChainOf(command.from.chain), this.swaps.size);
    const id = this.context.ids.next('swp_', 16);
    const order: SwapOrder = {
      id,
      quote: quote.value,
      payerId,
      toAddress: command.toAddress,
      depositAddress,
      createdAtMs: nowMs,
      expiresAtMs: nowMs + this.config.swapDepositWindowMs,
      status: 'waiting',
      updatedAtMs: nowMs,
      depositTx: null,
      depositFrom: null,
      depositAmount: null,
      payoutTx: null,
      refundTx: null,
      reason: null,
    };
    this.swaps.add(order, depositKeyOf(order));
    this.context.timers.schedule(order.expiresAtMs, { kind: 'wallet.swap', orderId: id, step: 'expire' });
    emitSwap(this.context, order, nowMs);
    return succeed(order);
  }

  swapStatus(orderId: string): Outcome<SwapOrder> {
    const order = this.swaps.get(orderId);
    return order === undefined ? fail('NOT_FOUND', `swap order ${orderId} is not known`) : succeed(order);
  }

  /** Null when every chain and asset conserves (the wallet-conservation invariant). */
  checkConserved(): string | null {
    return this.chains.checkConserved();
  }

  onTimer(timer: WalletTimer, atMs: number): void {
    if (timer.kind === 'wallet.block') {
      this.settleBlock(timer.chain, timer.atMs);
      return;
    }
    const order = this.swaps.get(timer.orderId);
    assert(order !== undefined, 'a swap timer names a known order');
    if (timer.step === 'expire') {
      if (order.status === 'waiting') moveSwap(this, order, 'expired', atMs, 'no deposit arrived in time');
    } else if (timer.step === 'exchange' && order.status === 'confirming') {
      moveSwap(this, order, 'exchanging', atMs, null);
      this.context.timers.schedule(atMs + this.config.swapStepMs, {
        kind: 'wallet.swap',
        orderId: order.id,
        step: 'send',
      });
    } else if (timer.step === 'send' && order.status === 'exchanging') {
      payOutSwap(this, order, atMs);
    }
  }

  /** A transfer's fee in the native coin: the chain's, plus a solana token account's rent when `to` has none for the mint. */
  private feeOf(asset: Asset, to: string): bigint {
    const row = chainRow(asset.chain);
    if (asset.token === null) return row.feeNative;
    const opens = row.tokenAccountRent > 0n && !this.chains.hasAccount(asset.chain, asset.address, to);
    return (row.feeToken ?? 0n) + (opens ? row.tokenAccountRent : 0n);
  }

  private checkFunds(asset: Asset, from: string, amount: bigint, fee: bigint): ReturnType<typeof fail> | null {
    const chain = asset.chain;
    const native = nativeAsset(chain);
    const nativeHeld = this.chains.balanceOf(chain, native.address, from);
    const needNative = asset.token === null ? amount + fee : fee;
    if (nativeHeld < needNative)
      return fail(
        'INSUFFICIENT_BALANCE',
        `${from} holds ${nativeHeld} base units of ${native.symbol} on ${chain}; this send needs ${needNative}${asset.token === null ? ' (amount + fee)' : ' (the fee)'}`,
      );
    if (asset.token !== null) {
      const held = this.chains.balanceOf(chain, asset.address, from);
      if (held < amount)
        return fail(
          'INSUFFICIENT_BALANCE',
          `${from} holds ${held} base units of ${asset.symbol} on ${chain}; this send needs ${amount}`,
        );
    }
    return null;
  }

  /** Records a pending transfer for the chain's next block and schedules that block once. */
  private broadcast(
    parts: {
      kind: TxKind;
      asset: Asset;
      from: string;
      to: string;
      amount: bigint;
      fee: bigint;
      memo: string | null;
      hash: string;
    },
    nowMs: number,
  ): WalletTx {
    const chain = parts.asset.chain;
    const blockMs = chainRow(chain).blockMs;
    const blockAtMs = (Math.floor(nowMs / blockMs) + 1) * blockMs;
    const tx: WalletTx = {
      hash: parts.hash,
      kind: parts.kind,
      chain,
      asset: parts.asset.address,
      symbol: parts.asset.symbol,
      decimals: parts.asset.decimals,
      from: parts.from,
      to: parts.to,
      amount: parts.amount,
      fee: parts.fee,
      memo: parts.memo,
      sentAtMs: nowMs,
      blockAtMs,
      status: 'pending',
      failure: null,
    };
    const scheduled = this.chains.hasBlock(chain, blockAtMs);
    this.chains.record(tx);
    if (parts.asset.token !== null && chainRow(chain).tokenAccountRent > 0n)
      this.chains.openAccount(chain, parts.asset.address, parts.to);
    if (!scheduled) this.context.timers.schedule(blockAtMs, { kind: 'wallet.block', chain, atMs: blockAtMs });
    this.context.emit({
      type: 'wallet.sent',
      atMs: nowMs,
      hash: tx.hash,
      kind: tx.kind,
      chain,
      asset: tx.asset,
      from: tx.from ?? '',
      to: tx.to,
      amount: tx.amount,
      fee: tx.fee,
      blockAtMs,
    });
    return tx;
  }

  private settleBlock(chain: SimChain, atMs: number): void {
    for (const tx of this.chains.takeBlock(chain, atMs)) {
      const failure = this.chainRule(tx);
      this.chains.settle(tx, failure);
      this.context.emit({ type: 'wallet.settled', atMs, hash: tx.hash, chain, status: tx.status, failure });
      if (failure === null) swapTransferConfirmed(this, tx, atMs);
    }
  }

  /** Why the chain fails `tx` at its block, or null (header: the two rules). */
  private chainRule(tx: WalletTx): string | null {
    const row = chainRow(tx.chain);
    if (tx.asset !== row.nativeAsset && addressKey(tx.chain, tx.to) === addressKey(tx.chain, tx.asset))
      return 'execution reverted: transfer to the token contract itself';
    // A new (empty) account must receive at least the rent-exempt minimum.
    if (
      row.rentExemptMin > 0n &&
      tx.asset === row.nativeAsset &&
      this.chains.balanceOf(tx.chain, row.nativeAsset, tx.to) === 0n &&
      tx.amount < row.rentExemptMin
    ) {
      return `insufficient funds for rent: a new account needs at least ${row.rentExemptMin} lamports`;
    }
    return null;
  }

  /** A transfer from the aggregator's pool (fee paid by the pool); null when the pool cannot pay. */
  payFromPool(chain: SimChain, asset: string, to: string, amount: bigint, kind: TxKind, atMs: number): WalletTx | null {
    const assetRow = assetsOf(chain).find((one) => one.address === asset);
    assert(assetRow !== undefined, 'a pool pays an asset of its chain');
    const fee = this.feeOf(assetRow, to);
    if (this.checkFunds(assetRow, AGGREGATOR_POOL, amount, fee) !== null) return null;
    const hash = transferHash(
      chain,
      transferBytes(
        { chain, to, asset, amount, fee, memo: kind },
        AGGREGATOR_POOL,
        this.chains.nonceOf(chain, AGGREGATOR_POOL),
      ),
    );
    return this.broadcast({ kind, asset: assetRow, from: AGGREGATOR_POOL, to, amount, fee, memo: null, hash }, atMs);
  }
}

function badAddress(chain: SimChain, address: string, field: string): ReturnType<typeof fail> {
  return fail('BAD_REQUEST', `${field} is not a valid ${chain} address: ${address.slice(0, 120)}`, { field });
}
