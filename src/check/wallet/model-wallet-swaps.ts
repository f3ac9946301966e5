/**
 * The wallet model's swaps and its clock (NOTES.md "Wallet"; docs/decisions/wallet.md "Wallet"): quotes
 * with the aggregator's 0.5 % fee (rounded up, in input units) and minReceived = output less 1 %
 * (rounded up); orders that wait for a deposit at their own address, expire after the deposit
 * window, are refunded (a deposit of another asset or below the amount), or go confirming (at the
 * deposit's block) → exchanging (+1 step) → sending (+1 step: the payout from the pool) → finished
 * (at the payout's block).
 * Prices: the model never prices a volatile asset. It predicts every field of a quote whose two
 * assets are USD stablecoins (1 USD each), and of any other quote everything but the output (whose
 * minReceived it then checks against the output answered). Orders are opened between stablecoins
 * only, so every state at every instant is exact.
 * Time: `advanceWallet` runs, instant by instant, what is due: expiries, then blocks (transactions
 * in the order they were sent), then order steps — the order the service's timers meet them in.
 */
import { assert } from '../../core/assert.ts';
import { basisPoints } from '../../core/money.ts';
import type { WalletChain } from '../../services/wallet/keys/wallet-keys.ts';
import { DEFAULT_WALLET_CONFIG, TOKEN_ROWS } from '../../services/wallet/wallet-config.ts';
import type { CheckModel } from '../check-model.ts';
import { eq, failure, object, text, time, type Matcher, type Prediction } from '../expectation.ts';
import { modelAddressKey, chainOf, moveUnits, POOL, recordSend, settleTx, modelUnitsText } from './model-wallet.ts';
import type { ModelSwapOrder, ModelWalletTx, WalletAsset, WalletModel } from './wallet-state.ts';

const CONFIG = DEFAULT_WALLET_CONFIG;
/** A run's events (blocks, steps, expiries) handled in one advance: far above what MAX_COMMANDS commands create. */
const EVENTS_MAX = 10_000;

/** A USD stablecoin (its token row has no price base): priced at exactly 1 USD. */
export function isStable(asset: WalletAsset): boolean {
  return (
    !asset.native &&
    TOKEN_ROWS.some((row) => row.chain === asset.chain && row.contract === asset.address && row.priceBase === null)
  );
}

function sameAsset(a: WalletAsset, b: WalletAsset): boolean {
  return a.chain === b.chain && modelAddressKey(a.chain, a.address) === modelAddressKey(b.chain, b.address);
}

interface QuoteFigures {
  readonly feeAmount: bigint;
  /** null: a volatile asset takes part (the model does not price it). */
  readonly toAmount: bigint | null;
  readonly minReceived: bigint | null;
}

export function minReceivedOf(toAmount: bigint): bigint {
  return toAmount - basisPoints(toAmount, CONFIG.slippageBps, 'up');
}

function figures(from: WalletAsset, to: WalletAsset, amount: bigint): QuoteFigures {
  const feeAmount = basisPoints(amount, CONFIG.swapFeeBps, 'up');
  if (!isStable(from) || !isStable(to)) return { feeAmount, toAmount: null, minReceived: null };
  const toAmount = ((amount - feeAmount) * 10n ** BigInt(to.decimals)) / 10n ** BigInt(from.decimals);
  return { feeAmount, toAmount, minReceived: minReceivedOf(toAmount) };
}

function estimatedSeconds(from: WalletAsset, to: WalletAsset): number {
  return Math.ceil((chainOf(from.chain).blockMs + 2 * CONFIG.swapStepMs + chainOf(to.chain).blockMs) / 1000);
}

const maybe = (units: bigint | null, decimals: number): Matcher =>
  units === null ? text() : eq(modelUnitsText(units, decimals));

/** GET /v1/wallet/swap/quote: 400 for the same asset or an output that rounds to 0; else the fee breakdown. */
export function predictQuote(from: WalletAsset, to: WalletAsset, amount: bigint): Prediction {
  if (sameAsset(from, to)) return failure(400, 'BAD_REQUEST');
  const quote = figures(from, to, amount);
  // Nothing left after the fee: no price makes an output of it.
  if (amount - quote.feeAmount <= 0n || (quote.toAmount !== null && quote.toAmount <= 0n))
    return failure(400, 'BAD_REQUEST');
  return {
    expected: {
      status: 200,
      body: {
        quote: object({
          fromChain: eq(from.chain),
          toChain: eq(to.chain),
          fromToken: eq(from.address),
          toToken: eq(to.address),
          fromAmount: eq(modelUnitsText(amount, from.decimals)),
          toAmount: maybe(quote.toAmount, to.decimals),
          minReceived: maybe(quote.minReceived, to.decimals),
          estimatedTime: eq(estimatedSeconds(from, to)),
          fee: object({
            integrator_fee_pct: eq(0.5),
            amount: eq(modelUnitsText(quote.feeAmount, from.decimals)),
            symbol: eq(from.symbol),
          }),
        }),
        integrator_fee: eq('0.5%'),
      },
    },
  };
}

function txRef(tx: ModelWalletTx | null): Matcher {
  if (tx === null) return eq(null);
  return tx.hash === null ? text() : eq(tx.hash);
}

export function orderMatcher(order: ModelSwapOrder): Record<string, Matcher> {
  const { from, to } = order;
  return {
    order_id: eq(order.id),
    status: eq(order.status),
    deposit: object({
      chain: eq(from.chain),
      address: eq(order.depositAddress),
      token: eq(from.address),
      amount: eq(modelUnitsText(order.fromAmount, from.decimals)),
    }),
    output: object({
      chain: eq(to.chain),
      address: eq(order.toAddress),
      token: eq(to.address),
      amount: eq(modelUnitsText(order.toAmount, to.decimals)),
      min_received: eq(modelUnitsText(order.minReceived, to.decimals)),
    }),
    fee: object({
      integrator_fee_pct: eq(0.5),
      amount: eq(modelUnitsText(order.feeAmount, from.decimals)),
      symbol: eq(from.symbol),
    }),
    created_at: time(order.createdAtMs),
    updated_at: time(order.updatedAtMs),
    expires_at: time(order.expiresAtMs),
    deposit_tx: txRef(order.depositTx),
    payout_tx: txRef(order.payoutTx),
    refund_tx: txRef(order.refundTx),
    ...(order.hasReason ? { reason: text() } : { reason: eq(null) }),
  };
}

/** Learns the hashes a status answer shows for the first time (a payout's, a refund's). */
export function learnOrderHashes(order: ModelSwapOrder, body: Readonly<Record<string, unknown>>): void {
  if (order.payoutTx !== null && order.payoutTx.hash === null && typeof body['payout_tx'] === 'string')
    order.payoutTx.hash = body['payout_tx'];
  if (order.refundTx !== null && order.refundTx.hash === null && typeof body['refund_tx'] === 'string')
    order.refundTx.hash = body['refund_tx'];
}

/** POST /v1/wallet/swap between two stablecoins: an order waiting for its deposit. */
export function predictSwap(
  model: CheckModel,
  from: WalletAsset,
  to: WalletAsset,
  amount: bigint,
  toAddress: string,
  isValidDeposit: (chain: WalletChain, address: string) => boolean,
): Prediction {
  assert(isStable(from) && isStable(to), 'the model opens orders between stablecoins only');
  const quote = predictQuote(from, to, amount);
  if (quote.expected.status !== 200) return quote;
  const { feeAmount, toAmount, minReceived } = figures(from, to, amount);
  assert(toAmount !== null && minReceived !== null, 'stablecoin figures are exact');
  const nowMs = model.nowMs;
  const expected = expectedOrder({ from, to, amount, toAddress, nowMs, feeAmount, toAmount, minReceived });
  return {
    expected: { status: 200, body: expected },
    commit: (body) => {
      const deposit = body['deposit'] as Readonly<Record<string, unknown>>;
      const depositAddress = String(deposit['address']);
      // A deposit address the model cannot send to would leave the order untestable: a mismatch of its own.
      if (!isValidDeposit(from.chain, depositAddress))
        throw new Error(`the order's deposit address ${depositAddress} is not a valid ${from.chain} address`);
      model.wallet.orders.push({
        id: String(body['order_id']),
        from,
        to,
        fromAmount: amount,
        feeAmount,
        toAmount,
        minReceived,
        toAddress,
        depositAddress,
        createdAtMs: nowMs,
        expiresAtMs: nowMs + CONFIG.swapDepositWindowMs,
        status: 'waiting',
        updatedAtMs: nowMs,
        stepAtMs: null,
        depositTx: null,
        depositAmount: null,
        payoutTx: null,
        refundTx: null,
        hasReason: false,
      });
    },
  };
}

/** The waiting order whose deposit address is `to` on `chain`, if any. */
export function waitingOrderAt(wallet: WalletModel, chain: WalletChain, to: string): ModelSwapOrder | undefined {
  return wallet.orders.find(
    (order) =>
      order.status === 'waiting' &&
      order.from.chain === chain &&
      modelAddressKey(chain, order.depositAddress) === modelAddressKey(chain, to),
  );
}

function move(order: ModelSwapOrder, status: ModelSwapOrder['status'], atMs: number, reason: boolean): void {
  order.status = status;
  order.updatedAtMs = atMs;
  if (reason) order.hasReason = true;
}

/** A confirmed transfer: a payout finishes its order; a deposit into a waiting order starts or refunds it. */
function onConfirmed(wallet: WalletModel, tx: ModelWalletTx, atMs: number): void {
  if (tx.kind === 'swap-payout') {
    const order = wallet.orders.find((one) => one.payoutTx === tx);
    if (order !== undefined && order.status === 'sending') move(order, 'finished', atMs, false);
    return;
  }
  const order = waitingOrderAt(wallet, tx.asset.chain, tx.to);
  if (order === undefined || tx.from === null) return;
  order.depositTx = tx;
  order.depositAmount = tx.amount;
  moveUnits(wallet, tx.asset, tx.to, POOL, tx.amount);
  if (!sameAsset(tx.asset, order.from) || tx.amount < order.fromAmount) {
    move(order, 'refunded', atMs, true);
    order.refundTx = recordSend(
      wallet,
      { kind: 'swap-refund', asset: tx.asset, from: POOL, to: tx.from, amount: tx.amount, memo: null, hash: null },
      atMs,
    );
    return;
  }
  move(order, 'confirming', atMs, false);
  order.stepAtMs = atMs + CONFIG.swapStepMs;
}

/** The order's next step: exchanging, then the payout priced on the deposit (stablecoins: never below the minimum). */
function step(wallet: WalletModel, order: ModelSwapOrder, atMs: number): void {
  if (order.status === 'confirming') {
    move(order, 'exchanging', atMs, false);
    order.stepAtMs = atMs + CONFIG.swapStepMs;
    return;
  }
  assert(order.status === 'exchanging' && order.depositAmount !== null, 'an exchanging order has its deposit');
  const deposited = order.depositAmount;
  const { toAmount } = figures(order.from, order.to, deposited);
  assert(toAmount !== null, 'orders are between stablecoins');
  order.stepAtMs = null;
  const scaledMin = (order.minReceived * deposited) / order.fromAmount;
  if (toAmount >= scaledMin) {
    order.payoutTx = recordSend(
      wallet,
      {
        kind: 'swap-payout',
        asset: order.to,
        from: POOL,
        to: order.toAddress,
        amount: toAmount,
        memo: null,
        hash: null,
      },
      atMs,
    );
    move(order, 'sending', atMs, false);
    return;
  }
  move(order, 'failed', atMs, true);
  order.refundTx = recordSend(
    wallet,
    {
      kind: 'swap-refund',
      asset: order.from,
      from: POOL,
      to: order.depositTx?.from ?? POOL,
      amount: deposited,
      memo: null,
      hash: null,
    },
    atMs,
  );
}

/** The instants after `nowMs` where the wallet changes by itself: blocks with pending work, order steps, expiries. */
export function walletBoundaries(model: Readonly<CheckModel>): number[] {
  const found: number[] = [];
  for (const tx of model.wallet.txs) if (tx.status === 'pending') found.push(tx.blockAtMs);
  for (const order of model.wallet.orders) {
    if (order.stepAtMs !== null) found.push(order.stepAtMs);
    if (order.status === 'waiting') found.push(order.expiresAtMs);
  }
  return found.filter((ms) => ms > model.nowMs);
}

function nextEventMs(wallet: WalletModel): number | null {
  let next: number | null = null;
  const consider = (ms: number): void => {
    if (next === null || ms < next) next = ms;
  };
  for (const tx of wallet.txs) if (tx.status === 'pending') consider(tx.blockAtMs);
  for (const order of wallet.orders) {
    if (order.stepAtMs !== null) consider(order.stepAtMs);
    if (order.status === 'waiting') consider(order.expiresAtMs);
  }
  return next;
}

/** Runs every wallet event due at or before `toMs`, instant by instant (see the header). */
export function advanceWallet(model: CheckModel, toMs: number): void {
  const wallet = model.wallet;
  for (let events = 0; events < EVENTS_MAX; events++) {
    const atMs = nextEventMs(wallet);
    if (atMs === null || atMs > toMs) return;
    for (const order of wallet.orders)
      if (order.status === 'waiting' && order.expiresAtMs === atMs) move(order, 'expired', atMs, true);
    for (const tx of wallet.txs.filter((one) => one.status === 'pending' && one.blockAtMs === atMs)) {
      if (settleTx(wallet, tx)) onConfirmed(wallet, tx, atMs);
    }
    for (const order of wallet.orders) if (order.stepAtMs === atMs) step(wallet, order, atMs);
  }
  throw new Error(`the wallet model met more than ${EVENTS_MAX} events in one advance`);
}

/** An order's figures, as the model predicts them. */
interface OrderFigures {
  readonly from: WalletAsset;
  readonly to: WalletAsset;
  readonly amount: bigint;
  readonly toAddress: string;
  readonly nowMs: number;
  readonly feeAmount: bigint;
  readonly toAmount: bigint;
  readonly minReceived: bigint;
}

/** The body a new swap order is answered with: waiting, its deposit, output and fee as predicted. */
function expectedOrder(order: OrderFigures): Record<string, Matcher> {
  const { from, to, amount, toAddress, nowMs, feeAmount, toAmount, minReceived } = order;
  return {
    order_id: text(),
    status: eq('waiting'),
    deposit: object({
      chain: eq(from.chain),
      address: text(),
      token: eq(from.address),
      amount: eq(modelUnitsText(amount, from.decimals)),
    }),
    output: object({
      chain: eq(to.chain),
      address: eq(toAddress),
      token: eq(to.address),
      amount: eq(modelUnitsText(toAmount, to.decimals)),
      min_received: eq(modelUnitsText(minReceived, to.decimals)),
    }),
    fee: object({
      integrator_fee_pct: eq(0.5),
      amount: eq(modelUnitsText(feeAmount, from.decimals)),
      symbol: eq(from.symbol),
    }),
    created_at: time(nowMs),
    updated_at: time(nowMs),
    expires_at: time(nowMs + CONFIG.swapDepositWindowMs),
    deposit_tx: eq(null),
    payout_tx: eq(null),
    refund_tx: eq(null),
    reason: eq(null),
  };
}
