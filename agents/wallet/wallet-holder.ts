/**
 * Archetype `wallet-holder`: holds one non-custodial wallet and pays other holders on the
 * simulated chains (wallet.md; issue 21 item 8).
 *
 * Setup: registers (as every archetype does) and creates its wallet once (POST /v1/wallet/create),
 * deriving its keys from the mnemonic in its own memory (wallet-kit.ts); the scenario's
 * `wallet.starting_funds` are minted at it. Every `every` (± a quarter) it reads its balance on a
 * chain drawn from `chains`, and sends `send_pct` % of a coin it holds — a token (by contract
 * address) with chance `token_share` where it holds one — to another holder's published address
 * on that chain, signed with its own key (monero: from, view and spend key). Then it waits on the
 * clock for the block the answer named, and checks the transaction settled there (confirmed, or
 * failed by a chain rule; never still pending) and that its history lists it alike.
 * Expected refusals: 429, a scheduled outage, 422 INSUFFICIENT_BALANCE (a token send's fee in a
 * native coin it spent). Limits: one transaction in flight; CREATE_ATTEMPTS_MAX creations.
 */
import { z } from 'zod';
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
  pendingOf,
  readWalletBalance,
  sendBody,
  settledTx,
  unitsOf,
  unitsText,
  warmWalletKeys,
  type PendingTx,
  type WalletMemory,
} from './wallet-kit.ts';

const HOLDER = 'wallet-holder';

const params = z.strictObject({
  every: durationMs({ minMs: MINUTE_MS, maxMs: 30 * 24 * HOUR_MS })
    .prefault('1h')
    .describe('time between sends'),
  chains: z
    .array(z.enum(WALLET_CHAINS as [WalletChain, ...WalletChain[]]))
    .min(1)
    .max(WALLET_CHAINS.length)
    .prefault([...WALLET_CHAINS])
    .describe('the chains it sends on, one drawn per send'),
  send_pct: z.int().min(1).max(50).prefault(2).describe('percent of the coin or token held that one send moves'),
  token_share: probability().prefault(0.5).describe('chance a send moves a token it holds rather than the native coin'),
  counterparty: z.string().min(1).max(64).prefault(HOLDER).describe('archetype whose published addresses it pays'),
});

type Params = z.output<typeof params>;

interface HolderMemory extends WalletMemory {
  nextSendAtMs: number;
  pending: PendingTx | null;
}

function memory(context: AgentContext<Params>): HolderMemory {
  return memoryOf(context, () => ({
    ...freshFaucetMemory(),
    ...freshWalletFields(),
    nextSendAtMs: context.clock.nowMs() + context.rng.int(context.params.every),
    pending: null,
  }));
}

/** One send on a drawn chain to a drawn holder; remembers it as pending. */
async function sendOne(context: AgentContext<Params>, holder: HolderMemory): Promise<void> {
  const wallet = holder.wallet;
  if (wallet === null) return;
  const chain = context.rng.pick(context.params.chains);
  const payee = context.directory.pick(context.params.counterparty, context.rng, context.agentId);
  const to = payee === null ? undefined : context.directory.addressesOf(payee)?.[chain];
  if (to === undefined) return;
  const balance = await readWalletBalance(context, wallet, chain);
  if (balance === null) return;
  const tokens = balance.tokens.filter((token) => (unitsOf(token.amount, token.decimals) ?? 0n) > 0n);
  const useToken = tokens.length > 0 && context.rng.chance(context.params.token_share, BASIS_POINTS);
  const held = useToken ? context.rng.pick(tokens) : balance.native;
  const units = ((unitsOf(held.amount, held.decimals) ?? 0n) * BigInt(context.params.send_pct)) / 100n;
  if (units === 0n) return;
  const result = await context.client.wallet.send(
    sendBody(wallet, chain, to, unitsText(units, held.decimals), useToken ? held.contract : null),
  );
  if (!result.ok) {
    if (!expectedRefusal(context, result, 'wallet') && result.body.code !== 'INSUFFICIENT_BALANCE')
      reportUnexpected(context, `a ${chain} send of ${held.symbol}`, result, '200 or 422');
    return;
  }
  holder.pending = pendingOf(context, result, chain);
}

export const walletHolder = defineAgent<Params>({
  name: HOLDER,
  service: 'wallet',
  warmUp: warmWalletKeys,
  description:
    'creates one wallet (keys in its memory only), sends coins and tokens to other holders on every chain, and follows each transaction to its block and its history',
  params,
  async setup(context) {
    const holder = memory(context);
    if (await onboard(context, holder)) await ensureWallet(context, holder);
  },
  async step(context) {
    const holder = memory(context);
    if (!(await onboard(context, holder))) return { wakeInMs: RETRY_MS };
    const wallet = await ensureWallet(context, holder);
    if (wallet === null) return holder.createAttempts >= CREATE_ATTEMPTS_MAX ? 'done' : { wakeInMs: RETRY_MS };
    const nowMs = context.clock.nowMs();
    const pending = holder.pending;
    if (pending !== null) {
      if (nowMs < pending.blockAtMs) return { wakeInMs: untilMs(context, pending.blockAtMs) };
      holder.pending = null;
      await settledTx(context, pending, wallet.addresses[pending.chain]);
    }
    if (nowMs >= holder.nextSendAtMs) {
      await sendOne(context, holder);
      holder.nextSendAtMs = nowMs + jittered(context, context.params.every, Math.floor(context.params.every / 4));
    }
    const next =
      holder.pending === null ? holder.nextSendAtMs : Math.min(holder.nextSendAtMs, holder.pending.blockAtMs);
    return { wakeInMs: untilMs(context, next) };
  },
});
