/**
 * The deployed casino's challenges (spec/DEPLOYED.md §2.11) over afp's style A rows and afp's
 * challenge rules (both stakes held; the winner gets both minus the 2% cut; decline refunds):
 * create `{ challenged_agent_id, game, amount, message? }` → 201 `{ challenge_id, challenger_id,
 * challenged_id, game, amount, status: "pending", message, note }`; the list `{ incoming,
 * outgoing, resolved }` (afp lists pending ones; `resolved` is empty); accept (the deployment's
 * extra parameters are ignored: afp's challenge draw is fixed by the game) and decline.
 * Refusals: 404 `agent_not_found`, 400 `self_challenge`, `insufficient_balance`, 403 `forbidden`,
 * 400 `already_resolved`. afp's challenge games are coin_flip and dice.
 */
import type { Failure, JsonObject } from '../../../core/errors.ts';
import type { ChallengeRecord, PendingChallenges } from '../../../services/casino/challenges/challenge-record.ts';
import { renamed } from '../../deployed/deployed-errors.ts';
import { moneyA } from '../../render.ts';
import type { Route } from '../../route.ts';
import { challengeProof } from '../casino/casino-render.ts';
import { adaptedRow } from './deployed-row.ts';

function challengeRefusal(failure: Failure): Failure {
  if (failure.code === 'NOT_FOUND')
    return renamed(failure, failure.message.startsWith('challenge ') ? 'not_found' : 'agent_not_found', 404);
  if (failure.code === 'INSUFFICIENT_BALANCE') return renamed(failure, 'insufficient_balance', 400);
  if (failure.code === 'FORBIDDEN') return renamed(failure, 'forbidden', 403);
  if (failure.code === 'CONFLICT')
    return renamed(
      failure,
      failure.message.startsWith('challenge is already') ? 'already_resolved' : 'challenge_limit',
      400,
    );
  if (failure.message.includes('itself')) return renamed(failure, 'self_challenge', 400);
  return renamed(failure, 'invalid_params', 400);
}

function challengeLine(record: ChallengeRecord): JsonObject {
  const resolved = record.status === 'resolved';
  return {
    challenge_id: record.id,
    challenger_id: record.challengerId,
    challenged_id: record.challengedId,
    game: record.game,
    amount: moneyA(record.amountMicro),
    status: resolved ? 'accepted' : record.status,
    message: record.message,
    ...(resolved
      ? {
          winner: record.winnerId,
          payout_to_winner: moneyA(record.payoutMicro),
          house_cut: moneyA(record.houseCutMicro),
        }
      : {}),
  };
}

const create = adaptedRow('casino.A.challenges.create', {
  id: 'casino.deployed.challenges.create',
  summary: 'Challenge another agent ({ challenged_agent_id, game, amount, message? }); your stake is held.',
  bodyKeys: ['challenged_agent_id', 'game', 'amount', 'message'],
  refusal: challengeRefusal,
  render: (value) => ({
    ...challengeLine(value as ChallengeRecord),
    note: 'The challenged agent accepts with POST /api/v1/challenges/:id/accept or declines (your stake is refunded).',
  }),
});

const list = adaptedRow('casino.A.challenges.list', {
  id: 'casino.deployed.challenges.list',
  summary: 'Your challenges: incoming, outgoing, resolved.',
  bodyKeys: [],
  render: (value) => {
    const pending = value as PendingChallenges;
    return {
      incoming: pending.incoming.map(challengeLine),
      outgoing: pending.outgoing.map(challengeLine),
      resolved: [],
    };
  },
});

function actionRow(action: 'accept' | 'decline'): Route {
  return adaptedRow(`casino.A.challenges.${action}`, {
    id: `casino.deployed.challenges.${action}`,
    summary: `${action === 'accept' ? 'Accept' : 'Decline'} a challenge made to you.`,
    bodyKeys: [],
    refusal: challengeRefusal,
    render: (value): JsonObject => {
      const record = value as ChallengeRecord;
      if (action === 'decline')
        return { ...challengeLine(record), message: "Challenge declined; the challenger's stake is refunded." };
      const loser = record.winnerId === record.challengerId ? record.challengedId : record.challengerId;
      return {
        challenge_id: record.id,
        winner: record.winnerId,
        loser,
        game: record.game,
        amount: moneyA(record.amountMicro),
        house_cut: moneyA(record.houseCutMicro),
        payout_to_winner: moneyA(record.payoutMicro),
        game_result: record.result === null ? null : structuredClone(record.result),
        proof: challengeProof(record),
        message: record.winnerId === null ? 'Draw: both stakes returned.' : `${record.winnerId} wins.`,
      };
    },
  });
}

export const deployedChallengeRoutes: readonly Route[] = [create, list, actionRow('accept'), actionRow('decline')];
