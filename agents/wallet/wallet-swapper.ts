/**
 * Archetype `wallet-swapper`: swaps what its wallet holds through the simulated aggregator
 * (wallet.md "Swaps"; NOTES.md: fee 0.5 %, statuses waiting → confirming → exchanging → sending →
 * finished, or failed, refunded, expired) and follows each order to its end.
 *
 * Setup: registers — with chance `referred` under an agent of archetype `referrer` (the referral
 * tree's recruiters: a finished swap's fee pays them 10 / 5 / 2.5 %) — and creates its wallet once
 * (wallet-kit.ts); it learns the assets' contract addresses from GET /v1/wallet/chains. Every
 * `every` (± a quarter) it draws an asset it holds on a chain of `from_chains` and another asset
 * of any chain, quotes `amount_pct` % of its holding by CONTRACT ADDRESS (never a symbol) and
 * checks the quote (fee = 0.5 % of the amount rounded up, min received ≤ output), opens the order
 * paying its own address, sends the deposit, and polls the status every `poll` until an end
 * status: the status never moves back, and a finished order's payout reached its own address with
 * at least the minimum received.
 * Expected refusals: 429, a scheduled outage, 422 on the deposit (the order then expires).
 * Limits: one order at a time, POLLS_MAX answered reads of it (a fault window's or a rate limit's
 * refusal is not one); CREATE_ATTEMPTS_MAX wallet creations.
 */
import { z } from 'zod';
import type { WalletChainName, WalletSwapOrder } from '../../src/client/wallet-client.ts';
import { defineAgent, type AgentContext } from '../../src/agent/agent.ts';
import {
  expectedRefusal,
  freshFaucetMemory,
  HOUR_MS,
  jittered,
  memoryOf,
  MINUTE_MS,
  onboard,
  reportUnexpected,
  RETRY_MS,
  untilMs,
} from '../../src/agent/agent-kit.ts';
import { durationMs } from '../../src/scenario/duration.ts';
import { BASIS_POINTS, probability } from '../../src/scenario/probability.ts';
import { WALLET_CHAINS, type WalletChain } from '../../src/services/wallet/keys/wallet-keys.ts';
import {
  CREATE_ATTEMPTS_MAX,
  ensureWallet,
  freshWalletFields,
  readWalletBalance,
  sendBody,
  unitsOf,
  unitsText,
  warmWalletKeys,
  type HeldWallet,
  type WalletMemory,
} from './wallet-kit.ts';

const SWAPPER = 'wallet-swapper';
const POLLS_MAX = 100;
const FEE_BPS = 50n;
/** Order statuses by progress; the four end statuses share the last rank. */
const RANK: Readonly<Record<WalletSwapOrder['status'], number>> = {
  waiting: 0,
  confirming: 1,
  exchanging: 2,
  sending: 3,
  finished: 4,
  failed: 4,
  refunded: 4,
  expired: 4,
};

const params = z.strictObject({
  every: durationMs({ minMs: MINUTE_MS, maxMs: 30 * 24 * HOUR_MS })
    .prefault('3h')
    .describe('time between swaps'),
  poll: durationMs({ minMs: 10_000, maxMs: HOUR_MS }).prefault('2m').describe('time between reads of an open order'),
  from_chains: z
    .array(z.enum(WALLET_CHAINS as [WalletChain, ...WalletChain[]]))
    .min(1)
    .max(WALLET_CHAINS.length)
    .prefault(['ethereum', 'base', 'solana', 'tron'])
    .describe('chains whose assets it swaps from, one drawn per swap'),
  amount_pct: z.int().min(1).max(50).prefault(5).describe('percent of the asset held that one swap sells'),
  referred: probability().prefault(0).describe('chance of registering under an agent of archetype `referrer`'),
  referrer: z.string().min(1).max(64).prefault('referral-recruiter').describe('archetype the referrer is drawn from'),
});

type Params = z.output<typeof params>;

/** An asset by contract address, as GET /v1/wallet/chains lists it. */
interface SwapAsset {
  readonly chain: WalletChainName;
  readonly address: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly native: boolean;
}

interface OpenOrder {
  readonly id: string;
  rank: number;
  polls: number;
  readonly to: SwapAsset;
  readonly minReceived: bigint;
}

interface SwapperMemory extends WalletMemory {
  assets: SwapAsset[] | null;
  order: OpenOrder | null;
  nextSwapAtMs: number;
  nextPollAtMs: number;
}

function memory(context: AgentContext<Params>): SwapperMemory {
  return memoryOf(context, () => ({
    ...freshFaucetMemory(),
    ...freshWalletFields(),
    assets: null,
    order: null,
    nextSwapAtMs: context.clock.nowMs() + context.rng.int(context.params.every),
    nextPollAtMs: 0,
  }));
}

/** Every swappable asset (native coins and tokens), from the chains answer; null when not answered. */
async function learnAssets(context: AgentContext<Params>, swapper: SwapperMemory): Promise<SwapAsset[] | null> {
  if (swapper.assets !== null) return swapper.assets;
  const result = await context.client.wallet.chains();
  if (!result.ok) {
    if (!expectedRefusal(context, result, 'wallet')) reportUnexpected(context, 'the wallet chains', result, '200');
    return null;
  }
  const assets: SwapAsset[] = [];
  for (const row of result.body.wallet_chains as {
    chain: WalletChainName;
    symbol: string;
    decimals: number;
    native_token: string;
    tokens: { symbol: string; contract: string; decimals: number }[];
  }[]) {
    if (!result.body.swap_chains.includes(row.chain)) continue;
    assets.push({
      chain: row.chain,
      address: row.native_token,
      symbol: row.symbol,
      decimals: row.decimals,
      native: true,
    });
    for (const token of row.tokens)
      assets.push({
        chain: row.chain,
        address: token.contract,
        symbol: token.symbol,
        decimals: token.decimals,
        native: false,
      });
  }
  swapper.assets = assets;
  return assets;
}

/** Quote, check, open and pay one order; it becomes the open order when the swap was accepted. */
async function startSwap(
  context: AgentContext<Params>,
  swapper: SwapperMemory,
  wallet: HeldWallet,
  assets: readonly SwapAsset[],
): Promise<void> {
  const chain = context.rng.pick(context.params.from_chains);
  const balance = await readWalletBalance(context, wallet, chain);
  if (balance === null) return;
  const held = [balance.native, ...balance.tokens].filter(
    (amount) => (unitsOf(amount.amount, amount.decimals) ?? 0n) > 0n,
  );
  if (held.length === 0) return;
  const holding = context.rng.pick(held);
  const from = assets.find(
    (asset) =>
      asset.chain === chain &&
      asset.native === (holding.contract === null) &&
      (asset.native || asset.address === holding.contract),
  );
  const targets = assets.filter((asset) => asset !== from);
  if (from === undefined || targets.length === 0) return;
  const to = context.rng.pick(targets);
  const units = ((unitsOf(holding.amount, holding.decimals) ?? 0n) * BigInt(context.params.amount_pct)) / 100n;
  if (units === 0n) return;
  const fields = {
    from_chain: from.chain,
    to_chain: to.chain,
    from_token: from.address,
    to_token: to.address,
    amount: unitsText(units, from.decimals),
  };
  const quote = await context.client.wallet.quote(fields);
  if (!quote.ok) {
    // 400: the output rounds to 0 at this size; anything else is not the contract.
    if (!expectedRefusal(context, quote, 'wallet') && quote.status !== 400)
      reportUnexpected(context, `a quote ${from.symbol} → ${to.symbol}`, quote, '200');
    return;
  }
  const answered = quote.body.quote as { toAmount: string; minReceived: string; fee?: { amount?: string } };
  const fee = unitsOf(answered.fee?.amount, from.decimals);
  const wantFee = (units * FEE_BPS + 9_999n) / 10_000n;
  const toAmount = unitsOf(answered.toAmount, to.decimals);
  const minReceived = unitsOf(answered.minReceived, to.decimals);
  if (fee !== wantFee || toAmount === null || minReceived === null || minReceived > toAmount) {
    context.report(
      `quote of ${fields.amount} ${from.symbol}: fee ${answered.fee?.amount} (due ${unitsText(wantFee, from.decimals)}), min received ${answered.minReceived} of ${answered.toAmount}`,
      quote.body,
    );
    return;
  }
  const order = await context.client.wallet.swap({ ...fields, to_address: wallet.addresses[to.chain as WalletChain] });
  if (!order.ok) {
    if (!expectedRefusal(context, order, 'wallet') && order.status !== 400)
      reportUnexpected(context, `a swap ${from.symbol} → ${to.symbol}`, order, '200');
    return;
  }
  swapper.order = {
    id: order.body.order_id,
    rank: RANK[order.body.status],
    polls: 0,
    to,
    minReceived: unitsOf(order.body.output.min_received, to.decimals) ?? 0n,
  };
  const deposit = await context.client.wallet.send(
    sendBody(wallet, chain, order.body.deposit.address, order.body.deposit.amount, from.native ? null : from.address),
  );
  if (!deposit.ok && !expectedRefusal(context, deposit, 'wallet') && deposit.body.code !== 'INSUFFICIENT_BALANCE')
    reportUnexpected(context, `the deposit of order ${order.body.order_id}`, deposit, '200 or 422');
}

/** One read of the open order: forward only; at its end, a finished payout is checked. */
async function followOrder(
  context: AgentContext<Params>,
  swapper: SwapperMemory,
  wallet: HeldWallet,
  order: OpenOrder,
): Promise<void> {
  const result = await context.client.wallet.swapStatus(order.id);
  // A fault window or a rate limit says nothing of the order's progress: only other answers count as reads.
  if (!result.ok && expectedRefusal(context, result, 'wallet')) return;
  order.polls++;
  if (!result.ok) {
    reportUnexpected(context, `the status of order ${order.id}`, result, '200');
  } else {
    const rank = RANK[result.body.status];
    if (rank < order.rank) context.report(`order ${order.id} moved back to ${result.body.status}`, result.body);
    order.rank = rank;
    if (rank === RANK.finished) {
      swapper.order = null;
      if (result.body.status === 'finished') await checkPayout(context, wallet, order, result.body);
      return;
    }
  }
  if (order.polls >= POLLS_MAX) {
    context.report(`order ${order.id} did not end after ${POLLS_MAX} reads`, result.body);
    swapper.order = null;
  }
}

async function checkPayout(
  context: AgentContext<Params>,
  wallet: HeldWallet,
  order: OpenOrder,
  body: WalletSwapOrder,
): Promise<void> {
  if (body.payout_tx === null) {
    context.report(`finished order ${order.id} has no payout transaction`, body);
    return;
  }
  const payout = await context.client.wallet.tx(body.payout_tx);
  if (!payout.ok) {
    if (!expectedRefusal(context, payout, 'wallet'))
      reportUnexpected(context, `the payout of order ${order.id}`, payout, '200');
    return;
  }
  const amount = unitsOf(payout.body.amount, order.to.decimals);
  if (
    payout.body.status !== 'confirmed' ||
    payout.body.to !== wallet.addresses[order.to.chain as WalletChain] ||
    amount === null ||
    amount < order.minReceived
  ) {
    context.report(
      `finished order ${order.id}: payout ${payout.body.amount} ${payout.body.status} to ${payout.body.to}, at least ${unitsText(order.minReceived, order.to.decimals)} due to its own address`,
      payout.body,
    );
  }
}

export const walletSwapper = defineAgent<Params>({
  name: SWAPPER,
  service: 'wallet',
  warmUp: warmWalletKeys,
  description:
    'creates one wallet, swaps its coins and tokens by contract address through the aggregator, and follows each order to its end (status forward only, payout at least the minimum received)',
  params,
  async setup(context) {
    const swapper = memory(context);
    const referrer = context.rng.chance(context.params.referred, BASIS_POINTS)
      ? context.directory.pick(context.params.referrer, context.rng, context.agentId)
      : null;
    if (await onboard(context, swapper, referrer ?? undefined)) await ensureWallet(context, swapper);
  },
  async step(context) {
    const swapper = memory(context);
    if (!(await onboard(context, swapper))) return { wakeInMs: RETRY_MS };
    const wallet = await ensureWallet(context, swapper);
    if (wallet === null) return swapper.createAttempts >= CREATE_ATTEMPTS_MAX ? 'done' : { wakeInMs: RETRY_MS };
    const assets = await learnAssets(context, swapper);
    if (assets === null) return { wakeInMs: RETRY_MS };
    const nowMs = context.clock.nowMs();
    const open = swapper.order;
    if (open !== null) {
      if (nowMs < swapper.nextPollAtMs) return { wakeInMs: untilMs(context, swapper.nextPollAtMs) };
      await followOrder(context, swapper, wallet, open);
    } else if (nowMs >= swapper.nextSwapAtMs) {
      await startSwap(context, swapper, wallet, assets);
      swapper.nextSwapAtMs = nowMs + jittered(context, context.params.every, Math.floor(context.params.every / 4));
    }
    if (swapper.order !== null) {
      swapper.nextPollAtMs = nowMs + context.params.poll;
      return { wakeInMs: context.params.poll };
    }
    return { wakeInMs: untilMs(context, swapper.nextSwapAtMs) };
  },
});
