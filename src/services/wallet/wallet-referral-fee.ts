/**
 * The wallet's referral fee: the swap's 0.5 % integrator fee is the platform's wallet revenue, so
 * the wallet's referral share (10 % at level 1, 5 % and 2.5 % above, referral-programme.ts) is paid
 * on it like any service's fee (issue 21 item 6; docs/decisions/wallet.md "Wallet").
 *
 * Why a hook: the fee is taken in the input asset on a simulated chain (the aggregator's pool
 * keeps it), and chain money is not platform USDC. When the order FINISHES (its payout confirmed;
 * a failed, refunded or expired order charged nothing), the fee's value in micro-USDC at the
 * quote's input price enters `fee-income` from `external`, as a deposit does (the conservation
 * invariant counts it), the programme pays the three levels out of it, and `wallet.fee` names the
 * fee for the referral-levels invariant right after the shares' transfers.
 * Fee in input units = what the payout took: basisPoints(deposit, swapFeeBps, 'up') (swap-desk.ts).
 */
import { EXTERNAL, FEE_INCOME } from '../../core/ledger.ts';
import { basisPoints, type Micro } from '../../core/money.ts';
import type { ServiceContext } from '../shared/context.ts';
import { accrueFeeShares } from '../shared/referral-programme.ts';
import { PRICE_ONE } from '../trading/price-scale.ts';
import type { SwapOrder } from './swap-desk.ts';
import type { WalletConfig } from './wallet-config.ts';

/** The ledger reason of the revenue's entry (external → fee-income). */
export const WALLET_FEE_REASON = 'wallet.swap-fee';
const MICRO_PER_USD = 1_000_000n;

/** The fee an order's payout took, in micro-USDC at the quote's input price (rounded down). */
export function swapFeeMicro(order: SwapOrder, config: WalletConfig): Micro {
  const deposited = order.depositAmount ?? 0n;
  const feeUnits = basisPoints(deposited, config.swapFeeBps, 'up');
  const { from, fromPrice } = order.quote;
  return (feeUnits * fromPrice * MICRO_PER_USD) / (PRICE_ONE * 10n ** BigInt(from.decimals));
}

/** Books a finished order's fee as wallet revenue and pays its payer's referrers their shares. */
export function accrueSwapFee(context: ServiceContext, config: WalletConfig, order: SwapOrder, atMs: number): Micro {
  const feeMicro = swapFeeMicro(order, config);
  if (feeMicro <= 0n) return 0n;
  context.ledger.transfer({
    from: EXTERNAL,
    to: FEE_INCOME,
    amountMicro: feeMicro,
    reason: WALLET_FEE_REASON,
    reference: order.id,
  });
  accrueFeeShares(context, { service: 'wallet', payerId: order.payerId, feeMicro, reference: order.id });
  context.emit({ type: 'wallet.fee', atMs, orderId: order.id, agentId: order.payerId, feeMicro });
  return feeMicro;
}
