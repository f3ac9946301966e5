/**
 * Video poker's two phases (casino.md): the deal shows five cards and a nonce and places no bet;
 * the draw takes the holds, the nonce and the amount, places the bet and evaluates the hand.
 *
 * Two forms of the deal. As casino.md writes it, the deal is free (no amount) and the draw's amount
 * places the bet; a hand dealt so and dealt over is dropped (no bet was placed). With an amount,
 * the stake is committed at the deal (docs/decisions/casino.md): were the amount chosen after
 * seeing the cards, or a weak deal simply abandoned, an agent could bet big only on strong deals
 * and beat the house. So that deal holds the amount in `video-poker:<agent>` (no bet yet: nothing
 * is won or lost until the draw), the draw's amount must match it, and a hand still pending when
 * the agent deals again is drawn first with the optimal holds: every committed deal ends in exactly
 * one bet of its amount, and the best any strategy can do is optimal play (RTP 99.54%). The free
 * form gives that edge away, as the documents' protocol does; afp's own agents commit.
 *
 * Provably fair: the deal takes the nonce; the draw's replacement cards are the next cards of the
 * same nonce's stream (games/video-poker.ts), so the draw is verifiable like any bet. The
 * `casino-replayable-nonce` defect keeps the hand after the draw, so the same nonce can be drawn
 * again (the real platform's defect).
 */
import { assert } from '../../core/assert.ts';
import { fail, isFailure, succeed, type Failure, type Outcome } from '../../core/errors.ts';
import { agentAccount } from '../../core/ledger.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import type { BetRecord } from './bet-record.ts';
import type { CasinoState, DealtHand } from './casino-state.ts';
import { DrawStream } from './fair/draw-stream.ts';
import { cardCodes } from './games/cards.ts';
import { deal, holdPositions, OPTIMAL_PARAMS, videoPoker, type VideoPokerHolds } from './games/video-poker.ts';
import { checkBet, settle, takeNonce } from './place-bet.ts';
import { deployedMinimumMicro, type DeployedCasinoRules } from './deployed/deployed-casino-rules.ts';
import { isUnreadable } from './deployed/deployed-rule.ts';
import { deployedDealCards, deployedVideoPokerDraw } from './deployed/deployed-video-poker.ts';
import { CASINO_HOUSE } from './referral-commission.ts';

export interface Dealt {
  readonly hand: DealtHand;
  /** null: a free deal. */
  readonly amountMicro: Micro | null;
  /** A pending hand drawn automatically by this deal, if any. */
  readonly autoDrawn: BetRecord | null;
}

/** A dealt hand's stake waits here until the draw. */
export const videoPokerHoldAccount = (agentId: string): string => `video-poker:${agentId}`;

/** `deployedRules`: deal and draw by the deployment's engine (deployed/deployed-video-poker.ts). */
export function dealHand(
  state: CasinoState,
  command: {
    agentId: string;
    amountMicro: Micro | null;
    clientSeed: string | null;
    deployedRules?: DeployedCasinoRules;
  },
  nowMs: number,
): Outcome<Dealt> {
  const { agentId, amountMicro } = command;
  const poor = freeDealRefusal(state, command);
  if (poor !== null) return poor;
  const autoDrawn = drawPendingHand(state, command, nowMs);
  if (autoDrawn !== null && !autoDrawn.ok) return autoDrawn;
  const checked =
    amountMicro === null
      ? null
      : checkBet(state, {
          agentId,
          game: videoPoker,
          params: OPTIMAL_PARAMS,
          paramsJson: {},
          amountMicro,
          clientSeed: null,
          source: 'video-poker',
          ...deployedOf(command),
        });
  if (checked !== null && !checked.ok) return checked;
  const { seed, nonce } = takeNonce(state, agentId, nowMs);
  const clientSeed = command.clientSeed ?? state.ctx.ids.next('', 16);
  const cards =
    command.deployedRules === undefined
      ? deal(new DrawStream(seed.hex, clientSeed, nonce))
      : deployedDealCards(seed.hex, clientSeed, nonce);
  const hand: DealtHand = {
    agentId,
    nonce,
    seedHash: seed.hash,
    seedHex: seed.hex,
    clientSeed,
    cards: cardCodes(cards),
    atMs: nowMs,
    amountMicro,
  };
  if (amountMicro !== null)
    state.ctx.ledger.transfer({
      from: agentAccount(agentId),
      to: videoPokerHoldAccount(agentId),
      amountMicro,
      reason: 'casino.video-poker.commit',
      reference: `${seed.hash.slice(0, 16)}:${nonce}`,
    });
  state.hands.set(agentId, new Map([[nonce, hand]]));
  return succeed({ hand, amountMicro, autoDrawn: autoDrawn?.value ?? null });
}

const deployedOf = (command: { deployedRules?: DeployedCasinoRules }): { deployedRules?: DeployedCasinoRules } =>
  command.deployedRules === undefined ? {} : { deployedRules: command.deployedRules };

export function drawHand(
  state: CasinoState,
  command: {
    agentId: string;
    nonce: number;
    holds: VideoPokerHolds;
    amountMicro: Micro | null;
    deployedRules?: DeployedCasinoRules;
  },
  nowMs: number,
): Outcome<BetRecord> {
  const { agentId } = command;
  const hand = state.hands.get(agentId)?.get(command.nonce);
  if (hand === undefined)
    return fail('NOT_FOUND', `no dealt hand with nonce ${command.nonce}: deal first (a hand is drawn once)`);
  const refused = drawAmountRefusal(state, hand, command);
  if (refused !== null) return refused;
  const draws = new DrawStream(hand.seedHex, hand.clientSeed, hand.nonce);
  const rules = command.deployedRules;
  const dealt =
    rules === undefined
      ? deal(new DrawStream(hand.seedHex, hand.clientSeed, hand.nonce))
      : deployedDealCards(hand.seedHex, hand.clientSeed, hand.nonce);
  const positions = holdPositions(dealt, command.holds);
  if (isFailure(positions)) return positions;
  const deployed = rules === undefined ? null : deployedVideoPokerDraw(rules, hand, positions);
  if (deployed !== null && isUnreadable(deployed)) return fail('BAD_REQUEST', deployed.why);
  const params = { holds: { kind: 'positions', positions } as const, nonce: hand.nonce };
  const replay = state.ctx.defects.has('casino-replayable-nonce');
  const stakeMicro = hand.amountMicro ?? command.amountMicro;
  assert(stakeMicro !== null, 'a free deal is drawn with an amount (checked above)');
  const unpaid = takeStake(state, agentId, hand, stakeMicro, replay);
  if (unpaid !== null) return unpaid;
  if (!replay) state.hands.delete(agentId);
  const result = deployed === null ? videoPoker.play(params, draws) : deployed.result;
  const resultHash = deployed === null ? draws.firstBlockHex : deployed.resultBytes.toString('hex');
  const bet = settle(
    state,
    {
      agentId,
      game: videoPoker,
      params,
      paramsJson: { holds: positions, nonce: hand.nonce },
      amountMicro: stakeMicro,
      clientSeed: hand.clientSeed,
      source: 'video-poker',
      stakeHeld: true,
    },
    { result, seedHash: hand.seedHash, clientSeed: hand.clientSeed, nonce: hand.nonce, resultHash },
    nowMs,
  );
  return succeed(bet);
}

/** The deployment deals free only to a balance that could place its smallest bet (DEPLOYED.md §2.5); null: dealt. */
function freeDealRefusal(
  state: CasinoState,
  command: { agentId: string; amountMicro: Micro | null; deployedRules?: DeployedCasinoRules },
): Failure | null {
  const { agentId, amountMicro } = command;
  if (amountMicro === null && command.deployedRules !== undefined) {
    const minimumMicro = deployedMinimumMicro(command.deployedRules);
    if (state.ctx.ledger.balance(agentAccount(agentId)) < minimumMicro)
      return fail('INSUFFICIENT_BALANCE', `a deal needs a balance of at least $${formatDecimal(minimumMicro)}`, {
        required: Number(formatDecimal(minimumMicro)),
      });
  }
  return null;
}

/** A pending staked hand, drawn with the optimal holds before a new deal (a free one is dropped); null when none. */
function drawPendingHand(
  state: CasinoState,
  command: { agentId: string; deployedRules?: DeployedCasinoRules },
  nowMs: number,
): Outcome<BetRecord> | null {
  const { agentId } = command;
  const pending = state.hands.get(agentId);
  const pendingHand = pending === undefined ? undefined : [...pending.values()][0];
  // The pending hand's stake comes back into play when it is drawn: count it for the checks. A
  // free hand staked nothing: dealt over, it is dropped.
  if (pendingHand !== undefined && pendingHand.amountMicro === null) state.hands.delete(agentId);
  const autoDrawn =
    pendingHand === undefined || pendingHand.amountMicro === null
      ? null
      : drawHand(
          state,
          { agentId, nonce: pendingHand.nonce, holds: OPTIMAL_PARAMS.holds, amountMicro: null, ...deployedOf(command) },
          nowMs,
        );
  return autoDrawn;
}

/** Why the draw's amount is refused (the deployment's minimum, a free deal's bet, the committed amount), or null. */
function drawAmountRefusal(
  state: CasinoState,
  hand: DealtHand,
  command: { agentId: string; amountMicro: Micro | null; deployedRules?: DeployedCasinoRules },
): Failure | null {
  const { agentId } = command;
  // The deployment's draw is the bet (§2.5): below its minimum it is refused as any bet is.
  if (command.deployedRules !== undefined && command.amountMicro !== null) {
    const minimumMicro = deployedMinimumMicro(command.deployedRules);
    if (command.amountMicro < minimumMicro)
      return fail('BAD_REQUEST', `Minimum bet is $${formatDecimal(minimumMicro)}`, {
        min_bet: Number(formatDecimal(minimumMicro)),
      });
  }
  if (hand.amountMicro === null && command.amountMicro === null)
    return fail('BAD_REQUEST', 'amount is required: the deal was free, and the draw places the bet', {
      field: 'amount',
    });
  if (hand.amountMicro === null && command.amountMicro !== null) {
    // A free deal's bet is placed now, checked as any bet (minimum, maximum, Kelly, balance).
    const checked = checkBet(state, {
      agentId,
      game: videoPoker,
      params: OPTIMAL_PARAMS,
      paramsJson: {},
      amountMicro: command.amountMicro,
      clientSeed: null,
      source: 'video-poker',
      ...deployedOf(command),
    });
    if (!checked.ok) return checked;
  }
  if (hand.amountMicro !== null && command.amountMicro !== null && command.amountMicro !== hand.amountMicro) {
    return fail('BAD_REQUEST', 'amount must equal the amount committed at the deal', {
      committed_amount: Number(hand.amountMicro) / 1e6,
    });
  }
  return null;
}

/** The stake to the house: a committed one from the hold account, a free deal's from the balance now; null: paid. */
function takeStake(
  state: CasinoState,
  agentId: string,
  hand: DealtHand,
  stakeMicro: Micro,
  replay: boolean,
): Failure | null {
  const account = agentAccount(agentId);
  // A committed stake waits in the hold account; a free deal's comes from the balance now.
  const held =
    hand.amountMicro !== null && (!replay || state.ctx.ledger.balance(videoPokerHoldAccount(agentId)) >= stakeMicro);
  if (!held && state.ctx.ledger.balance(account) < stakeMicro)
    return fail('INSUFFICIENT_BALANCE', 'balance is below the amount of the bet');
  state.ctx.ledger.transfer({
    from: held ? videoPokerHoldAccount(agentId) : account,
    to: CASINO_HOUSE,
    amountMicro: stakeMicro,
    reason: 'casino.bet.stake',
    reference: `video-poker:${hand.nonce}`,
  });
  return null;
}
