/**
 * Invariant `casino-conservation`: the casino's money moves only as its records say. The house
 * balance is reproduced from the domain records alone — funding + Σ stakes − Σ payouts of the bet
 * records − Σ referral commissions the commission book says it paid + Σ house cuts of resolved
 * challenges — and must equal the ledger's `casino-house` after every bet and challenge event,
 * every virtual hour and at the end. Every transfer touching the house must carry one of the
 * casino's own reasons (an unexplained movement is caught at once). Holds: every virtual hour
 * and at the end, a challenge's hold is its stake while pending and zero after, a tournament's
 * is its prize pool until completion and zero after, a crash round's is the stakes of its bets not
 * yet settled, and an agent's video-poker hold is the stake of its dealt, undrawn hand (zero with
 * none); any other `crash-round:` or `video-poker:` balance is money no record explains.
 *
 * What it does not catch by design: a payout cut recorded as such (`casino-payout-short` pays
 * what its record says, so the money adds up) — casino-bets-verify catches that.
 * Cost: O(1) per bet (the commission book's figures for one agent); O(challenges + tournaments +
 * crash rounds retained + ledger accounts) per hour.
 */
import { formatDecimal, type Micro } from '../../../core/money.ts';
import { CASINO_HOUSE } from '../../../services/casino/referral-commission.ts';
import { challengeAccount } from '../../../services/casino/challenges/challenge-record.ts';
import { tournamentAccount } from '../../../services/casino/tournaments/tournament-record.ts';
import { crashRoundAccount } from '../../../services/casino/crash-rounds.ts';
import { videoPokerHoldAccount as videoPokerHoldAccount } from '../../../services/casino/video-poker-hands.ts';
import { jsonText } from '../../json-text.ts';
import type { Platform } from '../../../platform/platform.ts';
import type { InvariantDefinition, Violation } from '../checker.ts';

/** Every reason a transfer may move the house's money with. */
export const HOUSE_REASONS: ReadonlySet<string> = new Set([
  'casino.house-funding',
  'casino.bet.stake',
  'casino.crash.stake',
  'casino.bet.payout',
  'casino.challenge.cut',
  'casino.referral.level1',
  'casino.referral.level2',
  'casino.referral.level3',
]);

export const casinoConservation: InvariantDefinition = {
  name: 'casino-conservation',
  description:
    'the house balance equals funding + stakes − payouts − commissions + challenge cuts from the records; holds match their records',
  create({ platform }) {
    const { ledger, casino } = platform;
    let expectedMicro = ledger.balance(CASINO_HOUSE);
    const paidByAgent = new Map<string, Micro>();
    const commissionsPaid = (agentId: string): Micro => {
      const state = casino.state.commissions.state(agentId);
      let total = 0n;
      for (const paid of state?.paidMicro ?? []) total += paid;
      return total;
    };
    const compare = (atMs: number, event: () => string, after: string): Violation | null => {
      const actualMicro = ledger.balance(CASINO_HOUSE);
      if (actualMicro === expectedMicro) return null;
      return {
        atMs,
        event: event(),
        message: `casino-house holds ${formatDecimal(actualMicro)}, its records say ${formatDecimal(expectedMicro)} (after ${after})`,
      };
    };
    const holds = (atMs: number, when: string): Violation | null =>
      heldAsRecorded(platform, atMs, when) ?? compare(atMs, () => jsonText({ audit: when, atMs }), `the ${when} audit`);
    return {
      onTransfer(transfer) {
        if ((transfer.from !== CASINO_HOUSE && transfer.to !== CASINO_HOUSE) || HOUSE_REASONS.has(transfer.reason))
          return null;
        return {
          atMs: platform.nowMs,
          event: jsonText(transfer),
          message: `casino-house moved ${formatDecimal(transfer.amountMicro)} for '${transfer.reason}', not a casino reason`,
        };
      },
      onEvent(event) {
        if (event.type === 'casino.bet') {
          const paidMicro = commissionsPaid(event.agentId);
          expectedMicro += event.amountMicro - event.payoutMicro - (paidMicro - (paidByAgent.get(event.agentId) ?? 0n));
          paidByAgent.set(event.agentId, paidMicro);
          return compare(event.atMs, () => jsonText(event), `bet ${event.betId}`);
        }
        if (event.type === 'casino.challenge' && event.status === 'resolved') {
          expectedMicro += casino.challenges.find(event.challengeId)?.houseCutMicro ?? 0n;
          return compare(event.atMs, () => jsonText(event), `challenge ${event.challengeId}`);
        }
        return null;
      },
      onHour: (nowMs) => holds(nowMs, 'hourly'),
      atEnd: (endMs) => holds(endMs, 'end of run'),
    };
  },
};

/** Each pending challenge and running tournament holds its stake or pool, and nothing else does. */
function stakesHeld(platform: Platform, atMs: number, when: string): Violation | null {
  const { ledger, casino } = platform;
  for (const challenge of casino.challenges.all()) {
    const heldMicro = ledger.balance(challengeAccount(challenge.id));
    const dueMicro = challenge.status === 'pending' ? challenge.amountMicro : 0n;
    if (heldMicro !== dueMicro)
      return {
        atMs,
        event: jsonText({ audit: when, challenge }),
        message: `challenge ${challenge.id} (${challenge.status}) holds ${formatDecimal(heldMicro)}, not ${formatDecimal(dueMicro)}`,
      };
  }
  for (const tournament of casino.tournaments.all()) {
    const heldMicro = ledger.balance(tournamentAccount(tournament.id));
    const dueMicro = tournament.status === 'completed' ? 0n : tournament.prizePoolMicro;
    if (heldMicro !== dueMicro)
      return {
        atMs,
        event: jsonText({ audit: when, tournament }),
        message: `tournament ${tournament.id} (${tournament.status}) holds ${formatDecimal(heldMicro)}, not ${formatDecimal(dueMicro)}`,
      };
  }
  return null;
}

/** The challenge and tournament holds, then each crash round and video-poker hold account against its records. */
function heldAsRecorded(platform: Platform, atMs: number, when: string): Violation | null {
  const { ledger, casino } = platform;
  const stakes = stakesHeld(platform, atMs, when);
  if (stakes !== null) return stakes;
  const roundHolds = new Map<string, Micro>();
  for (const round of casino.crashRounds.all()) {
    let dueMicro = 0n;
    for (const bet of round.bets) if (bet.settled === null) dueMicro += bet.amountMicro;
    roundHolds.set(crashRoundAccount(round.id), dueMicro);
  }
  const handHolds = new Map<string, Micro>();
  for (const [agentId, hands] of casino.state.hands) {
    let dueMicro = 0n;
    for (const hand of hands.values()) dueMicro += hand.amountMicro ?? 0n;
    handHolds.set(videoPokerHoldAccount(agentId), dueMicro);
  }
  const unexplained = (account: string, heldMicro: Micro, dueMicro: Micro): Violation => ({
    atMs,
    event: jsonText({ audit: when, account }),
    message: `${account} holds ${formatDecimal(heldMicro)}, its records say ${formatDecimal(dueMicro)}`,
  });
  for (const [account, heldMicro] of ledger.accounts()) {
    if (!account.startsWith('crash-round:') && !account.startsWith('video-poker:')) continue;
    const dueMicro = roundHolds.get(account) ?? handHolds.get(account) ?? 0n;
    if (heldMicro !== dueMicro) return unexplained(account, heldMicro, dueMicro);
  }
  for (const [account, dueMicro] of [...roundHolds, ...handHolds]) {
    const heldMicro = ledger.balance(account);
    if (heldMicro !== dueMicro) return unexplained(account, heldMicro, dueMicro);
  }
  return null;
}
