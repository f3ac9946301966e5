/**
 * The live house-edge audit through a target's dialect and fairness scheme (`afp audit house-edge
 * --target URL|FILE`): small bets on every planned variant, each bet verified against its revealed
 * seed under the target's own published scheme, and a verdict per variant in the tier its bets put
 * it in (edge-tier.ts: published, observed or empirical; edge-verdict.ts).
 *
 * Plan: bet i plays plan[i mod V] at its minimum bet with client seed `afp-<sha256(seed)>-<i>`.
 * Bets go out in phases of PHASE_BETS: in batches of BATCH_BETS where the dialect offers a batch,
 * else one by one (where the target paces single bets and batches apart, a share of the bets goes
 * alone so both paces work at once: singleBetShare), at most `concurrency` calls in flight, every
 * call paced by the target's limits (LiveSession). A game whose bets a batch refuses is tried
 * alone once; when that is accepted the game is played alone from then on (an info finding says
 * so). After each phase the seed is rotated and the seed list read; every placed bet of the phase
 * is verified in plan order, so tallies, findings and verdicts do not depend on arrival order.
 * Budgets: `bets`, `usdcMicro` (stakes), and the deadline; whichever ends first stops placing, and
 * what was placed is still rotated and verified. A stake is reserved before its bet is sent and
 * given back when the target refuses the bet (stake-budget.ts): a refused bet stakes nothing.
 * Minimums: each game's first call goes out alone (first-answers.ts), so a minimum it learns from
 * a refusal is what the game's later calls send; the bets of a batch refused below the stated
 * minimum go out again as one batch at it.
 * Money findings need the target to contradict itself: the balance read before and after must
 * differ by the returns minus the stakes its answers reported (to its rounding); each bet's credit
 * must be its stake times the multiplier it showed, and its win flag agree with its credit. What
 * the published rule would have paid is never a money finding: the tiers state what was paid.
 * Verdicts: gross differences are decided by the exact law the bets were seen to follow (as soon as
 * they verify) or by a 99.9% interval within tens of bets; fine ones (a point of edge in the
 * returns paid) by an SPRT per variant against the published rule's exact edge (published tier).
 * Every decision from returns holds its error over the whole audit (Bonferroni over the variants:
 * 99.9% intervals, SPRT α 1%), so a long audit of a working target is not called broken by chance.
 * Nonces: two placed bets with the same (seed, nonce) are a critical fairness finding.
 * Limits: bets ≤ LIVE_BETS_MAX; examples ≤ 3 per finding (the collector counts the rest).
 * This file is the run: the phases and their order. Its steps are files of their own: the calls the
 * bets become (edge-calls.ts), the run's state (edge-run.ts), placing bets alone and in batches
 * (edge-bets.ts, edge-batch.ts), the seeds (edge-seeds.ts), the verdict's inputs per bet
 * (edge-verify.ts) and the money check (edge-money.ts).
 */
import type { BetInput } from '../../live.ts';
import { runBounded } from '../../core/deadline.ts';
import { payoutFieldsOf } from './edge-tier.ts';
import { StakeBudget } from './stake-budget.ts';
import { FirstAnswers } from './first-answers.ts';
import { DrawTally } from './draw-agreement.ts';
import { AnswerTally } from './answer-consistency.ts';
import { VariantTrack } from './variant-track.ts';
import { judgeOutcomes, type VariantOutcome } from './variant-outcome.ts';
import { groupBets, LIVE_BETS_MAX, PHASE_BETS, sentAlone, VIDEO_POKER } from './edge-calls.ts';
import {
  betInput,
  reserveExtra,
  type AuditRun,
  type EdgeAuditOptions,
  type EdgeAuditResult,
  type Slot,
} from './edge-run.ts';
import { placeAlone, recordRefusal } from './edge-bets.ts';
import { placeBetBatch } from './edge-batch.ts';
import { revealSeeds } from './edge-seeds.ts';
import { verifyPhase } from './edge-verify.ts';
import { readAuditBalance, checkMoney } from './edge-money.ts';

export type { EdgeAuditOptions, EdgeAuditResult } from './edge-run.ts';

export async function auditEdgeLive(options: EdgeAuditOptions): Promise<EdgeAuditResult> {
  const perVariant = Math.ceil(Math.min(options.bets, LIVE_BETS_MAX) / Math.max(1, options.plan.length));
  /** The variants judged together: each decision from returns holds its error over all of them. */
  const family = Math.max(1, options.plan.length);
  const run: AuditRun = {
    options,
    tracks: options.plan.map(
      (variant) =>
        new VariantTrack(
          options.scheme.law(variant.game, variant.params),
          perVariant,
          payoutFieldsOf(options.scheme, variant.game),
          family,
        ),
    ),
    aloneGames: new Set(),
    budget: new StakeBudget(options.usdcMicro),
    firstAnswers: new FirstAnswers(),
    paidMicro: 0n,
    creditSlackMicro: 0n,
    answeredStakeMicro: 0n,
    videoPokerTurn: Promise.resolve(),
    draws: new Set(),
    drawTally: new DrawTally(),
    answerTally: new AnswerTally(),
    minimums: new Map(),
    unsettled: 0,
    gatewayStreak: 0,
    stoppedBy: null,
  };
  const before = await readAuditBalance(run);
  for (let first = 0; first < Math.min(options.bets, LIVE_BETS_MAX) && run.stoppedBy === null; first += PHASE_BETS) {
    const count = Math.min(PHASE_BETS, options.bets - first);
    const slots = await placePhase(run, first, count);
    if (options.deadline.passed()) run.stoppedBy ??= 'deadline';
    options.session.windUp();
    const seeds = await revealSeeds(run);
    verifyPhase(run, slots, seeds);
  }
  const after = await readAuditBalance(run);
  checkMoney(run, before, after);
  run.drawTally.record(options.findings, options.scheme.name);
  run.answerTally.record();
  const variants = judgeOutcomes({
    scheme: options.scheme,
    plan: options.plan,
    tracks: run.tracks,
    listed: options.listed ?? null,
  });
  const sum = (pick: (outcome: VariantOutcome) => number): number =>
    variants.reduce((total, outcome) => total + pick(outcome), 0);
  return {
    variants,
    placed: sum((v) => v.placed),
    verified: sum((v) => v.verified),
    refused: sum((v) => v.refused),
    stakedMicro: run.budget.held,
    placedStakeMicro: run.answeredStakeMicro,
    stoppedBy: run.stoppedBy,
    minimums: run.minimums,
    balanceBeforeMicro: before?.micro ?? null,
    balanceAfterMicro: after?.micro ?? null,
  };
}

async function placePhase(run: AuditRun, first: number, count: number): Promise<Slot[]> {
  const { session, concurrency, deadline } = run.options;
  const slots: Slot[] = new Array<Slot>(count);
  const batched = session.offers('casino.batch') === null;
  const aloneAt = (index: number): boolean => {
    const game = betInput(run, index).game;
    return (
      !batched || run.aloneGames.has(game) || game === VIDEO_POKER || sentAlone(index, run.options.singleShare ?? 0)
    );
  };
  const groups = groupBets(first, count, aloneAt);
  await runBounded(
    groups.length,
    concurrency,
    async (group) => {
      const planned = groups[group] as number[];
      // A game's first call goes out alone; the game's later calls go out at what it taught (a minimum).
      const answered = await run.firstAnswers.open(planned.map((index) => betInput(run, index).game));
      try {
        // The bets the budget takes, in order: a bet it cannot take ends the group (and the betting).
        const bets: BetInput[] = [];
        for (const index of planned) {
          const bet = betInput(run, index);
          if (run.stoppedBy !== null || !reserveExtra(run, bet.amountMicro)) break;
          bets.push(bet);
        }
        if (bets.length === 0) return;
        const answers =
          bets.length === 1 && aloneAt(planned[0] as number)
            ? [await placeAlone(run, bets[0] as BetInput)]
            : await placeBetBatch(run, bets);
        answers.forEach((answer, position) => {
          const index = planned[position] as number;
          const track = run.tracks[index % run.options.plan.length] as VariantTrack;
          if (answer === null) return;
          if ('refusal' in answer) {
            track.refused += 1;
            recordRefusal(run, bets[position] as BetInput, answer);
            return;
          }
          track.placed += 1;
          run.answeredStakeMicro += answer.bet.amountMicro;
          slots[index - first] = { ...answer, index };
        });
      } finally {
        answered();
      }
    },
    () => run.stoppedBy !== null || deadline.passed(),
  );
  if (deadline.passed()) run.stoppedBy ??= 'deadline';
  return slots;
}
