/**
 * Placing a live house-edge audit's bets one call at a time (edge-audit.ts): a bet alone, raised to
 * the minimum the target states when a refusal teaches one; video poker's deal and draw, one hand at
 * a time; and each call's outcome read into an answer, a refusal (its stake given back) or nothing,
 * counting what may have been placed unseen and stopping on a target that no longer answers.
 */
import {
  statedKellyLimitMicro,
  type CallOutcome,
  type BetInput,
  type LiveBet,
  minimumBetFinding,
  statedCommittedMicro,
  statedMinimumMicro,
} from '../../live.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import type { JsonObject } from '../../core/errors.ts';
import { optimalHolds } from '../../services/casino/games/video-poker-analysis.ts';
import { VIDEO_POKER } from './edge-calls.ts';
import {
  GATEWAY_STREAK_MAX,
  requestEvidence,
  reserveExtra,
  type Answer,
  type AuditRun,
  type BetCall,
  type EdgeRefusal,
} from './edge-run.ts';

/** A refused bet as a finding: the target's Kelly limit (info), any other refusal (minor); the refused request is its evidence. */
export function recordRefusal(run: AuditRun, bet: BetInput, refused: EdgeRefusal): void {
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

/**
 * One bet alone, its stake reserved: its answer, a refusal (its stake given back), or null when
 * nothing came back (deadline, unreachable). A bet below a minimum learnt since it was planned goes
 * out at it. A refusal that states the target's minimum above the stake teaches it (learnMinimum):
 * the bet is sent once more at that minimum, and the game's later bets go out at it.
 */
export async function placeAlone(run: AuditRun, planned: BetInput): Promise<Answer> {
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
export function giveBack(run: AuditRun, refused: EdgeRefusal): void {
  if (refused.refusal.status < 500) run.budget.release(refused.amountMicro);
}

/**
 * The bet at the minimum its refusal states (stated-minimum.ts), its stake reserved under the USDC
 * budget beside `heldMicro` (what the refused bet still holds: 0 once given back); null when the
 * refusal states none above the stake, or the budget cannot take it. The first minimum learned
 * for a game is a minor rule finding: the target's minimum is not the documents' (the amount
 * planned), with the refused request as its evidence.
 */
export function learnMinimum(
  run: AuditRun,
  bet: BetInput,
  refused: EdgeRefusal,
  heldMicro: Micro = 0n,
): BetInput | null {
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
function redrawAmount(run: AuditRun, bet: BetInput, refused: EdgeRefusal): Micro | null {
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
export function stopIfUnanswered(run: AuditRun, outcome: CallOutcome<unknown>): void {
  if (outcome.kind !== 'unreachable') return;
  if (outcome.gateway === undefined || run.gatewayStreak >= GATEWAY_STREAK_MAX) run.stoppedBy ??= 'unreachable';
}

/** Counts a gateway's answer into the streak; any answer of the target's own ends it. */
export function metGateway(run: AuditRun, outcome: CallOutcome<unknown>): void {
  if (outcome.kind === 'unreachable' && outcome.gateway !== undefined) run.gatewayStreak += 1;
  else if (outcome.kind !== 'deadline' && outcome.kind !== 'unsupported') run.gatewayStreak = 0;
}
