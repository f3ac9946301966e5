/**
 * One live house-edge audit run's state (edge-audit.ts), shared by its steps: placing bets
 * (edge-bets.ts, edge-batch.ts), verifying them (edge-verify.ts) and the money check
 * (edge-money.ts); with the options it runs under, its result, and the bet each index plays.
 */
import {
  type LiveSession,
  type SentRequest,
  type BetInput,
  type LiveBet,
  type Refusal,
  endpointOf,
} from '../../live.ts';
import type { FindingsCollector } from '../../report/findings/finding.ts';
import type { Deadline } from '../../core/deadline.ts';
import type { WaitClock } from '../../core/clock.ts';
import type { Micro } from '../../core/money.ts';
import type { FairnessScheme } from '../fairness/scheme.ts';
import type { JsonObject } from '../../core/errors.ts';
import { clientSeedOf, type PlannedVariant } from './edge-plan.ts';
import type { AnswerTally } from './answer-consistency.ts';
import type { StakeBudget } from './stake-budget.ts';
import type { FirstAnswers } from './first-answers.ts';
import type { DrawTally } from './draw-agreement.ts';
import type { VariantTrack } from './variant-track.ts';
import type { VariantOutcome } from './variant-outcome.ts';
import type { ListedWords } from './listed-words.ts';

export interface EdgeAuditOptions {
  readonly session: LiveSession;
  readonly apiKey: string;
  readonly scheme: FairnessScheme;
  readonly plan: readonly PlannedVariant[];
  readonly bets: number;
  readonly usdcMicro: Micro;
  readonly seed: string;
  readonly concurrency: number;
  readonly clock: WaitClock;
  readonly deadline: Deadline;
  readonly findings: FindingsCollector;
  /** The share of batchable bets sent alone (singleBetShare); 0 or absent: batches only. */
  readonly singleShare?: number;
  /** A request as a curl line (live/curl.ts): the `reproduce` of a bet's findings; absent: none. */
  readonly curlOf?: (request: SentRequest) => string;
  /** The target's game list words (listed-words.ts), read before the bets; absent or null: none. */
  readonly listed?: ListedWords | null;
}

export interface EdgeAuditResult {
  readonly variants: readonly VariantOutcome[];
  readonly placed: number;
  readonly verified: number;
  readonly refused: number;
  /** The stakes the budget holds for bets sent and not refused (a refused bet's is given back). */
  readonly stakedMicro: Micro;
  /** The stakes of the bets the target placed: what was really staked. */
  readonly placedStakeMicro: Micro;
  readonly stoppedBy: 'deadline' | 'usdc' | 'unreachable' | null;
  /** Per game, the minimum bet the target stated above the planned amount (its bets went out at it). */
  readonly minimums: ReadonlyMap<string, Micro>;
  readonly balanceBeforeMicro: Micro | null;
  readonly balanceAfterMicro: Micro | null;
}

/** A placed bet, with the parameters it was played with (video poker's holds are chosen per hand) and the request that placed it (a single bet, a batch or a draw): its findings' curl. */
export type Slot = (Placed & { readonly index: number }) | undefined;
export type Placed = {
  readonly bet: LiveBet;
  readonly params: JsonObject;
  readonly op: BetCall;
  readonly request: SentRequest;
};
export type BetCall = 'casino.bet' | 'casino.batch' | 'casino.deal' | 'casino.draw';
/** A refused bet: the call, the refusal, the request refused (its finding's curl) and the stake it asked for. */
export type EdgeRefusal = {
  readonly op: BetCall;
  readonly refusal: Refusal;
  readonly request: SentRequest;
  readonly amountMicro: Micro;
};
export type Answer = Placed | EdgeRefusal | null;

export interface AuditRun {
  readonly options: EdgeAuditOptions;
  readonly tracks: VariantTrack[];
  readonly aloneGames: Set<string>;
  /** The `--usdc` stakes budget: reserved before a bet is sent, given back when it is refused. */
  readonly budget: StakeBudget;
  /** Each game's first call goes out alone: the later ones wait for what it teaches (a minimum). */
  readonly firstAnswers: FirstAnswers;
  paidMicro: Micro;
  /** What `paidMicro` may be off by from the credits the target made: its own rounding (balance-tolerance.ts). */
  creditSlackMicro: Micro;
  /** Resolves when the video-poker hand in play is drawn. */
  videoPokerTurn: Promise<void>;
  /** Stakes as the answers state them (`amount_bet`: a blackjack double stakes twice the amount sent). */
  answeredStakeMicro: Micro;
  /** `seed hash:nonce` of every placed bet: a pair drawn twice makes a result predictable. */
  readonly draws: Set<string>;
  /** Per game, bets recording the committed draw and those recording another (draw-agreement.ts). */
  readonly drawTally: DrawTally;
  readonly answerTally: AnswerTally;
  /** Per game, the minimum bet the target stated in a refusal, above the planned amount (learnMinimum). */
  readonly minimums: Map<string, Micro>;
  /**
   * Bets the target may have placed whose outcome afp did not read: an answer it could not read or
   * never got, a server error (5xx), or a video-poker hand dealt and not drawn (a target that
   * commits the stake at the deal settles it at the next deal). The balance's movement is then not
   * judged (checkMoney).
   */
  unsettled: number;
  /** Bets and batches in a row answered by a gateway in front of the target (gateway-answer.ts); see settle. */
  gatewayStreak: number;
  stoppedBy: EdgeAuditResult['stoppedBy'];
}

/** Bets and batches in a row met by a gateway's answer before the audit stops as if the target stopped answering. */
export const GATEWAY_STREAK_MAX = 5;

export function betInput(run: AuditRun, index: number): BetInput {
  const variant = run.options.plan[index % run.options.plan.length] as PlannedVariant;
  const learned = run.minimums.get(variant.game);
  return {
    game: variant.game,
    amountMicro: learned !== undefined && learned > variant.amountMicro ? learned : variant.amountMicro,
    clientSeed: clientSeedOf(run.options.seed, index),
    params: variant.params,
  };
}

/** Reserves `amountMicro` of stake under the USDC budget (negative: gives some back); false (and stop) when it would pass it. */
export function reserveExtra(run: AuditRun, amountMicro: Micro): boolean {
  if (amountMicro < 0n) {
    run.budget.release(-amountMicro);
    return true;
  }
  if (run.budget.reserve(amountMicro)) return true;
  run.stoppedBy ??= 'usdc';
  return false;
}

/** A finding's endpoint (`casino.bet (POST /api/v1/games/coin-flip)`) and reproducing curl, from the request that showed it. */
export function requestEvidence(
  run: AuditRun,
  op: string,
  request: SentRequest,
): { readonly endpoint: string; readonly reproduce?: string } {
  const curl = run.options.curlOf?.(request);
  return { endpoint: endpointOf(op, request), ...(curl === undefined ? {} : { reproduce: curl }) };
}
