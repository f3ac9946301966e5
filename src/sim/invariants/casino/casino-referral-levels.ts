/**
 * Invariant `casino-referral-levels`: referral commissions on casino play match their levels
 * (casino.md "Referral"; NOTES.md: 10%, 5% and 2.5% of the referred agent's net losses, three
 * levels up the referral chain).
 *
 * How: the checker keeps its own net loss and high-water mark per agent from the bet events
 * (Σ stake − Σ payout; commissions follow the high-water mark, so wins never claw back —
 * referral-commission.ts). After every bet of an agent, for every level ℓ: the commission book's
 * `paid[ℓ]` equals floor(highWater × SPEC_LEVELS_BPS[ℓ] / 10,000) when the agent has a referrer
 * at that depth, and 0 when it has none; and what the book says it paid for this bet arrived by
 * ledger transfers of reason `casino.referral.level<ℓ>` into that referrer's payable account.
 * The levels are the documents' (SPEC_LEVELS_BPS), not the platform's config, so a casino
 * configured with other shares is caught. Every agent is checked again at the end.
 * Limits: one entry per agent that bet; pending transfers of one bet (at most three).
 */
import { referralAccount } from '../../../core/ledger.ts';
import { formatDecimal, type Micro } from '../../../core/money.ts';
import type { Platform } from '../../../platform/platform.ts';
import { jsonText } from '../../json-text.ts';
import type { InvariantDefinition, Violation } from '../checker.ts';

/** casino.md "Referral": 10%, 5%, 2.5% of net losses, in basis points. */
export const SPEC_LEVELS_BPS: readonly bigint[] = [1_000n, 500n, 250n];
const LEVEL_REASON = 'casino.referral.level';

interface LossState {
  netLossMicro: Micro;
  highWaterMicro: Micro;
  /** What the book had paid per level after the agent's previous bet. */
  readonly paidMicro: Micro[];
}

/** The referrers of `agentId`, level 1 first, up to SPEC_LEVELS_BPS.length. */
function referrersOf(platform: Platform, agentId: string): (string | null)[] {
  const chain: (string | null)[] = [];
  let referrer = platform.agents.get(agentId)?.referrerId ?? null;
  for (let level = 0; level < SPEC_LEVELS_BPS.length; level++) {
    chain.push(referrer);
    referrer = referrer === null ? null : (platform.agents.get(referrer)?.referrerId ?? null);
  }
  return chain;
}

/** A bet's commission transfer, per level (index 0: level 1), as the ledger made it. */
interface PendingTransfer {
  readonly levelIndex: number;
  readonly amountMicro: Micro;
  readonly to: string;
}

/** One agent judged: its referrers (level 1 first), and when and what a violation names. */
interface AgentCheck {
  readonly agentId: string;
  readonly referrers: readonly (string | null)[];
  readonly atMs: number;
  readonly event: () => string;
}

type CommissionBook = Platform['casino']['state']['commissions'];

/** What the book paid per level equals the documents' share of the high-water net loss (0 where no referrer). */
function judgeLevels(commissions: CommissionBook, state: LossState | undefined, check: AgentCheck): Violation | null {
  const { agentId, referrers, atMs, event } = check;
  const book = commissions.state(agentId);
  for (let level = 0; level < SPEC_LEVELS_BPS.length; level++) {
    const dueMicro =
      referrers[level] === null || state === undefined
        ? 0n
        : (state.highWaterMicro * (SPEC_LEVELS_BPS[level] as bigint)) / 10_000n;
    const paidMicro = book?.paidMicro[level] ?? 0n;
    if (paidMicro !== dueMicro) {
      return {
        atMs,
        event: event(),
        message: `agent ${agentId}: level ${level + 1} referral paid ${formatDecimal(paidMicro)}, due ${formatDecimal(dueMicro)} (high-water net loss ${formatDecimal(state?.highWaterMicro ?? 0n)})`,
      };
    }
  }
  return null;
}

/** The book's payments for this bet arrived, per level, at the right referrer's payable. */
function judgeTransfers(
  commissions: CommissionBook,
  pending: readonly PendingTransfer[],
  state: LossState,
  check: AgentCheck,
): Violation | null {
  const { agentId, referrers, atMs, event } = check;
  const book = commissions.state(agentId);
  for (let level = 0; level < SPEC_LEVELS_BPS.length; level++) {
    const paidMicro = book?.paidMicro[level] ?? 0n;
    const deltaMicro = paidMicro - (state.paidMicro[level] ?? 0n);
    state.paidMicro[level] = paidMicro;
    const referrer = referrers[level] ?? null;
    const arrived = pending.filter((transfer) => transfer.levelIndex === level);
    const arrivedMicro = arrived.reduce((sum, transfer) => sum + transfer.amountMicro, 0n);
    const misdirected = arrived.find((transfer) => referrer === null || transfer.to !== referralAccount(referrer));
    if (arrivedMicro !== deltaMicro || misdirected !== undefined) {
      return {
        atMs,
        event: event(),
        message: `agent ${agentId}: level ${level + 1} commission of this bet is ${formatDecimal(deltaMicro)} in the book, ${formatDecimal(arrivedMicro)} by transfers${misdirected === undefined ? '' : ` (one to ${misdirected.to})`}`,
      };
    }
  }
  return null;
}

export const casinoReferralLevels: InvariantDefinition = {
  name: 'casino-referral-levels',
  description:
    'referral commissions per level equal floor(high-water net loss × 10% / 5% / 2.5%) and reach the referrer of that level',
  create({ platform }) {
    const commissions = platform.casino.state.commissions;
    const losses = new Map<string, LossState>();
    /** Transfers of the bet being settled. */
    let pending: PendingTransfer[] = [];
    return {
      onTransfer(transfer) {
        if (!transfer.reason.startsWith(LEVEL_REASON)) return null;
        pending.push({
          levelIndex: Number(transfer.reason.slice(LEVEL_REASON.length)) - 1,
          amountMicro: transfer.amountMicro,
          to: transfer.to,
        });
        return null;
      },
      onEvent(event) {
        if (event.type !== 'casino.bet') return null;
        let state = losses.get(event.agentId);
        if (state === undefined) {
          state = { netLossMicro: 0n, highWaterMicro: 0n, paidMicro: SPEC_LEVELS_BPS.map(() => 0n) };
          losses.set(event.agentId, state);
        }
        state.netLossMicro += event.amountMicro - event.payoutMicro;
        if (state.netLossMicro > state.highWaterMicro) state.highWaterMicro = state.netLossMicro;
        const text = (): string => jsonText(event);
        const referrers = referrersOf(platform, event.agentId);
        const check = { agentId: event.agentId, referrers, atMs: event.atMs, event: text };
        const transfers = judgeTransfers(commissions, pending, state, check);
        pending = [];
        return transfers ?? judgeLevels(commissions, losses.get(event.agentId), check);
      },
      atEnd(endMs) {
        for (const agentId of losses.keys()) {
          const check = {
            agentId,
            referrers: referrersOf(platform, agentId),
            atMs: endMs,
            event: () => jsonText({ audit: 'end of run', agentId }),
          };
          const violation = judgeLevels(commissions, losses.get(agentId), check);
          if (violation !== null) return violation;
        }
        return null;
      },
    };
  },
};
