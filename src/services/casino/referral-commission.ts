/**
 * Casino referral commissions (casino.md "Referral"; NOTES.md): the referrers of an agent, up to
 * three levels up its referral chain, earn 10%, 5% and 2.5% of the agent's net losses
 * (wagered − won), paid by the house into each referrer's payable account and swept into their
 * balance with the platform's daily referral sweep.
 *
 * Net losses are a running figure that falls when the agent wins, so commissions follow its
 * high-water mark: a level is owed floor(highWater × bps / 10,000) in total, and each settlement
 * pays the difference to what it has been paid. A win never claws back; losses recovered by
 * wins must be lost again before they pay again. Exact in micro-USDC, rounded down.
 *
 * Invariant (checked by the referral-levels invariant): for every (agent, level), paid ==
 * floor(highWater × bps / 10,000).
 *
 * The deployed dialect's casino (bets drawn by the deployment's engine) pays the deployment's rule
 * instead (DEPLOYED.md §2.9, `settlePerLosingStake`): each losing bet pays round2(stake × the
 * level's share) to each of up to three ancestors when that is at least 0.01, whatever the agent's
 * net; a push, a plinko drop (never 0) and a win pay nothing.
 */
import type { Micro } from '../../core/money.ts';
import type { AgentRegistry } from '../shared/agents.ts';
import type { ReferralBook } from '../shared/referral.ts';

export const CASINO_HOUSE = 'casino-house';
/** One cent in micro-USDC: the deployment's referral payments are whole cents, at least one. */
const CENT_MICRO = 10_000n;

export interface CommissionState {
  netLossMicro: Micro;
  highWaterMicro: Micro;
  /** Paid so far per level (index 0 = level 1). */
  readonly paidMicro: Micro[];
}

export interface LevelEarnings {
  /** Per level: commissions earned from agents at that depth below the referrer. */
  readonly earnedMicro: Micro[];
  readonly referredCount: number[];
}

export interface SettleOptions {
  readonly agents: AgentRegistry;
  readonly referrals: ReferralBook;
  readonly agentId: string;
  readonly stakeMicro: Micro;
  readonly payoutMicro: Micro;
  readonly reference: string;
}

export class ReferralCommissions {
  private readonly states = new Map<string, CommissionState>();
  /** Per referrer, per level: commissions earned (for GET /auth/referral/stats). */
  private readonly earned = new Map<string, Micro[]>();
  private readonly levelsBps: readonly bigint[];

  constructor(levelsBps: readonly bigint[]) {
    this.levelsBps = levelsBps;
  }

  /** Settles one bet's effect: `stakeMicro` in, `payoutMicro` back. */
  settle(options: SettleOptions): void {
    this.settleFor(this.stateOf(options.agentId), options);
  }

  /** The agent's commission state, created at zero on first use. */
  stateOf(agentId: string): CommissionState {
    let state = this.states.get(agentId);
    if (state === undefined) {
      state = { netLossMicro: 0n, highWaterMicro: 0n, paidMicro: this.levelsBps.map(() => 0n) };
      this.states.set(agentId, state);
    }
    return state;
  }

  /** `settle` with the agent's state at hand (`state` is `stateOf(options.agentId)`). */
  settleFor(state: CommissionState, options: SettleOptions): void {
    state.netLossMicro += options.stakeMicro - options.payoutMicro;
    if (state.netLossMicro <= state.highWaterMicro) return;
    state.highWaterMicro = state.netLossMicro;
    let referrerId = options.agents.get(options.agentId)?.referrerId ?? null;
    for (let level = 0; level < this.levelsBps.length && referrerId !== null; level++) {
      const owedMicro = (state.highWaterMicro * (this.levelsBps[level] as bigint)) / 10_000n;
      const dueMicro = owedMicro - (state.paidMicro[level] as Micro);
      if (dueMicro > 0n) {
        options.referrals.accrueFrom({
          from: CASINO_HOUSE,
          referrerId,
          amountMicro: dueMicro,
          reason: `casino.referral.level${level + 1}`,
          reference: options.reference,
          service: 'casino',
          level: level + 1,
        });
        state.paidMicro[level] = owedMicro;
        this.addEarned(referrerId, level, dueMicro);
      }
      referrerId = options.agents.get(referrerId)?.referrerId ?? null;
    }
  }

  /** The deployment's per-losing-stake rule (see the header); `payoutMicro` 0 is a lost bet. */
  settlePerLosingStake(options: SettleOptions): void {
    if (options.payoutMicro !== 0n) return;
    let referrerId = options.agents.get(options.agentId)?.referrerId ?? null;
    for (let level = 0; level < this.levelsBps.length && referrerId !== null; level++) {
      // round2 of stake × share, half up, in micro: whole cents of (stake × bps / 10,000).
      const cents =
        (options.stakeMicro * (this.levelsBps[level] as bigint) + CENT_MICRO * 5_000n) / (CENT_MICRO * 10_000n);
      const amountMicro = cents * CENT_MICRO;
      if (amountMicro >= CENT_MICRO) {
        options.referrals.accrueFrom({
          from: CASINO_HOUSE,
          referrerId,
          amountMicro,
          reason: `casino.referral.level${level + 1}`,
          reference: options.reference,
          service: 'casino',
          level: level + 1,
        });
        this.addEarned(referrerId, level, amountMicro);
      }
      referrerId = options.agents.get(referrerId)?.referrerId ?? null;
    }
  }

  private addEarned(referrerId: string, level: number, amountMicro: Micro): void {
    let perLevel = this.earned.get(referrerId);
    if (perLevel === undefined) {
      perLevel = this.levelsBps.map(() => 0n);
      this.earned.set(referrerId, perLevel);
    }
    perLevel[level] = (perLevel[level] as Micro) + amountMicro;
  }

  earnedBy(referrerId: string): readonly Micro[] {
    return this.earned.get(referrerId) ?? this.levelsBps.map(() => 0n);
  }

  /** For the invariant: each agent's high-water mark and what each level was paid. */
  state(agentId: string): Readonly<{ highWaterMicro: Micro; paidMicro: readonly Micro[] }> | undefined {
    return this.states.get(agentId);
  }

  get levels(): readonly bigint[] {
    return this.levelsBps;
  }
}
