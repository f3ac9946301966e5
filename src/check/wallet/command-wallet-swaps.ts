/**
 * Wallet swap and referral commands of `afp check`: swap quotes (any two assets named by contract
 * address; symbols instead: 400; the same asset or an output that rounds to 0: 400), orders between
 * stablecoins to a run wallet, order status by id (the model's state at this instant; an unknown
 * id 404), and the wallet's referral rows /v1/referral/code, /stats and /withdraw, which answer
 * from the one referral programme the model keeps (model-referral.ts: shares earned per level,
 * swept or withdrawn into the balance).
 * The model's referral figures come from the other services' fees: the wallet's own fees accrue no
 * referral share on this platform (src/services/shared/referral-programme.ts lists the wallet's
 * level-1 share, 10 %, which /v1/referral/code shows; no wallet fee is paid through it yet).
 */
import { isValidAddress, type WalletChain } from '../../services/wallet/keys/wallet-keys.ts';
import { levelOneBps, levelSharesBps } from '../../services/shared/referral-programme.ts';
import type { CheckModel } from '../check-model.ts';
import { eq, failure, list, money, object, text, type Prediction } from '../expectation.ts';
import { expectAnswer, keyed } from '../model-command.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import { SCOPES } from '../model-limits.ts';
import { tokensOf, modelUnitsText } from './model-wallet.ts';
import type { WalletAsset } from './wallet-state.ts';
import {
  isStable,
  learnOrderHashes,
  minReceivedOf,
  orderMatcher,
  predictQuote,
  predictSwap,
} from './model-wallet-swaps.ts';
import { assetOf, onAgent, onWallet, walletAt } from './command-wallet.ts';
import { walletSpec, type WalletCommandSpec } from './wallet-frame.ts';
import { foreignSecrets } from './wallet-keyring.ts';

/** The stablecoins orders are opened between (USDC and USDT on ethereum, USDC on base, USDT on tron). */
export const STABLES: readonly WalletAsset[] = (['ethereum', 'base', 'tron'] as const)
  .flatMap((chain) => tokensOf(chain))
  .filter(isStable);

/** Swap sizes: one whole unit, 250 whole units, 1 base unit (its output rounds to 0: 400). */
export type SwapSize = 'unit' | 'large' | 'tiny';

function swapUnits(asset: WalletAsset, size: SwapSize): bigint {
  if (size === 'tiny') return 1n;
  return (size === 'unit' ? 1n : 250n) * 10n ** BigInt(asset.decimals);
}

/** Whole units from the wire's amount text; null when it is not one. */
function parseUnits(value: unknown, decimals: number): bigint | null {
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value)) return null;
  const [whole = '0', fraction = ''] = value.split('.');
  if (fraction.length > decimals) return null;
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

export interface AssetPick {
  readonly chain: WalletChain;
  readonly token: number | null;
}

export function quoteCommand(input: {
  slot: number;
  from: AssetPick;
  to: AssetPick;
  size: SwapSize;
  symbols: boolean;
}): WalletCommandSpec {
  const from = assetOf(input.from.chain, input.from.token);
  const to = assetOf(input.to.chain, input.to.token);
  const label = `walletQuote(a${input.slot}, ${from.chain} ${from.symbol} → ${to.chain} ${to.symbol}, ${input.size}${input.symbols ? ', by symbol' : ''})`;
  return walletSpec({
    label,
    ...onAgent(input.slot, SCOPES.walletPrimary),
    execute: async (model, system) => {
      const amount = swapUnits(from, input.size);
      const prediction = input.symbols ? failure(400, 'BAD_REQUEST') : predictQuote(from, to, amount);
      const answer = await keyed(model, system, input.slot).wallet.quote({
        from_chain: from.chain,
        to_chain: to.chain,
        from_token: input.symbols ? from.symbol : from.address,
        to_token: input.symbols ? to.symbol : to.address,
        amount: modelUnitsText(amount, from.decimals),
      });
      expectAnswer(label, model, answer, prediction);
      if (answer.status !== 200) return;
      // A volatile asset's output is the service's price; its minimum received follows from it exactly.
      const quote = (answer.body as { quote?: Record<string, unknown> }).quote ?? {};
      const output = parseUnits(quote['toAmount'], to.decimals);
      const minimum = parseUnits(quote['minReceived'], to.decimals);
      if (output === null || output <= 0n || minimum !== minReceivedOf(output)) {
        throw new CheckMismatch(
          `${label}: minReceived ${String(quote['minReceived'])} is not toAmount ${String(quote['toAmount'])} less 1 % (rounded up)`,
        );
      }
    },
  });
}

export function swapCommand(input: {
  wallet: number;
  from: number;
  to: number;
  size: SwapSize;
  toWallet: number;
}): WalletCommandSpec {
  const from = STABLES[input.from % STABLES.length] as WalletAsset;
  const to = STABLES[input.to % STABLES.length] as WalletAsset;
  const label = `walletSwap(w${input.wallet}, ${from.chain} ${from.symbol} → ${to.chain} ${to.symbol}, ${input.size}, to w${input.toWallet})`;
  return walletSpec({
    label,
    ...onWallet(input.wallet, SCOPES.walletSwap),
    execute: async (model, system) => {
      const wallet = walletAt(model, input.wallet);
      const receiver = walletAt(model, input.toWallet);
      if (wallet === undefined || receiver === undefined) throw new Error(`${label}: precondition broken`);
      const amount = swapUnits(from, input.size);
      const toAddress = receiver.addresses[to.chain];
      const prediction = predictSwap(model, from, to, amount, toAddress, isValidAddress);
      const answer = await keyed(model, system, wallet.slot).wallet.swap({
        from_chain: from.chain,
        to_chain: to.chain,
        from_token: from.address,
        to_token: to.address,
        amount: modelUnitsText(amount, from.decimals),
        to_address: toAddress,
      });
      expectAnswer(label, model, answer, prediction);
    },
  });
}

/** An order id afp never issues (it issues `swp_` + 16 hex). */
const UNKNOWN_ORDER = 'swp_unknown_order_00';

export function swapStatusCommand(input: { slot: number; order: number | 'unknown' }): WalletCommandSpec {
  const label = `walletSwapStatus(a${input.slot}, ${input.order === 'unknown' ? 'unknown order' : `order#${input.order}`})`;
  return walletSpec({
    label,
    applicable: (model) =>
      model.agents[input.slot] !== undefined && (input.order === 'unknown' || model.wallet.orders.length > 0),
    charges: () => [{ slot: input.slot, scopes: SCOPES.walletPrimary }],
    parties: () => [input.slot],
    execute: async (model, system) => {
      const orders = model.wallet.orders;
      const order = input.order === 'unknown' ? undefined : orders[input.order % orders.length];
      const answer = await keyed(model, system, input.slot).wallet.swapStatus(order?.id ?? UNKNOWN_ORDER);
      const prediction: Prediction =
        order === undefined
          ? failure(404, 'NOT_FOUND')
          : { expected: { status: 200, body: orderMatcher(order) }, commit: (body) => learnOrderHashes(order, body) };
      expectAnswer(`${label}${order === undefined ? '' : ` (${order.status})`}`, model, answer, prediction);
    },
  });
}

/** Agents referred at each of the three levels below `slot` (registration referrers). */
function referredAt(model: Readonly<CheckModel>, slot: number, level: number): number {
  let count = 0;
  for (const agent of model.agents) {
    let referrer = agent?.referrerSlot ?? null;
    for (let depth = 1; depth < level && referrer !== null; depth++)
      referrer = model.agents[referrer]?.referrerSlot ?? null;
    if (referrer === slot) count += 1;
  }
  return count;
}

function statsMatchers(
  model: Readonly<CheckModel>,
  slot: number,
  pendingMicro: bigint,
  withdrawnMicro: bigint,
): Record<string, ReturnType<typeof eq>> {
  const agent = model.agents[slot];
  const earned = agent?.referralEarnedMicro ?? [0n, 0n, 0n];
  return {
    referral_code: eq(agent?.referralCode ?? ''),
    total_earned: money(
      'A',
      earned.reduce((sum, one) => sum + one, 0n),
    ),
    withdrawn: money('A', withdrawnMicro),
    available: money('A', pendingMicro),
    levels: list(
      earned.map((micro, index) =>
        object({
          level: eq(index + 1),
          referred_agents: eq(referredAt(model, slot, index + 1)),
          earned: money('A', micro),
        }),
      ),
    ),
  };
}

export type ReferralCall = 'code' | 'stats' | 'withdraw';

export function walletReferralCommand(input: { slot: number; row: ReferralCall }): WalletCommandSpec {
  const label = `walletReferral${input.row[0]?.toUpperCase() ?? ''}${input.row.slice(1)}(a${input.slot})`;
  return walletSpec({
    label,
    ...onAgent(input.slot, SCOPES.walletPrimary),
    execute: async (model, system) => {
      const agent = model.agents[input.slot];
      if (agent === undefined) throw new Error(`${label}: precondition broken`);
      const call = keyed(model, system, input.slot).wallet.call;
      switch (input.row) {
        case 'code': {
          const levels = levelSharesBps(levelOneBps(model.config, 'wallet')).map((bps, index) =>
            object({ level: eq(index + 1), commission_pct: eq(Number(bps) / 100), of: text() }),
          );
          return expectAnswer(label, model, await call('wallet.primary.referral-code', {}), {
            expected: { status: 200, body: { referral_code: eq(agent.referralCode), levels: list(levels) } },
          });
        }
        case 'stats':
          return expectAnswer(label, model, await call('wallet.primary.referral-stats', {}), {
            expected: {
              status: 200,
              body: statsMatchers(model, input.slot, agent.pendingReferralMicro, agent.referralWithdrawnMicro),
            },
          });
        case 'withdraw': {
          const own = model.wallet.wallets.find((wallet) => wallet.slot === input.slot);
          const address = own?.addresses.base ?? foreignSecrets().addresses.base;
          const pending = agent.pendingReferralMicro;
          const answer = await call('wallet.primary.referral-withdraw', { body: { address, chain: 'base' } });
          if (pending === 0n) return expectAnswer(label, model, answer, failure(422, 'INSUFFICIENT_BALANCE'));
          return expectAnswer(label, model, answer, {
            expected: {
              status: 200,
              body: {
                status: eq('initiated'),
                amount: money('A', pending),
                address: eq(address),
                chain: eq('base'),
                stats: object(statsMatchers(model, input.slot, 0n, agent.referralWithdrawnMicro + pending)),
              },
            },
            commit: () => {
              agent.balanceMicro += pending;
              agent.referralWithdrawnMicro += pending;
              agent.pendingReferralMicro = 0n;
            },
          });
        }
      }
    },
  });
}
