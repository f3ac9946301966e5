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
 */
import { createHash } from 'node:crypto';
import { statedKellyLimitMicro, isRefusal, minimumBetFinding, statedCommittedMicro } from '../../live.ts';
import { statedMinimumMicro, betCredit, endpointOf, withEvidence } from '../../live.ts';
import type { FindingsCollector, CallOutcome, LiveSession, SentRequest, BetInput, LiveBet } from '../../live.ts';
import type { Refusal, FindingSink, RequestEvidence } from '../../live.ts';
import {
  formatAmount,
  fromMicro,
  roundAmount,
  roundedToFewerPlaces,
  shownPlaces,
  type LiveAmount,
} from '../../core/live-amount.ts';
import type { Deadline } from '../../live/deadline.ts';
import type { WaitClock } from '../../core/clock.ts';
import { runBounded } from '../../live/deadline.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import { ratio, type Ratio } from '../../core/ratio.ts';
import type { FairnessScheme, SchemeBet } from '../fairness/scheme.ts';
import type { JsonObject } from '../../core/errors.ts';
import { optimalHolds } from '../../services/casino/games/video-poker-analysis.ts';
import { clientSeedOf, type PlannedVariant } from './edge-plan.ts';
import { proofHolds, recordNonceReused, recordProofChecks, selfContradiction } from './verification-findings.ts';
import { AnswerTally } from './answer-consistency.ts';
import { creditContradiction, payoutFieldsOf } from './edge-tier.ts';
import { balanceReadsRoundingMicro, creditSlackMicro } from './balance-tolerance.ts';
import { StakeBudget } from './stake-budget.ts';
import { FirstAnswers } from './first-answers.ts';
import { DrawTally } from './draw-agreement.ts';
import { VariantTrack } from './variant-track.ts';
import { judgeOutcomes, type VariantOutcome } from './variant-outcome.ts';
import type { ListedWords } from './listed-words.ts';

export const PHASE_BETS = 200;
export const BATCH_BETS = 20;
export const LIVE_BETS_MAX = 100_000;
export const VIDEO_POKER = 'video_poker';

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
  /** A request as a curl line (live/report/curl.ts): the `reproduce` of a bet's findings; absent: none. */
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
type Slot = (Placed & { readonly index: number }) | undefined;
type Placed = {
  readonly bet: LiveBet;
  readonly params: JsonObject;
  readonly op: BetCall;
  readonly request: SentRequest;
};
type BetCall = 'casino.bet' | 'casino.batch' | 'casino.deal' | 'casino.draw';
/** A refused bet: the call, the refusal, the request refused (its finding's curl) and the stake it asked for. */
type Refused = {
  readonly op: BetCall;
  readonly refusal: Refusal;
  readonly request: SentRequest;
  readonly amountMicro: Micro;
};
type Answer = Placed | Refused | null;

interface AuditRun {
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
const GATEWAY_STREAK_MAX = 5;

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
  const before = await balanceOf(run);
  for (let first = 0; first < Math.min(options.bets, LIVE_BETS_MAX) && run.stoppedBy === null; first += PHASE_BETS) {
    const count = Math.min(PHASE_BETS, options.bets - first);
    const slots = await placePhase(run, first, count);
    if (options.deadline.passed()) run.stoppedBy ??= 'deadline';
    options.session.windUp();
    const seeds = await revealSeeds(run);
    verifyPhase(run, slots, seeds);
  }
  const after = await balanceOf(run);
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

function betInput(run: AuditRun, index: number): BetInput {
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
function reserveExtra(run: AuditRun, amountMicro: Micro): boolean {
  if (amountMicro < 0n) {
    run.budget.release(-amountMicro);
    return true;
  }
  if (run.budget.reserve(amountMicro)) return true;
  run.stoppedBy ??= 'usdc';
  return false;
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
            : await placeBatch(run, bets);
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

/** A refused bet as a finding: the target's Kelly limit (info), any other refusal (minor); the refused request is its evidence. */
function recordRefusal(run: AuditRun, bet: BetInput, refused: Refused): void {
  const { refusal, amountMicro } = refused;
  const sent = `a ${bet.game} bet of ${formatDecimal(amountMicro)}${refused.op === 'casino.batch' ? ' in a batch' : ''}`;
  const where = requestEvidence(run, refused.op, refused.request);
  // Above the Kelly limit the target states for this balance (DEPLOYED.md §2.8): its own rule at
  // work, not a fault; the audit's account is too small for the stake.
  const kelly = statedKellyLimitMicro(refusal, amountMicro);
  run.options.findings.add(
    kelly === null
      ? {
          id: `rule:${bet.game}:refused:${refusal.name}`,
          severity: 'minor',
          kind: 'rule',
          title: `${bet.game} bets refused: ${refusal.name}`,
          ...where,
          field: 'amount',
          expected: `${sent} accepted (minimum amount, funded account)`,
          seen: refusal.body,
          evidence: `${refusal.message} (${sent}, refused ${refusal.status})`,
        }
      : {
          id: `rule:${bet.game}:refused:kelly-limit`,
          severity: 'info',
          kind: 'rule',
          title: `${bet.game} bets refused above the Kelly limit the target states for the audit account's balance (max bet ${formatDecimal(kelly)}): fund the account more to audit them`,
          ...where,
          field: 'amount',
          expected: `a bet of ${formatDecimal(amountMicro)} within the target's Kelly limit`,
          seen: refusal.body,
          evidence: refusal.message,
        },
  );
}

/** A finding's endpoint (`casino.bet (POST /api/v1/games/coin-flip)`) and reproducing curl, from the request that showed it. */
function requestEvidence(
  run: AuditRun,
  op: string,
  request: SentRequest,
): { readonly endpoint: string; readonly reproduce?: string } {
  const curl = run.options.curlOf?.(request);
  return { endpoint: endpointOf(op, request), ...(curl === undefined ? {} : { reproduce: curl }) };
}

/**
 * Bets `first` … `first + count − 1` as calls, in the order they open: each bet sent alone is its
 * own call; the others fill batches of up to BATCH_BETS in index order, bets sent alone between
 * them notwithstanding.
 */
export function groupBets(first: number, count: number, alone: (index: number) => boolean): number[][] {
  const groups: number[][] = [];
  let open: number[] | null = null;
  for (let offset = 0; offset < count; offset += 1) {
    const index = first + offset;
    if (alone(index)) groups.push([index]);
    else if (open !== null && open.length < BATCH_BETS) open.push(index);
    else {
      open = [index];
      groups.push(open);
    }
  }
  return groups;
}

/**
 * Where the target paces single bets and batches apart (the deployment: 60 single bets and 10
 * batches of 20 a minute), the share of the batchable bets sent alone, so that both paces work at
 * once: singles use SINGLE_PACE_USE of their limit, leaving room for video poker's deal and draw
 * (the deployment counts them in the same bucket). 0 when either is unpaced: batches alone then.
 */
export function singleBetShare(limits: Readonly<Record<string, { readonly perMinute: number }>>): number {
  const single = limits['casino.bet']?.perMinute;
  const batch = limits['casino.batch']?.perMinute;
  if (single === undefined || batch === undefined) return 0;
  const singles = single * SINGLE_PACE_USE;
  return singles / (singles + batch * BATCH_BETS);
}

const SINGLE_PACE_USE = 0.75;

/** Whether bet `index` is one of the `share` of bets sent alone (spread evenly over the indexes). */
export function sentAlone(index: number, share: number): boolean {
  return share > 0 && Math.floor((index + 1) * share) > Math.floor(index * share);
}

/**
 * One bet alone, its stake reserved: its answer, a refusal (its stake given back), or null when
 * nothing came back (deadline, unreachable). A bet below a minimum learnt since it was planned goes
 * out at it. A refusal that states the target's minimum above the stake teaches it (learnMinimum):
 * the bet is sent once more at that minimum, and the game's later bets go out at it.
 */
async function placeAlone(run: AuditRun, planned: BetInput): Promise<Answer> {
  const bet = atKnownMinimum(run, planned);
  if (bet === null) return null;
  const answer = await placeOnce(run, bet);
  if (answer === null || !('refusal' in answer)) return answer;
  const raised = learnMinimum(run, bet, answer);
  return raised === null ? answer : placeOnce(run, raised);
}

/** The bet at its game's minimum learnt so far, the difference reserved; null (its stake given back) when the budget cannot take it. */
function atKnownMinimum(run: AuditRun, bet: BetInput): BetInput | null {
  const known = run.minimums.get(bet.game);
  if (known === undefined || known <= bet.amountMicro) return bet;
  if (reserveExtra(run, known - bet.amountMicro)) return { ...bet, amountMicro: known };
  run.budget.release(bet.amountMicro);
  return null;
}

/** One call for one bet whose stake is reserved; a refusal gives the stake back (video poker: placeVideoPoker). */
async function placeOnce(run: AuditRun, bet: BetInput): Promise<Answer> {
  if (bet.game === VIDEO_POKER) return placeVideoPoker(run, bet);
  const outcome = await run.options.session.call('casino.bet', bet, run.options.apiKey);
  const answer = settle(run, outcome, bet.params, 'casino.bet', bet.amountMicro);
  if (answer !== null && 'refusal' in answer) giveBack(run, answer);
  return answer;
}

/** A refused bet staked nothing: its reservation goes back (not after a server error, which may come after the bet was placed). */
function giveBack(run: AuditRun, refused: Refused): void {
  if (refused.refusal.status < 500) run.budget.release(refused.amountMicro);
}

/**
 * The bet at the minimum its refusal states (stated-minimum.ts), its stake reserved under the USDC
 * budget beside `heldMicro` (what the refused bet still holds: 0 once given back); null when the
 * refusal states none above the stake, or the budget cannot take it. The first minimum learned
 * for a game is a minor rule finding: the target's minimum is not the documents' (the amount
 * planned), with the refused request as its evidence.
 */
function learnMinimum(run: AuditRun, bet: BetInput, refused: Refused, heldMicro: Micro = 0n): BetInput | null {
  const stated = statedMinimumMicro(refused.refusal, bet.amountMicro);
  if (stated === null) return null;
  const reserved = reserveExtra(run, stated - heldMicro);
  const known = run.minimums.get(bet.game);
  if (known === undefined || stated > known) {
    run.minimums.set(bet.game, stated);
    const planned = run.options.plan.find((variant) => variant.game === bet.game)?.amountMicro ?? bet.amountMicro;
    const where = requestEvidence(run, refused.op, refused.request);
    run.options.findings.add({
      ...minimumBetFinding({
        game: bet.game,
        statedMicro: stated,
        sentMicro: bet.amountMicro,
        documentsMicro: planned,
        refusal: refused.refusal,
        then: reserved
          ? `its bets are placed at ${formatDecimal(stated)}`
          : `a bet at ${formatDecimal(stated)} is past what the USDC budget (--usdc) has left, so none is placed at it`,
        ...(where.reproduce === undefined ? {} : { reproduce: where.reproduce }),
      }),
      endpoint: where.endpoint,
    });
  }
  return reserved ? { ...bet, amountMicro: stated } : null;
}

/**
 * Video poker: deal, hold what optimal play holds (the strategy the documents' edge assumes), draw.
 * One hand at a time: a casino may keep one pending hand per agent (a new deal settles the last).
 */
async function placeVideoPoker(run: AuditRun, bet: BetInput): Promise<Answer> {
  const previous = run.videoPokerTurn;
  let release = (): void => undefined;
  run.videoPokerTurn = new Promise<void>((resolve) => (release = resolve));
  await previous;
  try {
    return await dealAndDraw(run, bet);
  } finally {
    release();
  }
}

/**
 * A dealt hand is always drawn: a draw refused below the target's minimum, or for another amount
 * than the one it says the deal committed, is sent once more for the same hand at that amount. Why:
 * a target that commits the stake at the deal (afp's own platform, its deployed stand-in) holds an
 * undrawn hand and settles it at the next deal, a bet afp would never see; dealing anew after such
 * a refusal made the audit's balance check call a working target's money wrong. A refused deal
 * gives its stake back; a hand dealt and not drawn keeps it (the target may hold it).
 */
async function dealAndDraw(run: AuditRun, bet: BetInput): Promise<Answer> {
  const { session, apiKey } = run.options;
  const dealt = await session.call('casino.deal', { amountMicro: bet.amountMicro, clientSeed: bet.clientSeed }, apiKey);
  if (dealt.kind !== 'ok') {
    const answer = settle(run, dealt, bet.params, 'casino.deal', bet.amountMicro);
    if (answer !== null && 'refusal' in answer) giveBack(run, answer);
    return answer;
  }
  const holds = optimalHolds(dealt.value.cards);
  const params = { ...bet.params, holds, nonce: dealt.value.nonce };
  const draw = (amountMicro: Micro): Promise<CallOutcome<LiveBet>> =>
    session.call('casino.draw', { nonce: dealt.value.nonce, holds, amountMicro, clientSeed: bet.clientSeed }, apiKey);
  const drawn = await draw(bet.amountMicro);
  if (drawn.kind === 'ok') return settle(run, drawn, params, 'casino.draw', bet.amountMicro);
  const again =
    drawn.kind === 'refused'
      ? redrawAmount(run, bet, {
          op: 'casino.draw',
          refusal: drawn.refusal,
          request: drawn.request,
          amountMicro: bet.amountMicro,
        })
      : null;
  const final = again === null ? drawn : await draw(again);
  // Not drawn (refused, or never sent): the hand stays with a target that committed its stake. Unread answers count in settle.
  if (final.kind === 'refused' || final.kind === 'deadline') run.unsettled += 1;
  return settle(run, final, params, 'casino.draw', again ?? bet.amountMicro);
}

/** The amount to draw a refused hand at: the committed amount the target states, else its stated minimum (learnt); null: neither. */
function redrawAmount(run: AuditRun, bet: BetInput, refused: Refused): Micro | null {
  const committed = statedCommittedMicro(refused.refusal);
  if (committed !== null && committed !== bet.amountMicro) {
    if (!reserveExtra(run, committed - bet.amountMicro)) return null;
    return committed;
  }
  return learnMinimum(run, bet, refused, bet.amountMicro)?.amountMicro ?? null;
}

function settle(
  run: AuditRun,
  outcome: CallOutcome<LiveBet>,
  params: JsonObject,
  op: BetCall,
  amountMicro: Micro,
): Answer {
  metGateway(run, outcome);
  switch (outcome.kind) {
    case 'ok':
      return { bet: outcome.value, params, op, request: outcome.request };
    case 'refused':
      // A server error says nothing of whether the bet was placed before it failed.
      if (outcome.refusal.status >= 500) run.unsettled += 1;
      return { op, refusal: outcome.refusal, request: outcome.request, amountMicro };
    case 'unreadable':
      run.unsettled += 1;
      return null;
    case 'unreachable':
      // Sent, perhaps placed: the answer never came.
      run.unsettled += 1;
      stopIfUnanswered(run, outcome);
      return null;
    case 'unsupported':
      run.stoppedBy ??= 'unreachable';
      return null;
    case 'deadline':
      run.stoppedBy ??= 'deadline';
      return null;
  }
}

/** A call the target did not answer stops the audit; a gateway's page (a proxy's hiccup) only in a streak. */
function stopIfUnanswered(run: AuditRun, outcome: CallOutcome<unknown>): void {
  if (outcome.kind !== 'unreachable') return;
  if (outcome.gateway === undefined || run.gatewayStreak >= GATEWAY_STREAK_MAX) run.stoppedBy ??= 'unreachable';
}

/** Counts a gateway's answer into the streak; any answer of the target's own ends it. */
function metGateway(run: AuditRun, outcome: CallOutcome<unknown>): void {
  if (outcome.kind === 'unreachable' && outcome.gateway !== undefined) run.gatewayStreak += 1;
  else if (outcome.kind !== 'deadline' && outcome.kind !== 'unsupported') run.gatewayStreak = 0;
}

/**
 * A batch, its stakes reserved. Elements refused below the minimum the target states go out once
 * more as one batch at it (`again`: the first time only); other refused elements are retried alone
 * once, and a game accepted alone is played alone from then on.
 */
async function placeBatch(run: AuditRun, bets: readonly BetInput[], again = true): Promise<Answer[]> {
  const outcome = await run.options.session.call('casino.batch', { bets }, run.options.apiKey);
  metGateway(run, outcome);
  if (outcome.kind === 'deadline') run.stoppedBy ??= 'deadline';
  if (outcome.kind === 'unsupported') run.stoppedBy ??= 'unreachable';
  stopIfUnanswered(run, outcome);
  if (outcome.kind !== 'ok' || outcome.value.results.length !== bets.length) {
    // A batch the target may have run (an answer unread, lost or a server error) leaves its bets' outcomes unknown.
    const unknown =
      outcome.kind === 'ok' ||
      outcome.kind === 'unreadable' ||
      outcome.kind === 'unreachable' ||
      (outcome.kind === 'refused' && outcome.refusal.status >= 500);
    if (unknown) run.unsettled += bets.length;
    return Promise.all(bets.map((bet) => placeAlone(run, bet)));
  }
  const answers: Answer[] = outcome.value.results.map((answer, position) => {
    const bet = bets[position] as BetInput;
    if (!isRefusal(answer)) return { bet: answer, params: bet.params, op: 'casino.batch', request: outcome.request };
    return { op: 'casino.batch', refusal: answer, request: outcome.request, amountMicro: bet.amountMicro };
  });
  // Below the target's stated minimum: nothing staked; the elements go out again, together, at it.
  const raised: Array<{ readonly position: number; readonly bet: BetInput }> = [];
  answers.forEach((answer, position) => {
    const bet = bets[position] as BetInput;
    if (answer === null || !('refusal' in answer) || statedMinimumMicro(answer.refusal, bet.amountMicro) === null)
      return;
    giveBack(run, answer);
    const at = again ? learnMinimum(run, bet, answer) : null;
    if (at !== null) raised.push({ position, bet: at });
  });
  if (raised.length > 0) {
    // Their answers are final: the batch at the minimum retried its own refusals.
    const placed = await placeBatch(
      run,
      raised.map((entry) => entry.bet),
      false,
    );
    raised.forEach((entry, at) => (answers[entry.position] = placed[at] ?? null));
  }
  const final = new Set(raised.map((entry) => entry.position));
  return Promise.all(
    answers.map(async (answer, position) => {
      const bet = bets[position] as BetInput;
      if (final.has(position) || answer === null || !('refusal' in answer)) return answer;
      // Refused below a minimum: its stake given back above, not sent alone at the same amount.
      if (statedMinimumMicro(answer.refusal, bet.amountMicro) !== null) return answer;
      const alone = await placeAlone(run, bet);
      if (alone !== null && !('refusal' in alone) && !run.aloneGames.has(bet.game)) {
        run.aloneGames.add(bet.game);
        run.options.findings.add({
          id: `rule:${bet.game}:not-in-batch`,
          severity: 'info',
          kind: 'rule',
          title: `${bet.game} is refused in a batch (${answer.refusal.name}) but accepted alone: played alone`,
          ...requestEvidence(run, 'casino.batch', answer.request),
          field: `bets[${position}]`,
          expected: 'every game accepted in a batch (documents: each element processed like a single bet)',
          seen: answer.refusal.body,
          evidence: answer.refusal.message,
        });
      }
      return alone;
    }),
  );
}

/**
 * Rotates (revealing the phase's seed) and reads every revealed seed: hash → hex; null when the
 * target answered neither call (it stopped answering, or the time budget ran out): then no seed
 * was withheld, the phase's bets are only unverified, and the audit stops as unreachable (exit 4)
 * rather than calling every bet's seed "not revealed" (major, exit 3).
 */
async function revealSeeds(run: AuditRun): Promise<Revealed | null> {
  const { options } = run;
  const candidates = new Map<string, RevealedSeed[]>();
  const reveal = (hash: string, seed: string, op: string, request: SentRequest): void => {
    candidates.set(hash, [...(candidates.get(hash) ?? []), { seed, ...requestEvidence(run, op, request) }]);
  };
  const rotated = await options.session.call('casino.rotate', {}, options.apiKey);
  const request = 'request' in rotated ? rotated.request : undefined;
  const reproduce = request === undefined ? undefined : options.curlOf?.(request);
  if (rotated.kind === 'ok' && rotated.value.revealedSeed !== null && rotated.value.revealedSeedHash !== null)
    reveal(rotated.value.revealedSeedHash, rotated.value.revealedSeed, 'casino.rotate', rotated.request);
  const listed = await options.session.call('casino.seeds', {}, options.apiKey);
  if (listed.kind === 'ok')
    for (const { seedHash, seed } of listed.value.seeds)
      if (seed !== null) reveal(seedHash, seed, 'casino.seeds', listed.request);
  const answered = (kind: string): boolean => kind === 'ok' || kind === 'refused' || kind === 'unreadable';
  if (answered(rotated.kind) || answered(listed.kind))
    return { seeds: chosenSeeds(run, candidates), ...(reproduce === undefined ? {} : { reproduce }) };
  run.stoppedBy ??= rotated.kind === 'deadline' || listed.kind === 'deadline' ? 'deadline' : 'unreachable';
  return null;
}

/** A seed as one call revealed it, with that call (the commitment finding's evidence: the GET that shows it). */
interface RevealedSeed extends RequestEvidence {
  readonly seed: string;
}

/**
 * Per commitment, the seed the bets are verified with: one that hashes to it where a call revealed
 * one, else the seed list's (the last revealed). Two calls revealing different seeds for one
 * commitment is a finding of its own: at most one of them is the seed the bets were drawn from.
 */
function chosenSeeds(
  run: AuditRun,
  candidates: ReadonlyMap<string, readonly RevealedSeed[]>,
): Map<string, RevealedSeed> {
  const chosen = new Map<string, RevealedSeed>();
  for (const [hash, revealed] of candidates) {
    const hashes = (candidate: RevealedSeed): boolean =>
      createHash('sha256').update(candidate.seed).digest('hex') === hash;
    const pick = revealed.find(hashes) ?? (revealed.at(-1) as RevealedSeed);
    chosen.set(hash, pick);
    const other = revealed.find((candidate) => candidate.seed !== pick.seed);
    if (other === undefined) continue;
    const [first, second] = revealed.indexOf(other) < revealed.indexOf(pick) ? [other, pick] : [pick, other];
    run.options.findings.add({
      id: 'fairness:seeds:reveal-differs',
      severity: 'major',
      kind: 'fairness',
      title: `two calls reveal different seeds for one commitment: ${first.endpoint} and ${second.endpoint} (${[first, second].filter(hashes).length === 0 ? 'neither hashes' : 'only one hashes'} to it)`,
      endpoint: second.endpoint,
      field: 'seed',
      expected: `one seed whose SHA-256 is ${hash}, the same on every call`,
      seen: `${first.endpoint}: ${first.seed}; ${second.endpoint}: ${second.seed}`,
      evidence: `commitment ${hash}`,
      ...(second.reproduce === undefined ? {} : { reproduce: second.reproduce }),
    });
  }
  return chosen;
}

/** A phase's revealed seeds (hash → seed and the call that revealed it) and the curl of the rotation. */
interface Revealed {
  readonly seeds: ReadonlyMap<string, RevealedSeed>;
  readonly reproduce?: string;
}

function verifyPhase(run: AuditRun, slots: readonly Slot[], revealed: Revealed | null): void {
  const { scheme, plan, findings } = run.options;
  for (const slot of slots) {
    if (slot === undefined) continue;
    const variant = plan[slot.index % plan.length] as PlannedVariant;
    const track = run.tracks[slot.index % plan.length] as VariantTrack;
    const bet = slot.bet;
    const credit = betCredit(bet);
    run.paidMicro += credit.ok ? credit.micro : (bet.paidMicro ?? 0n);
    run.creditSlackMicro += creditSlackMicro(credit, bet);
    // The request that placed the bet (its curl: how a reader sees the same behaviour again) is the
    // evidence of every finding the bet shows; sent again it places a new bet at the next nonce.
    const where = requestEvidence(run, slot.op, slot.request);
    const betFindings = withEvidence(findings, { ...where, field: 'proof' });
    const draw = `${bet.seedHash}:${bet.nonce}`;
    if (run.draws.has(draw)) {
      recordNonceReused(
        betFindings,
        bet.nonce,
        `bet ${bet.betId} (${variant.variant}) reuses nonce ${bet.nonce} of seed ${bet.seedHash}`,
      );
    }
    run.draws.add(draw);
    const schemeBet: SchemeBet = { ...bet, game: variant.game, params: slot.params };
    const seed = revealed?.seeds.get(bet.seedHash) ?? null;
    const seedHex = seed?.seed ?? null;
    const verdict = seedHex === null ? null : scheme.verify(schemeBet, seedHex);
    // Seeds not asked of a target that stopped answering were not withheld: no proof check then.
    if (revealed !== null)
      recordProofChecks(betFindings, {
        bet: schemeBet,
        variant: variant.variant,
        seedHex,
        verdict,
        scheme: scheme.name,
        ...(revealed.reproduce === undefined ? {} : { revealReproduce: revealed.reproduce }),
        ...(seed === null
          ? {}
          : {
              seedReveal: {
                endpoint: seed.endpoint,
                ...(seed.reproduce === undefined ? {} : { reproduce: seed.reproduce }),
              },
            }),
      });
    checkSelfConsistent(withEvidence(findings, where), bet, variant.variant);
    const exact = verdict !== null && proofHolds(verdict) && verdict.outcome.status === 'ok';
    run.answerTally.add(withEvidence(findings, where), scheme, schemeBet, variant.variant, exact);
    track.noteStatements(scheme, variant.game, bet.result);
    // A bet whose proof fails is not verified: no rule or edge rests on a seed that is not the one committed to.
    if (verdict === null || !proofHolds(verdict)) continue;
    track.verified += 1;
    if (selfContradiction(scheme, schemeBet)) {
      track.contradicting += 1;
      track.contradictingExample ??= `bet ${bet.betId} (${variant.variant}): result ${JSON.stringify(bet.result)} with won ${String(bet.won)}`;
    }
    track.sample ??= { betId: bet.betId, ...where };
    if (seedHex !== null) run.drawTally.add(scheme, { bet: schemeBet, verdict, seedHex, request: where });
    track.tier.add(schemeBet, verdict, where);
    if (seedHex !== null) track.keep({ bet: schemeBet, seedHex });
    const followed = verdict.outcome.status === 'ok' && verdict.payout.status !== 'failed';
    if (followed) track.followedRule += 1;
    const returned = returnOf(bet);
    if (returned !== null) track.addReturn(returned, followed);
  }
}

/**
 * Money findings need the target to contradict itself: the amount credited is not the stake times
 * the multiplier it showed (beyond its display rounding), or its win flag says the opposite of its
 * credit. Never afp's expectation of the rule (the tiers state what the payouts give). The credit
 * is read the way the target writes money (live/bet-credit.ts): where `amount_won` is a display
 * field, stake × the shown multiplier, never the rounded figure (0.01 × 0.2 shows as 0.00).
 */
function checkSelfConsistent(findings: FindingSink, bet: LiveBet, variant: string): void {
  const credit = betCredit(bet);
  const evidence = `bet ${bet.betId} (${variant}): staked ${formatDecimal(bet.amountMicro)}, shown multiplier ${String(bet.multiplier)}, shown credit ${bet.paidMicro === null ? '?' : formatAmount(fromMicro(bet.paidMicro))}${(bet.paidPlaces ?? null) === null ? '' : ` (a display figure; the documents round it to ${String(bet.paidPlaces)} places)`}`;
  const displayed = (bet.paidPlaces ?? null) !== null;
  if (displayed && !credit.ok && credit.unstated && bet.paidMicro !== null) {
    // Nothing to contradict: the credit is known only to its rounding, which the balance check allows for.
    findings.add({
      id: `shape:${bet.game}:credit-unstated`,
      severity: 'minor',
      kind: 'shape',
      title: `${bet.game}: the answer rounds amount_won and names no multiplier, so its exact credit cannot be told`,
      field: 'payout_multiplier',
      expected: 'the multiplier (stake × multiplier is the credit)',
      seen: null,
      evidence,
    });
  }
  const contradiction = displayed
    ? credit.ok || credit.unstated
      ? null
      : credit.problem
    : creditContradiction(bet) === null
      ? null
      : 'the credit is not stake × the shown multiplier';
  if (contradiction !== null && bet.paidMicro !== null) {
    findings.add({
      id: `money:${bet.game}:credited`,
      severity: 'critical',
      kind: 'money',
      title: `${bet.game}: the amount credited is not the stake times the multiplier the target itself showed`,
      field: 'amount_won',
      expected: bet.multiplier === null ? null : `stake × ${String(bet.multiplier)}`,
      seen: formatDecimal(bet.paidMicro),
      evidence: `${evidence}: ${contradiction}`,
    });
  }
  if (credit.ok && displayed && bet.paidMicro !== null) checkDisplayPlaces(findings, bet, credit.amount, evidence);
  if (!credit.ok || bet.won === null) return;
  const paid = credit.micro;
  if ((bet.won && paid === 0n) || (!bet.won && paid > bet.amountMicro)) {
    findings.add({
      id: `money:${bet.game}:won-flag`,
      severity: 'major',
      kind: 'money',
      title: `${bet.game}: the win flag contradicts the amount the target credited`,
      field: 'won',
      expected: paid !== 0n,
      seen: bet.won,
      evidence,
    });
  }
}

/**
 * The places the target rounds `amount_won` to, measured against the documents' (`paidPlaces`):
 * more shown decimals than published, or a shown figure that is the credit rounded to fewer places
 * but not to the published ones, is an info finding (a dialect difference with its evidence; the
 * money checks allow the shown figure's own rounding, core/live-amount.ts withinRounding).
 */
function checkDisplayPlaces(findings: FindingSink, bet: LiveBet, credit: LiveAmount, evidence: string): void {
  const published = bet.paidPlaces ?? null;
  if (published === null || bet.paidMicro === null) return;
  const shown = fromMicro(bet.paidMicro);
  const places = shownPlaces(shown);
  const more = places > published;
  const fewer = roundedToFewerPlaces(shown, credit, published);
  if (!more && !fewer) return;
  findings.add({
    id: `shape:casino.bet:amount_won:places-${more ? 'more' : 'fewer'}`,
    severity: 'info',
    kind: 'shape',
    title: `casino.bet: amount_won is rounded to ${more ? 'more' : 'fewer'} decimals than the ${published} the documents publish`,
    field: 'amount_won',
    expected: `stake × payout_multiplier = ${formatAmount(credit)} rounded to ${published} decimals: ${formatAmount(roundAmount(credit, published), published)}`,
    seen: formatAmount(shown),
    evidence,
  });
}

/**
 * What the bet returned per unit staked: its credit (live/bet-credit.ts: stake × the shown
 * multiplier where the answer rounds `amount_won`) over the stake — never the rounded figure,
 * which biases small stakes.
 */
function returnOf(bet: LiveBet): Ratio | null {
  if (bet.amountMicro <= 0n) return null;
  const credit = betCredit(bet);
  return credit.ok ? ratio(credit.micro, bet.amountMicro) : null;
}

/** A balance read: in micro, as the target wrote it (where the dialect keeps it), and the request that read it (the balance finding's curl). */
interface BalanceRead {
  readonly micro: Micro;
  readonly shown: LiveAmount | null;
  readonly request: SentRequest;
}

/** The balance and the request that read it; null when it could not be read. */
async function balanceOf(run: AuditRun): Promise<BalanceRead | null> {
  const outcome = await run.options.session.call('casino.balance', {}, run.options.apiKey);
  return outcome.kind === 'ok'
    ? { micro: outcome.value.balanceMicro, shown: outcome.value.balance ?? null, request: outcome.request }
    : null;
}

/**
 * Balance after − before must be returns − stakes, within the target's own rounding only
 * (balance-tolerance.ts): the credits are booked as the answers state them, so any more is money
 * that went somewhere no answer names.
 */
function checkMoney(run: AuditRun, beforeRead: BalanceRead | null, afterRead: BalanceRead | null): void {
  if (beforeRead === null || afterRead === null) return;
  const [before, after] = [beforeRead.micro, afterRead.micro];
  // The balance read after the bets: its curl shows the balance the finding compares.
  const findings = withEvidence(run.options.findings, {
    ...requestEvidence(run, 'casino.balance', afterRead.request),
    field: 'balance',
    note: 'the balance read after the bets (an aggregate: the bets moved it)',
  });
  const bets = run.tracks.reduce((total, track) => total + track.placed, 0);
  if (run.unsettled > 0) {
    // A bet the target may have settled unseen moves the balance by an amount no answer states: not judged.
    findings.add({
      id: 'money:edge-audit:balance-delta-not-judged',
      severity: 'info',
      kind: 'money',
      title: `the balance's movement over the audit is not judged: ${run.unsettled} bets' outcomes were not read (an answer unread or never received, a server error, or a video-poker hand dealt and not drawn)`,
      expected: null,
      seen: formatDecimal(after - before),
      evidence: `balance before ${formatDecimal(before)}, after ${formatDecimal(after)}; ${bets} bets read, staked ${formatDecimal(run.answeredStakeMicro)}, paid ${formatDecimal(run.paidMicro)}`,
    });
    return;
  }
  const expected = run.paidMicro - run.answeredStakeMicro;
  const seen = after - before;
  const allowance = run.creditSlackMicro + balanceReadsRoundingMicro(beforeRead.shown, afterRead.shown);
  const difference = seen > expected ? seen - expected : expected - seen;
  if (difference <= allowance) return;
  findings.add({
    id: 'money:edge-audit:balance-delta',
    severity: 'critical',
    kind: 'money',
    title: `the balance moved by ${formatDecimal(seen)} USDC over the audit, but the answers report ${formatDecimal(expected)} (returns − stakes)`,
    expected: formatDecimal(expected),
    seen: formatDecimal(seen),
    evidence: `balance before ${formatDecimal(before)}, after ${formatDecimal(after)}; ${bets} bets, staked ${formatDecimal(run.answeredStakeMicro)}, paid ${formatDecimal(run.paidMicro)}; the target's own rounding allows ${formatDecimal(allowance)}, the difference is ${formatDecimal(difference)}${bets > 0 ? ` (${formatDecimal(difference / BigInt(bets))} a bet)` : ''}`,
  });
}
